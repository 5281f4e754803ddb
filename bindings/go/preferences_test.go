package robotstxt_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/robotstxt-engine/robotstxt-go"
)

const prefsBody = "Clean-param: ref /a/\n" + // 1
	"User-agent: *\n" + // 2
	"Content-Usage: train-ai=n\n" + // 3
	"Content-Usage: /blog/ train-ai=y;v=2, search, x=n\n" + // 4
	"Content-Signal: search=yes, ai-train=no\n" + // 5
	"Disallow: /private/\n" + // 6
	"LLM-Policy: https://a.test/llm.txt\n" + // 7
	"\n" + // 8
	"User-agent: OtherBot\n" + // 9
	"Visit-time: 0600-0845\n" // 10

func mustPreferences(t *testing.T, rules *robotstxt.Rules, url string) *robotstxt.Preferences {
	t.Helper()
	p, err := rules.Preferences(url)
	if err != nil || p == nil {
		t.Fatalf("Preferences(%q): %v, %v", url, p, err)
	}
	return p
}

func TestPreferences(t *testing.T) { // behaviour §10.3–§10.4
	robots := mustParse(t, prefsBody)
	rules := mustRules(t, robots, "ExampleBot")
	robots.Close() // rules and answers stand alone

	p := mustPreferences(t, rules, "https://a.test/blog/post?x=1")
	want := []robotstxt.LabelPreference{
		{Label: "train-ai", Value: robotstxt.UsageYes, Lines: []int{4}},
		{Label: "search", Value: robotstxt.UsageUnknown, Lines: []int{4}}, // a bare key is ?1
		{Label: "x", Value: robotstxt.UsageNo, Lines: []int{4}},
	}
	if !p.Crawlable || p.Decision != (robotstxt.Decision{Allowed: true, Kind: robotstxt.NoRule}) ||
		!reflect.DeepEqual(p.Labels, want) {
		t.Errorf("/blog/post: %+v", p)
	}
	if p.Get("x") != robotstxt.UsageNo || p.Get("train-ai") != "y" || p.Get("nothing") != robotstxt.UsageUnknown {
		t.Errorf("Get: %q %q %q", p.Get("x"), p.Get("train-ai"), p.Get("nothing"))
	}
	statement := robotstxt.UsageStatement{Line: 4, Path: "/blog/", Members: []robotstxt.Member{
		{Key: "train-ai", Value: "y;v=2"}, {Key: "search", Value: "?1"}, {Key: "x", Value: "n"},
	}}
	if !reflect.DeepEqual(p.Statements, []robotstxt.UsageStatement{statement}) {
		t.Errorf("statements %+v", p.Statements)
	}

	shop := mustPreferences(t, rules, "/shop")
	if shop.Get("train-ai") != robotstxt.UsageNo || len(shop.Labels) != 2 || shop.Labels[1].Lines == nil ||
		len(shop.Statements) != 1 || shop.Statements[0].Path != "/" {
		t.Errorf("/shop: %+v", shop)
	}

	closed := mustPreferences(t, rules, "/private/x")
	if closed.Crawlable || closed.Decision.Line != 6 || closed.Decision.Pattern != "/private/" ||
		closed.Decision.Kind != robotstxt.DisallowRule || len(closed.Statements) != 0 ||
		closed.Get("train-ai") != robotstxt.UsageUnknown {
		t.Errorf("/private/x: %+v", closed)
	}
	// The answer does not change access.
	if d := rules.Decide("/private/x"); d != closed.Decision {
		t.Errorf("Decide %+v, preferences %+v", d, closed.Decision)
	}
}

