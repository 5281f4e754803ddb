package robotstxt_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

const exampleBody = `User-agent: *
Disallow: /account/

User-agent: NimbuBot
Disallow: /prices/
Allow: /prices/today
Crawl-delay: 2.5

Sitemap: https://bazaar.nimbu.test/sitemap.xml
`

func Example() {
	robots, err := robotstxt.Parse([]byte(exampleBody))
	if err != nil {
		panic(err) // only an option out of range fails
	}
	defer robots.Close()

	rules, err := robots.RulesFor("NimbuBot")
	if err != nil {
		panic(err) // not a product token, such as "NimbuBot/1.0"
	}
	defer rules.Close()

	for _, url := range []string{
		"https://bazaar.nimbu.test/prices/today",
		"https://bazaar.nimbu.test/prices/history",
		"https://bazaar.nimbu.test/account/orders", // the NimbuBot group replaces *
	} {
		fmt.Println(url, rules.Allowed(url))
	}
	delay, _ := rules.CrawlDelay()
	fmt.Println("crawl-delay:", delay)
	fmt.Println("sitemaps:", robots.Sitemaps())
	// Output:
	// https://bazaar.nimbu.test/prices/today true
	// https://bazaar.nimbu.test/prices/history false
	// https://bazaar.nimbu.test/account/orders true
	// crawl-delay: 2.5s
	// sitemaps: [https://bazaar.nimbu.test/sitemap.xml]
}

func ExampleRules_Decide() {
	robots, _ := robotstxt.Parse([]byte(exampleBody))
	rules, _ := robots.RulesFor("NimbuBot")
	d := rules.Decide("/prices/history?currency=eur")
	fmt.Printf("allowed=%v line=%d %s %s\n", d.Allowed, d.Line, d.Kind, d.Pattern)
	// Output: allowed=false line=5 disallow /prices/
}

func ExampleRobots_RulesFor_invalidToken() {
	robots, _ := robotstxt.Parse([]byte(exampleBody))
	_, err := robots.RulesFor("Mozilla/5.0 (compatible; NimbuBot/1.0)")
	var te *robotstxt.TokenError
	fmt.Println(errors.Is(err, robotstxt.ErrInvalidToken), errors.As(err, &te), te.Token)
	// Output: true true Mozilla/5.0 (compatible; NimbuBot/1.0)
}

func ExampleRobots_RulesForStrictest() {
	robots, _ := robotstxt.Parse([]byte("User-agent: GPTBot\nDisallow: /a\n\nUser-agent: CCBot\nDisallow: /b\nCrawl-delay: 5\n"))
	rules, _ := robots.RulesForStrictest("NimbuBot", "GPTBot", "CCBot")
	delay, _ := rules.CrawlDelay()
	fmt.Println(rules.Allowed("/a"), rules.Allowed("/b"), rules.Allowed("/c"), delay)
	// Output: false false true 5s
}

func ExampleParse_options() {
	body := []byte("User-agent: *\nAllow: /dir/index.html\nDisallow: /dir/\n")
	google, _ := robotstxt.Parse(body, robotstxt.WithProfile(robotstxt.Google))
	rfc, _ := robotstxt.Parse(body)
	g, _ := google.RulesFor("ExampleBot")
	r, _ := rfc.RulesFor("ExampleBot")
	fmt.Println("google:", g.Allowed("/dir/"), "rfc:", r.Allowed("/dir/"))

	_, err := robotstxt.Parse(body, robotstxt.WithParseLimit(1000))
	fmt.Println(errors.Is(err, robotstxt.ErrParseLimit))
	// Output:
	// google: true rfc: false
	// true
}

func ExampleRobots_Diagnostics() {
	robots, _ := robotstxt.Parse([]byte("User-agent: *\nDissallow: /x\nCrawl-delay: soon\n"))
	for _, d := range robots.Diagnostics() {
		fmt.Printf("line %d: %s: %s\n", d.Line, d.Kind, d.Flags)
	}
	// Output:
	// line 2: disallow: typo
	// line 3: crawl-delay: invalid-value
}

func ExampleClassify() {
	for _, status := range []int{200, 404, 403, 503, 0} {
		d := robotstxt.Classify(status, 0, robotstxt.Careful)
		fmt.Println(status, d, d.RetryLater())
	}
	// Output:
	// 200 follow_rules false
	// 404 allow_all false
	// 403 disallow_all true
	// 503 disallow_all true
	// 0 disallow_all true
}

func ExampleEntry() {
	entry, _ := robotstxt.NewEntry(robotstxt.DefaultFreshnessPolicy())
	defer entry.Close()
	t0 := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	entry.Record(t0, robotstxt.Response{Status: 200, Body: []byte(exampleBody)})
	entry.Record(t0.Add(24*time.Hour), robotstxt.Response{Status: 503}) // the refresh fails
	s := entry.State(t0.Add(24 * time.Hour))
	answer, robots := entry.Answer(t0.Add(24 * time.Hour)) // the old copy answers
	fmt.Println(answer, robots != nil, s.Failures, s.DueAt.Sub(t0))
	// Output: rules true 1 25h0m0s
}

