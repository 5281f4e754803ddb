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
// the ratios (medians over -count runs), and with ROBOTSTXT_BENCH_MARKDOWN
// set to a file name also writes them there as a Markdown section of
// BENCHMARKS.md (`make bench`).

import (
	"bufio"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jimsmart/grobotstxt"
	temoto "github.com/temoto/robotstxt"

	"github.com/robotstxt-engine/robotstxt-go"
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
		// A skip would pass silently: the figures need the full data, not
		// the committed sample the tests fall back to.
		b.Fatalf("the benchmarks need the full shared workload (ROBOTSTXT_SHARED, default ../shared): %v", w.err)
	}
	return w
}

// results holds the final run of each benchmark, one per -count, for the
// ratios.
var (
	resultsMu sync.Mutex
	results   = map[string][]float64{} // "BenchmarkParse/robotstxt" -> ns per op, per run
)

// finalRun tells whether this call of a benchmark function is the one whose
// figure go test reports: the ramp-up calls of a benchmark without b.Loop
// (RunParallel) end before -benchtime (or with another N than its "Nx").
func finalRun(b *testing.B) bool {
	f := flag.Lookup("test.benchtime")
	if f == nil {
		return true
	}
	v := f.Value.String()
	if n, ok := strings.CutSuffix(v, "x"); ok {
		want, err := strconv.Atoi(n)
		return err != nil || b.N == want
	}
	d, err := time.ParseDuration(v)
	return err != nil || b.Elapsed() >= d
}

func record(b *testing.B) {
	if !finalRun(b) {
		return
	}
	resultsMu.Lock()
	defer resultsMu.Unlock()
	results[b.Name()] = append(results[b.Name()], float64(b.Elapsed().Nanoseconds())/float64(b.N))
}

// stat gives the median of a benchmark's runs (the upper middle, as in
// benches/compare.rs), its minimum and maximum, and whether it ran.
func stat(name string) (median, lo, hi float64, ok bool) {
	runs := append([]float64(nil), results[name]...)
	if len(runs) == 0 {
		return 0, 0, 0, false
	}
	sort.Float64s(runs)
	return runs[len(runs)/2], runs[0], runs[len(runs)-1], true
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
		record(b)
	})
	b.Run("parallel", func(b *testing.B) { // one Rules shared by every P
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if !rules.Allowed("https://bazaar.nimbu.test/prices/today") {
					b.Error("disallowed")
				}
			}
		})
		record(b)
	})
	b.Run("decide", func(b *testing.B) {
		for b.Loop() {
			if rules.Decide("https://bazaar.nimbu.test/prices/today").Line != 10 {
				b.Fatal("wrong line")
			}
		}
		record(b)
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
		ns, _, _, _ := stat(name)
		switch {
		case strings.HasPrefix(name, "BenchmarkParse/"):
			fmt.Printf("  %-32s %8.1f MB/s  %10v per corpus\n", name, float64(w.parseBytes)/1e6/(ns/1e9), time.Duration(ns).Round(time.Microsecond))
		case strings.HasPrefix(name, "BenchmarkCheck/"):
			fmt.Printf("  %-32s %8.1f ns/check\n", name, ns/float64(w.checks))
		}
	}
	ratio := func(kind, peer string) {
		ours, _, _, okOurs := stat("Benchmark" + kind + "/robotstxt")
		theirs, _, _, okTheirs := stat("Benchmark" + kind + "/" + peer)
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

// moduleVersion is the version of a dependency of this test binary, from
// its build info or else from go.mod (go test runs in the package directory).
func moduleVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == path {
				return dep.Version
			}
		}
	}
	if mod, err := os.ReadFile("go.mod"); err == nil {
		for _, line := range strings.Split(string(mod), "\n") {
			if fields := strings.Fields(line); len(fields) >= 2 && fields[0] == path {
				return fields[1]
			}
		}
	}
	return "?"
}

// fmtNs formats a time as benches/compare.rs does: ns, µs or ms.
func fmtNs(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.0f ns", ns)
	}
}

