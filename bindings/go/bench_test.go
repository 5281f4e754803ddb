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
//   - BenchmarkFirstAnswer/<n>: the first answers of a visit to a site, as
//     benches/compare.rs measures them: per op, for every corpus file,
//     parse, select the rules for ExampleBot, check the file's first n of
//     20 URLs (n = 1, 5, 20) and release what was made.
//
// Each library gets its natural input: this binding the absolute URL (the
// core cuts it), temoto the path and query (cut beforehand, untimed), and
// grobotstxt, which has no parse-once API, the body, agent and URL of every
// check (so its checks include parsing). Set ROBOTSTXT_SHARED to the shared
// directory (default ../../../shared). After a -bench run, TestMain prints
// the ratios (medians over -count runs), and with ROBOTSTXT_BENCH_MARKDOWN
// set to a file name also writes them there as a Markdown section of
// BENCHMARKS.md (`make bench`), with the Rust section's first-answer
// figures (ROBOTSTXT_BENCH_RUST, default ../../build/bench/rust.md) beside
// this binding's.

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
	parseNames []string // parse_files.tsv's file column, in order
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
			loaded.parseNames = append(loaded.parseNames, r["file"])
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
			s.paths = append(s.paths, requestPath(r["url"]))
			loaded.checks += len(agents)
		}
	})
	return loaded
}

// requestPath is what temoto is given for a URL: its path and query.
func requestPath(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil {
		return u.RequestURI()
	}
	return rawURL
}

// pathOf is path_of in benches/compare.rs: the part after "://" from the
// first "/" ("/" if none), cut at the first "#".
func pathOf(rawURL string) string {
	rest := rawURL
	if _, r, ok := strings.Cut(rawURL, "://"); ok {
		rest = r
	}
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return "/"
	}
	path, _, _ := strings.Cut(rest[i:], "#")
	return path
}

// firstAnswerChecks is how many URLs a first-answer pass checks per file,
// benchmark by benchmark (FIRST_ANSWER_CHECKS in benches/compare.rs).
var firstAnswerChecks = []int{1, 5, 20}

const firstAnswerAgent = "ExampleBot"

// firstQuestions are one corpus file's URLs for the first answers, and
// their paths for temoto.
type firstQuestions struct {
	urls  []string
	paths []string
}

var (
	firstOnce sync.Once
	firstErr  error
	firstQs   []firstQuestions // one per parse_files.tsv row
)