func TestPreferencesWithHeader(t *testing.T) { // behaviour §10.6
	rules := mustRules(t, mustParse(t, prefsBody), "ExampleBot")
	shop := mustPreferences(t, rules, "/shop")
	page, err := shop.WithHeader("search=y, train-ai=y, foo=n")
	if err != nil {
		t.Fatal(err)
	}
	want := []robotstxt.LabelPreference{
		{Label: "train-ai", Value: robotstxt.UsageNo, Lines: []int{3}}, // n from the file wins
		{Label: "search", Value: robotstxt.UsageYes, Lines: []int{}},
		{Label: "foo", Value: robotstxt.UsageNo, Lines: []int{}},
	}
	if !reflect.DeepEqual(page.Labels, want) || !reflect.DeepEqual(page.Statements, shop.Statements) {
		t.Errorf("combined %+v", page)
	}
	if shop.Get("search") != robotstxt.UsageUnknown {
		t.Error("WithHeader changed its receiver")
	}
	// Fields add up.
	twice, err := page.WithHeader("bar=y")
	if err != nil || twice.Get("foo") != robotstxt.UsageNo || twice.Get("bar") != robotstxt.UsageYes {
		t.Errorf("twice: %+v %v", twice, err)
	}
	// A URL that is not crawlable keeps its answer.
	closed, err := mustPreferences(t, rules, "/private/x").WithHeader("train-ai=n")
	if err != nil || closed.Crawlable || closed.Get("train-ai") != robotstxt.UsageUnknown {
		t.Errorf("not crawlable: %+v %v", closed, err)
	}

	for field, kind := range map[string]string{
		"Train-AI=n": "not an RFC 9651 Dictionary", "train-ai=n,": "not an RFC 9651 Dictionary",
		"a=b c": "not an RFC 9651 Dictionary", "": "is empty", "  ": "is empty",
	} {
		got, err := shop.WithHeader(field)
		var e *robotstxt.Error
		if got != nil || !errors.Is(err, robotstxt.ErrInvalidField) || !errors.As(err, &e) ||
			!strings.Contains(e.Message, kind) || !strings.HasPrefix(err.Error(), "robotstxt: ") {
			t.Errorf("field %q: %+v, %v", field, got, err)
		}
	}
	if _, err := page.WithHeader("x="); !errors.Is(err, robotstxt.ErrInvalidField) {
		t.Errorf("a bad field after a good one: %v", err)
	}

	// The answer is asked again of its Rules: closed, or none, panics.
	var zero robotstxt.Preferences
	var none *robotstxt.Preferences
	rules.Close()
	for name, c := range map[string]struct {
		call func()
		want string
	}{
		"closed rules":   {func() { _, _ = shop.WithHeader("a=y") }, "*Rules used after Close"},
		"zero value":     {func() { _, _ = zero.WithHeader("a=y") }, "Rules.Preferences did not make"},
		"nil receiver":   {func() { _, _ = none.WithHeader("a=y") }, "nil *Preferences"},
		"Preferences":    {func() { _, _ = rules.Preferences("/") }, "*Rules used after Close"},
		"ContentSignal":  {func() { _, _ = rules.ContentSignal() }, "*Rules used after Close"},
		"OtherRecords":   {func() { rules.OtherRecords() }, "*Rules used after Close"},
		"nil Rules.Pref": {func() { _, _ = (*robotstxt.Rules)(nil).Preferences("/") }, "nil *Rules"},
		"nil Robots":     {func() { (*robotstxt.Robots)(nil).OtherRecords() }, "nil *Robots"},
	} {
		if msg := panics(c.call); !strings.Contains(msg, c.want) {
			t.Errorf("%s: panic %q, want %q", name, msg, c.want)
		}
	}
	// The answers already made are plain data.
	if page.Get("train-ai") != robotstxt.UsageNo {
		t.Error("answer lost with its rules")
	}
}

func TestContentSignal(t *testing.T) { // behaviour §10.5
	robots := mustParse(t, prefsBody)
	signal, err := mustRules(t, robots, "ExampleBot").ContentSignal()
	if err != nil || signal == nil {
		t.Fatalf("%+v %v", signal, err)
	}
	want := &robotstxt.ContentSignal{
		Signals: []robotstxt.Signal{{Key: "search", Value: "yes"}, {Key: "ai-input"}, {Key: "ai-train", Value: "no"}},
		Lines:   []int{5},
	}
	if !reflect.DeepEqual(signal, want) {
		t.Errorf("signal %+v", signal)
	}
	if signal.Get("ai-train") != "no" || signal.Get("ai-input") != "" || signal.Get("nope") != "" {
		t.Error("Get")
	}
	// A named group replaces *, even without a content-signal line.
	if s, err := mustRules(t, robots, "OtherBot").ContentSignal(); s != nil || err != nil {
		t.Errorf("OtherBot: %+v %v", s, err)
	}
}

func TestOtherRecords(t *testing.T) { // behaviour §10.7
	robots := mustParse(t, prefsBody)
	all := []robotstxt.OtherRecord{
		{Key: "Clean-param", KeyLower: "clean-param", Value: "ref /a/", Line: 1, Group: -1},
		{Key: "LLM-Policy", KeyLower: "llm-policy", Value: "https://a.test/llm.txt", Line: 7, Group: 0},
		{Key: "Visit-time", KeyLower: "visit-time", Value: "0600-0845", Line: 10, Group: 1},
	}
	if got := robots.OtherRecords(); !reflect.DeepEqual(got, all) {
		t.Errorf("robots: %+v", got)
	}
	if got := mustRules(t, robots, "ExampleBot").OtherRecords(); !reflect.DeepEqual(got, all[:2]) {
		t.Errorf("ExampleBot: %+v", got)
	}
	if got := mustRules(t, robots, "OtherBot").OtherRecords(); !reflect.DeepEqual(got, []robotstxt.OtherRecord{all[0], all[2]}) {
		t.Errorf("OtherBot: %+v", got)
	}
	if got := mustParse(t, "User-agent: *\nDisallow: /\n").OtherRecords(); got == nil || len(got) != 0 {
		t.Errorf("none: %#v", got)
	}
	// Only A-Z are lowered; other bytes stay as written.
	odd := mustParse(t, "X-\xffÄB: 1\n").OtherRecords()
	if len(odd) != 1 || odd[0].Key != "X-\xffÄB" || odd[0].KeyLower != "x-\xffÄb" {
		t.Errorf("odd key: %+q", odd)
	}
}

