package robotstxt_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

const shopBody = `User-agent: *
Disallow: /account/
Disallow: /people/
Disallow: /products/*?sort=
Allow: /products/
Crawl-delay: 2

User-agent: NimbuBot
Disallow: /prices/
Allow: /prices/today
Disallow: /*.pdf$
Disallow: /offers/
Allow: /offers/
Crawl-delay: 2.5

User-agent: nimbubot
Disallow: /drafts/

User-agent: ArchiveBot
Disallow: /

Sitemap: https://bazaar.nimbu.test/sitemap.xml
`

func mustParse(t testing.TB, body string, opts ...robotstxt.Option) *robotstxt.Robots {
	t.Helper()
	robots, err := robotstxt.Parse([]byte(body), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(robots.Close)
	return robots
}

func mustRules(t testing.TB, robots *robotstxt.Robots, token string) *robotstxt.Rules {
	t.Helper()
	rules, err := robots.RulesFor(token)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rules.Close)
	return rules
}

// panics runs f and returns the message it panicked with, or "".
func panics(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = r.(string)
		}
	}()
	f()
	return ""
}

func TestShop(t *testing.T) { // behaviour §9
	robots := mustParse(t, shopBody)
	for _, tc := range []struct {
		token, path string
		want        bool
	}{
		{"NimbuBot", "/prices/today", true},
		{"NimbuBot", "/prices/history", false},
		{"NimbuBot", "/guides/size-chart.pdf", false},
		{"NimbuBot", "/guides/size-chart.pdf?print=1", true},
		{"NimbuBot", "/offers/weekend", true},
		{"NimbuBot", "/drafts/new-range", false},
		{"NimbuBot", "/account/orders", true},
		{"OtherBot", "/account/orders", false},
		{"OtherBot", "/products/?sort=price", false},
		{"ArchiveBot", "/robots.txt", true},
		{"nimbubot", "/%70rices/history", false},
	} {
		if got := mustRules(t, robots, tc.token).Allowed(tc.path); got != tc.want {
			t.Errorf("%s %s: %v, want %v", tc.token, tc.path, got, tc.want)
		}
	}
	d := mustRules(t, robots, "NimbuBot").Decide("https://bazaar.nimbu.test/prices/today")
	want := robotstxt.Decision{Allowed: true, Line: 10, Kind: robotstxt.AllowRule, Pattern: "/prices/today"}
	if d != want {
		t.Errorf("Decide: %+v, want %+v", d, want)
	}
	if delay, ok := mustRules(t, robots, "NimbuBot").CrawlDelay(); !ok || delay != 2500*time.Millisecond {
		t.Errorf("NimbuBot crawl delay %v %v", delay, ok)
	}
	if delay, ok := mustRules(t, robots, "OtherBot").CrawlDelay(); !ok || delay != 2*time.Second {
		t.Errorf("OtherBot crawl delay %v %v", delay, ok)
	}
	if got := robots.Sitemaps(); len(got) != 1 || got[0] != "https://bazaar.nimbu.test/sitemap.xml" {
		t.Errorf("sitemaps %q", got)
	}
	if _, ok := robots.Host(); ok {
		t.Error("a host without a host line")
	}
	if robots.Profile() != robotstxt.RFC9309 {
		t.Errorf("profile %v", robots.Profile())
	}
}

