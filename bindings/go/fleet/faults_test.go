package fleet_test

// The faults the fleet protocol survives (docs/fleet.md, "What the protocol
// survives"), through the package's public classes on a real Redis, with
// the scenarios and assertions of tests/fleet_protocol.rs where they apply:
// a copy that does not decode, a robots.txt slower than the lease, Redis
// emptied or restarted mid-crawl, a worker's wall clock stepping, corrupt
// pace fields, and Redis down.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-engine/robotstxt-go"
	"github.com/robotstxt-engine/robotstxt-go/fleet"
)

const faultBody = "User-agent: *\nDisallow: /private\n"

// damagedCopies are a stored copy of faultBody damaged in the ways a
// rolling upgrade or a bad write does.
func damagedCopies(t *testing.T) []struct {
	how  string
	data []byte
} {
	entry, err := robotstxt.NewEntry(robotstxt.DefaultFreshnessPolicy())
	if err != nil {
		t.Fatal(err)
	}
	defer entry.Close()
	entry.Record(time.UnixMilli(0), robotstxt.Response{Status: 200, Body: []byte(faultBody)})
	good, err := entry.Encode([]byte(faultBody))
	if err != nil {
		t.Fatal(err)
	}
	newer, flipped := slices.Clone(good), slices.Clone(good)
	newer[4]++ // the format version byte
	flipped[len(flipped)/2] ^= 0xff
	return []struct {
		how  string
		data []byte
	}{{"a newer format", newer}, {"a flipped byte", flipped}, {"cut short", good[:len(good)/2]},
		{"not a copy", []byte("garbage")}}
}

func adminClient(t *testing.T, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, DisableIdentity: true})
	t.Cleanup(func() { c.Close() })
	return c
}

