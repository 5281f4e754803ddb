// Command shop checks the practice shop of behaviour §9 through the Go module as
// a user installs it (tools/dist/test-go.sh builds it outside the
// repository): the questions of examples/go/shop, each with the answer the
// table gives. It prints every answer and exits 1 if one is wrong.
//
//	go run . path/to/robots.txt
package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: shop path/to/robots.txt")
		os.Exit(2)
	}
	body, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	robots, err := robotstxt.Parse(body)
	if err != nil {
		panic(err)
	}
	defer robots.Close()

	wrong := 0
	check := func(what, got, want string) {
		mark := "ok"
		if got != want {
			mark, wrong = "WRONG, want "+want, wrong+1
		}
		fmt.Printf("%-70s %-10s %s\n", what, got, mark)
	}
	fmt.Printf("robotstxt %s (Go module), behaviour §9:\n", robotstxt.Version())
	for _, q := range []struct{ token, path, want string }{
		{"NimbuBot", "/prices/today", "allowed"},
		{"NimbuBot", "/prices/history", "disallowed"},
		{"NimbuBot", "/guides/size-chart.pdf", "disallowed"},
		{"NimbuBot", "/guides/size-chart.pdf?print=1", "allowed"},
		{"NimbuBot", "/offers/weekend", "allowed"},
		{"NimbuBot", "/drafts/new-range", "disallowed"},
		{"NimbuBot", "/account/orders", "allowed"},
		{"OtherBot", "/account/orders", "disallowed"},
		{"OtherBot", "/products/?sort=price", "disallowed"},
		{"ArchiveBot", "/robots.txt", "allowed"},
		{"nimbubot", "/%70rices/history", "disallowed"},
		{"Mozilla/5.0 (compatible; NimbuBot/1.0)", "/prices/history", "error"},
	} {
		got := "error"
		rules, err := robots.RulesFor(q.token)
		switch {
		case errors.Is(err, robotstxt.ErrInvalidToken):
		case err != nil:
			got = err.Error()
		case rules.Allowed(q.path):
			got = "allowed"
		default:
			got = "disallowed"
		}
		if rules != nil {
			rules.Close()
		}
		check(q.token+" "+q.path, got, q.want)
	}
	for _, q := range []struct {
		token string
		want  time.Duration
	}{{"NimbuBot", 2500 * time.Millisecond}, {"OtherBot", 2 * time.Second}} {
		rules, err := robots.RulesFor(q.token)
		if err != nil {
			panic(err)
		}
		delay, _ := rules.CrawlDelay()
		rules.Close()
		check("crawl-delay "+q.token, delay.String(), q.want.String())
	}
	check("sitemaps", fmt.Sprint(robots.Sitemaps()), "[https://bazaar.nimbu.test/sitemap.xml]")

	if wrong > 0 {
		fmt.Printf("%d wrong answers\n", wrong)
		os.Exit(1)
	}
}
