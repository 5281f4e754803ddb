package fleet_test

import (
	"context"
	"log"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-engine/robotstxt-go"
	"github.com/robotstxt-engine/robotstxt-go/fleet"
)

// One worker of a fleet asks the fleet's copy of robots.txt, then waits
// for the fleet's next slot for the host. Every worker runs the same code
// against the same Redis and prefix. (Compiled, not run: it needs a Redis
// server.)
func Example() {
	// Bounded retries and timeouts: a call during an outage fails within
	// about a second, and the cache and pacer fail safe.
	client := redis.NewClient(&redis.Options{Addr: "10.0.0.5:6379", MaxRetries: 1, DialerRetries: 1,
		DialTimeout: 400 * time.Millisecond, ReadTimeout: 400 * time.Millisecond, WriteTimeout: 400 * time.Millisecond})
	defer client.Close()
	cacheOptions := fleet.DefaultCacheOptions()
	cacheOptions.Prefix = "crawl:"
	cache, err := fleet.NewCache(client, robotstxt.FetchHTTP(http.DefaultClient, "ExampleBot/1.0"), cacheOptions)
	if err != nil {
		log.Fatal(err)
	}
	defer cache.Close()
	pacerOptions := fleet.DefaultPacerOptions()
	pacerOptions.Prefix = "crawl:"
	pacer, err := fleet.NewPacer(client, pacerOptions)
	if err != nil {
		log.Fatal(err)
	}
	defer pacer.Close()

	ctx := context.Background()
	url, host := "https://bazaar.nimbu.test/prices/today", "bazaar.nimbu.test"
	rules, err := cache.Rules(ctx, url, "ExampleBot") // one fetch per origin for the fleet
	if err != nil {
		log.Fatal(err)
	}
	defer rules.Close()
	if !rules.Allowed(url) {
		return
	}
	if err := pacer.SetRules(ctx, host, rules); err != nil { // the host's crawl delay, for every worker
		log.Fatal(err)
	}
	if _, err := pacer.Wait(ctx, host); err != nil { // fleet.ErrRedis: no slot, no request
		log.Fatal(err)
	}
	status, retry := 0, time.Duration(0) // 0: no response
	if resp, err := http.Get(url); err == nil {
		resp.Body.Close()
		status, retry = resp.StatusCode, robotstxt.NewResponse(resp, nil, time.Now()).RetryAfter
	}
	_ = pacer.Record(ctx, host, status, retry) // a 429 or 503 slows the host down for the fleet
}
