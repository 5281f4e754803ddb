// Command fleetworker is one worker of a crawler fleet: it takes URLs from
// a Redis list and fetches those the site's robots.txt allows, paced per
// host with the rest of the fleet (fleet.Cache, fleet.Pacer). The
// Node.js and Python workers take the same arguments and behave alike;
// tests/fleet runs them together.
//
//	fleetworker --redis-port P --prefix X --queue KEY --id NAME
//	  --token ExampleBot --deadline-ms N [--lease-ms N] [--retry-ms N]
//	  [--floor-ms N] [--in-flight-timeout-ms N]
//
// Prints one JSON line per URL: {"id", "event": "fetch" | "skip" |
// "redis-error", "url", "status"}. An empty queue ends the worker once the
// key <queue>:done is set (whoever fills the queue sets it); until then it
// looks again every 100 ms, as URLs may come back (a 429, a 503). It ends
// at the deadline in any case, and exits 0.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-engine/robotstxt-go"
	"github.com/robotstxt-engine/robotstxt-go/fleet"
)

type worker struct {
	id, token, queue, userAgent string
	redis                       *redis.Client
	http                        *http.Client
	cache                       *fleet.Cache
	pacer                       *fleet.Pacer
	// The pace each host was last set from, as "delay/rate": once per copy.
	paced map[string]string
}

func main() {
	port := flag.Int("redis-port", 0, "the Redis server's port on 127.0.0.1 (required)")
	prefix := flag.String("prefix", "", "the fleet's key prefix (required)")
	queue := flag.String("queue", "", "the Redis list of URLs to crawl (required)")
	id := flag.String("id", "", "this worker's name (required)")
	token := flag.String("token", "ExampleBot", "the crawler's product token")
	deadlineMS := flag.Int64("deadline-ms", 0, "how long to run, in ms (required)")
	leaseMS := flag.Int64("lease-ms", 60_000, "how long the fleet's lease on a robots.txt fetch lasts unless renewed, in ms")
	retryMS := flag.Int64("retry-ms", 3_600_000, "when to fetch a robots.txt again after a failure, in ms")
	floorMS := flag.Int64("floor-ms", 1000, "the smallest gap between two requests to a host, in ms")
	inFlightTimeoutMS := flag.Int64("in-flight-timeout-ms", 120_000, "when an unreported request frees its place, in ms")
	flag.Parse()
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range []string{"redis-port", "prefix", "queue", "id", "deadline-ms"} {
		if !set[name] {
			fmt.Fprintf(os.Stderr, "fleetworker: --%s is required\n", name)
			os.Exit(2)
		}
	}
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	deadline := time.Now().Add(ms(*deadlineMS))

	w := &worker{id: *id, token: *token, queue: *queue, userAgent: fmt.Sprintf("%s/1.0 (worker %s)", *token, *id),
		paced: map[string]string{}}
	// Calls fail at once while Redis is down (the worker retries), and the
	// client reconnects when it is back.
	w.redis = redis.NewClient(&redis.Options{
		Addr: "127.0.0.1:" + strconv.Itoa(*port), MaxRetries: 1, DialerRetries: 1,
		DialTimeout: 500 * time.Millisecond, ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second,
		DisableIdentity: true,
	})
	defer w.redis.Close()
	// Redirects are answers, not followed: as the other workers do.
	w.http = &http.Client{Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	options := fleet.DefaultCacheOptions()
	options.Prefix, options.Lease = *prefix, ms(*leaseMS)
	options.Policy.Retry = ms(*retryMS)
	cache, err := fleet.NewCache(w.redis, robotstxt.FetchHTTP(w.http, w.userAgent), options)
	if err != nil {
		fatal(err)
	}
	defer cache.Close()
	w.cache = cache

	pacing := fleet.DefaultPacerOptions()
	pacing.Prefix, pacing.Floor, pacing.InFlightTimeout = *prefix, ms(*floorMS), ms(*inFlightTimeoutMS)
	pacer, err := fleet.NewPacer(w.redis, pacing)
	if err != nil {
		fatal(err)
	}
	defer pacer.Close()
	w.pacer = pacer

	ctx := context.Background()
	for time.Now().Before(deadline) {
		target, err := w.redis.LPop(ctx, w.queue).Result()
		if errors.Is(err, redis.Nil) {
			done, err := w.redis.Exists(ctx, w.queue+":done").Result()
			if err == nil && done > 0 {
				break
			}
			if err != nil {
				w.redisError(ctx, "", err)
				continue
			}
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if err != nil {
			w.redisError(ctx, "", err)
			continue
		}
		if err := w.crawl(ctx, target); err != nil {
			if !isRedisError(err) {
				fatal(err)
			}
			w.redisError(ctx, target, err)
		}
	}
}

// crawl fetches target if its robots.txt allows it, paced with the fleet.
func (w *worker) crawl(ctx context.Context, target string) error {
	rules, err := w.cache.Rules(ctx, target, w.token)
	if err != nil {
		return err
	}
	defer rules.Close()
	if b, ok := rules.Blanket(); ok && !b.Allowed {
		// robots.txt could not be read (a 5xx, no response): nothing may be
		// fetched now; the URL waits for the retry.
		w.say("later", "url", target)
		time.Sleep(100 * time.Millisecond)
		return w.redis.RPush(ctx, w.queue, target).Err()
	}
	if !rules.Allowed(target) {
		w.say("skip", "url", target)
		return nil
	}
	u, err := url.Parse(target)
	if err != nil {
		return err
	}
	host := u.Host // with the port: each port is its own host
	delay, _ := rules.CrawlDelay()
	rate, _ := rules.RequestRate()
	pace := fmt.Sprintf("%v/%v", delay, rate)
	if w.paced[host] != pace {
		if err := w.pacer.SetRules(ctx, host, rules); err != nil {
			return err
		}
		w.paced[host] = pace
	}
	if _, err := w.pacer.Wait(ctx, host); err != nil {
		return err
	}
	status, retryAfter := w.get(ctx, target)
	if err := w.pacer.Record(ctx, host, status, retryAfter); err != nil {
		return err
	}
	var got *int // null: no response
	if status != 0 {
		got = &status
	}
	w.say("fetch", "url", target, "status", got)
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		return w.redis.RPush(ctx, w.queue, target).Err()
	}
	return nil
}

// get fetches target: its status (0: no response) and Retry-After.
func (w *worker) get(ctx context.Context, target string) (int, time.Duration) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, 0
	}
	req.Header.Set("User-Agent", w.userAgent)
	resp, err := w.http.Do(req)
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, robotstxt.NewResponse(resp, nil, time.Now()).RetryAfter
}

