package fleet_test

// A fleet's shared state through a real Redis server: workers fetch each
// robots.txt once and pace each host as one crawler; Redis down fails
// safe (the shared vectors are in vectors_test.go). The server is Debian's
// redis-server that `make redis` unpacks under build/redis (or
// $ROBOTSTXT_REDIS_SERVER), started per test on 127.0.0.1 and a free port,
// and stopped by its pid.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-engine/robotstxt-go"
	"github.com/robotstxt-engine/robotstxt-go/fleet"
)

// redisServer is a redis-server this test started.
type redisServer struct {
	port int
	cmd  *exec.Cmd
	done chan struct{}
}

func redisBinary(t *testing.T) string {
	t.Helper()
	path := os.Getenv("ROBOTSTXT_REDIS_SERVER")
	if path == "" {
		path = filepath.Join("..", "..", "..", "build", "redis", "redis-server")
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no redis-server at %s (%v): run `make redis` first (make go-test does), "+
			"or point ROBOTSTXT_REDIS_SERVER at one", path, err)
	}
	return path
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startRedis starts a server, stopped (by its pid) when the test ends.
func startRedis(t *testing.T) *redisServer {
	t.Helper()
	return startRedisOn(t, freePort(t))
}

// startRedisOn starts a server on port, empty.
func startRedisOn(t *testing.T, port int) *redisServer {
	t.Helper()
	bin := redisBinary(t)
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--daemonize", "no")
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	s := &redisServer{port: port, cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(s.stop)
	for deadline := time.Now().Add(10 * time.Second); ; {
		if answersPing(s.addr()) {
			return s
		}
		select {
		case <-s.done:
			t.Fatalf("redis-server exited before it listened on %d", port)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server did not listen on %d", port)
		}
	}
}

// answersPing tells whether the server is ready: a TCP connect alone is not
// enough, as a server just started can reset its first client.
func answersPing(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Second))
	if _, err := conn.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	answer := make([]byte, 7)
	_, err = io.ReadFull(conn, answer)
	return err == nil && string(answer) == "+PONG\r\n"
}

func (s *redisServer) addr() string { return fmt.Sprintf("127.0.0.1:%d", s.port) }

// stop kills the server by its pid and waits until it has exited.
func (s *redisServer) stop() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Kill()
	<-s.done
}

// countingClient is a Redis client that counts the scripts it runs.
type countingClient struct {
	*redis.Client
	runs atomic.Int64
}

func (c *countingClient) EvalSha(ctx context.Context, sha string, keys []string, args ...any) *redis.Cmd {
	c.runs.Add(1)
	return c.Client.EvalSha(ctx, sha, keys, args...)
}

func newClient(t *testing.T, addr string) *countingClient {
	t.Helper()
	c := redis.NewClient(&redis.Options{
		Addr: addr, MaxRetries: -1, DialTimeout: time.Second, ReadTimeout: 2 * time.Second,
		WriteTimeout: 2 * time.Second, DisableIdentity: true, DialerRetries: 1,
	})
	t.Cleanup(func() { c.Close() })
	return &countingClient{Client: c}
}

var prefixes atomic.Int64

// testPrefix is a key prefix no other test uses.
func testPrefix() string { return fmt.Sprintf("test%d:", prefixes.Add(1)) }

// countingFetch answers from fixed outcomes after a delay, and counts its
// calls.
type countingFetch struct {
	mu      sync.Mutex
	calls   []string
	delay   time.Duration
	answers map[string]func() (robotstxt.Response, error)
}

func (f *countingFetch) fetch(ctx context.Context, req robotstxt.FetchRequest) (robotstxt.Response, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req.URL)
	answer := f.answers[req.URL]
	f.mu.Unlock()
	select {
	case <-time.After(f.delay):
	case <-ctx.Done():
		return robotstxt.Response{}, ctx.Err()
	}
	if answer == nil {
		return robotstxt.Response{}, errors.New("connection refused")
	}
	return answer()
}

func (f *countingFetch) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

func fixed(resp robotstxt.Response) func() (robotstxt.Response, error) {
	return func() (robotstxt.Response, error) { return resp, nil }
}

const shopRobots = "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.5\n"

func newCache(t *testing.T, client redis.Scripter, fetch robotstxt.FetchFunc,
	edit func(*fleet.CacheOptions)) *fleet.Cache {
	t.Helper()
	options := fleet.DefaultCacheOptions()
	if edit != nil {
		edit(&options)
	}
	cache, err := fleet.NewCache(client, fetch, options)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cache.Close)
	return cache
}

func cacheRules(t *testing.T, cache *fleet.Cache, url string) *robotstxt.Rules {
	t.Helper()
	rules, err := cache.Rules(context.Background(), url, "ExampleBot")
	if err != nil {
		t.Fatalf("Rules(%s): %v", url, err)
	}
	t.Cleanup(rules.Close)
	return rules
}