// firstAnswerQuestions is first_answer_urls in benches/compare.rs: per
// corpus file (parse_files.tsv order) its own URLs of check_urls.tsv, the
// first 20, or, for a file without any, "/" then 19 paths of the
// workload's URLs taken in turn, on https://www.example.com.
func firstAnswerQuestions(b *testing.B) []firstQuestions {
	w := workloadFor(b)
	firstOnce.Do(func() {
		rows, err := readTSV(filepath.Join(sharedDir(), "bench", "check_urls.tsv"))
		if err != nil {
			firstErr = err
			return
		}
		most := firstAnswerChecks[len(firstAnswerChecks)-1]
		own := map[string][]string{}
		all := make([]string, 0, len(rows))
		for _, r := range rows {
			all = append(all, pathOf(r["url"]))
			if len(own[r["file"]]) < most {
				own[r["file"]] = append(own[r["file"]], r["url"])
			}
		}
		if len(all) == 0 {
			firstErr = fmt.Errorf("check_urls.tsv has no URLs")
			return
		}
		firstQs = make([]firstQuestions, len(w.parseNames))
		for i, name := range w.parseNames {
			urls := own[name]
			if len(urls) == 0 {
				urls = []string{"https://www.example.com/"}
				for k := 1; k < most; k++ {
					urls = append(urls, "https://www.example.com"+all[(i*19+k)%len(all)])
				}
			}
			q := &firstQs[i]
			q.urls = urls
			for _, u := range urls {
				q.paths = append(q.paths, requestPath(u))
			}
		}
	})
	if firstErr != nil {
		b.Fatalf("first-answer URLs: %v", firstErr)
	}
	return firstQs
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
	robotstxt.SettleCore()
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
	robotstxt.SettleCore()
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
	robotstxt.SettleCore() // figures for compiled code, not the interpreter answering first
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

// BenchmarkFirstAnswer is the first answers of a visit to each site, as
// benches/compare.rs measures them ("First answer" tables): one op is one
// pass over the whole corpus; per file, parse, select the rules for
// ExampleBot, check the file's first n URLs and release what the library
// needs released. The questions are made beforehand, untimed.
func BenchmarkFirstAnswer(b *testing.B) {
	w := workloadFor(b)
	qs := firstAnswerQuestions(b)
	for _, n := range firstAnswerChecks {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.Run("robotstxt", func(b *testing.B) {
				for b.Loop() {
					allowed := 0
					for i, body := range w.parse {
						robots, err := robotstxt.Parse(body)
						if err != nil {
							b.Fatal(err)
						}
						rules, err := robots.RulesFor(firstAnswerAgent)
						if err != nil {
							b.Fatal(err)
						}
						for _, u := range qs[i].urls[:min(n, len(qs[i].urls))] {
							if rules.Allowed(u) {
								allowed++
							}
						}
						rules.Close()
						robots.Close()
					}
					sink += allowed
				}
				record(b)
			})
			b.Run("temoto", func(b *testing.B) {
				for b.Loop() {
					allowed := 0
					for i, body := range w.parse {
						r, err := temoto.FromBytes(body)
						if err != nil {
							continue // no rules: no answers, as texting_robots in compare.rs
						}
						g := r.FindGroup(firstAnswerAgent)
						for _, p := range qs[i].paths[:min(n, len(qs[i].paths))] {
							if g.Test(p) {
								allowed++
							}
						}
					}
					sink += allowed
				}
				record(b)
			})
			b.Run("grobotstxt", func(b *testing.B) {
				// No parse-once API: every answer parses.
				for b.Loop() {
					allowed := 0
					for i, text := range w.parseText {
						for _, u := range qs[i].urls[:min(n, len(qs[i].urls))] {
							if grobotstxt.AgentAllowed(text, firstAnswerAgent, u) {
								allowed++
							}
						}
					}
					sink += allowed
				}
				record(b)
			})
		})
	}
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
	// By name, the first answers by number of checks.
	key := func(name string) string {
		if rest, ok := strings.CutPrefix(name, "BenchmarkFirstAnswer/"); ok {
			if n, lib, ok := strings.Cut(rest, "/"); ok {
				if k, err := strconv.Atoi(n); err == nil {
					return fmt.Sprintf("BenchmarkFirstAnswer/%04d/%s", k, lib)
				}
			}
		}
		return name
	}
	sort.Slice(names, func(i, j int) bool { return key(names[i]) < key(names[j]) })
	for _, name := range names {
		ns, _, _, _ := stat(name)
		switch {
		case strings.HasPrefix(name, "BenchmarkParse/"):
			fmt.Printf("  %-36s %8.1f MB/s  %10v per corpus\n", name, float64(w.parseBytes)/1e6/(ns/1e9), time.Duration(ns).Round(time.Microsecond))
		case strings.HasPrefix(name, "BenchmarkCheck/"):
			fmt.Printf("  %-36s %8.1f ns/check\n", name, ns/float64(w.checks))
		case strings.HasPrefix(name, "BenchmarkFirstAnswer/"):
			fmt.Printf("  %-36s %10s per pass\n", name, fmtNs(ns))
		case strings.HasPrefix(name, "BenchmarkFirstUse/"):
			fmt.Printf("  %-36s %10s first use\n", name, fmtNs(ns))
		}
	}
	ratio := func(kind, label, peer string) {
		ours, _, _, okOurs := stat("Benchmark" + kind + "/robotstxt")
		theirs, _, _, okTheirs := stat("Benchmark" + kind + "/" + peer)
		if okOurs && okTheirs {
			fmt.Printf("  %-14s robotstxt vs %-11s %6.1fx faster\n", label, peer, theirs/ours)
		}
	}
	fmt.Println("ratios (time of the peer / time of robotstxt; above 1: robotstxt is faster):")
	for _, kind := range []string{"Parse", "Check"} {
		ratio(kind, strings.ToLower(kind), "temoto")
		ratio(kind, strings.ToLower(kind), "grobotstxt")
	}
	for _, n := range firstAnswerChecks {
		kind := "FirstAnswer/" + strconv.Itoa(n)
		ratio(kind, fmt.Sprintf("first answer/%d", n), "temoto")
		ratio(kind, fmt.Sprintf("first answer/%d", n), "grobotstxt")
	}
	printBackends()
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
	if _, _, _, ok := stat("BenchmarkAllowed/serial"); ok {
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
	}
	md.WriteString(backendSection(spread))
	writeFirstAnswers(&md, w, peers, spread)
	return os.WriteFile(path, []byte(md.String()), 0o644)
}