// (1) A copy that does not decode, or of a newer format, is no copy: its
// reader takes the lease (a second call) and fetches over it; meanwhile
// another worker waits, or answers disallow-all; no lease is left behind.
func TestUnreadableCopyIsNoCopy(t *testing.T) {
	server := startRedis(t)
	admin := adminClient(t, server.addr())
	ctx := context.Background()
	const url = "https://shop.test/page"
	for _, damaged := range damagedCopies(t) {
		t.Run(damaged.how, func(t *testing.T) {
			prefix := testPrefix()
			worker := func() (*fleet.Cache, *countingClient) {
				client := newClient(t, server.addr())
				return newCache(t, client, fetchNothing(t), func(o *fleet.CacheOptions) { o.Prefix = prefix }), client
			}
			writer, _ := worker()
			first, err := writer.Lookup(ctx, url, "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
			if err != nil || first.Kind != robotstxt.LookupFetch {
				t.Fatalf("the writer: %+v, %v", first, err)
			}
			if _, err := first.Lease.Store(ctx, time.Time{}, robotstxt.Response{Status: 200, Body: []byte(faultBody)}); err != nil {
				t.Fatal(err)
			}
			if err := admin.HSet(ctx, prefix+"copy:{https://shop.test}", "data", damaged.data).Err(); err != nil {
				t.Fatal(err)
			}

			reader, client := worker()
			runs := client.runs.Load()
			got, err := reader.Lookup(ctx, url, "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
			if err != nil || got.Kind != robotstxt.LookupFetch {
				t.Fatalf("a worker meeting the copy: %+v, %v; want the fetch", got, err)
			}
			if n := client.runs.Load() - runs; n != 2 {
				t.Errorf("%d calls, want 2: the second takes the lease", n)
			}
			if s := reader.Stats(); s.Unreadable != 1 || s.Fetches != 1 {
				t.Errorf("the reader's stats %+v: want 1 unreadable copy, 1 fetch", s)
			}

			third, _ := worker()
			if wait, err := third.Lookup(ctx, url, "ExampleBot", time.Time{}, robotstxt.WaitForFetch); err != nil ||
				wait.Kind != robotstxt.LookupWait {
				t.Errorf("while the reader fetches: %+v, %v; want a wait", wait, err)
			}
			careful, _ := worker()
			ready, err := careful.Lookup(ctx, url, "ExampleBot", time.Time{}, robotstxt.DisallowWhileFetching)
			if err != nil || ready.Kind != robotstxt.LookupReady || ready.Rules.Allowed("/") || ready.RetryAt.IsZero() {
				t.Errorf("while the reader fetches, disallow-all: %+v, %v", ready, err)
			}

			if _, err := got.Lease.Store(ctx, time.Time{}, robotstxt.Response{Status: 200, Body: []byte(faultBody)}); err != nil {
				t.Fatalf("the reader's store: %v", err)
			}
			fresh, err := third.Lookup(ctx, url, "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
			if err != nil || fresh.Kind != robotstxt.LookupReady || fresh.Stale || fresh.Rules.Allowed("/private") ||
				!fresh.Rules.Allowed("/public") {
				t.Errorf("once stored over: %+v, %v", fresh, err)
			}
			if n, err := admin.Exists(ctx, prefix+"lease:{https://shop.test}").Result(); n != 0 || err != nil {
				t.Errorf("a lease is left behind: %d, %v", n, err)
			}
		})
	}
}

// (1) The example worker meets an unreadable copy, fetches over it, crawls
// and ends as it should (exit 0), where it stopped with an error before.
func TestFleetWorkerFetchesOverAnUnreadableCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds examples/go/fleetworker")
	}
	t.Parallel()
	server := startRedis(t)
	admin := adminClient(t, server.addr())
	ctx := context.Background()
	var robotsFetches atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robotsFetches.Add(1)
			fmt.Fprint(w, faultBody)
			return
		}
		fmt.Fprint(w, "a page")
	}))
	defer site.Close()
	prefix := testPrefix()
	writer := newCache(t, newClient(t, server.addr()), robotstxt.FetchHTTP(site.Client(), "ExampleBot/1.0"),
		func(o *fleet.CacheOptions) { o.Prefix = prefix })
	cacheRules(t, writer, site.URL+"/")
	newer := damagedCopies(t)[0].data
	origin, _ := robotstxt.RobotsOrigin(site.URL)
	queue := prefix + "queue"
	if err := admin.HSet(ctx, prefix+"copy:{"+origin+"}", "data", newer).Err(); err != nil {
		t.Fatal(err)
	}
	if err := admin.RPush(ctx, queue, site.URL+"/page", site.URL+"/private/x").Err(); err != nil {
		t.Fatal(err)
	}
	if err := admin.Set(ctx, queue+":done", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "fleetworker")
	build := exec.Command("go", "build", "-o", bin, "./fleetworker")
	build.Dir = filepath.Join("..", "..", "..", "examples", "go")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./fleetworker: %v\n%s", err, out)
	}
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	port := strings.TrimPrefix(server.addr(), "127.0.0.1:")
	cmd := exec.CommandContext(wctx, bin, "--redis-port", port, "--prefix", prefix, "--queue", queue,
		"--id", "w1", "--deadline-ms", "30000", "--floor-ms", "10")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			stderr = exit.Stderr
		}
		t.Fatalf("the worker stopped: %v\n%s%s", err, out, stderr)
	}
	lines := bufio.NewScanner(strings.NewReader(string(out)))
	var events []string
	for lines.Scan() {
		events = append(events, lines.Text())
	}
	want := []string{`{"id":"w1","event":"fetch","url":"` + site.URL + `/page","status":200}`,
		`{"id":"w1","event":"skip","url":"` + site.URL + `/private/x"}`}
	if !slices.Equal(events, want) {
		t.Errorf("the worker said\n%s\nwant\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
	if n := robotsFetches.Load(); n != 2 {
		t.Errorf("robots.txt fetched %d times, want 2 (the first copy, then over the unreadable one)", n)
	}
}

// (2) A robots.txt that answers after 3 s, under a 1 s lease, asked by 3
// workers for 12 s: one fetch for the fleet (the holder renews its lease),
// and every answer is the file's.
func TestSlowRobotsTxtIsOneFetch(t *testing.T) {
	t.Parallel()
	server := startRedis(t)
	var robotsFetches atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robotsFetches.Add(1)
			time.Sleep(3 * time.Second)
			fmt.Fprint(w, faultBody)
		}
	}))
	defer site.Close()
	prefix := testPrefix()
	var wg sync.WaitGroup
	end := time.Now().Add(12 * time.Second)
	var answered atomic.Int64
	for i := 0; i < 3; i++ {
		cache := newCache(t, newClient(t, server.addr()), robotstxt.FetchHTTP(site.Client(), "ExampleBot/1.0"),
			func(o *fleet.CacheOptions) { o.Prefix, o.Lease = prefix, time.Second })
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				rules, err := cache.Rules(context.Background(), site.URL+"/page", "ExampleBot")
				if err != nil {
					t.Error(err)
					return
				}
				if !rules.Allowed("/page") || rules.Allowed("/private") {
					_, blanket := rules.Blanket()
					t.Errorf("an answer that is not the file's (blanket %v)", blanket)
				}
				rules.Close()
				answered.Add(1)
				time.Sleep(50 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	if n := robotsFetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times in 12 s by 3 workers, want 1 (a 3 s answer under a 1 s lease)", n)
	}
	if answered.Load() < 3 {
		t.Errorf("%d answers", answered.Load())
	}
}