func TestCacheOneFetchPerOrigin(t *testing.T) {
	server := startRedis(t)
	prefix := testPrefix()
	fetch := &countingFetch{delay: 30 * time.Millisecond, answers: map[string]func() (robotstxt.Response, error){
		"https://a.test/robots.txt": fixed(robotstxt.Response{Status: 200, Body: []byte(shopRobots)}),
		"https://b.test/robots.txt": fixed(robotstxt.Response{Status: 404}),
	}}
	clients := []*countingClient{newClient(t, server.addr()), newClient(t, server.addr())}
	workers := make([]*fleet.Cache, 2)
	for i := range workers {
		workers[i] = newCache(t, clients[i], fetch.fetch, func(o *fleet.CacheOptions) { o.Prefix = prefix })
	}
	type asked struct {
		origin string
		rules  *robotstxt.Rules
		err    error
	}
	var wg sync.WaitGroup
	answers := make(chan asked, 40)
	for i := 0; i < 10; i++ {
		for _, worker := range workers {
			for _, origin := range []string{"https://a.test", "https://b.test"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rules, err := worker.Rules(context.Background(), fmt.Sprintf("%s/private/%d", origin, i), "ExampleBot")
					answers <- asked{origin, rules, err}
				}()
			}
		}
	}
	wg.Wait()
	close(answers)
	calls := slices.Sorted(slices.Values(fetch.calls))
	if !slices.Equal(calls, []string{"https://a.test/robots.txt", "https://b.test/robots.txt"}) {
		t.Errorf("fetches %v, want one per origin", calls)
	}
	n := 0
	for a := range answers {
		n++
		if a.err != nil {
			t.Fatalf("%s: %v", a.origin, a.err)
		}
		delay, _ := a.rules.CrawlDelay()
		switch a.origin {
		case "https://a.test":
			if a.rules.Allowed("/private/x") || delay != 500*time.Millisecond {
				t.Errorf("a.test: /private/x allowed %v, delay %v", a.rules.Allowed("/private/x"), delay)
			}
		default:
			if !a.rules.Allowed("/private/x") { // 404: allow all
				t.Errorf("b.test: /private/x disallowed")
			}
		}
		a.rules.Close()
	}
	if n != 40 {
		t.Errorf("%d answers, want 40", n)
	}
	// Later questions need no Redis call and no fetch.
	runs := clients[1].runs.Load()
	rules := cacheRules(t, workers[1], "https://a.test/")
	if _, blanket := rules.Blanket(); blanket || clients[1].runs.Load() != runs || fetch.count() != 2 {
		t.Errorf("a later question: blanket %v, %d more scripts, %d fetches", blanket, clients[1].runs.Load()-runs, fetch.count())
	}
	if workers[0].Len() != 2 {
		t.Errorf("worker 0 holds %d copies, want 2", workers[0].Len())
	}
	stats := workers[0].Stats()
	if stats.Entries != 2 || stats.RedisErrors != 0 || stats.Fetches > 2 {
		t.Errorf("stats %+v", stats)
	}
	for _, worker := range workers {
		worker.Close()
		worker.Close()
	}
	if _, err := workers[0].Rules(context.Background(), "https://a.test/", "ExampleBot"); !errors.Is(err, robotstxt.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

// manualMS is a clock a test moves by hand, in epoch ms.
type manualMS struct{ ms atomic.Int64 }

func (c *manualMS) now() time.Time          { return time.UnixMilli(c.ms.Load()) }
func (c *manualMS) advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

func TestCacheRefreshAndFailure(t *testing.T) {
	server := startRedis(t)
	prefix := testPrefix()
	var clock manualMS
	clock.ms.Store(time.Now().UnixMilli())
	var status atomic.Int64
	status.Store(200)
	fetch := &countingFetch{delay: 30 * time.Millisecond, answers: map[string]func() (robotstxt.Response, error){
		"https://a.test/robots.txt": func() (robotstxt.Response, error) {
			if s := int(status.Load()); s != 200 {
				return robotstxt.Response{Status: s}, nil
			}
			return robotstxt.Response{Status: 200, Body: []byte(shopRobots)}, nil
		},
	}}
	edit := func(o *fleet.CacheOptions) { o.Prefix, o.Now = prefix, clock.now }
	one := newCache(t, newClient(t, server.addr()), fetch.fetch, edit)
	two := newCache(t, newClient(t, server.addr()), fetch.fetch, edit)
	for _, worker := range []*fleet.Cache{one, two} {
		if cacheRules(t, worker, "https://a.test/x").Allowed("/private/") {
			t.Error("/private/ allowed")
		}
	}
	if fetch.count() != 1 {
		t.Fatalf("%d fetches, want 1", fetch.count())
	}
	// Due: one worker fetches again; the 503 keeps the old copy for all.
	clock.advance(25 * time.Hour)
	status.Store(503)
	var wg sync.WaitGroup
	for _, worker := range []*fleet.Cache{one, two} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rules, err := worker.Rules(context.Background(), "https://a.test/", "ExampleBot")
			if err != nil {
				t.Error(err)
				return
			}
			defer rules.Close()
			if _, blanket := rules.Blanket(); blanket || rules.Allowed("/private/") {
				t.Errorf("after a 503: blanket %v, /private/ allowed %v; want the old copy", blanket, rules.Allowed("/private/"))
			}
		}()
	}
	wg.Wait()
	if fetch.count() != 2 {
		t.Fatalf("%d fetches, want 2", fetch.count())
	}
	// The retry is due in an hour, for the fleet.
	clock.advance(time.Hour - time.Millisecond)
	cacheRules(t, two, "https://a.test/")
	if fetch.count() != 2 {
		t.Fatalf("%d fetches before the retry is due, want 2", fetch.count())
	}
	clock.advance(time.Millisecond)
	status.Store(200)
	cacheRules(t, two, "https://a.test/")
	cacheRules(t, one, "https://a.test/")
	if fetch.count() != 3 {
		t.Fatalf("%d fetches, want 3", fetch.count())
	}
	if s := one.Stats(); s.Hits+s.Stale == 0 {
		t.Errorf("worker one's stats: %+v", s)
	}
}