func ExampleCache_Rules() {
	fetches := 0
	fetch := func(ctx context.Context, req robotstxt.FetchRequest) (robotstxt.Response, error) {
		fetches++ // your HTTP client here; robotstxt.FetchHTTP is one
		return robotstxt.Response{Status: 200, Body: []byte(exampleBody)}, nil
	}
	cache, _ := robotstxt.NewCache(fetch, robotstxt.DefaultCacheOptions())
	defer cache.Close()
	ctx := context.Background()
	for _, url := range []string{"https://bazaar.nimbu.test/prices/today", "https://bazaar.nimbu.test/prices/history"} {
		rules, err := cache.Rules(ctx, url, "NimbuBot")
		if err != nil {
			panic(err)
		}
		fmt.Println(url, rules.Allowed(url))
		rules.Close()
	}
	fmt.Println("fetches:", fetches)
	// Output:
	// https://bazaar.nimbu.test/prices/today true
	// https://bazaar.nimbu.test/prices/history false
	// fetches: 1
}

func ExamplePacer_Reserve() {
	options := robotstxt.DefaultPacerOptions()
	options.Floor = 0
	pacer, _ := robotstxt.NewPacer(options)
	defer pacer.Close()
	robots, _ := robotstxt.Parse([]byte("User-agent: *\nCrawl-delay: 0.25\n"))
	rules, _ := robots.RulesFor("ExampleBot")
	_ = pacer.SetRules("shop.test", rules)
	t0 := time.Unix(1000, 0)
	first, _ := pacer.Reserve("shop.test", t0)
	second, _ := pacer.Reserve("shop.test", t0)
	defer first.Close()
	defer second.Close()
	fmt.Println(first.Start().Sub(t0), second.Start().Sub(t0)) // one gap apart
	c, _ := pacer.Confirm(first, first.Start())
	fmt.Println(c.Kind)
	// The first answers 429 with Retry-After: 60 before the second starts:
	// the second, confirmed at its slot, waits.
	_ = pacer.Record("shop.test", t0.Add(100*time.Millisecond), 429, time.Minute)
	c, _ = pacer.Confirm(second, second.Start())
	fmt.Println(c.Kind, c.Until.Sub(t0))
	c, _ = pacer.Confirm(second, c.Until)
	fmt.Println(c.Kind)
	// Output:
	// 0s 250ms
	// go
	// wait 1m0.1s
	// go
}

func ExamplePacer_Wait() {
	options := robotstxt.DefaultPacerOptions()
	options.Floor = 10 * time.Millisecond
	pacer, _ := robotstxt.NewPacer(options)
	defer pacer.Close()
	for range 3 {
		start, err := pacer.Wait(context.Background(), "shop.test")
		if err != nil {
			return
		}
		// Send the request here, then report how it went: that frees its
		// in-flight place for the next one.
		_ = pacer.Record("shop.test", time.Now(), 200, 0)
		_ = start
	}
	n, _ := pacer.InFlight("shop.test", time.Now())
	fmt.Println("in flight:", n)
	// Output: in flight: 0
}

func ExampleProductToken() {
	for _, ua := range []string{
		"PoliteBot/1.0 (+https://example.com/bot)",
		"Mozilla/5.0 (compatible; PoliteBot/2.1; +https://example.com/bot)",
		"Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0",
	} {
		token, err := robotstxt.ProductToken(ua)
		fmt.Printf("%q %v\n", token, errors.Is(err, robotstxt.ErrInvalidToken))
	}
	// Output:
	// "PoliteBot" false
	// "PoliteBot" false
	// "" true
}

func ExampleRules_Blanket() {
	fetch := func(ctx context.Context, req robotstxt.FetchRequest) (robotstxt.Response, error) {
		return robotstxt.Response{Status: 503, RetryAfter: 10 * time.Minute, HasRetryAfter: true}, nil
	}
	t0 := time.Unix(1000, 0)
	options := robotstxt.DefaultCacheOptions()
	options.Now = func() time.Time { return t0 }
	cache, _ := robotstxt.NewCache(fetch, options)
	defer cache.Close()
	rules, _ := cache.Rules(context.Background(), "https://shop.test/cart", "ExampleBot")
	defer rules.Close()
	d := rules.Decide("https://shop.test/cart")
	b, _ := rules.Blanket()
	at, _ := rules.RetryAt()
	// Not the file's rules: the file is unreachable, so ask again later.
	fmt.Println(d.Allowed, d.Kind, b.Cause, b.Status, at.Sub(t0))
	// Output: false disallow-all status 503 10m0s
}

func ExampleRules_Preferences() {
	robots, _ := robotstxt.Parse([]byte(`User-agent: *
Content-Signal: search=yes, ai-train=no
Content-Usage: train-ai=n
Content-Usage: /blog/ train-ai=y
Clean-param: ref /blog/
`))
	defer robots.Close()
	rules, _ := robots.RulesFor("ExampleBot")
	defer rules.Close()

	p, _ := rules.Preferences("https://a.test/blog/post")
	for _, l := range p.Labels {
		fmt.Printf("%s=%q lines %v\n", l.Label, l.Value, l.Lines)
	}
	// A response's own Content-Usage field combines with the file's answer.
	page, err := p.WithHeader("train-ai=n")
	fmt.Println("with the field:", page.Get("train-ai"), err)
	_, err = p.WithHeader("Train-AI=n")
	fmt.Println(errors.Is(err, robotstxt.ErrInvalidField))

	signal, _ := rules.ContentSignal()
	fmt.Println("ai-train:", signal.Get("ai-train"), "lines", signal.Lines)
	for _, r := range robots.OtherRecords() {
		fmt.Printf("line %d: %s: %s\n", r.Line, r.Key, r.Value)
	}
	// Output:
	// train-ai="y" lines [4]
	// search="" lines []
	// with the field: n <nil>
	// true
	// ai-train: no lines [2]
	// line 5: Clean-param: ref /blog/
}
