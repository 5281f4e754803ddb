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

	"github.com/robotstxt-engine/robotstxt-go"
)

// Crawl fetches, all at once, every URL that robots.txt allows for the
// crawler named in userAgent, spaced per host by its crawl delay (1 s at
// least), one request per host at a time, and hands each response to visit,
// from many goroutines.
func Crawl(ctx context.Context, client *http.Client, userAgent string, urls []string, visit func(*http.Response)) error {
	token, err := robotstxt.ProductToken(userAgent) // "ExampleBot/1.0 (+https://…)" -> "ExampleBot"
	if err != nil {
		return err
	}
	cache, _ := robotstxt.NewCache(robotstxt.FetchHTTP(client, userAgent), robotstxt.DefaultCacheOptions())
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
			req.Header.Set("User-Agent", userAgent)
			if _, err := pacer.Wait(ctx, u.Host); err != nil { // its slot, after any backoff
				return
			}
			status, retry := 0, time.Duration(0) // 0: no response
			if resp, err := client.Do(req); err == nil {
				visit(resp)
				resp.Body.Close()
				status, retry = resp.StatusCode, robotstxt.NewResponse(resp, nil, time.Now()).RetryAfter
			}
			_ = pacer.Record(u.Host, time.Now(), status, retry) // ended: 429 and 503 slow the host down
		})
	}
	wg.Wait()
	return nil
}
