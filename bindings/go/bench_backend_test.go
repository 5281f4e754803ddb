package robotstxt_test

// The two backends side by side. The same benchmarks of bench_test.go run
// once with cgo and once with CGO_ENABLED=0 (the core as WebAssembly, in
// wazero): `make go-bench` runs the latter first (go-bench-wasm), which
// writes its figures to ROBOTSTXT_BENCH_WASM_OUT as TSV; the cgo run reads
// them (ROBOTSTXT_BENCH_WASM, default ../../build/bench/go-wasm.tsv) and
// prints them beside its own. BenchmarkFirstUse measures what the
// WebAssembly backend's first call costs a process, in either run: it
// drives an instance of its own.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
	"github.com/robotstxt-engine/robotstxt-go/internal/wasmcore"
)

// BenchmarkFirstUse is a process's first answer from the WebAssembly core:
// compile the embedded module, instantiate it, parse the practice shop,
// select NimbuBot's rules and ask once. "interpreter" is what the package
// does (wazero's compiler then runs in the background), "compiler" what
// compiling first would cost.
func BenchmarkFirstUse(b *testing.B) {
	for _, engine := range []wasmcore.Engine{wasmcore.Interpreter, wasmcore.Compiler} {
		b.Run(engine.String(), func(b *testing.B) {
			for b.Loop() {
				in, err := wasmcore.New(engine)
				if err != nil {
					b.Fatal(err)
				}
				if !firstAnswer(b, in) {
					b.Fatal("disallowed")
				}
				in.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
			record(b)
		})
	}
}

// firstAnswer asks in whether NimbuBot may fetch /prices/today.
func firstAnswer(b *testing.B, in *wasmcore.Instance) bool {
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	if st := in.Status(wasmcore.RobotsParse, uint64(in.String(shopBody)), uint64(len(shopBody)), uint64(out)); st != 0 {
		b.Fatalf("parse: status %d", st)
	}
	robots := in.U32(out)
	if st := in.Status(wasmcore.RobotsRulesFor, uint64(robots), uint64(in.String("NimbuBot")), 8, uint64(out)); st != 0 {
		b.Fatalf("rules_for: status %d", st)
	}
	rules := in.U32(out)
	url := "https://bazaar.nimbu.test/prices/today"
	if st := in.Status(wasmcore.RulesCanFetch, uint64(rules), uint64(in.String(url)), uint64(len(url)), uint64(out)); st != 0 {
		b.Fatalf("can_fetch: status %d", st)
	}
	return in.Bool(out)
}

// backendBenchmarks are those compared across the backends, and how each
// is shown: its label and whether its figure is per check of the workload.
var backendBenchmarks = []struct {
	name, label string
	perCheck    bool
}{
	{"BenchmarkAllowed/serial", "`Rules.Allowed`, small rules", false},
	{"BenchmarkAllowed/parallel", "`Rules.Allowed`, every P sharing one `Rules`", false},
	{"BenchmarkAllowed/decide", "`Rules.Decide`, small rules", false},
	{"BenchmarkCheck/robotstxt", "`Rules.Allowed` over the check workload (mean per check)", true},
	{"BenchmarkParse/robotstxt", "`Parse` of the whole corpus", false},
}

// writeBackendTSV writes this run's figures for the comparison: name,
// median, min and max ns per op, runs.
func writeBackendTSV(path string) error {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	var sb strings.Builder
	fmt.Fprintf(&sb, "# robotstxt %s, %s, GOMAXPROCS %d, backend %s\n", robotstxt.Version(), runtime.Version(),
		runtime.GOMAXPROCS(0), robotstxt.Backend)
	var names []string
	for name := range results {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		m, lo, hi, _ := stat(name)
		fmt.Fprintf(&sb, "%s\t%.1f\t%.1f\t%.1f\t%d\n", name, m, lo, hi, len(results[name]))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}

type backendFigure struct{ median, lo, hi float64 }

// readBackendTSV reads what writeBackendTSV wrote, with its first line and
// the file's modification time.
func readBackendTSV(path string) (map[string]backendFigure, string, time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", time.Time{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, "", time.Time{}, err
	}
	figures := map[string]backendFigure{}
	header := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "# "); ok {
			header = h
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) < 4 {
			continue
		}
		var v [3]float64
		for i := range v {
			if v[i], err = strconv.ParseFloat(fields[i+1], 64); err != nil {
				return nil, "", time.Time{}, fmt.Errorf("%s: %q: %v", path, line, err)
			}
		}
		figures[fields[0]] = backendFigure{v[0], v[1], v[2]}
	}
	return figures, header, info.ModTime(), sc.Err()
}

