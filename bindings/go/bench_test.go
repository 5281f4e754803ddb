package robotstxt_test

// Benchmarks: this binding side by side with github.com/temoto/robotstxt and
// github.com/jimsmart/grobotstxt, in one process, on the shared workload
// (../shared/bench/README.md):
//
//   - BenchmarkParse: the first capped_bytes of all 19,999 corpus files
//     (parse_files.tsv) per op; MB/s is parse throughput.
//   - BenchmarkCheck: 2,000 sample files x 20 URLs (check_urls.tsv) x 2
//     agents per op, one call per URL, files parsed beforehand (a crawler
//     keeps the rules per host); ns/check is reported.
//
// Each library gets its natural input: this binding the absolute URL (the
// core cuts it), temoto the path and query (cut beforehand, untimed), and
// grobotstxt, which has no parse-once API, the body, agent and URL of every
// check (so its checks include parsing). Set ROBOTSTXT_SHARED to the shared
// directory (default ../../../shared). After a -bench run, TestMain prints
// the ratios.

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jimsmart/grobotstxt"
	temoto "github.com/temoto/robotstxt"

	"robotstxt.dev/go/robotstxt"
)

var agents = []string{"ExampleBot", "Googlebot"}

type sampleFile struct {
	body  []byte
	text  string
	urls  []string
	paths []string // path and query, for temoto
}

type workload struct {
	err        error
	parse      [][]byte
	parseText  []string
	parseBytes int64
	sample     []sampleFile
	checks     int // per op: URLs x agents
}

var (
	loadOnce sync.Once
	loaded   workload
)

func sharedDir() string {
	if dir := os.Getenv("ROBOTSTXT_SHARED"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", "shared")
}

func readTSV(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var header []string
	var rows []map[string]string
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = fields
			continue
		}
		row := map[string]string{}
		for i, h := range header {
			if i < len(fields) {
				row[h] = fields[i]
			}
		}
		rows = append(rows, row)
	}
	return rows, sc.Err()
}

func load() workload {
	loadOnce.Do(func() {
		dir := sharedDir()
		rows, err := readTSV(filepath.Join(dir, "bench", "parse_files.tsv"))
		if err != nil {
			loaded.err = err
			return
		}
		for _, r := range rows {
			body, err := os.ReadFile(filepath.Join(dir, "corpus", r["file"]))
			if err != nil {
				loaded.err = err
				return
			}
			n, _ := strconv.Atoi(r["capped_bytes"])
			body = body[:min(n, len(body))]
			loaded.parse = append(loaded.parse, body)
			loaded.parseText = append(loaded.parseText, string(body))
			loaded.parseBytes += int64(len(body))
		}
		rows, err = readTSV(filepath.Join(dir, "bench", "check_urls.tsv"))
		if err != nil {
			loaded.err = err
			return
		}
		index := map[string]int{}
		for _, r := range rows {
			i, ok := index[r["file"]]
			if !ok {
				body, err := os.ReadFile(filepath.Join(dir, "corpus", r["file"]))
				if err != nil {
					loaded.err = err
					return
				}
				body = body[:min(len(body), robotstxt.DefaultParseLimit)]
				i = len(loaded.sample)
				index[r["file"]] = i
				loaded.sample = append(loaded.sample, sampleFile{body: body, text: string(body)})
			}
			s := &loaded.sample[i]
			s.urls = append(s.urls, r["url"])
			path := r["url"]
			if u, err := url.Parse(r["url"]); err == nil {
				path = u.RequestURI()
			}
			s.paths = append(s.paths, path)
			loaded.checks += len(agents)
		}
	})
	return loaded
}

func workloadFor(b *testing.B) workload {
	w := load()
	if w.err != nil {
		b.Skipf("the shared benchmark workload is missing (set ROBOTSTXT_SHARED): %v", w.err)
	}
	return w
}

// results holds the last (longest) run of each benchmark, for the ratios.
var (
	resultsMu sync.Mutex
	results   = map[string]float64{} // "parse/robotstxt" -> ns per op
)

func record(b *testing.B) {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	results[b.Name()] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
}

var sink int

type nopHandler struct{}

func (nopHandler) HandleRobotsStart()                      {}
func (nopHandler) HandleRobotsEnd()                        {}
func (nopHandler) HandleUserAgent(int, string)             {}
func (nopHandler) HandleAllow(int, string)                 {}
func (nopHandler) HandleDisallow(int, string)              {}
func (nopHandler) HandleSitemap(int, string)               {}
func (nopHandler) HandleUnknownAction(int, string, string) {}

func BenchmarkParse(b *testing.B) {
	w := workloadFor(b)
	b.Run("robotstxt", func(b *testing.B) {
		b.SetBytes(w.parseBytes)
		for b.Loop() {
			for _, body := range w.parse {
				r, _ := robotstxt.Parse(body)
				r.Close()
			}
		}
		record(b)
	})
	b.Run("temoto", func(b *testing.B) {
		b.SetBytes(w.parseBytes)
		for b.Loop() {
			for _, body := range w.parse {
				r, _ := temoto.FromBytes(body)
				if r != nil {
					sink++
				}
			}
		}
		record(b)
	})
	b.Run("grobotstxt", func(b *testing.B) {
		// The parser alone, with callbacks that keep nothing: a lower bound
		// of its cost (its matcher parses again for every check).
		b.SetBytes(w.parseBytes)
		for b.Loop() {
			for _, text := range w.parseText {
				grobotstxt.Parse(text, nopHandler{})
			}
		}
		record(b)
	})
}