// (2) Step by step, as tests/fleet_protocol.rs drives it: a lease renewed
// every third of it stays the holder's past its length, and others wait;
// one not renewed runs out, and its late store is refused.
func TestLeaseRenewedStaysOneFetch(t *testing.T) {
	t.Parallel()
	server := startRedis(t)
	ctx := context.Background()
	prefix := testPrefix()
	edit := func(o *fleet.CacheOptions) { o.Prefix, o.Lease = prefix, 300*time.Millisecond }
	holder := newCache(t, newClient(t, server.addr()), fetchNothing(t), edit)
	other := newCache(t, newClient(t, server.addr()), fetchNothing(t), edit)
	const url = "https://slow.test/"
	got, err := holder.Lookup(ctx, url, "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
	if err != nil || got.Kind != robotstxt.LookupFetch {
		t.Fatalf("%+v, %v", got, err)
	}
	for i := 0; i < 10; i++ { // 1 s: over three leases
		time.Sleep(100 * time.Millisecond)
		if held, err := got.Lease.Renew(ctx); !held || err != nil {
			t.Fatalf("renewal %d: %v, %v", i, held, err)
		}
		if l, err := other.Lookup(ctx, url, "ExampleBot", time.Time{}, robotstxt.WaitForFetch); err != nil ||
			l.Kind != robotstxt.LookupWait {
			t.Fatalf("another worker while the lease is renewed: %+v, %v; want a wait", l, err)
		}
	}
	if _, err := got.Lease.Store(ctx, time.Time{}, robotstxt.Response{Status: 200, Body: []byte(faultBody)}); err != nil {
		t.Fatalf("stored under the renewed lease: %v", err)
	}
	if _, err := got.Lease.Renew(ctx); !errors.Is(err, robotstxt.ErrInvalidLease) {
		t.Errorf("a stored lease renewed: %v", err)
	}

	late, err := holder.Lookup(ctx, "https://late.test/", "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
	if err != nil || late.Kind != robotstxt.LookupFetch {
		t.Fatalf("%+v, %v", late, err)
	}
	time.Sleep(350 * time.Millisecond)
	if held, err := late.Lease.Renew(ctx); held || err != nil {
		t.Errorf("a lease that ran out renewed: %v, %v", held, err)
	}
	next, err := other.Lookup(ctx, "https://late.test/", "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
	if err != nil || next.Kind != robotstxt.LookupFetch {
		t.Fatalf("after the lease ran out: %+v, %v; want the fetch", next, err)
	}
	if _, err := late.Lease.Store(ctx, time.Time{}, robotstxt.Response{Status: 404}); !errors.Is(err, robotstxt.ErrInvalidLease) {
		t.Errorf("a late store: %v, want refused", err)
	}
	if _, err := next.Lease.Store(ctx, time.Time{}, robotstxt.Response{Status: 404}); err != nil {
		t.Errorf("the next holder's store: %v", err)
	}
}

// site is an HTTP server that stamps each request's arrival by the path's
// first part (a host of the pacer's).
type site struct {
	*httptest.Server
	mu       sync.Mutex
	arrivals map[string][]time.Time
}

func newSite(t *testing.T) *site {
	s := &site{arrivals: map[string][]time.Time{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		s.mu.Lock()
		s.arrivals[host] = append(s.arrivals[host], time.Now())
		s.mu.Unlock()
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) of(host string) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.arrivals[host])
}

// (3) Redis emptied mid-crawl (FLUSHALL), or killed and restarted empty:
// no request to a switched-off host, none inside a Retry-After any worker
// knew of, no two requests to a host closer than its crawl delay.
func TestRedisEmptiedMidCrawlLosesNoPace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var both sync.WaitGroup
	for _, how := range []string{"FLUSHALL", "killed and restarted"} {
		server := startRedis(t)
		site := newSite(t)
		prefix := testPrefix()
		pacers := make([]*fleet.Pacer, 3)
		for i := range pacers {
			pacers[i] = newPacer(t, newClient(t, server.addr()), func(o *fleet.PacerOptions) {
				o.Prefix, o.Floor = prefix, 100*time.Millisecond
			})
		}
		a, b := pacers[0], pacers[1]
		if err := a.SetDelay(ctx, "delay.test", 400*time.Millisecond, robotstxt.RequestRate{}); err != nil {
			t.Fatal(err)
		}
		if err := a.SetEnabled(ctx, "off.test", false); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Wait(ctx, "busy.test"); err != nil {
			t.Fatal(err)
		}
		retryEnd := time.Now().Add(3 * time.Second)
		if err := b.Record(ctx, "busy.test", 429, 3*time.Second); err != nil {
			t.Fatal(err)
		}
		both.Add(1)
		go func() { // the two at once: each crawls for seconds
			defer both.Done()
			end := time.Now().Add(4 * time.Second)
			var wg sync.WaitGroup
			for _, p := range pacers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					crawl(t, p, site, end)
				}()
			}
			time.Sleep(time.Second)
			if how == "FLUSHALL" {
				if err := adminClient(t, server.addr()).FlushAll(ctx).Err(); err != nil {
					t.Error(err)
				}
			} else {
				server.stop()
				startRedisOn(t, server.port) // empty, on the same port
			}
			wg.Wait()
			if n := len(site.of("off.test")); n != 0 {
				t.Errorf("%s: %d requests to the switched-off host", how, n)
			}
			if busy := site.of("busy.test"); len(busy) > 0 && busy[0].Before(retryEnd) {
				t.Errorf("%s: a request to busy.test %v before its Retry-After ended", how, retryEnd.Sub(busy[0]))
			}
			delays := site.of("delay.test")
			if len(delays) < 3 {
				t.Errorf("%s: only %d requests to delay.test in 4 s", how, len(delays))
			}
			slices.SortFunc(delays, time.Time.Compare)
			for i := 1; i < len(delays); i++ {
				// Arrivals are stamped a little after the pacer's go.
				if gap := delays[i].Sub(delays[i-1]); gap < 400*time.Millisecond-50*time.Millisecond {
					t.Errorf("%s: requests to delay.test %v apart, under its 400ms crawl delay", how, gap)
				}
			}
		}()
	}
	both.Wait()
}