func wasmBenchPath() string {
	if path := os.Getenv("ROBOTSTXT_BENCH_WASM"); path != "" {
		return path
	}
	return filepath.Join("..", "..", "build", "bench", "go-wasm.tsv")
}

// backendSection writes the cgo and WebAssembly figures side by side, with
// the first-use cost; "" when this run measured none of them.
func backendSection(spread func(lo, hi string) string) string {
	w := load()
	var md strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&md, format, args...) }
	show := func(name string, ns float64) string {
		for _, c := range backendBenchmarks {
			if c.name == name && c.perCheck && w.checks > 0 {
				return fmtNs(ns / float64(w.checks))
			}
		}
		if strings.HasPrefix(name, "BenchmarkParse/") && w.parseBytes > 0 {
			return fmt.Sprintf("%.1f MB/s", float64(w.parseBytes)/1e6/(ns/1e9))
		}
		return fmtNs(ns)
	}
	path := wasmBenchPath()
	wasm, header, modified, err := readBackendTSV(path)
	_, _, _, firstRan := stat("BenchmarkFirstUse/interpreter")
	if err != nil && !firstRan {
		return ""
	}
	p("\n### Without cgo: the core as WebAssembly\n\n")
	p("With `CGO_ENABLED=0`, or on a platform without a prebuilt library, the package runs the core compiled to "+
		"WebAssembly (embedded) in wazero %s, in pure Go. ", moduleVersion("github.com/tetratelabs/wazero"))
	switch {
	case err == nil:
		p("Its figures are from `%s` (%s), modified %s: the same benchmarks with `CGO_ENABLED=0` "+
			"(`make go-bench` runs them first), once the instance runs compiled code; the cgo figures from this run. "+
			"Ratio: WebAssembly time ÷ cgo time.\n\n", path, header, modified.Format("2006-01-02 15:04 MST"))
		p("| call | cgo | WebAssembly | ratio |\n|---|---:|---:|---:|\n")
		for _, c := range backendBenchmarks {
			ours, lo, hi, ok := stat(c.name)
			theirs, okWasm := wasm[c.name]
			if !ok || !okWasm {
				continue
			}
			ratio := theirs.median / ours // time per op, for throughput too
			p("| %s | %s%s | %s%s | %s |\n", c.label, show(c.name, ours), spread(show(c.name, lo), show(c.name, hi)),
				show(c.name, theirs.median), spread(show(c.name, theirs.lo), show(c.name, theirs.hi)), fmtRatio(ratio))
		}
	case os.IsNotExist(err):
		p("No figures for its calls: `%s` is missing (`make go-bench` writes it before this step).\n\n", path)
	default:
		p("No figures for its calls: %v.\n\n", err)
	}
	if firstRan {
		p("\nFirst use, once per process (BenchmarkFirstUse): compile the embedded module, instantiate it, parse " +
			"the practice shop and answer once. The package compiles with wazero's interpreter first and moves " +
			"onto its compiler's code in the background, so the interpreter's figure is the wait; until the move, " +
			"calls are slower (see docs/go.md). With cgo there is nothing to load.\n\n")
		p("| first use | time |\n|---|---:|\n")
		for _, e := range []string{"interpreter", "compiler"} {
			if m, lo, hi, ok := stat("BenchmarkFirstUse/" + e); ok {
				p("| %s | %s%s |\n", e, fmtNs(m), spread(fmtNs(lo), fmtNs(hi)))
			}
		}
	}
	return md.String()
}

// printBackends prints, after a cgo run, the WebAssembly run's figures
// beside this run's; resultsMu is held.
func printBackends() {
	if robotstxt.Backend != "cgo" {
		return
	}
	wasm, header, _, err := readBackendTSV(wasmBenchPath())
	if err != nil {
		return
	}
	fmt.Printf("cgo vs WebAssembly (%s: %s; WebAssembly time / cgo time):\n", wasmBenchPath(), header)
	checks := float64(load().checks)
	for _, c := range backendBenchmarks {
		ours, _, _, ok := stat(c.name)
		theirs, okWasm := wasm[c.name]
		if !ok || !okWasm {
			continue
		}
		unit, cgoNs, wasmNs := "per op", ours, theirs.median
		if c.perCheck && checks > 0 {
			unit, cgoNs, wasmNs = "per check", ours/checks, theirs.median/checks
		}
		fmt.Printf("  %-36s %10s cgo %10s wasm %6.2fx %s\n", c.name, fmtNs(cgoNs), fmtNs(wasmNs), theirs.median/ours, unit)
	}
}
