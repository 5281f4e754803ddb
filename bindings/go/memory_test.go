package robotstxt_test

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
	"github.com/robotstxt-engine/robotstxt-go/internal/cmem"
)

// rss returns the resident set size of the process, in bytes: C memory
// included, which runtime.MemStats does not see.
func rss(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("no /proc/self/statm: %v", err)
	}
	fields := strings.Fields(string(data))
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// cMemory returns a meter of the core's heap: the WebAssembly core's
// memory, or, with cgo, malloc's own count of bytes in use where it works
// (the core's allocations show up in it), else the process's RSS, which
// also counts what malloc keeps cached in its arenas.
func cMemory(t *testing.T) (string, func() int64, int64) {
	if robotstxt.CoreMemory != nil {
		// The WebAssembly core allocates in its own memory, which grows
		// to its peak use and stays there: a leak keeps it growing.
		return "WebAssembly memory", robotstxt.CoreMemory, 8 << 20
	}
	runtime.GC()
	time.Sleep(10 * time.Millisecond) // let pending cleanups run
	before := cmem.InUse()
	robots, err := robotstxt.Parse([]byte(strings.Repeat("User-agent: a\nDisallow: /x\n", 20000)))
	if err != nil {
		t.Fatal(err)
	}
	grew := cmem.InUse() - before
	robots.Close()
	if before >= 0 && grew > 100_000 {
		return "malloc in use", cmem.InUse, 8 << 20
	}
	// Under -race, malloc is the race runtime's and mallinfo2 does not see it.
	return "RSS", func() int64 { return rss(t) }, 64 << 20
}

func goHeap() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// A create/use/close loop, half of it closed explicitly and half left to
// the cleanups, stays within a fixed memory bound.
func TestCreateCloseLoopMemoryBound(t *testing.T) {
	body := []byte(strings.Repeat(shopBody, 20)) // about 8 KB
	round := func(i int) {
		robots, err := robotstxt.Parse(body)
		if err != nil {
			t.Fatal(err)
		}
		rules, err := robots.RulesForAny("NimbuBot", "OtherBot")
		if err != nil {
			t.Fatal(err)
		}
		_ = rules.Decide("/prices/history").Pattern
		_ = robots.Diagnostics()
		entry, _ := robotstxt.NewEntry(robotstxt.DefaultFreshnessPolicy())
		entry.Record(time.Unix(int64(i), 0), robotstxt.Response{Status: 200, Body: body})
		_, copy := entry.Answer(time.Unix(int64(i), 0))
		cache, _ := robotstxt.NewCache(nil, robotstxt.DefaultCacheOptions())
		l, _ := cache.Lookup("https://a.test/", "ExampleBot", time.Unix(0, 0), robotstxt.WaitForFetch)
		pacer, _ := robotstxt.NewPacer(robotstxt.DefaultPacerOptions())
		ticket, _ := pacer.Reserve("a.test", time.Unix(0, 0))
		_, _ = pacer.Confirm(ticket, time.Unix(0, 0))
		_, _ = robotstxt.ProductToken("Mozilla/5.0 (compatible; ExampleBot/2.1)")
		_, _ = robotstxt.ProductToken("Bot2/1.0")                 // an error path
		_, _ = robotstxt.Parse(body, robotstxt.WithParseLimit(1)) // an error path
		_, _ = robots.RulesFor("not a token")
		if i%2 == 0 {
			rules.Close()
			robots.Close()
			entry.Close()
			copy.Close()
			cache.Close()
			l.Lease.Close() // frees the lease after its cache, too
			ticket.Close()
			pacer.Close()
		} // else: the cleanups free them
	}
	name, meter, bound := cMemory(t)
	const warmup, rounds = 2000, 20000
	for i := range warmup {
		round(i)
	}
	runtime.GC()
	runtime.GC()
	time.Sleep(10 * time.Millisecond) // cleanups run in their own goroutine
	runtime.GC()
	before, heapBefore := meter(), goHeap()
	for i := range rounds {
		round(i)
		if i%1000 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	runtime.GC()
	time.Sleep(10 * time.Millisecond) // cleanups run in their own goroutine
	runtime.GC()
	after, heapAfter := meter(), goHeap()
	growth := after - before
	t.Logf("%s: %d KiB -> %d KiB over %d rounds (%d B per round); Go heap %d KiB -> %d KiB",
		name, before>>10, after>>10, rounds, growth/rounds, heapBefore>>10, heapAfter>>10)
	// A leak of the parsed file alone would be about 20,000 x 8 KB = 160 MB.
	if growth > bound {
		t.Errorf("%s grew by %d KiB over %d rounds (bound %d KiB)", name, growth>>10, rounds, bound>>10)
	}
	if heapAfter-heapBefore > 16<<20 {
		t.Errorf("the Go heap grew by %d KiB over %d rounds", (heapAfter-heapBefore)>>10, rounds)
	}
}