// crawl requests the three hosts in turn, each when p says go, until end;
// through Redis failing it tries again.
func crawl(t *testing.T, p *fleet.Pacer, site *site, end time.Time) {
	ctx := context.Background()
	for time.Now().Before(end) {
		for _, host := range []string{"delay.test", "off.test", "busy.test"} {
			wctx, cancel := context.WithDeadline(ctx, end)
			_, err := p.Wait(wctx, host)
			cancel()
			switch {
			case errors.Is(err, robotstxt.ErrHostDisabled), errors.Is(err, context.DeadlineExceeded):
				continue
			case errors.Is(err, fleet.ErrRedis):
				time.Sleep(50 * time.Millisecond)
				continue
			case err != nil:
				t.Error(err)
				return
			}
			resp, err := site.Client().Get(site.URL + "/" + host + "/page")
			status := 0
			if err == nil {
				resp.Body.Close()
				status = resp.StatusCode
			}
			_ = p.Record(ctx, host, status, 0)
		}
	}
}

// wallStepped returns the time with its wall reading moved by d and its
// monotonic reading kept: what time.Now reads after the wall clock
// stepped (NTP, a VM resumed). time.Time.Add would move both.
func wallStepped(d time.Duration) func() time.Time {
	return func() time.Time {
		now := time.Now()
		// time.Time: wall (has-monotonic bit, 33 bits of seconds since
		// 1885, 30 of nanoseconds), ext (the monotonic reading), loc.
		w := (*struct {
			wall uint64
			ext  int64
			loc  *time.Location
		})(unsafe.Pointer(&now))
		const secShift = 30
		secs := int64(w.wall<<1>>(secShift+1)) + int64(d/time.Second)
		w.wall = w.wall&(1<<63|(1<<secShift-1)) | uint64(secs)<<secShift
		return now
	}
}