// fmtCount writes n with thousands separators.
func fmtCount[T int | int64](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// writeMarkdown writes the figures of a -bench run as a Markdown section of
// BENCHMARKS.md to the file named by ROBOTSTXT_BENCH_MARKDOWN.
func writeMarkdown(path string) error {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	w := load()
	runs := 0
	for _, r := range results {
		runs = max(runs, len(r))
	}
	temotoName := "temoto/robotstxt " + moduleVersion("github.com/temoto/robotstxt")
	grobotName := "jimsmart/grobotstxt " + moduleVersion("github.com/jimsmart/grobotstxt")
	peers := []struct{ key, name string }{{"temoto", temotoName}, {"grobotstxt", grobotName}}
	var md strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&md, format, args...) }
	plural := "s"
	if runs == 1 {
		plural = ""
	}
	p("## Go: the binding against temoto/robotstxt and jimsmart/grobotstxt\n\n")
	p("robotstxt %s through its cgo binding (%s, GOMAXPROCS %d) against %s and %s, in one process on the "+
		"shared workload: parse the first `capped_bytes` of all %s corpus files (%s bytes); check %s files × 20 URLs "+
		"× %d agents (%s), %s checks per op, rules parsed and selected beforehand. Each library gets its natural "+
		"input: robotstxt the absolute URL, temoto the path and query (cut beforehand), grobotstxt, which has no "+
		"parse-once API, the body, agent and URL of every check (its checks include parsing). Each benchmark ran "+
		"%d time%s (`go test -count`, one library after the other); figures are the median of the runs (min–max), "+
		"ratios the median time of the peer ÷ that of robotstxt (above 1: robotstxt is faster). Command: "+
		"`go test -run '^$' -bench . -benchmem` in bindings/go (`make go-bench`).\n",
		robotstxt.Version(), runtime.Version(), runtime.GOMAXPROCS(0), temotoName, grobotName,
		fmtCount(len(w.parse)), fmtCount(w.parseBytes), fmtCount(len(w.sample)), len(agents), strings.Join(agents, ", "),
		fmtCount(w.checks), runs, plural)
	// spread is " (min–max)" over several runs.
	spread := func(lo, hi string) string {
		if runs < 2 {
			return ""
		}
		return " (" + lo + "–" + hi + ")"
	}
	table := func(title, unit, kind string, value func(ns float64) float64, format, bare func(float64) string) {
		if _, _, _, ok := stat("Benchmark" + kind + "/robotstxt"); !ok {
			return
		}
		p("\n### %s\n\n| library | %s |", title, unit)
		for _, peer := range peers {
			p(" vs %s |", peer.name)
		}
		p("\n|---|---:|---:|---:|\n")
		ours, _, _, _ := stat("Benchmark" + kind + "/robotstxt")
		for _, lib := range []struct{ key, name string }{{"robotstxt", "robotstxt"}, peers[0], peers[1]} {
			m, lo, hi, ok := stat("Benchmark" + kind + "/" + lib.key)
			if !ok {
				continue
			}
			a, b, c := value(m), value(lo), value(hi)
			b, c = min(b, c), max(b, c)
			p("| %s | %s%s |", lib.name, format(a), spread(bare(b), bare(c)))
			for _, peer := range peers {
				theirs, _, _, okTheirs := stat("Benchmark" + kind + "/" + peer.key)
				if lib.key == "robotstxt" && okTheirs {
					p(" %.1f× |", theirs/ours)
				} else {
					p(" |")
				}
			}
			p("\n")
		}
	}
	table("Parse throughput over the corpus", "MB/s", "Parse",
		func(ns float64) float64 { return float64(w.parseBytes) / 1e6 / (ns / 1e9) },
		func(x float64) string { return fmt.Sprintf("%.1f MB/s", x) },
		func(x float64) string { return fmt.Sprintf("%.1f", x) })
	if _, _, _, ok := stat("BenchmarkParse/grobotstxt"); ok {
		p("\ngrobotstxt's figure is its parser alone, with callbacks that keep nothing: a lower bound (its matcher parses again for every check).\n")
	}
	table(fmt.Sprintf("Checks over the whole workload (%s per op, mean per check)", fmtCount(w.checks)), "time", "Check",
		func(ns float64) float64 { return ns / float64(w.checks) }, fmtNs, fmtNs)
	if _, _, _, ok := stat("BenchmarkAllowed/serial"); !ok {
		return os.WriteFile(path, []byte(md.String()), 0o644)
	}
	p("\n### One question to small rules\n\n")
	p("The practice shop, NimbuBot, `https://bazaar.nimbu.test/prices/today`: the question the C section asks " +
		"through `robotstxt_rules_can_fetch`; the difference is what cgo and the Go wrapper add.\n\n")
	p("| call | time per call |\n|---|---:|\n")
	for _, c := range []struct{ key, name string }{
		{"serial", "`Rules.Allowed`"},
		{"parallel", fmt.Sprintf("`Rules.Allowed`, %d goroutines sharing one `Rules` (wall time ÷ calls)", runtime.GOMAXPROCS(0))},
		{"decide", "`Rules.Decide`"},
	} {
		if m, lo, hi, ok := stat("BenchmarkAllowed/" + c.key); ok {
			p("| %s | %s%s |\n", c.name, fmtNs(m), spread(fmtNs(lo), fmtNs(hi)))
		}
	}
	return os.WriteFile(path, []byte(md.String()), 0o644)
}

func TestMain(m *testing.M) {
	code := m.Run()
	printRatios()
	if path := os.Getenv("ROBOTSTXT_BENCH_MARKDOWN"); path != "" && len(results) > 0 {
		if err := writeMarkdown(path); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		} else {
			fmt.Fprintln(os.Stderr, "wrote", path)
		}
	}
	os.Exit(code)
}