func TestCacheFetchErrorsAndPanics(t *testing.T) {
	server := startRedis(t)
	prefix := testPrefix()
	var panics atomic.Bool
	fetch := &countingFetch{answers: map[string]func() (robotstxt.Response, error){
		"https://down.test/robots.txt": func() (robotstxt.Response, error) {
			return robotstxt.Response{}, errors.New("connection reset")
		},
		"https://bad.test/robots.txt": func() (robotstxt.Response, error) {
			if panics.Load() {
				panic("the fetch function broke")
			}
			return robotstxt.Response{Status: 404}, nil
		},
	}}
	edit := func(o *fleet.CacheOptions) { o.Prefix = prefix }
	one := newCache(t, newClient(t, server.addr()), fetch.fetch, edit)
	two := newCache(t, newClient(t, server.addr()), fetch.fetch, edit)

	// An error is no response: nothing is allowed until the retry, for the
	// fleet.
	for _, worker := range []*fleet.Cache{one, two} {
		rules := cacheRules(t, worker, "https://down.test/x")
		blanket, ok := rules.Blanket()
		if !ok || blanket.Allowed || blanket.Cause != robotstxt.CauseNoResponse {
			t.Errorf("after a network error: %+v %v", blanket, ok)
		}
		if _, ok := rules.RetryAt(); !ok {
			t.Error("no RetryAt after a network error")
		}
	}
	if fetch.count() != 1 {
		t.Errorf("%d fetches, want 1", fetch.count())
	}

	// A panic is raised again in the caller, and the lease given back: the
	// next question fetches at once.
	panics.Store(true)
	for i := 0; i < 2; i++ {
		func() {
			defer func() {
				if p := recover(); p != "the fetch function broke" {
					t.Errorf("recovered %v", p)
				}
			}()
			_, _ = one.Rules(context.Background(), "https://bad.test/", "ExampleBot")
		}()
	}
	if fetch.count() != 3 {
		t.Errorf("%d fetches, want 3", fetch.count())
	}
	panics.Store(false)
	if !cacheRules(t, two, "https://bad.test/").Allowed("/x") {
		t.Error("a 404 disallows")
	}
	if fetch.count() != 4 {
		t.Errorf("%d fetches, want 4", fetch.count())
	}

	// A caller whose context ends stops waiting; the fetch goes on.
	slow := &countingFetch{delay: 300 * time.Millisecond, answers: map[string]func() (robotstxt.Response, error){
		"https://slow.test/robots.txt": fixed(robotstxt.Response{Status: 404}),
	}}
	three := newCache(t, newClient(t, server.addr()), slow.fetch, edit)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := three.Rules(ctx, "https://slow.test/", "ExampleBot"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a context that ended: %v", err)
	}
	if !cacheRules(t, three, "https://slow.test/").Allowed("/x") || slow.count() != 1 {
		t.Errorf("after the wait: %d fetches", slow.count())
	}
}