// (4) A worker's wall clock steps back, then forward, by an hour: a copy
// is due by the fleet's clock all the same (after its due, the site's new
// robots.txt answers), and not before.
func TestHeldCopyIsDueByTheFleetsClock(t *testing.T) {
	t.Parallel() // the stepped clock keeps the monotonic reading: others see no step
	for _, step := range []time.Duration{-time.Hour, time.Hour} {
		stepped := wallStepped(step)()
		if d := time.Until(stepped); d < -time.Second || d > time.Second {
			t.Fatalf("the stepped clock moved the monotonic reading by %v", d)
		}
		if d := stepped.Sub(time.Now().Round(0)); d < step-time.Second || d > step+time.Second {
			t.Fatalf("the stepped clock moved the wall reading by %v, want %v", d, step)
		}
	}
	server := startRedis(t)
	var disallowAll atomic.Bool
	var robotsFetches atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		robotsFetches.Add(1)
		if disallowAll.Load() {
			fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
			return
		}
		fmt.Fprint(w, faultBody)
	}))
	defer site.Close()
	policy := robotstxt.DefaultFreshnessPolicy()
	policy.FreshFor = time.Second
	cache := newCache(t, newClient(t, server.addr()), robotstxt.FetchHTTP(site.Client(), "ExampleBot/1.0"),
		func(o *fleet.CacheOptions) { o.Prefix, o.Policy = testPrefix(), policy })
	for _, step := range []time.Duration{-time.Hour, time.Hour} {
		disallowAll.Store(false)
		time.Sleep(1100 * time.Millisecond) // the last copy is due
		if !cacheRules(t, cache, site.URL+"/page").Allowed("/page") {
			t.Fatalf("step %v: the page is disallowed before the site changed", step)
		}
		fetched := robotsFetches.Load()
		disallowAll.Store(true)
		restore := fleet.SetClock(wallStepped(step))
		if !cacheRules(t, cache, site.URL+"/page").Allowed("/page") || robotsFetches.Load() != fetched {
			t.Errorf("step %v: the copy was taken for due at once", step)
		}
		time.Sleep(1100 * time.Millisecond)
		if cacheRules(t, cache, site.URL+"/page").Allowed("/page") {
			t.Errorf("step %v: past its due, the copy still answers", step)
		}
		restore()
	}
}

// (5) Garbage in a host's pace fields: Wait returns, and never sooner than
// the pace before the damage.
func TestCorruptPaceFieldsNeverHangOrSpeedUp(t *testing.T) {
	t.Parallel()
	server := startRedis(t)
	admin := adminClient(t, server.addr())
	prefix := testPrefix()
	cases := []struct{ field, value string }{{"gen", "nan"}, {"gen", "inf"}, {"next", "-inf"}, {"nb", "nan"},
		{"delay", "-5"}, {"delay", "nan"}, {"factor", "inf"}, {"factor", "a lot"}, {"last", "-1.5"}, {"off", "maybe"}}
	// All at once: each waits out a full backoff.
	var wg sync.WaitGroup
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			host := fmt.Sprintf("h%d.test", i)
			edit := func(o *fleet.PacerOptions) {
				o.Prefix, o.Floor, o.BackoffCap = prefix, time.Second, 3*time.Second
			}
			worker := newPacer(t, newClient(t, server.addr()), edit)
			if err := worker.SetDelay(ctx, host, 2*time.Second, robotstxt.RequestRate{}); err != nil {
				t.Error(err)
				return
			}
			first, err := worker.Wait(ctx, host)
			if err == nil {
				err = worker.Record(ctx, host, 200, 0) // its in-flight place frees
			}
			if err == nil {
				err = admin.HSet(ctx, prefix+"pace:{"+host+"}", c.field, c.value).Err()
			}
			if err != nil {
				t.Errorf("%s=%s: %v", c.field, c.value, err)
				return
			}
			other := newPacer(t, newClient(t, server.addr()), edit) // knows nothing to restore from
			wctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			defer cancel()
			start, err := other.Wait(wctx, host)
			switch {
			case c.field == "off":
				if !errors.Is(err, robotstxt.ErrHostDisabled) {
					t.Errorf("a damaged switch: %v, want switched off", err)
				}
			case err != nil:
				t.Errorf("%s=%s: Wait: %v", c.field, c.value, err)
			case start.Sub(first) < 2*time.Second:
				t.Errorf("%s=%s: the next start came %v after the last, under a 2s delay", c.field, c.value,
					start.Sub(first))
			}
		}()
	}
	wg.Wait()
}

