package robotstxt_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

// One Robots and one Rules shared by many goroutines, which also select
// their own rules from it, give the single-threaded answers.
func TestConcurrentUse(t *testing.T) {
	robots := mustParse(t, shopBody)
	shared := mustRules(t, robots, "NimbuBot")
	paths := []string{"/prices/today", "/prices/history", "/guides/size-chart.pdf", "/offers/weekend", "/drafts/x", "/account/orders"}
	want := make([]robotstxt.Decision, len(paths))
	for i, p := range paths {
		want[i] = shared.Decide(p)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own, err := robots.RulesFor("NimbuBot")
			if err != nil {
				errs <- err
				return
			}
			defer own.Close()
			for i := range 500 {
				k := (i + g) % len(paths)
				if d := shared.Decide(paths[k]); d != want[k] {
					errs <- fmt.Errorf("goroutine %d: %s: %+v, want %+v", g, paths[k], d, want[k])
					return
				}
				if own.Allowed(paths[k]) != want[k].Allowed {
					errs <- fmt.Errorf("goroutine %d: own rules differ on %s", g, paths[k])
					return
				}
			}
			if _, err := robots.RulesFor("bad token"); !errors.Is(err, robotstxt.ErrInvalidToken) {
				errs <- fmt.Errorf("goroutine %d: %v", g, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// 64 goroutines ask for 100 origins at once: each origin is fetched exactly
// once, and no answer ever allows a URL the rules disallow.
func TestCacheSingleFlight(t *testing.T) {
	for _, when := range []robotstxt.WhenFetching{robotstxt.WaitForFetch, robotstxt.DisallowWhileFetching} {
		t.Run(fmt.Sprint(when), func(t *testing.T) {
			const goroutines, origins = 64, 100
			var calls [origins]atomic.Int32
			fetch := func(ctx context.Context, req robotstxt.FetchRequest) (robotstxt.Response, error) {
				u, err := url.Parse(req.URL)
				if err != nil || u.Path != "/robots.txt" {
					return robotstxt.Response{}, fmt.Errorf("bad fetch URL %q", req.URL)
				}
				var n int
				fmt.Sscanf(u.Hostname(), "o%d.test", &n)
				calls[n].Add(1)
				time.Sleep(5 * time.Millisecond) // let the others pile up
				return robotstxt.Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /private/\n")}, nil
			}
			options := robotstxt.DefaultCacheOptions()
			options.WhenFetching = when
			cache, err := robotstxt.NewCache(fetch, options)
			if err != nil {
				t.Fatal(err)
			}
			defer cache.Close()
			start := make(chan struct{})
			var wg sync.WaitGroup
			var blanket atomic.Int32
			errs := make(chan error, goroutines)
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					for _, n := range rand.Perm(origins) {
						u := fmt.Sprintf("https://o%d.test/private/page-%d", n, g)
						rules, err := cache.Rules(context.Background(), u, "ExampleBot")
						if err != nil {
							errs <- err
							return
						}
						if rules.Allowed(u) {
							errs <- fmt.Errorf("%s allowed", u)
						}
						if !rules.Allowed("/public") {
							blanket.Add(1) // only a disallow-all while fetching
						}
						rules.Close()
					}
				}()
			}
			close(start)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			for n := range origins {
				if c := calls[n].Load(); c != 1 {
					t.Errorf("origin %d fetched %d times", n, c)
				}
			}
			stats := cache.Stats()
			if stats.Fetches != origins || stats.Entries != origins || cache.Len() != origins {
				t.Errorf("stats %+v", stats)
			}
			if when == robotstxt.WaitForFetch && blanket.Load() != 0 {
				t.Errorf("%d disallow-all answers while waiting for fetches", blanket.Load())
			}
			t.Logf("%+v; %d disallow-all answers while fetching", stats, blanket.Load())
		})
	}
}

// A fetch cut short by its context is given back: the caller gets the
// context's error and the next caller fetches.
func TestCacheContext(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	fetch := func(ctx context.Context, req robotstxt.FetchRequest) (robotstxt.Response, error) {
		if calls.Add(1) == 1 {
			<-ctx.Done() // the first fetch hangs until cancelled
			return robotstxt.Response{}, ctx.Err()
		}
		<-release
		return robotstxt.Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /x\n")}, nil
	}
	cache, err := robotstxt.NewCache(fetch, robotstxt.DefaultCacheOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := cache.Rules(ctx, "https://a.test/x", "ExampleBot"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hung fetch: %v", err)
	}
	// The second caller fetches (the lease was given back) while a third
	// waits, then gives up.
	done := make(chan error, 1)
	go func() {
		rules, err := cache.Rules(context.Background(), "https://a.test/y", "ExampleBot")
		if err == nil && rules.Allowed("/x") {
			err = errors.New("/x allowed")
		}
		done <- err
	}()
	for calls.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	waitCtx, cancelWait := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancelWait() }()
	if _, err := cache.Rules(waitCtx, "https://A.TEST:443/z", "ExampleBot"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled waiter: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Error(err)
	}
	if calls.Load() != 2 {
		t.Errorf("%d fetches", calls.Load())
	}
	// Errors the caller can cause.
	if _, err := cache.Rules(context.Background(), "/relative", "ExampleBot"); !errors.Is(err, robotstxt.ErrInvalidURL) {
		t.Errorf("relative URL: %v", err)
	}
	if _, err := cache.Rules(context.Background(), "https://a.test/", "Bad/1.0"); !errors.Is(err, robotstxt.ErrInvalidToken) {
		t.Errorf("bad token: %v", err)
	}
}

// A fetch error is no response (behaviour §6): disallow everything for now.
func TestCacheFetchError(t *testing.T) {
	cache, err := robotstxt.NewCache(func(context.Context, robotstxt.FetchRequest) (robotstxt.Response, error) {
		return robotstxt.Response{}, errors.New("connection refused")
	}, robotstxt.DefaultCacheOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	rules, err := cache.Rules(context.Background(), "http://down.test/a", "ExampleBot")
	if err != nil || rules.Allowed("/a") {
		t.Fatalf("unreachable origin: %v", err)
	}
	lease := mustLease(t, cache, "http://other.test/", time.Unix(0, 0))
	if _, err := lease.Store(time.Unix(0, 0), robotstxt.Response{Status: 404}); err != nil {
		t.Fatal(err)
	}
	if _, err := lease.Store(time.Unix(0, 0), robotstxt.Response{Status: 404}); !errors.Is(err, robotstxt.ErrInvalidLease) {
		t.Errorf("second store: %v", err)
	}
	if err := lease.Abandon(); !errors.Is(err, robotstxt.ErrInvalidLease) {
		t.Errorf("abandon after store: %v", err)
	}
	lease.Close()
}

func mustLease(t *testing.T, cache *robotstxt.Cache, u string, now time.Time) *robotstxt.Lease {
	t.Helper()
	l, err := cache.Lookup(u, "ExampleBot", now, robotstxt.WaitForFetch)
	if err != nil || l.Kind != robotstxt.LookupFetch {
		t.Fatalf("lookup %s: %+v %v", u, l, err)
	}
	return l.Lease
}

// Requests to one host with Crawl-delay: 0.25 start at least 250 ms apart by
// the pacer's clock, whatever the number of workers; each is recorded when
// it ends, which lets the next one go (one in flight).
func TestPacerWait(t *testing.T) {
	robots := mustParse(t, "User-agent: *\nCrawl-delay: 0.25\n")
	rules := mustRules(t, robots, "ExampleBot")
	options := robotstxt.DefaultPacerOptions()
	options.Floor = 0
	var clockCalls atomic.Int64
	options.Now = func() time.Time { clockCalls.Add(1); return time.Now() }
	pacer, err := robotstxt.NewPacer(options)
	if err != nil {
		t.Fatal(err)
	}
	defer pacer.Close()
	if err := pacer.SetRules("shop.test", rules); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 8} {
		const requests = 8
		var mu sync.Mutex
		var starts []time.Time
		var wg sync.WaitGroup
		jobs := make(chan int, requests)
		for i := range requests {
			jobs <- i
		}
		close(jobs)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range jobs {
					start, err := pacer.Wait(context.Background(), "SHOP.test")
					if err != nil {
						t.Error(err)
						return
					}
					if now := options.Now(); now.Before(start) {
						t.Errorf("Wait returned at %v, before its slot %v", now, start)
					}
					// The request ends: its in-flight place is free again.
					if err := pacer.Record("shop.test", options.Now(), 200, 0); err != nil {
						t.Error(err)
					}
					mu.Lock()
					starts = append(starts, start)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
		if len(starts) != requests {
			t.Fatalf("%d workers: %d starts", workers, len(starts))
		}
		for i := 1; i < len(starts); i++ {
			if gap := starts[i].Sub(starts[i-1]); gap < 250*time.Millisecond {
				t.Errorf("%d workers: starts %d and %d are %v apart", workers, i-1, i, gap)
			}
		}
	}
	if clockCalls.Load() == 0 {
		t.Error("the pacer did not use its clock")
	}

	// A cancelled wait returns at once; a switched-off host fails.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := pacer.Record("slow.test", time.Now(), 429, time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := pacer.Wait(ctx, "slow.test"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("wait past Retry-After: %v", err)
	}
	if err := pacer.SetEnabled("off.test", false); err != nil {
		t.Fatal(err)
	}
	if _, err := pacer.Wait(context.Background(), "off.test"); !errors.Is(err, robotstxt.ErrHostDisabled) {
		t.Errorf("switched-off host: %v", err)
	}
	if _, err := pacer.Wait(context.Background(), ""); !errors.Is(err, robotstxt.ErrInvalidHost) {
		t.Errorf("empty host: %v", err)
	}
	if err := pacer.SetDelay("a.test", -time.Second, robotstxt.RequestRate{}); !errors.Is(err, robotstxt.ErrInvalidArgument) {
		t.Errorf("negative delay: %v", err)
	}
	if err := pacer.SetDelay("a.test", 0, robotstxt.RequestRate{Requests: 0, Seconds: 5}); !errors.Is(err, robotstxt.ErrInvalidArgument) {
		t.Errorf("rate of 0 requests: %v", err)
	}
}

// Close while the collector runs all the time: a handle freed by Close
// must never be freed again by its cleanup (which Close stops; the object
// must stay reachable until that is done). A double free aborts the test
// binary.
func TestCloseRacesNoCleanup(t *testing.T) {
	stop := make(chan struct{})
	var collector sync.WaitGroup
	collector.Add(1)
	go func() {
		defer collector.Done()
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2000 {
				robots, err := robotstxt.Parse([]byte(shopBody))
				if err != nil {
					t.Error(err)
					return
				}
				rules, err := robots.RulesFor("NimbuBot")
				if err != nil {
					t.Error(err)
					return
				}
				robots.Close()
				rules.Close()
				pacer, err := robotstxt.NewPacer(robotstxt.DefaultPacerOptions())
				if err != nil {
					t.Error(err)
					return
				}
				pacer.Close()
				cache, err := robotstxt.NewCache(nil, robotstxt.DefaultCacheOptions())
				if err != nil {
					t.Error(err)
					return
				}
				cache.Close()
			}
		}()
	}
	wg.Wait()
	close(stop)
	collector.Wait()
}