func BenchmarkCheck(b *testing.B) {
	w := workloadFor(b)
	b.Run("robotstxt", func(b *testing.B) {
		type file struct {
			urls  []string
			rules []*robotstxt.Rules
		}
		files := make([]file, len(w.sample))
		for i, s := range w.sample {
			robots, err := robotstxt.Parse(s.body)
			if err != nil {
				b.Fatal(err)
			}
			files[i].urls = s.urls
			for _, a := range agents {
				rules, err := robots.RulesFor(a)
				if err != nil {
					b.Fatal(err)
				}
				files[i].rules = append(files[i].rules, rules)
			}
			robots.Close()
		}
		b.ResetTimer()
		for b.Loop() {
			n := 0
			for _, f := range files {
				for _, rules := range f.rules {
					for _, u := range f.urls {
						if rules.Allowed(u) {
							n++
						}
					}
				}
			}
			sink += n
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(w.checks), "ns/check")
		record(b)
	})
	b.Run("temoto", func(b *testing.B) {
		type file struct {
			paths  []string
			groups []*temoto.Group
		}
		files := make([]file, len(w.sample))
		for i, s := range w.sample {
			r, err := temoto.FromBytes(s.body)
			files[i].paths = s.paths
			for _, a := range agents {
				var g *temoto.Group
				if err == nil {
					g = r.FindGroup(a)
				}
				files[i].groups = append(files[i].groups, g)
			}
		}
		b.ResetTimer()
		for b.Loop() {
			n := 0
			for _, f := range files {
				for _, g := range f.groups {
					for _, p := range f.paths {
						if g == nil || g.Test(p) {
							n++
						}
					}
				}
			}
			sink += n
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(w.checks), "ns/check")
		record(b)
	})
	b.Run("grobotstxt", func(b *testing.B) {
		for b.Loop() {
			n := 0
			for _, s := range w.sample {
				for _, a := range agents {
					for _, u := range s.urls {
						if grobotstxt.AgentAllowed(s.text, a, u) {
							n++
						}
					}
				}
			}
			sink += n
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(w.checks), "ns/check")
		record(b)
	})
}

// BenchmarkAllowed is one question to the small practice-shop rules: the
// cost of crossing into the core and back.
func BenchmarkAllowed(b *testing.B) {
	robots, _ := robotstxt.Parse([]byte(shopBody))
	rules, _ := robots.RulesFor("NimbuBot")
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			if !rules.Allowed("https://bazaar.nimbu.test/prices/today") {
				b.Fatal("disallowed")
			}
		}
	})
	b.Run("parallel", func(b *testing.B) { // one Rules shared by every P
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if !rules.Allowed("https://bazaar.nimbu.test/prices/today") {
					b.Error("disallowed")
				}
			}
		})
	})
	b.Run("decide", func(b *testing.B) {
		for b.Loop() {
			if rules.Decide("https://bazaar.nimbu.test/prices/today").Line != 10 {
				b.Fatal("wrong line")
			}
		}
	})
}

// printRatios prints, after a -bench run, how this binding compares.
func printRatios() {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	if len(results) == 0 {
		return
	}
	w := load()
	fmt.Printf("\nrobotstxt %s (Go binding over the Rust core) vs temoto/robotstxt and jimsmart/grobotstxt\n", robotstxt.Version())
	fmt.Printf("shared: %s; %d parse files (%.1f MB capped), %d checks per op\n",
		sharedDir(), len(w.parse), float64(w.parseBytes)/1e6, w.checks)
	var names []string
	for name := range results {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ns := results[name]
		switch {
		case strings.HasPrefix(name, "BenchmarkParse/"):
			fmt.Printf("  %-32s %8.1f MB/s  %10v per corpus\n", name, float64(w.parseBytes)/1e6/(ns/1e9), time.Duration(ns).Round(time.Microsecond))
		case strings.HasPrefix(name, "BenchmarkCheck/"):
			fmt.Printf("  %-32s %8.1f ns/check\n", name, ns/float64(w.checks))
		}
	}
	ratio := func(kind, peer string) {
		ours, okOurs := results["Benchmark"+kind+"/robotstxt"]
		theirs, okTheirs := results["Benchmark"+kind+"/"+peer]
		if okOurs && okTheirs {
			fmt.Printf("  %-6s robotstxt vs %-11s %6.1fx faster\n", strings.ToLower(kind), peer, theirs/ours)
		}
	}
	fmt.Println("ratios (time of the peer / time of robotstxt; above 1: robotstxt is faster):")
	for _, kind := range []string{"Parse", "Check"} {
		ratio(kind, "temoto")
		ratio(kind, "grobotstxt")
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	printRatios()
	os.Exit(code)
}