// redisError reports a failed Redis call, puts the URL taken (if any) back
// on the queue, and pauses.
func (w *worker) redisError(ctx context.Context, target string, err error) {
	var taken *string // null: none taken yet
	if target != "" {
		taken = &target
		_ = w.redis.RPush(ctx, w.queue, target).Err()
	}
	w.say("redis-error", "url", taken, "message", err.Error())
	time.Sleep(100 * time.Millisecond)
}

func isRedisError(err error) bool {
	return errors.Is(err, fleet.ErrRedis) || errors.As(err, new(redis.Error)) || isNetError(err)
}

// isNetError: a call the client could not make or finish (refused,
// reset, timed out, pool closed).
func isNetError(err error) bool {
	var op interface{ Timeout() bool }
	return errors.As(err, &op) || errors.Is(err, redis.ErrClosed) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF)
}

// say prints one line of output: {"id", "event", then fields, in pairs of
// name and value}; a nil *string or *int is null.
func (w *worker) say(event string, fields ...any) {
	line := []byte(`{"id":`)
	line = appendJSON(line, w.id)
	line = append(line, `,"event":`...)
	line = appendJSON(line, event)
	for i := 0; i+1 < len(fields); i += 2 {
		line = append(line, ',')
		line = appendJSON(line, fields[i])
		line = append(line, ':')
		line = appendJSON(line, fields[i+1])
	}
	fmt.Println(string(append(line, '}')))
}

func appendJSON(line []byte, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		fatal(err)
	}
	return append(line, data...)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "fleetworker:", err)
	os.Exit(1)
}
