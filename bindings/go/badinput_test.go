package robotstxt_test

// The bad-input matrix through Go (SECURITY.md), the same list as
// tests/bad_input.rs, tests/c/test_bad_input.c and
// bindings/node/__test__/bad-input.test.mjs: each input gets a defined
// answer or a clear error, and each misuse a panic that says what was
// wrong; never a crash, a hang or a leak.
//
// Covered elsewhere and not repeated: Robots and Rules after Close and nil
// *Rules (TestCloseAndMisuse), invalid tokens and parse options
// (TestInvalidToken, TestParseOptions), memory under a create/close loop
// (TestCreateCloseLoopMemoryBound).

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

var badProfiles = []robotstxt.Profile{robotstxt.RFC9309, robotstxt.Google}

// ask checks that Decide and Allowed agree and returns the decision.
func badAsk(t *testing.T, rules *robotstxt.Rules, url string) robotstxt.Decision {
	t.Helper()
	d := rules.Decide(url)
	if d.Allowed != rules.Allowed(url) {
		t.Fatalf("%.40q: Decide and Allowed disagree", url)
	}
	if (d.Line == 0) != (d.Pattern == "") {
		t.Fatalf("%.40q: %+v", url, d)
	}
	return d
}

func badParse(t *testing.T, body []byte, profile robotstxt.Profile, limit int) *robotstxt.Robots {
	t.Helper()
	robots, err := robotstxt.Parse(body, robotstxt.WithProfile(profile), robotstxt.WithParseLimit(limit))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(robots.Close)
	return robots
}