// (6) Redis down, with the client settings README.md shows (no retries
// beyond one, 400 ms timeouts): the cache answers fail-safe, and the pacer
// fails, within about a second, whether Redis refuses or never answers.
func TestRedisDownFailsSafeWithinASecond(t *testing.T) {
	refused := startRedis(t)
	refused.stop()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		var held []net.Conn // accepted, never answered
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	for name, addr := range map[string]string{"refused": refused.addr(), "silent": silent.Addr().String()} {
		t.Run(name, func(t *testing.T) {
			client := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: 1, DialerRetries: 1,
				DialTimeout: 400 * time.Millisecond, ReadTimeout: 400 * time.Millisecond,
				WriteTimeout: 400 * time.Millisecond, DisableIdentity: true})
			defer client.Close()
			cache := newCache(t, client, fetchNothing(t), nil)
			pacer := newPacer(t, client, nil)
			ctx := context.Background()
			began := time.Now()
			rules, err := cache.Rules(ctx, "https://a.test/", "ExampleBot")
			if took := time.Since(began); err != nil || took > 1500*time.Millisecond {
				t.Errorf("Rules: %v after %v", err, took)
			} else if b, ok := rules.Blanket(); !ok || b.Allowed || rules.Allowed("/") {
				t.Errorf("Rules: %+v, want nothing allowed", b)
			}
			began = time.Now()
			if _, err := pacer.Wait(ctx, "a.test"); !errors.Is(err, fleet.ErrRedis) || time.Since(began) > 1500*time.Millisecond {
				t.Errorf("Wait: %v after %v, want fleet.ErrRedis", err, time.Since(began))
			}
			if cache.Stats().RedisErrors == 0 {
				t.Error("no Redis error counted")
			}
		})
	}
}

// (6) Redis answers a store with an error (out of memory here): the store
// failed, not refused; this worker holds the copy alone, counted.
func TestStoreAnsweredWithAnErrorIsRedisFailing(t *testing.T) {
	server := startRedis(t)
	admin := adminClient(t, server.addr())
	ctx := context.Background()
	client := newClient(t, server.addr())
	var told []error
	cache := newCache(t, client, fetchNothing(t), func(o *fleet.CacheOptions) {
		o.Prefix, o.OnRedisError = testPrefix(), func(err error) { told = append(told, err) }
	})
	got, err := cache.Lookup(ctx, "https://full.test/", "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
	if err != nil || got.Kind != robotstxt.LookupFetch {
		t.Fatalf("%+v, %v", got, err)
	}
	if err := admin.ConfigSet(ctx, "maxmemory", "1").Err(); err != nil {
		t.Fatal(err)
	}
	d, err := got.Lease.Store(ctx, time.Time{}, robotstxt.Response{Status: 200, Body: []byte(faultBody)})
	var failed *fleet.RedisError
	if !errors.As(err, &failed) || failed.Step != "store" || d != robotstxt.FollowRules {
		t.Fatalf("a store Redis answered with an error: %v, %v; want a *fleet.RedisError and the disposition", d, err)
	}
	if s := cache.Stats(); s.RedisErrors != 1 || s.Entries != 1 || len(told) != 1 {
		t.Errorf("stats %+v, told of %d errors; want one Redis error, the copy held", s, len(told))
	}
	runs := client.runs.Load()
	ready, err := cache.Lookup(ctx, "https://full.test/private", "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
	if err != nil || ready.Kind != robotstxt.LookupReady || ready.Rules.Allowed("/private") || client.runs.Load() != runs {
		t.Errorf("the copy held alone: %+v, %v, %d calls", ready, err, client.runs.Load()-runs)
	}
}