func TestInvalidToken(t *testing.T) {
	robots := mustParse(t, shopBody)
	token := "Mozilla/5.0 (compatible; NimbuBot/1.0)"
	rules, err := robots.RulesFor(token)
	if rules != nil || !errors.Is(err, robotstxt.ErrInvalidToken) {
		t.Fatalf("RulesFor(%q): %v, %v", token, rules, err)
	}
	var te *robotstxt.TokenError
	if !errors.As(err, &te) || te.Token != token || !strings.Contains(te.Message, `"`+token+`"`) {
		t.Fatalf("TokenError %+v", te)
	}
	if !strings.HasPrefix(err.Error(), "robotstxt: ") {
		t.Errorf("message %q", err)
	}
	// Several tokens: one bad one fails the whole selection, in both modes.
	for _, sel := range []func(...string) (*robotstxt.Rules, error){robots.RulesForAny, robots.RulesForStrictest} {
		if _, err := sel("NimbuBot", "bad/1.0"); !errors.Is(err, robotstxt.ErrInvalidToken) {
			t.Errorf("list with a bad token: %v", err)
		}
		if _, err := sel(); !errors.Is(err, robotstxt.ErrNoTokens) {
			t.Errorf("no tokens: %v", err)
		}
	}
	// The Google profile accepts any name and compares it whole.
	google := mustParse(t, shopBody, robotstxt.WithProfile(robotstxt.Google))
	if _, err := google.RulesFor(token); err != nil {
		t.Errorf("Google profile: %v", err)
	}
}

func TestSeveralTokens(t *testing.T) {
	robots := mustParse(t, "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\nCrawl-delay: 3\n")
	anyOf, err := robots.RulesForAny("a", "b")
	if err != nil {
		t.Fatal(err)
	}
	defer anyOf.Close()
	strictest, err := robots.RulesForStrictest("a", "b")
	if err != nil {
		t.Fatal(err)
	}
	defer strictest.Close()
	for _, path := range []string{"/x", "/y"} {
		if anyOf.Allowed(path) || strictest.Allowed(path) {
			t.Errorf("%s allowed", path)
		}
	}
	if d, ok := strictest.CrawlDelay(); !ok || d != 3*time.Second {
		t.Errorf("strictest crawl delay %v %v", d, ok)
	}
}

// The first checks of a selection scan its rules; Compile builds the index
// the later ones use: both decide alike, rule for rule.
func TestCompileChangesNoAnswer(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := 0; i < 80; i++ {
		fmt.Fprintf(&body, "Disallow: /*p%dq\nAllow: /a%d/*.css$\n", i, i%7)
	}
	robots := mustParse(t, body.String())
	compiled := mustRules(t, robots, "ExampleBot")
	compiled.Compile()
	for i := 0; i < 40; i++ {
		path := fmt.Sprintf("/a%d/x/p%dq.css", i%9, i)
		scanning := mustRules(t, robots, "ExampleBot")
		if got, want := scanning.Decide(path), compiled.Decide(path); got != want {
			t.Errorf("%s: scanning %+v, compiled %+v", path, got, want)
		}
	}
}

func TestParseOptions(t *testing.T) {
	for _, n := range []int{-1, 0, robotstxt.MinParseLimit - 1, robotstxt.MaxParseLimit + 1} {
		robots, err := robotstxt.Parse([]byte("User-agent: *\n"), robotstxt.WithParseLimit(n))
		if robots != nil || !errors.Is(err, robotstxt.ErrParseLimit) {
			t.Errorf("parse limit %d: %v, %v", n, robots, err)
		}
	}
	if _, err := robotstxt.Parse(nil, robotstxt.WithProfile(robotstxt.Profile(7))); !errors.Is(err, robotstxt.ErrInvalidOption) {
		t.Errorf("Profile(7): %v", err)
	}
	// Limits in range, nil options and no body are fine.
	for _, n := range []int{robotstxt.MinParseLimit, robotstxt.MaxParseLimit} {
		mustParse(t, "", robotstxt.WithParseLimit(n), nil)
	}
	typo := "User-agent: *\nDissallow: /x\n"
	if mustRules(t, mustParse(t, typo), "a").Allowed("/x") {
		t.Error("typos accepted by default")
	}
	if !mustRules(t, mustParse(t, typo, robotstxt.WithTypos(false)), "a").Allowed("/x") {
		t.Error("WithTypos(false) still accepts dissallow")
	}
	// Any bytes parse: NUL, invalid UTF-8, HTML.
	mustParse(t, "\x00\xff\xfe<html><body>User-agent: *</body></html>")
}

