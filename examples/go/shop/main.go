// Command shop answers the practice shop of behaviour §9 through the Go binding:
// go run ./shop [path/to/robots.txt] (default: examples/shop/robots.txt).
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/robotstxt-engine/robotstxt-go"
)

func main() {
	path := "../shop/robots.txt"
	if len(os.Args) > 1 {
		path = os.Args[1]
	}
	body, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	robots, err := robotstxt.Parse(body) // RFC 9309 profile; err only for a bad option
	if err != nil {
		panic(err)
	}
	defer robots.Close()

	fmt.Printf("== Go: robotstxt %s over %s (behaviour §9) ==\n", robotstxt.Version(), path)
	for _, q := range []struct{ token, path string }{
		{"NimbuBot", "/prices/today"},
		{"NimbuBot", "/prices/history"},
		{"NimbuBot", "/guides/size-chart.pdf"},
		{"NimbuBot", "/guides/size-chart.pdf?print=1"},
		{"NimbuBot", "/offers/weekend"},
		{"NimbuBot", "/drafts/new-range"},
		{"NimbuBot", "/account/orders"},
		{"OtherBot", "/account/orders"},
		{"OtherBot", "/products/?sort=price"},
		{"ArchiveBot", "/robots.txt"},
		{"nimbubot", "/%70rices/history"},
		{"Mozilla/5.0 (compatible; NimbuBot/1.0)", "/prices/history"},
	} {
		rules, err := robots.RulesFor(q.token)
		if errors.Is(err, robotstxt.ErrInvalidToken) {
			fmt.Printf("%-40s %-32s error: %v\n", q.token, q.path, err)
			continue
		}
		d := rules.Decide(q.path)
		verdict := "disallowed"
		if d.Allowed {
			verdict = "allowed"
		}
		if d.Kind == robotstxt.NoRule {
			fmt.Printf("%-40s %-32s %-10s (no rule)\n", q.token, q.path, verdict)
		} else {
			fmt.Printf("%-40s %-32s %-10s (line %d: %s %s)\n", q.token, q.path, verdict, d.Line, d.Kind, d.Pattern)
		}
		rules.Close()
	}
	for _, token := range []string{"NimbuBot", "OtherBot"} {
		rules, _ := robots.RulesFor(token)
		delay, _ := rules.CrawlDelay()
		fmt.Printf("crawl-delay %s: %v\n", token, delay)
		rules.Close()
	}
	fmt.Println("sitemaps:", robots.Sitemaps())
}