// rustBenchPath is the Rust section of BENCHMARKS.md, which `make bench`
// writes before this step: ROBOTSTXT_BENCH_RUST, by default
// ../../build/bench/rust.md (go test runs in bindings/go).
func rustBenchPath() string {
	if path := os.Getenv("ROBOTSTXT_BENCH_RUST"); path != "" {
		return path
	}
	return filepath.Join("..", "..", "build", "bench", "rust.md")
}

// firstAnswerTitle is the heading of compare.rs's first-answer table for n
// checks per file, which this section's table also uses.
func firstAnswerTitle(n string) string {
	check := "checks"
	if n == "1" {
		check = "check"
	}
	return fmt.Sprintf("First answer: parse, select and %s %s per file, whole corpus", n, check)
}

// parseNs reads a time as fmtNs (and compare.rs's fmt_ns) writes it: "N ns",
// "N.NN µs" or "N.NN ms", possibly followed by more text.
func parseNs(cell string) (float64, bool) {
	fields := strings.Fields(cell)
	if len(fields) < 2 {
		return 0, false
	}
	x, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return 0, false
	}
	switch fields[1] {
	case "ns":
		return x, true
	case "µs", "us":
		return x * 1e3, true
	case "ms":
		return x * 1e6, true
	case "s":
		return x * 1e9, true
	}
	return 0, false
}

type rustRow struct {
	name string
	ns   float64
}

// readRustFirstAnswers reads the first-answer tables of the Rust section:
// per number of checks, robotstxt (rfc)'s row and its peers', in file order
// (robotstxt (google) is left out), and the file's modification time.
func readRustFirstAnswers(path string) (map[int][]rustRow, time.Time, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, time.Time{}, err
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, time.Time{}, err
	}
	rows := map[int][]rustRow{}
	table := 0 // checks per file of the table being read; 0: another table
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			table = 0
			for _, n := range firstAnswerChecks {
				if line == "### "+firstAnswerTitle(strconv.Itoa(n)) {
					table = n
				}
			}
			continue
		}
		if table == 0 || !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 {
			continue
		}
		name := strings.TrimSpace(cells[0])
		if name == "library" || strings.HasPrefix(name, "---") ||
			(strings.HasPrefix(name, "robotstxt (") && name != "robotstxt (rfc)") {
			continue
		}
		if ns, ok := parseNs(cells[1]); ok {
			rows[table] = append(rows[table], rustRow{name, ns})
		}
	}
	return rows, info.ModTime(), nil
}

// fmtRatio writes a ratio as the tables do, with one more digit below 1.
func fmtRatio(x float64) string {
	if x < 1 {
		return fmt.Sprintf("%.2f×", x)
	}
	return fmt.Sprintf("%.1f×", x)
}