func TestDiagnosticsAndRecords(t *testing.T) {
	robots := mustParse(t, "Disallow: /early\nUser-agent: *\nCrawl-delay: soon\nfoo: bar\nRequest-rate: 1/10s\nHost: mirror.test\nHost: other.test\n")
	got := robots.Diagnostics()
	want := []robotstxt.Diagnostic{
		{Line: 1, Kind: robotstxt.LineDisallow, Flags: robotstxt.FlagOutsideGroup},
		{Line: 3, Kind: robotstxt.LineCrawlDelay, Flags: robotstxt.FlagInvalidValue},
		{Line: 4, Kind: robotstxt.LineUnknown, Flags: robotstxt.FlagUnknownKey},
	}
	if len(got) != len(want) {
		t.Fatalf("diagnostics %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("diagnostic %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if s := (robotstxt.FlagTypo | robotstxt.FlagUnknownKey).String(); s != "typo, unknown-key" {
		t.Errorf("flags %q", s)
	}
	if robotstxt.LineRequestRate.String() != "request-rate" || robotstxt.DisallowRule.String() != "disallow" {
		t.Error("names")
	}
	if host, ok := robots.Host(); !ok || host != "mirror.test" {
		t.Errorf("host %q %v", host, ok)
	}
	rate, ok := mustRules(t, robots, "a").RequestRate()
	if !ok || rate != (robotstxt.RequestRate{Requests: 1, Seconds: 10}) || rate.Interval() != 10*time.Second {
		t.Errorf("request rate %+v %v", rate, ok)
	}
}

func TestCloseAndMisuse(t *testing.T) {
	robots, _ := robotstxt.Parse([]byte(shopBody))
	rules, err := robots.RulesFor("NimbuBot")
	if err != nil {
		t.Fatal(err)
	}
	robots.Close()
	robots.Close() // idempotent
	if !rules.Allowed("/prices/today") {
		t.Error("rules depend on the closed robots")
	}
	rules.Close()
	rules.Close()
	for name, f := range map[string]func(){
		"Robots.RulesFor": func() { _, _ = robots.RulesFor("a") },
		"Robots.Sitemaps": func() { robots.Sitemaps() },
		"Rules.Allowed":   func() { rules.Allowed("/") },
		"Rules.Decide":    func() { rules.Decide("/") },
	} {
		if msg := panics(f); !strings.Contains(msg, "used after Close") {
			t.Errorf("%s after Close: panic %q", name, msg)
		}
	}
	var nilRules *robotstxt.Rules
	if msg := panics(func() { nilRules.Allowed("/") }); !strings.Contains(msg, "nil *Rules") {
		t.Errorf("nil rules: %q", msg)
	}
	if msg := panics(func() { robotstxt.Classify(200, 0, robotstxt.AccessPolicy(9)) }); !strings.Contains(msg, "Classify") {
		t.Errorf("Classify with a bad policy: %q", msg)
	}
}

func TestAccessAndEntry(t *testing.T) { // behaviour §6–§7
	if d := robotstxt.Classify(0, 0, robotstxt.Careful); d != robotstxt.DisallowAll || !d.RetryLater() {
		t.Errorf("no response: %v", d)
	}
	if d := robotstxt.Classify(403, 0, robotstxt.StrictRFC); d != robotstxt.AllowAll {
		t.Errorf("strict 403: %v", d)
	}
	if d := robotstxt.Classify(200, 6, robotstxt.Careful); d != robotstxt.AllowAll {
		t.Errorf("six redirects: %v", d)
	}
	if _, _, err := robotstxt.FromOutcome(robotstxt.Response{Status: 200}, robotstxt.Careful, robotstxt.WithParseLimit(1)); !errors.Is(err, robotstxt.ErrParseLimit) {
		t.Errorf("FromOutcome parse limit: %v", err)
	}

	policy := robotstxt.DefaultFreshnessPolicy()
	if policy.FreshFor != 24*time.Hour || policy.Retry != time.Hour || policy.UnreachableLimit != 30*24*time.Hour {
		t.Errorf("default policy %+v", policy)
	}
	bad := policy
	bad.Retry = -time.Second
	if _, err := robotstxt.NewEntry(bad); !errors.Is(err, robotstxt.ErrInvalidOption) {
		t.Errorf("negative retry: %v", err)
	}
	bad = policy
	bad.Parse = []robotstxt.Option{robotstxt.WithParseLimit(10)}
	if _, err := robotstxt.NewEntry(bad); !errors.Is(err, robotstxt.ErrParseLimit) {
		t.Errorf("entry parse limit: %v", err)
	}

	entry, err := robotstxt.NewEntry(policy)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)
	if !entry.Due(t0) {
		t.Error("a new entry is not due")
	}
	if a, r := entry.Answer(t0); a != robotstxt.AnswerDisallowAll || r != nil {
		t.Errorf("no copy: %v", a)
	}
	d := entry.Record(t0, robotstxt.Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /x\n"),
		ETag: `"v1"`, MaxAge: time.Hour, HasMaxAge: true})
	if d != robotstxt.FollowRules {
		t.Errorf("record: %v", d)
	}
	s := entry.State(t0.Add(time.Minute))
	if s.Due || !s.HasCopy || !s.DueAt.Equal(t0.Add(time.Hour)) || !s.FetchedAt.Equal(t0) || s.Validators.ETag != `"v1"` {
		t.Errorf("state %+v", s)
	}
	a, robots := entry.Answer(t0.Add(time.Minute))
	if a != robotstxt.AnswerRules || robots == nil {
		t.Fatalf("answer %v", a)
	}
	entry.Close()
	entry.Close()
	// The copy outlives the entry.
	if mustRules(t, robots, "a").Allowed("/x") {
		t.Error("/x allowed")
	}
	robots.Close()
	if msg := panics(func() { entry.Due(t0) }); !strings.Contains(msg, "used after Close") {
		t.Errorf("entry after Close: %q", msg)
	}
}

func TestNewResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.Redirect(w, r, "/robots.txt", http.StatusFound)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=600")
		w.Header().Set("Retry-After", "120")
		w.Header().Set("ETag", `"abc"`)
		w.Header().Set("Last-Modified", "Mon, 30 Nov 2026 06:00:00 GMT")
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /\n"))
	}))
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/a")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	now := time.Now()
	got := robotstxt.NewResponse(resp, []byte("x"), now)
	want := robotstxt.Response{Status: 200, Redirects: 1, Body: []byte("x"), MaxAge: 10 * time.Minute, HasMaxAge: true,
		RetryAfter: 2 * time.Minute, HasRetryAfter: true, ETag: `"abc"`, LastModified: "Mon, 30 Nov 2026 06:00:00 GMT"}
	if got.Status != want.Status || got.Redirects != want.Redirects || got.MaxAge != want.MaxAge || !got.HasMaxAge ||
		got.RetryAfter != want.RetryAfter || !got.HasRetryAfter || got.ETag != want.ETag || got.LastModified != want.LastModified {
		t.Errorf("NewResponse %+v", got)
	}
	resp.Header.Set("Retry-After", now.Add(90*time.Second).UTC().Format(http.TimeFormat))
	if r := robotstxt.NewResponse(resp, nil, now); r.RetryAfter < 88*time.Second || r.RetryAfter > 90*time.Second {
		t.Errorf("Retry-After as a date: %v", r.RetryAfter)
	}
	if r := robotstxt.NewResponse(nil, nil, now); r.Status != 0 {
		t.Errorf("nil response: %+v", r)
	}
}

func TestVersion(t *testing.T) {
	if v := robotstxt.Version(); v == "" || strings.Count(v, ".") < 2 {
		t.Errorf("version %q", v)
	}
}
