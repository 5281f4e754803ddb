package wasmcore

import (
	"strings"
	"testing"
)

const body = "User-agent: *\nDisallow: /private\nAllow: /private/open\n"

// parse parses body into a robots object and selects ExampleBot's rules.
func parse(t *testing.T, in *Instance, body string) (robots, rules uint32) {
	t.Helper()
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	if st := in.Status(RobotsParse, uint64(in.String(body)), uint64(len(body)), uint64(out)); st != 0 {
		t.Fatalf("parse: status %d", st)
	}
	robots = in.U32(out)
	if st := in.Status(RobotsRulesFor, uint64(robots), uint64(in.String("ExampleBot")), 10, uint64(out)); st != 0 {
		t.Fatalf("rules_for: status %d", st)
	}
	return robots, in.U32(out)
}

func allowed(t *testing.T, in *Instance, rules uint32, url string) bool {
	t.Helper()
	in.Lock()
	defer in.Unlock()
	out := in.Out(1)
	if st := in.Status(RulesCanFetch, uint64(rules), uint64(in.String(url)), uint64(len(url)), uint64(out)); st != 0 {
		t.Fatalf("can_fetch: status %d", st)
	}
	return in.Bool(out)
}

var answers = map[string]bool{"/": true, "/private/x": false, "/private/open/y": true}

func check(t *testing.T, in *Instance, rules uint32, when string) {
	t.Helper()
	for url, want := range answers {
		if got := allowed(t, in, rules, url); got != want {
			t.Errorf("%s: %s: %v, want %v", when, url, got, want)
		}
	}
}

// Objects made by the interpreter answer alike once the instance has moved
// onto compiled code, and the allocator goes on where it was.
func TestUpgradeKeepsObjects(t *testing.T) {
	in, err := New(Interpreter)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if e := in.Engine(); e != Interpreter {
		t.Fatalf("engine %v", e)
	}
	// A block that grows the memory past its first pages, its ends marked.
	const bigLen = 3 << 20
	in.Lock()
	big := in.Alloc(bigLen)
	in.PutU64(big, 0x0123456789abcdef)
	in.PutU64(big+bigLen-8, 0xfedcba9876543210)
	in.Unlock()
	robots, rules := parse(t, in, body)
	check(t, in, rules, "interpreter")
	size := in.MemorySize()
	if err := in.Upgrade(); err != nil {
		t.Fatal(err)
	}
	want := Interpreter
	if compilerAvailable {
		want = Compiler
	}
	if e := in.Engine(); e != want {
		t.Fatalf("after the upgrade: engine %v, want %v", e, want)
	}
	if got := in.MemorySize(); got != size {
		t.Errorf("memory %d bytes before the move, %d after", size, got)
	}
	check(t, in, rules, "compiled")
	in.Lock()
	if in.U64(big) != 0x0123456789abcdef || in.U64(big+bigLen-8) != 0xfedcba9876543210 {
		t.Error("the big block changed in the move")
	}
	in.Free(big, bigLen)
	in.Unlock()
	// New objects next to the old ones; freeing both works.
	_, rules2 := parse(t, in, body)
	check(t, in, rules2, "made after the move")
	in.Lock()
	in.Call(RulesFree, uint64(rules))
	in.Call(RulesFree, uint64(rules2))
	in.Call(RobotsFree, uint64(robots))
	in.Unlock()
}

// Inputs past the scratch block get blocks of their own, freed at Unlock:
// passing many leaves the memory as it was.
func TestBigInputsAreFreed(t *testing.T) {
	in, err := New(Compiler)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	_, rules := parse(t, in, body)
	url := "/private/" + strings.Repeat("x", 3*scratchSize)
	allowed(t, in, rules, url)
	size := in.MemorySize()
	for range 200 {
		if allowed(t, in, rules, url) {
			t.Fatal("a long private URL is allowed")
		}
	}
	if got := in.MemorySize(); got != size {
		t.Errorf("memory grew from %d to %d bytes", size, got)
	}
}

// Shared's first use answers at once, and it moves onto compiled code in
// the background where wazero has a compiler.
func TestShared(t *testing.T) {
	in := Shared()
	if in != Shared() {
		t.Fatal("two shared instances")
	}
	_, rules := parse(t, in, body)
	check(t, in, rules, "shared")
	want := Interpreter
	if compilerAvailable {
		want = Compiler
	}
	if e := in.WaitCompiled(); e != want {
		t.Errorf("engine %v, want %v", e, want)
	}
	check(t, in, rules, "shared, compiled")
}

// A trap in the module, which only a bug causes, panics with the export's
// name and leaves the instance usable.
func TestTrapPanics(t *testing.T) {
	in, err := New(Interpreter)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	msg := func() (msg string) {
		defer func() { msg, _ = recover().(string) }()
		in.Lock()
		defer in.Unlock()
		in.Call(RulesCanFetch, 0xFFFF_FFF0, 0, 0, uint64(in.Out(1))) // a handle outside memory
		return ""
	}()
	if !strings.Contains(msg, "robotstxt_rules_can_fetch") || !strings.Contains(msg, "bug") {
		t.Errorf("panic %q", msg)
	}
	_, rules := parse(t, in, body)
	check(t, in, rules, "after a trap")
}