func TestPreferenceDiagnostics(t *testing.T) {
	robots := mustParse(t, "Content-Usage: train-ai=n\nUser-agent: *\nContent-Usage: Train-AI=n\n"+
		"Content-Usage: /a\nContent-Usage: train-ai=yes\nContent-Signal: search=y\n")
	want := []robotstxt.Diagnostic{
		{Line: 1, Kind: robotstxt.LineContentUsage, Flags: robotstxt.FlagOutsideGroup},
		{Line: 3, Kind: robotstxt.LineContentUsage, Flags: robotstxt.FlagInvalidStatement},
		{Line: 4, Kind: robotstxt.LineContentUsage, Flags: robotstxt.FlagEmptyStatement},
		{Line: 5, Kind: robotstxt.LineContentUsage, Flags: robotstxt.FlagUnknownPreference},
		{Line: 6, Kind: robotstxt.LineContentSignal, Flags: robotstxt.FlagUnknownPreference},
	}
	if got := robots.Diagnostics(); !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics %+v", got)
	}
	names := fmt.Sprint(robotstxt.LineContentUsage, robotstxt.LineContentSignal,
		robotstxt.FlagInvalidStatement|robotstxt.FlagEmptyStatement|robotstxt.FlagUnknownPreference)
	if names != "content-usage content-signal invalid-statement, empty-statement, unknown-preference" {
		t.Errorf("names %q", names)
	}
}

// Odd input: bytes that are not UTF-8, NUL, a long URL, many labels.
func TestPreferencesBadInput(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\nContent-Usage: /\xff\x00 train-ai=n\nContent-Usage: ")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&body, "l%d=y, ", i)
	}
	body.WriteString("z=n\nContent-Signal: \xff=yes, ,,=no, a=maybe\n\x80Key: \xfe\n")
	robots := mustParse(t, body.String())
	rules := mustRules(t, robots, "ExampleBot")
	for _, url := range []string{"", "/\xff\x00", "/" + strings.Repeat("a", 100_000), "\x00", "https://"} {
		p := mustPreferences(t, rules, url)
		if len(p.Labels) < 2 || p.Labels[0].Label != "train-ai" || p.Labels[1].Label != "search" {
			t.Errorf("%.20q: labels %+v", url, p.Labels[:2])
		}
	}
	if p := mustPreferences(t, rules, "/x"); len(p.Labels) != 503 || p.Get("l499") != robotstxt.UsageYes {
		t.Errorf("many labels: %d", len(p.Labels))
	}
	signal, err := rules.ContentSignal()
	if err != nil || signal == nil || len(signal.Signals) != 3 {
		t.Errorf("signal %+v %v", signal, err)
	}
	if others := robots.OtherRecords(); len(others) != 1 || others[0].Key != "\x80Key" || others[0].Value != "\xfe" {
		t.Errorf("others %+q", others)
	}
	// A field with NUL or bytes that are not UTF-8 is an error, not a crash.
	for _, field := range []string{"a=\x00", "\xff=y", "a=y\x00"} {
		if _, err := mustPreferences(t, rules, "/").WithHeader(field); !errors.Is(err, robotstxt.ErrInvalidField) {
			t.Errorf("field %q: %v", field, err)
		}
	}
}

// Rules are shared: answers from many goroutines at once (run with -race).
func TestPreferencesConcurrent(t *testing.T) {
	rules := mustRules(t, mustParse(t, prefsBody), "ExampleBot")
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				p, err := rules.Preferences("/blog/x")
				if err != nil || p.Get("train-ai") != robotstxt.UsageYes {
					t.Errorf("%+v %v", p, err)
					return
				}
				if _, err := p.WithHeader("a=b c"); !errors.Is(err, robotstxt.ErrInvalidField) {
					t.Errorf("WithHeader: %v", err)
					return
				}
				if s, _ := rules.ContentSignal(); s.Get("search") != "yes" {
					t.Error("signal")
					return
				}
			}
		}()
	}
	wg.Wait()
}