func TestCacheWhileFetching(t *testing.T) {
	server := startRedis(t)
	prefix := testPrefix()
	started, release := make(chan struct{}), make(chan struct{})
	fetch := func(ctx context.Context, req robotstxt.FetchRequest) (robotstxt.Response, error) {
		close(started) // once: only one worker fetches
		<-release
		return robotstxt.Response{Status: 200, Body: []byte(shopRobots)}, nil
	}
	one := newCache(t, newClient(t, server.addr()), fetch, func(o *fleet.CacheOptions) { o.Prefix = prefix })
	two := newCache(t, newClient(t, server.addr()), fetch, func(o *fleet.CacheOptions) {
		o.Prefix, o.WhenFetching = prefix, robotstxt.DisallowWhileFetching
	})
	first := make(chan error, 1)
	go func() {
		rules, err := one.Rules(context.Background(), "https://a.test/", "ExampleBot")
		if err == nil {
			rules.Close()
		}
		first <- err
	}()
	// While one fetches under the lease, two answers disallow-all at once,
	// until the lease runs out.
	<-started
	waiting := cacheRules(t, two, "https://a.test/")
	blanket, ok := waiting.Blanket()
	if !ok || blanket.Allowed || blanket.Cause != robotstxt.CauseNotFetched {
		t.Errorf("while another worker fetches: %+v %v", blanket, ok)
	}
	if retryAt, ok := waiting.RetryAt(); !ok || retryAt.Before(time.Now()) || retryAt.After(time.Now().Add(time.Minute)) {
		t.Errorf("while another worker fetches: retry at %v %v, want within the 60s lease", retryAt, ok)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if cacheRules(t, two, "https://a.test/").Allowed("/private/") {
		t.Error("once stored: /private/ allowed")
	}
}

// The steps under Rules, beside the vectors: on Redis's clock, a lease is
// ended once (Redis is not asked again), a bad token asks Redis nothing,
// and a lease still open when its cache closes is given back.
func TestCacheLookupAndLease(t *testing.T) {
	server := startRedis(t)
	ctx := context.Background()
	client := newClient(t, server.addr())
	prefix := testPrefix()
	edit := func(o *fleet.CacheOptions) { o.Prefix = prefix }
	one := newCache(t, client, fetchNothing(t), edit)
	two := newCache(t, newClient(t, server.addr()), fetchNothing(t), edit)

	before := time.Now()
	got, err := one.Lookup(ctx, "https://A.test/x", "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
	if err != nil || got.Kind != robotstxt.LookupFetch || got.Lease.Origin() != "https://a.test" ||
		got.Lease.RobotsURL() != "https://a.test/robots.txt" || got.Lease.Validators() != (robotstxt.Validators{}) {
		t.Fatalf("the first lookup: %+v, %v", got, err)
	}
	lease := got.Lease
	wait, err := two.Lookup(ctx, "https://a.test/y", "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
	if err != nil || wait.Kind != robotstxt.LookupWait || wait.Until.Before(before.Add(59*time.Second)) ||
		wait.Until.After(time.Now().Add(time.Minute)) {
		t.Errorf("while another worker fetches: %+v, %v; want a wait until the 60s lease runs out", wait, err)
	}
	runs := client.runs.Load()
	if _, err := one.Lookup(ctx, "https://a.test/", "Example Bot", time.Time{}, robotstxt.WaitForFetch); !errors.Is(err, robotstxt.ErrInvalidToken) {
		t.Errorf("a bad token: %v", err)
	}
	if d, err := lease.Store(ctx, time.Time{}, robotstxt.Response{Status: 200, Body: []byte(shopRobots)}); d != robotstxt.FollowRules || err != nil {
		t.Fatalf("Store: %v, %v", d, err)
	}
	if _, err := lease.Store(ctx, time.Time{}, robotstxt.Response{Status: 404}); !errors.Is(err, robotstxt.ErrInvalidLease) {
		t.Errorf("stored again: %v", err)
	}
	if err := lease.Abandon(ctx); !errors.Is(err, robotstxt.ErrInvalidLease) {
		t.Errorf("abandoned once stored: %v", err)
	}
	if n := client.runs.Load() - runs; n != 1 {
		t.Errorf("%d scripts run, want 1 (the first store)", n)
	}
	ready, err := two.Lookup(ctx, "https://a.test/private/x", "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
	if err != nil || ready.Kind != robotstxt.LookupReady || ready.Answer != robotstxt.AnswerRules || ready.Stale ||
		ready.Blanket != nil || !ready.RetryAt.IsZero() || ready.Rules.Allowed("https://a.test/private/x") {
		t.Fatalf("once stored: %+v, %v", ready, err)
	}
	ready.Rules.Close()

	open, err := one.Lookup(ctx, "https://b.test/", "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
	if err != nil || open.Kind != robotstxt.LookupFetch {
		t.Fatalf("b.test: %+v, %v", open, err)
	}
	one.Close()
	if _, err := open.Lease.Store(ctx, time.Time{}, robotstxt.Response{Status: 404}); !errors.Is(err, robotstxt.ErrClosed) {
		t.Errorf("Store after Close: %v", err)
	}
	if _, err := one.Lookup(ctx, "https://b.test/", "ExampleBot", time.Time{}, robotstxt.WaitForFetch); !errors.Is(err, robotstxt.ErrClosed) {
		t.Errorf("Lookup after Close: %v", err)
	}
	next, err := two.Lookup(ctx, "https://b.test/", "ExampleBot", time.Time{}, robotstxt.WaitForFetch)
	if err != nil || next.Kind != robotstxt.LookupFetch {
		t.Fatalf("b.test after the lease was given back: %+v, %v; want a fetch", next, err)
	}
	if err := next.Lease.Abandon(ctx); err != nil {
		t.Errorf("Abandon: %v", err)
	}
	if stats := two.Stats(); stats.Fetches != 1 || stats.Misses != 2 || stats.Hits != 1 || stats.RedisErrors != 0 {
		t.Errorf("stats %+v", stats)
	}
}

func TestCacheBadArguments(t *testing.T) {
	server := startRedis(t)
	client := newClient(t, server.addr())
	fetch := func(context.Context, robotstxt.FetchRequest) (robotstxt.Response, error) {
		return robotstxt.Response{Status: 404}, nil
	}
	options := fleet.DefaultCacheOptions()
	if _, err := fleet.NewCache(nil, fetch, options); !errors.Is(err, robotstxt.ErrInvalidOption) {
		t.Errorf("nil client: %v", err)
	}
	if _, err := fleet.NewCache(client, nil, options); !errors.Is(err, robotstxt.ErrInvalidOption) {
		t.Errorf("nil fetch: %v", err)
	}
	for name, edit := range map[string]func(*fleet.CacheOptions){
		"FreshFor":     func(o *fleet.CacheOptions) { o.Policy.FreshFor = -1 },
		"WhenFetching": func(o *fleet.CacheOptions) { o.WhenFetching = 7 },
		"Lease":        func(o *fleet.CacheOptions) { o.Lease = -time.Second },
		"Keep":         func(o *fleet.CacheOptions) { o.Keep = -time.Second },
		"Capacity":     func(o *fleet.CacheOptions) { o.Capacity = -1 },
	} {
		o := fleet.DefaultCacheOptions()
		edit(&o)
		if _, err := fleet.NewCache(client, fetch, o); !errors.Is(err, robotstxt.ErrInvalidOption) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// The zero options are the defaults.
	cache, err := fleet.NewCache(client, fetch, fleet.CacheOptions{Prefix: testPrefix()})
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	if _, err := cache.Rules(context.Background(), "ftp://a.test/", "ExampleBot"); !errors.Is(err, robotstxt.ErrInvalidURL) {
		t.Errorf("ftp: %v", err)
	}
	if _, err := cache.Rules(context.Background(), "https://a.test/", "Example Bot"); !errors.Is(err, robotstxt.ErrInvalidToken) {
		t.Errorf("a bad token: %v", err)
	}
	// A bad token asks nothing of the fleet: no copy was fetched for it.
	if cache.Len() != 0 || cache.Stats().Fetches != 0 {
		t.Errorf("a bad token fetched: %+v", cache.Stats())
	}
	cacheRules(t, cache, "https://a.test/")
	if removed, err := cache.Remove("https://a.test/x"); !removed || err != nil || cache.Len() != 0 {
		t.Errorf("Remove: %v %v, %d held", removed, err, cache.Len())
	}
}

// captureLog sends the standard logger's output to a buffer until the test
// ends.
func captureLog(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	log.SetOutput(&buf)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	return &buf
}

func TestCacheRedisDown(t *testing.T) {
	t.Run("fails safe", func(t *testing.T) {
		own := startRedis(t)
		var clock manualMS
		clock.ms.Store(time.Now().UnixMilli())
		fetch := &countingFetch{answers: map[string]func() (robotstxt.Response, error){
			"https://a.test/robots.txt": fixed(robotstxt.Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /x\n")}),
			"https://b.test/robots.txt": fixed(robotstxt.Response{Status: 404}),
		}}
		var mu sync.Mutex
		var redisErrors []error
		cache := newCache(t, newClient(t, own.addr()), fetch.fetch, func(o *fleet.CacheOptions) {
			o.Now = clock.now
			o.OnRedisError = func(err error) {
				mu.Lock()
				defer mu.Unlock()
				redisErrors = append(redisErrors, err)
			}
		})
		cacheRules(t, cache, "https://a.test/")
		own.stop()
		clock.advance(25 * time.Hour) // due: Redis is asked, and does not answer
		if cacheRules(t, cache, "https://a.test/").Allowed("/x") {
			t.Error("the copy held no longer answers")
		}
		none := cacheRules(t, cache, "https://b.test/")
		if blanket, ok := none.Blanket(); !ok || blanket.Allowed || none.Allowed("/anything") {
			t.Errorf("no copy held: %+v %v", blanket, ok)
		}
		if fetch.count() != 1 {
			t.Errorf("%d fetches, want 1", fetch.count())
		}
		mu.Lock()
		defer mu.Unlock()
		if len(redisErrors) < 2 {
			t.Errorf("told of %d Redis errors, want 2 or more", len(redisErrors))
		}
		for _, err := range redisErrors {
			var re *fleet.RedisError
			if !errors.Is(err, fleet.ErrRedis) || !errors.As(err, &re) || re.Step != "lookup" {
				t.Errorf("a Redis error: %v", err)
			}
		}
		if got := cache.Stats().RedisErrors; got != uint64(len(redisErrors)) {
			t.Errorf("Stats().RedisErrors %d, told of %d", got, len(redisErrors))
		}
	})
	t.Run("falls back to a cache of its own", func(t *testing.T) {
		own := startRedis(t)
		own.stop()
		logged := captureLog(t)
		fetch := &countingFetch{answers: map[string]func() (robotstxt.Response, error){
			"https://b.test/robots.txt": fixed(robotstxt.Response{Status: 404}),
		}}
		cache := newCache(t, newClient(t, own.addr()), fetch.fetch, func(o *fleet.CacheOptions) {
			o.LocalFallback = true
		})
		for i := 0; i < 2; i++ {
			if !cacheRules(t, cache, "https://b.test/x").Allowed("/x") {
				t.Error("a 404 disallows")
			}
		}
		if fetch.count() != 1 {
			t.Errorf("%d fetches, want 1 (the local cache keeps the copy)", fetch.count())
		}
		if n := bytes.Count(logged.Bytes(), []byte("falls back to its own cache")); n != 1 {
			t.Errorf("warned %d times: %q", n, logged.String())
		}
	})
	t.Run("the pacer hands out no slot", func(t *testing.T) {
		own := startRedis(t)
		own.stop()
		pacer := newPacer(t, newClient(t, own.addr()), nil)
		if _, err := pacer.Wait(context.Background(), "a.test"); !errors.Is(err, fleet.ErrRedis) {
			t.Errorf("Wait: %v", err)
		}
		if _, err := pacer.Reserve(context.Background(), "a.test"); !errors.Is(err, fleet.ErrRedis) {
			t.Errorf("Reserve: %v", err)
		}
	})
	t.Run("the pacer falls back to a pacer of its own", func(t *testing.T) {
		own := startRedis(t)
		own.stop()
		logged := captureLog(t)
		pacer := newPacer(t, newClient(t, own.addr()), func(o *fleet.PacerOptions) {
			o.Floor, o.LocalFallback = 50*time.Millisecond, true
		})
		var starts []time.Time
		for i := 0; i < 3; i++ {
			start, err := pacer.Wait(context.Background(), "a.test")
			if err != nil {
				t.Fatal(err)
			}
			starts = append(starts, start)
			if err := pacer.Record(context.Background(), "a.test", 200, 0); err != nil {
				t.Fatal(err)
			}
		}
		for i := 1; i < len(starts); i++ {
			if gap := starts[i].Sub(starts[i-1]); gap < 50*time.Millisecond || gap > 2*time.Second {
				t.Errorf("starts %v apart", gap)
			}
		}
		if n := bytes.Count(logged.Bytes(), []byte("falls back to its own pacer")); n != 1 {
			t.Errorf("warned %d times: %q", n, logged.String())
		}
	})
}

func newPacer(t *testing.T, client redis.Scripter, edit func(*fleet.PacerOptions)) *fleet.Pacer {
	t.Helper()
	options := fleet.DefaultPacerOptions()
	options.Prefix = testPrefix()
	if edit != nil {
		edit(&options)
	}
	pacer, err := fleet.NewPacer(client, options)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pacer.Close)
	return pacer
}

func parsedRules(t *testing.T, body, token string) *robotstxt.Rules {
	t.Helper()
	robots, err := robotstxt.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	defer robots.Close()
	rules, err := robots.RulesFor(token)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rules.Close)
	return rules
}

func TestPacerTurns(t *testing.T) {
	server := startRedis(t)
	ctx := context.Background()
	prefix := testPrefix()
	edit := func(o *fleet.PacerOptions) { o.Prefix, o.Floor = prefix, 0 }
	one := newPacer(t, newClient(t, server.addr()), edit)
	two := newPacer(t, newClient(t, server.addr()), edit)
	if err := one.SetRules(ctx, "a.test", parsedRules(t, "User-agent: *\nCrawl-delay: 0.2\n", "ExampleBot")); err != nil {
		t.Fatal(err)
	}
	if gap, err := two.Gap(ctx, "A.test"); err != nil || gap != 200*time.Millisecond {
		t.Fatalf("gap %v, %v; want 200ms", gap, err)
	}
	var tickets []*fleet.Ticket
	for i := 0; i < 4; i++ {
		pacer := one
		if i%2 == 1 {
			pacer = two
		}
		ticket, err := pacer.Reserve(ctx, "a.test")
		if err != nil || ticket == nil {
			t.Fatalf("Reserve: %v, %v", ticket, err)
		}
		tickets = append(tickets, ticket)
	}
	for i := 1; i < 4; i++ {
		if d := tickets[i].Start().Sub(tickets[i-1].Start()); d != 200*time.Millisecond {
			t.Errorf("tickets %d and %d start %v apart, want 200ms", i-1, i, d)
		}
	}
	if tickets[0].Host() != "a.test" {
		t.Errorf("host %q", tickets[0].Host())
	}
	// A 429 in one worker holds back both.
	if err := two.Record(ctx, "a.test", 429, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	later, err := one.Reserve(ctx, "a.test")
	if err != nil {
		t.Fatal(err)
	}
	if d := later.Start().Sub(tickets[0].Start()); d < 5*time.Second {
		t.Errorf("after a 429 with Retry-After: 5, the next slot is %v after the first", d)
	}
	if gap, err := one.Gap(ctx, "a.test"); err != nil || gap != 400*time.Millisecond {
		t.Errorf("gap after a 429 %v, %v; want 400ms", gap, err)
	}
	// The kill switch, for the fleet.
	if err := two.SetEnabled(ctx, "a.test", false); err != nil {
		t.Fatal(err)
	}
	if ticket, err := one.Reserve(ctx, "a.test"); ticket != nil || err != nil {
		t.Errorf("switched off: %v, %v", ticket, err)
	}
	if _, err := one.Wait(ctx, "a.test"); !errors.Is(err, robotstxt.ErrHostDisabled) {
		t.Errorf("Wait while switched off: %v", err)
	}
	if err := two.SetEnabled(ctx, "a.test", true); err != nil {
		t.Fatal(err)
	}
	if ticket, err := one.Reserve(ctx, "a.test"); ticket == nil || err != nil {
		t.Errorf("switched on again: %v, %v", ticket, err)
	}
}

// A crawl delay outlives the pace Redis lost (a restart with empty
// memory): a worker that knew it restores it.
func TestPacerSeedsLostPace(t *testing.T) {
	server := startRedis(t)
	ctx := context.Background()
	prefix := testPrefix()
	edit := func(o *fleet.PacerOptions) { o.Prefix, o.Floor = prefix, 0 }
	one := newPacer(t, newClient(t, server.addr()), edit)
	two := newPacer(t, newClient(t, server.addr()), edit)
	admin := redis.NewClient(&redis.Options{Addr: server.addr()})
	defer admin.Close()
	forget := func() {
		keys, err := admin.Keys(ctx, prefix+"*").Result()
		if err != nil || len(keys) == 0 {
			t.Fatalf("keys %v, %v", keys, err)
		}
		if err := admin.Del(ctx, keys...).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := one.SetDelay(ctx, "d.test", 250*time.Millisecond, robotstxt.RequestRate{}); err != nil {
		t.Fatal(err)
	}
	forget()
	first, err1 := one.Reserve(ctx, "d.test")
	second, err2 := two.Reserve(ctx, "d.test")
	if err1 != nil || err2 != nil || second.Start().Sub(first.Start()) != 250*time.Millisecond {
		t.Fatalf("starts %v and %v (%v, %v): want 250ms apart", first.Start(), second.Start(), err1, err2)
	}
	// A worker that only reserved knew the delay from Redis's answers, and
	// restores it too.
	forget()
	a, err1 := two.Reserve(ctx, "d.test")
	b, err2 := one.Reserve(ctx, "d.test")
	if err1 != nil || err2 != nil || b.Start().Sub(a.Start()) < 250*time.Millisecond {
		t.Fatalf("starts %v and %v (%v, %v): want the lost delay apart", a.Start(), b.Start(), err1, err2)
	}
	// A worker that never knew the host has nothing to restore: the floor.
	forget()
	three := newPacer(t, newClient(t, server.addr()), edit)
	a, err1 = three.Reserve(ctx, "d.test")
	b, err2 = three.Reserve(ctx, "d.test")
	if err1 != nil || err2 != nil || b.Start().Sub(a.Start()) >= 250*time.Millisecond {
		t.Fatalf("starts %v and %v (%v, %v): want less than the lost delay apart", a.Start(), b.Start(), err1, err2)
	}
}

func TestPacerWait(t *testing.T) {
	server := startRedis(t)
	ctx := context.Background()
	prefix := testPrefix()
	edit := func(o *fleet.PacerOptions) { o.Prefix, o.Floor = prefix, 100*time.Millisecond }
	one := newPacer(t, newClient(t, server.addr()), edit)
	two := newPacer(t, newClient(t, server.addr()), edit)
	var mu sync.Mutex
	var starts []time.Time
	var wg sync.WaitGroup
	for _, pacer := range []*fleet.Pacer{one, two, one, two} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start, err := pacer.Wait(ctx, "b.test")
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			starts = append(starts, start)
			mu.Unlock()
			if n, err := pacer.InFlight(ctx, "b.test"); n != 1 || err != nil {
				t.Errorf("in flight: %d, %v; want 1", n, err)
			}
			time.Sleep(20 * time.Millisecond) // the request
			if err := pacer.Record(ctx, "b.test", 200, 0); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	slices.SortFunc(starts, time.Time.Compare)
	for i := 1; i < len(starts); i++ {
		if d := starts[i].Sub(starts[i-1]); d < 100*time.Millisecond {
			t.Errorf("starts %v apart, want 100ms or more: %v", d, starts)
		}
	}
	if n, err := one.InFlight(ctx, "b.test"); n != 0 || err != nil {
		t.Errorf("in flight at the end: %d, %v", n, err)
	}

	// A context that ends gives the slot back.
	if err := one.SetDelay(ctx, "c.test", 10*time.Second, robotstxt.RequestRate{}); err != nil {
		t.Fatal(err)
	}
	if _, err := one.Wait(ctx, "c.test"); err != nil {
		t.Fatal(err)
	}
	if err := one.Record(ctx, "c.test", 200, 0); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := two.Wait(short, "c.test"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait past its context: %v", err)
	}
	first, err := one.Reserve(ctx, "c.test")
	if err != nil {
		t.Fatal(err)
	}
	second, err := one.Reserve(ctx, "c.test")
	if err != nil {
		t.Fatal(err)
	}
	if d := second.Start().Sub(first.Start()); d != 10*time.Second {
		t.Errorf("after a cancelled wait, slots %v apart", d)
	}
	if time.Until(first.Start()) > 10*time.Second {
		t.Errorf("the cancelled wait kept its slot: the next starts in %v", time.Until(first.Start()))
	}
}

func TestPacerBadArguments(t *testing.T) {
	server := startRedis(t)
	ctx := context.Background()
	client := newClient(t, server.addr())
	pacer := newPacer(t, client, nil)
	for name, edit := range map[string]func(*fleet.PacerOptions){
		"Floor":  func(o *fleet.PacerOptions) { o.Floor = -1 },
		"Retain": func(o *fleet.PacerOptions) { o.Retain = 0 },
	} {
		o := fleet.DefaultPacerOptions()
		edit(&o)
		if _, err := fleet.NewPacer(client, o); !errors.Is(err, robotstxt.ErrInvalidOption) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := fleet.NewPacer(nil, fleet.DefaultPacerOptions()); !errors.Is(err, robotstxt.ErrInvalidOption) {
		t.Errorf("nil client: %v", err)
	}
	if _, err := pacer.Reserve(ctx, ""); !errors.Is(err, robotstxt.ErrInvalidHost) {
		t.Errorf("Reserve(\"\"): %v", err)
	}
	if err := pacer.SetDelay(ctx, "a.test", -time.Second, robotstxt.RequestRate{}); !errors.Is(err, robotstxt.ErrInvalidArgument) {
		t.Errorf("a negative delay: %v", err)
	}
	if err := pacer.SetDelay(ctx, "a.test", 0, robotstxt.RequestRate{Requests: 1}); !errors.Is(err, robotstxt.ErrInvalidArgument) {
		t.Errorf("a rate of 1 per 0 s: %v", err)
	}
	// The gap is exact: the larger of the delay and the interval, each
	// rounded up to the ms.
	for _, c := range []struct {
		delay time.Duration
		rate  robotstxt.RequestRate
		gap   time.Duration
	}{
		{100 * time.Millisecond, robotstxt.RequestRate{}, 100 * time.Millisecond},
		{100 * time.Microsecond, robotstxt.RequestRate{}, time.Millisecond},
		{time.Second, robotstxt.RequestRate{Requests: 1, Seconds: 3}, 3 * time.Second},
		{0, robotstxt.RequestRate{Requests: 3, Seconds: 1}, 334 * time.Millisecond},
	} {
		o := fleet.DefaultPacerOptions()
		o.Prefix, o.Floor = testPrefix(), 0
		p, err := fleet.NewPacer(client, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.SetDelay(ctx, "d.test", c.delay, c.rate); err != nil {
			t.Fatal(err)
		}
		if gap, err := p.Gap(ctx, "d.test"); gap != c.gap || err != nil {
			t.Errorf("SetDelay(%v, %+v): gap %v, %v; want %v", c.delay, c.rate, gap, err, c.gap)
		}
	}
	ticket, err := pacer.Reserve(ctx, "c.test")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := pacer.Confirm(ctx, ticket); got.Kind != robotstxt.ConfirmGo || err != nil {
		t.Errorf("Confirm: %+v, %v", got, err)
	}
	if _, err := pacer.Confirm(ctx, ticket); !errors.Is(err, robotstxt.ErrInvalidTicket) {
		t.Errorf("a ticket confirmed again: %v", err)
	}
	pacer.Close()
	pacer.Close()
	if _, err := pacer.Reserve(ctx, "a.test"); !errors.Is(err, robotstxt.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}
