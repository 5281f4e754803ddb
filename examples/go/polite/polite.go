// Package polite is a polite crawler in 30 lines: the robots.txt cache, the
// per-host pacer and the rules together. Its test runs it against a local
// server.
package polite

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"

	"robotstxt.dev/go/robotstxt"
)

// Crawl fetches, all at once, every URL that robots.txt allows for token,
// spaced per host by its crawl delay (1 s at least), and hands each response
// to visit, from many goroutines.
func Crawl(ctx context.Context, client *http.Client, token string, urls []string, visit func(*http.Response)) {
	cache, _ := robotstxt.NewCache(robotstxt.FetchHTTP(client, token), robotstxt.DefaultCacheOptions())
	pacer, _ := robotstxt.NewPacer(robotstxt.DefaultPacerOptions())
	defer cache.Close()
	defer pacer.Close()
	var wg sync.WaitGroup
	for _, raw := range urls {
		wg.Go(func() {
			rules, err := cache.Rules(ctx, raw, token) // robots.txt fetched once per origin
			u, perr := url.Parse(raw)
			if err != nil || perr != nil || !rules.Allowed(raw) || pacer.SetRules(u.Host, rules) != nil {
				return
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
			req.Header.Set("User-Agent", token)
			if _, err := pacer.Wait(ctx, u.Host); err != nil {
				return
			}
			resp, err := client.Do(req)
			if err != nil {
				return
			}
			defer resp.Body.Close()
			retry := robotstxt.NewResponse(resp, nil, time.Now()).RetryAfter // 429, 503 slow the host down
			_ = pacer.Record(u.Host, time.Now(), resp.StatusCode, retry)
			visit(resp)
		})
	}
	wg.Wait()
}