// badPanics runs f and returns what it panicked with, as text, or "".
func badPanics(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func badMega(tail string) string { return "/" + strings.Repeat("a", 1_000_000) + tail }

// letters writes n in the letters a-j, so that it is part of a product token.
func badLetters(n int) string {
	return strings.Map(func(r rune) rune { return 'a' + (r - '0') }, fmt.Sprint(n))
}

func TestBadInputBodies(t *testing.T) {
	// The corpus's largest: 3.7 MB in full, 514 KB in the sample, and then
	// a generated 3.7 MB body besides.
	bigName, big := corpus(t).largestRobots(t)
	bigs := map[string][]byte{bigName: big}
	if len(big) < 3_700_000 {
		bigs["generated"] = []byte("User-agent: *\n" + strings.Repeat("Disallow: /generated/path/for/a/big/body/\n", 88_524))
	}
	var hundredK strings.Builder
	hundredK.WriteString("User-agent: *\n")
	for i := 0; i < 100_000; i++ {
		fmt.Fprintf(&hundredK, "Disallow: /p%05d/\n", i)
	}
	var one, many strings.Builder
	for i := 0; i < 10_000; i++ {
		fmt.Fprintf(&one, "User-agent: bot%s\n", badLetters(i))
		fmt.Fprintf(&many, "User-agent: bot%s\nDisallow: /%d/\n", badLetters(i), i)
	}
	one.WriteString("Disallow: /x\n")
	line600k := "User-agent: *\nDisallow: /" + strings.Repeat("a", 600*1024)
	stars := "User-agent: *\nDisallow: /" + strings.Repeat("*a", 5000) +
		"\nAllow: /" + strings.Repeat("*", 5000) + strings.Repeat("a", 5001) + "x$\n"

	for _, profile := range badProfiles {
		t.Run(profile.String(), func(t *testing.T) {
			rfc := profile == robotstxt.RFC9309
			t.Run("nil and empty bodies allow everything", func(t *testing.T) {
				for _, body := range [][]byte{nil, {}} {
					rules := mustRules(t, badParse(t, body, profile, robotstxt.DefaultParseLimit), "ExampleBot")
					for _, url := range []string{"", "/", "/x", "https://a.test/b?c"} {
						if !badAsk(t, rules, url).Allowed {
							t.Errorf("%q disallowed by an empty body", url)
						}
					}
				}
			})
			t.Run("a 3.7 MB body", func(t *testing.T) {
				for name, big := range bigs {
					if len(big) <= robotstxt.DefaultParseLimit {
						t.Fatalf("%s: only %d bytes", name, len(big))
					}
					limited := mustRules(t, badParse(t, big, profile, robotstxt.DefaultParseLimit), "ExampleBot")
					whole := mustRules(t, badParse(t, big, profile, 4<<20), "Googlebot")
					for _, url := range []string{"/", "/robots.txt", "/search?q=x", "https://x.test/a/b"} {
						badAsk(t, limited, url)
						badAsk(t, whole, url)
					}
				}
			})
			t.Run("invalid UTF-8", func(t *testing.T) {
				robots := badParse(t, []byte("User-agent: *\nDisallow: /\xff\xfe\nSitemap: https://s.test/\xff.xml\n"),
					profile, robotstxt.DefaultParseLimit)
				rules := mustRules(t, robots, "ExampleBot")
				// RFC encodes a raw byte like the pattern; Google compares
				// the path as given.
				if got := badAsk(t, rules, "/\xff\xfe/x").Allowed; got != !rfc {
					t.Errorf("raw bytes: allowed %v", got)
				}
				if badAsk(t, rules, "/%FF%FE").Allowed {
					t.Errorf("%q allowed", "/%FF%FE")
				}
				if s := robots.Sitemaps(); len(s) != 1 || s[0] != "https://s.test/\xff.xml" {
					t.Errorf("sitemaps %q", s)
				}
				_, err := robots.RulesFor("Bot\xff")
				if rfc != errors.Is(err, robotstxt.ErrInvalidToken) {
					t.Errorf("token Bot\\xff: %v", err)
				}
			})
			t.Run("NUL bytes", func(t *testing.T) {
				rules := mustRules(t, badParse(t, []byte("User-agent: *\nDisallow: /a\x00b\n"), profile,
					robotstxt.DefaultParseLimit), "ExampleBot")
				// RFC keeps NUL as a byte; Google ends the line at it.
				if got := badAsk(t, rules, "/a").Allowed; got != rfc {
					t.Errorf("/a allowed %v", got)
				}
				if badAsk(t, rules, "/a\x00b").Allowed {
					t.Error("/a\\x00b allowed")
				}
				_, err := badParse(t, nil, profile, robotstxt.DefaultParseLimit).RulesFor("Ex\x00Bot")
				if rfc != errors.Is(err, robotstxt.ErrInvalidToken) {
					t.Errorf("token with NUL: %v", err)
				}
			})
			t.Run("only carriage returns", func(t *testing.T) {
				robots := badParse(t, bytes.Repeat([]byte{'\r'}, 600_000), profile, robotstxt.DefaultParseLimit)
				if d := robots.Diagnostics(); len(d) != 0 {
					t.Errorf("%d diagnostics", len(d))
				}
				if !badAsk(t, mustRules(t, robots, "ExampleBot"), "/").Allowed {
					t.Error("disallowed")
				}
			})
			t.Run("a single 600 KiB line", func(t *testing.T) {
				short := "/" + strings.Repeat("a", 20_000)
				// The limit cuts the line, and a cut line is dropped.
				if !badAsk(t, mustRules(t, badParse(t, []byte(line600k), profile, robotstxt.DefaultParseLimit), "ExampleBot"), short).Allowed {
					t.Error("a line cut by the parse limit was read")
				}
				// Raised: RFC reads it whole; Google cuts it to 16,663 bytes.
				rules := mustRules(t, badParse(t, []byte(line600k), profile, 1<<20), "ExampleBot")
				if got := badAsk(t, rules, short).Allowed; got != rfc {
					t.Errorf("short path allowed %v", got)
				}
				if badAsk(t, rules, line600k[24:]).Allowed {
					t.Error("the whole line's path allowed")
				}
			})
			t.Run("100,000 rules", func(t *testing.T) {
				rules := mustRules(t, badParse(t, []byte(hundredK.String()), profile, 4<<20), "ExampleBot")
				if badAsk(t, rules, "/p99999/x").Allowed || !badAsk(t, rules, "/p100000/").Allowed {
					t.Error("wrong answers")
				}
				if d := badAsk(t, rules, "/p54321/"); d.Line != 54_323 {
					t.Errorf("line %d", d.Line)
				}
			})
			t.Run("10,000 user-agent lines", func(t *testing.T) {
				robots := badParse(t, []byte(one.String()), profile, robotstxt.DefaultParseLimit)
				if badAsk(t, mustRules(t, robots, "BOT"+badLetters(9999)), "/x").Allowed {
					t.Error("the 10,000th name of one group was not selected")
				}
				groups := badParse(t, []byte(many.String()), profile, robotstxt.DefaultParseLimit)
				rules := mustRules(t, groups, "bot"+badLetters(4321))
				if badAsk(t, rules, "/4321/").Allowed || !badAsk(t, rules, "/4322/").Allowed {
					t.Error("wrong group")
				}
				tokens := make([]string, 1000)
				for i := range tokens {
					tokens[i] = "bot" + badLetters(i)
				}
				any, err := groups.RulesForAny(tokens...)
				if err != nil {
					t.Fatal(err)
				}
				defer any.Close()
				if badAsk(t, any, "/999/").Allowed {
					t.Error("merged selection misses a group")
				}
			})
			t.Run("5,000 stars and a 1 MB URL", func(t *testing.T) {
				rules := mustRules(t, badParse(t, []byte(stars), profile, 1<<20), "ExampleBot")
				if d := badAsk(t, rules, badMega("")); d.Allowed || d.Line != 2 {
					t.Errorf("%+v", d)
				}
				if !badAsk(t, rules, "/"+strings.Repeat("ba", 4999)).Allowed {
					t.Error("4,999 a's matched 5,000")
				}
				if d := badAsk(t, rules, badMega("x")); !d.Allowed || d.Line != 3 {
					t.Errorf("%+v", d)
				}
				raw := "/" + strings.Repeat("a", 5000) + strings.Repeat("\xff", 1_000_000)
				if badAsk(t, rules, raw).Allowed {
					t.Error("a megabyte of bytes >= 0x80 allowed")
				}
			})
		})
	}
}

func TestBadInputOptions(t *testing.T) {
	for _, limit := range []int{-1, 0, robotstxt.MinParseLimit - 1, robotstxt.MaxParseLimit + 1} {
		if _, err := robotstxt.Parse(nil, robotstxt.WithParseLimit(limit)); !errors.Is(err, robotstxt.ErrParseLimit) {
			t.Errorf("parse limit %d: %v", limit, err)
		}
	}
	if _, err := robotstxt.Parse(nil, robotstxt.WithProfile(7)); !errors.Is(err, robotstxt.ErrInvalidOption) {
		t.Errorf("profile 7: %v", err)
	}
	bad := []robotstxt.CacheOptions{{Capacity: -1}, {Lease: -time.Second}, {WhenFetching: 9}}
	for _, o := range bad {
		if _, err := robotstxt.NewCache(nil, o); !errors.Is(err, robotstxt.ErrInvalidOption) {
			t.Errorf("NewCache(%+v): %v", o, err)
		}
	}
	policy := robotstxt.DefaultFreshnessPolicy()
	policy.AfterLimit = 9
	if _, err := robotstxt.NewEntry(policy); !errors.Is(err, robotstxt.ErrInvalidOption) {
		t.Errorf("AfterLimit 9: %v", err)
	}
	for _, o := range []robotstxt.PacerOptions{{Floor: -1}, {BackoffCap: -1}, {Capacity: -1}, {MaxInFlight: -1}, {InFlightTimeout: -1}} {
		if _, err := robotstxt.NewPacer(o); !errors.Is(err, robotstxt.ErrInvalidOption) {
			t.Errorf("NewPacer(%+v): %v", o, err)
		}
	}
	pacer, err := robotstxt.NewPacer(robotstxt.DefaultPacerOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer pacer.Close()
	if err := pacer.SetDelay("a.test", -time.Second, robotstxt.RequestRate{}); !errors.Is(err, robotstxt.ErrInvalidArgument) {
		t.Errorf("negative delay: %v", err)
	}
	huge := strings.Repeat("h", 1_000_000)
	for _, host := range []string{"", huge} {
		if _, err := pacer.Reserve(host, time.Now()); !errors.Is(err, robotstxt.ErrInvalidHost) {
			t.Errorf("host of %d bytes: %v", len(host), err)
		}
	}
	cache, err := robotstxt.NewCache(nil, robotstxt.DefaultCacheOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	for _, url := range []string{"", "/x", "example.com/x", "ftp://a/", "https://", "https://a:port/", "https://" + huge + "/"} {
		_, err := cache.Lookup(url, "ExampleBot", time.Now(), robotstxt.WaitForFetch)
		if !errors.Is(err, robotstxt.ErrInvalidURL) || len(err.Error()) > 1000 {
			t.Errorf("URL of %d bytes: %.200v", len(url), err)
		}
	}
	if cache.Len() != 0 {
		t.Errorf("%d origins after failed lookups", cache.Len())
	}
}

// Every handle type: a nil receiver and use after Close panic with a
// message that says so; Close twice does nothing; a lease stored or
// abandoned twice is an error.
func TestBadInputNilClosedAndTwice(t *testing.T) {
	robots := mustParse(t, "User-agent: *\nDisallow: /x\n")
	rules, err := robots.RulesFor("ExampleBot")
	if err != nil {
		t.Fatal(err)
	}
	cache, err := robotstxt.NewCache(nil, robotstxt.DefaultCacheOptions())
	if err != nil {
		t.Fatal(err)
	}
	pacer, err := robotstxt.NewPacer(robotstxt.DefaultPacerOptions())
	if err != nil {
		t.Fatal(err)
	}
	entry, err := robotstxt.NewEntry(robotstxt.DefaultFreshnessPolicy())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	lookup, err := cache.Lookup("https://a.test/", "ExampleBot", now, robotstxt.WaitForFetch)
	if err != nil || lookup.Lease == nil {
		t.Fatalf("%+v %v", lookup, err)
	}
	lease := lookup.Lease
	if _, err := lease.Store(now, robotstxt.Response{Status: 404}); err != nil {
		t.Fatal(err)
	}
	if _, err := lease.Store(now, robotstxt.Response{Status: 200}); !errors.Is(err, robotstxt.ErrInvalidLease) {
		t.Errorf("second Store: %v", err)
	}
	if err := lease.Abandon(); !errors.Is(err, robotstxt.ErrInvalidLease) {
		t.Errorf("Abandon after Store: %v", err)
	}
	lease.Close()
	lease.Close()

	for _, c := range []interface{ Close() }{robots, rules, cache, pacer, entry} {
		c.Close()
		c.Close() // idempotent
	}
	var (
		nilRobots *robotstxt.Robots
		nilRules  *robotstxt.Rules
		nilCache  *robotstxt.Cache
		nilPacer  *robotstxt.Pacer
		nilEntry  *robotstxt.Entry
	)
	for name, c := range map[string]struct {
		call func()
		want string
	}{
		"Robots.Sitemaps after Close":  {func() { robots.Sitemaps() }, "*Robots used after Close"},
		"Rules.Allowed after Close":    {func() { rules.Allowed("/") }, "*Rules used after Close"},
		"Cache.Lookup after Close":     {func() { _, _ = cache.Lookup("https://a.test/", "ExampleBot", now, robotstxt.WaitForFetch) }, "*Cache used after Close"},
		"Pacer.Reserve after Close":    {func() { _, _ = pacer.Reserve("a.test", now) }, "*Pacer used after Close"},
		"Entry.Record after Close":     {func() { entry.Record(now, robotstxt.Response{Status: 200}) }, "*Entry used after Close"},
		"nil Robots.RulesFor":          {func() { _, _ = nilRobots.RulesFor("a") }, "nil *Robots"},
		"nil Rules.Decide":             {func() { nilRules.Decide("/") }, "nil *Rules"},
		"nil Cache.Len":                {func() { nilCache.Len() }, "nil *Cache"},
		"nil Pacer.Gap":                {func() { _, _ = nilPacer.Gap("a.test") }, "nil *Pacer"},
		"nil Entry.Due":                {func() { nilEntry.Due(now) }, "nil *Entry"},
		"nil Entry.Record":             {func() { nilEntry.Record(now, robotstxt.Response{Status: 200}) }, "nil *Entry"},
		"nil Entry.Close":              {func() { nilEntry.Close() }, "nil *Entry"},
		"Robots.Profile after Close":   {func() { robots.Profile() }, "used after Close"},
		"Rules.CrawlDelay after Close": {func() { rules.CrawlDelay() }, "used after Close"},
	} {
		if msg := badPanics(c.call); !strings.Contains(msg, c.want) {
			t.Errorf("%s: panic %q, want %q", name, msg, c.want)
		}
	}
}

// Close, and the other methods, on a nil pointer of every handle type
// panic with a message that names the type, not with a nil dereference.
func TestBadInputNilClose(t *testing.T) {
	var (
		robots *robotstxt.Robots
		rules  *robotstxt.Rules
		cache  *robotstxt.Cache
		lease  *robotstxt.Lease
		pacer  *robotstxt.Pacer
		ticket *robotstxt.Ticket
		entry  *robotstxt.Entry
	)
	live, err := robotstxt.NewPacer(robotstxt.DefaultPacerOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	for name, c := range map[string]struct {
		call func()
		typ  string
	}{
		"Robots.Close":    {func() { robots.Close() }, "*Robots"},
		"Rules.Close":     {func() { rules.Close() }, "*Rules"},
		"Cache.Close":     {func() { cache.Close() }, "*Cache"},
		"Lease.Close":     {func() { lease.Close() }, "*Lease"},
		"Lease.Store":     {func() { _, _ = lease.Store(time.Now(), robotstxt.Response{}) }, "*Lease"},
		"Lease.Abandon":   {func() { _ = lease.Abandon() }, "*Lease"},
		"Lease.Origin":    {func() { _ = lease.Origin() }, "*Lease"},
		"Pacer.Close":     {func() { pacer.Close() }, "*Pacer"},
		"Ticket.Close":    {func() { ticket.Close() }, "*Ticket"},
		"Ticket.Start":    {func() { ticket.Start() }, "*Ticket"},
		"Pacer.Confirm":   {func() { _, _ = live.Confirm(ticket, time.Now()) }, "*Ticket"},
		"Pacer.Cancel":    {func() { live.Cancel(ticket) }, "*Ticket"},
		"Entry.Close":     {func() { entry.Close() }, "*Entry"},
		"Rules.Blanket":   {func() { rules.Blanket() }, "*Rules"},
		"Rules.RetryAt":   {func() { rules.RetryAt() }, "*Rules"},
		"Pacer.InFlight":  {func() { _, _ = pacer.InFlight("a.test", time.Now()) }, "*Pacer"},
		"Pacer.Reserve":   {func() { _, _ = pacer.Reserve("a.test", time.Now()) }, "*Pacer"},
		"Cache.Lookup":    {func() { _, _ = cache.Lookup("https://a.test/", "ExampleBot", time.Now(), robotstxt.WaitForFetch) }, "*Cache"},
		"Robots.RulesFor": {func() { _, _ = robots.RulesFor("ExampleBot") }, "*Robots"},
	} {
		if msg, want := badPanics(c.call), "robotstxt: method called on a nil "+c.typ; msg != want {
			t.Errorf("%s on nil: panic %q, want %q", name, msg, want)
		}
	}
}