// writeFirstAnswers writes the first-answer table (BenchmarkFirstAnswer)
// with the Rust section's figures for the same workload beside it; nothing
// when no first-answer benchmark ran.
func writeFirstAnswers(md *strings.Builder, w workload, peers []struct{ key, name string }, spread func(lo, hi string) string) {
	ran := false
	for name := range results {
		ran = ran || strings.HasPrefix(name, "BenchmarkFirstAnswer/")
	}
	if !ran {
		return
	}
	p := func(format string, args ...any) { fmt.Fprintf(md, format, args...) }
	var counts []string
	for _, n := range firstAnswerChecks {
		counts = append(counts, strconv.Itoa(n))
	}
	p("\n### %s\n\n", firstAnswerTitle("N"))
	p("The first answers of a visit to each site, the workload of the Rust section's first-answer tables: "+
		"one op is one pass over all %s corpus files (the first `capped_bytes` of each, %s bytes); per file, "+
		"parse, select the rules for %s, check the file's first N of 20 URLs (N = %s: its own URLs of "+
		"`check_urls.tsv` where it has some, else `/` and then paths of the workload's other URLs) and "+
		"release what was made (robotstxt: `Rules.Close` and `Robots.Close`). robotstxt gets the absolute URL, "+
		"temoto the path and query (cut beforehand), grobotstxt, which has no parse-once API, the body with "+
		"every URL (it parses N times per file). Go figures are the median of the runs of "+
		"`BenchmarkFirstAnswer` (min–max); the last column is the time of the row ÷ that of robotstxt through "+
		"Go for the same N (above 1: robotstxt through Go is faster).",
		fmtCount(len(w.parse)), fmtCount(w.parseBytes), firstAnswerAgent, strings.Join(counts, ", "))
	rustPath := rustBenchPath()
	rust, modified, err := readRustFirstAnswers(rustPath)
	switch {
	case err == nil && len(rust) > 0:
		p(" The Rust rows, robotstxt (rfc) and the Rust peers the file has, are from `%s`, modified %s: "+
			"benches/compare.rs on the same workload, another process, median of its rounds.\n\n",
			rustPath, modified.Format("2006-01-02 15:04 MST"))
	case err == nil:
		p(" No Rust figures: `%s` (modified %s) has no first-answer tables.\n\n",
			rustPath, modified.Format("2006-01-02 15:04 MST"))
	case os.IsNotExist(err):
		p(" No Rust figures: `%s` is missing (`make bench` writes it before this step).\n\n", rustPath)
	default:
		p(" No Rust figures: %v.\n\n", err)
	}
	p("| N | library | time per pass | ÷ robotstxt through Go |\n|---:|---|---:|---:|\n")
	libs := append([]struct{ key, name string }{{"robotstxt", "robotstxt " + robotstxt.Version() + " through Go"}}, peers...)
	for _, n := range firstAnswerChecks {
		prefix := fmt.Sprintf("BenchmarkFirstAnswer/%d/", n)
		ours, _, _, okOurs := stat(prefix + "robotstxt")
		against := func(ns float64) string {
			if !okOurs {
				return "–"
			}
			return fmtRatio(ns / ours)
		}
		shown := false
		for _, lib := range libs {
			m, lo, hi, ok := stat(prefix + lib.key)
			if !ok {
				continue
			}
			shown = true
			r := against(m)
			if lib.key == "robotstxt" {
				r = "–"
			}
			p("| %d | %s | %s%s | %s |\n", n, lib.name, fmtNs(m), spread(fmtNs(lo), fmtNs(hi)), r)
		}
		if !shown {
			continue // the Rust rows alone would have nothing to be compared with
		}
		for _, row := range rust[n] {
			p("| %d | Rust: %s | %s | %s |\n", n, row.name, fmtNs(row.ns), against(row.ns))
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	printRatios()
	if path := os.Getenv("ROBOTSTXT_BENCH_WASM_OUT"); path != "" && len(results) > 0 {
		if err := writeBackendTSV(path); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		} else {
			fmt.Fprintln(os.Stderr, "wrote", path)
		}
	}
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
