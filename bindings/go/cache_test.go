package robotstxt_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

// A clock a test moves by hand.
type manualClock struct{ ms atomic.Int64 }

func (c *manualClock) now() time.Time          { return time.UnixMilli(c.ms.Load()) }
func (c *manualClock) advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

// Cache.Rules lets a caller tell "disallowed by the file" from "the file is
// unreachable": blanket answers say their cause and when the cache fetches
// again, and their decisions have kinds of their own.
func TestCacheBlanketAnswers(t *testing.T) {
	outcomes := map[string]robotstxt.Response{
		"https://file.test":   {Status: 200, Body: []byte("User-agent: *\nDisallow: /x\n")},
		"https://gone.test":   {Status: 404, Redirects: 2},
		"https://down.test":   {Status: 503, RetryAfter: 10 * time.Minute, HasRetryAfter: true},
		"https://eager.test":  {Status: 503, RetryAfter: time.Second, HasRetryAfter: true},
		"https://silent.test": {Status: 429, RetryAfter: 48 * time.Hour, HasRetryAfter: true},
		"https://plain.test":  {Status: 500},
	}
	var clock manualClock
	clock.ms.Store(1_000_000)
	options := robotstxt.DefaultCacheOptions()
	options.Now = clock.now
	cache, err := robotstxt.NewCache(func(_ context.Context, req robotstxt.FetchRequest) (robotstxt.Response, error) {
		resp, ok := outcomes[req.Origin]
		if !ok {
			return robotstxt.Response{}, errors.New("connection refused")
		}
		return resp, nil
	}, options)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	t0 := clock.now()
	for _, c := range []struct {
		origin  string
		allowed bool
		kind    robotstxt.DecisionKind
		blanket *robotstxt.Blanket
		retryIn time.Duration // 0: no retry pending
	}{
		{"https://file.test", false, robotstxt.DisallowRule, nil, 0},
		{"https://gone.test", true, robotstxt.DecisionAllowAll, &robotstxt.Blanket{Allowed: true, Cause: robotstxt.CauseStatus, Status: 404, Redirects: 2}, 0},
		{"https://down.test", false, robotstxt.DecisionDisallowAll, &robotstxt.Blanket{Cause: robotstxt.CauseStatus, Status: 503}, 10 * time.Minute},
		// Retry-After is kept between 1 minute and 24 hours.
		{"https://eager.test", false, robotstxt.DecisionDisallowAll, &robotstxt.Blanket{Cause: robotstxt.CauseStatus, Status: 503}, time.Minute},
		{"https://silent.test", false, robotstxt.DecisionDisallowAll, &robotstxt.Blanket{Cause: robotstxt.CauseStatus, Status: 429}, 24 * time.Hour},
		{"https://plain.test", false, robotstxt.DecisionDisallowAll, &robotstxt.Blanket{Cause: robotstxt.CauseStatus, Status: 500}, time.Hour},
		{"https://refused.test", false, robotstxt.DecisionDisallowAll, &robotstxt.Blanket{Cause: robotstxt.CauseNoResponse}, time.Hour},
	} {
		rules, err := cache.Rules(context.Background(), c.origin+"/x", "ExampleBot")
		if err != nil {
			t.Fatalf("%s: %v", c.origin, err)
		}
		d := rules.Decide(c.origin + "/x")
		if d.Allowed != c.allowed || d.Kind != c.kind {
			t.Errorf("%s: %+v, want allowed %v by %s", c.origin, d, c.allowed, c.kind)
		}
		b, ok := rules.Blanket()
		switch {
		case ok != (c.blanket != nil):
			t.Errorf("%s: blanket %+v %v, want %+v", c.origin, b, ok, c.blanket)
		case ok && b != *c.blanket:
			t.Errorf("%s: blanket %+v, want %+v", c.origin, b, *c.blanket)
		case ok && d.Line != 0:
			t.Errorf("%s: a blanket answer decided at line %d", c.origin, d.Line)
		}
		at, retry := rules.RetryAt()
		if retry != (c.retryIn != 0) || (retry && !at.Equal(t0.Add(c.retryIn))) {
			t.Errorf("%s: retry at %v (%v), want in %v", c.origin, at.Sub(t0), retry, c.retryIn)
		}
		rules.Close()
	}
	for kind, want := range map[robotstxt.DecisionKind]string{
		robotstxt.DecisionAllowAll: "allow-all", robotstxt.DecisionDisallowAll: "disallow-all",
		robotstxt.NoRule: "none", robotstxt.DisallowRule: "disallow",
	} {
		if kind.String() != want {
			t.Errorf("DecisionKind %d is %q, want %q", kind, kind, want)
		}
	}
	for cause, want := range map[robotstxt.Cause]string{
		robotstxt.CauseStatus: "status", robotstxt.CauseNoResponse: "no-response", robotstxt.CauseNotFetched: "not-fetched",
		robotstxt.CauseUnreachableLimit: "unreachable-limit", robotstxt.CauseCaller: "caller", 99: "Cause(99)",
	} {
		if cause.String() != want {
			t.Errorf("Cause %d is %q, want %q", cause, cause, want)
		}
	}
}

// While another caller fetches a new origin, DisallowWhileFetching answers
// disallow-all, not fetched, and says to ask again when that lease runs out.
func TestLookupWhileFetching(t *testing.T) {
	options := robotstxt.DefaultCacheOptions()
	options.Lease = 30 * time.Second
	cache, err := robotstxt.NewCache(nil, options)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	t0 := time.UnixMilli(1_000_000)
	lease := mustLease(t, cache, "https://a.test/", t0)
	defer lease.Close()
	l, err := cache.Lookup("https://a.test/x", "ExampleBot", t0.Add(time.Second), robotstxt.DisallowWhileFetching)
	if err != nil || l.Kind != robotstxt.LookupReady {
		t.Fatalf("%+v %v", l, err)
	}
	defer l.Rules.Close()
	if l.Blanket == nil || *l.Blanket != (robotstxt.Blanket{Cause: robotstxt.CauseNotFetched}) || !l.RetryAt.Equal(t0.Add(30*time.Second)) {
		t.Errorf("blanket %+v, retry at %v", l.Blanket, l.RetryAt.Sub(t0))
	}
	if d := l.Rules.Decide("/x"); d.Allowed || d.Kind != robotstxt.DecisionDisallowAll {
		t.Errorf("%+v", d)
	}
}

// A lease that ran out, while a newer lease of its origin stored a copy, is
// refused (ErrInvalidLease, an *Error) and changes nothing.
func TestLeaseOvertaken(t *testing.T) {
	options := robotstxt.DefaultCacheOptions()
	options.Lease = 10 * time.Second
	cache, err := robotstxt.NewCache(nil, options)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	t0 := time.UnixMilli(1_000_000)
	late := mustLease(t, cache, "https://a.test/", t0)
	defer late.Close()
	newer := mustLease(t, cache, "https://A.test:443/", t0.Add(11*time.Second))
	defer newer.Close()
	if _, err := newer.Store(t0.Add(12*time.Second), robotstxt.Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /\n")}); err != nil {
		t.Fatal(err)
	}
	_, err = late.Store(t0.Add(13*time.Second), robotstxt.Response{Status: 404})
	var e *robotstxt.Error
	if !errors.Is(err, robotstxt.ErrInvalidLease) || !errors.As(err, &e) || e.Kind != robotstxt.ErrInvalidLease {
		t.Fatalf("a late store: %v", err)
	}
	l, err := cache.Lookup("https://a.test/page", "ExampleBot", t0.Add(14*time.Second), robotstxt.WaitForFetch)
	if err != nil || l.Kind != robotstxt.LookupReady || l.Rules.Allowed("/page") {
		t.Fatalf("the newer copy must stand: %+v %v", l, err)
	}
	l.Rules.Close()
}

// Cache.Rules whose fetch outlives its lease, while another goroutine
// fetches and stores the origin meanwhile, answers with that newer copy
// rather than failing with the late store's ErrInvalidLease.
func TestCacheRulesFetchOutlivesLease(t *testing.T) {
	var clock manualClock
	clock.ms.Store(1_000_000)
	options := robotstxt.DefaultCacheOptions()
	options.Lease = 10 * time.Second
	options.Now = clock.now
	slow := make(chan struct{})
	fetching := make(chan struct{})
	var calls atomic.Int32
	cache, err := robotstxt.NewCache(func(ctx context.Context, req robotstxt.FetchRequest) (robotstxt.Response, error) {
		if calls.Add(1) == 1 {
			close(fetching)
			<-slow // the first fetch hangs past its lease...
			return robotstxt.Response{Status: 404}, nil
		}
		return robotstxt.Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /private\n")}, nil
	}, options)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	type answer struct {
		rules *robotstxt.Rules
		err   error
	}
	first := make(chan answer, 1)
	go func() {
		rules, err := cache.Rules(context.Background(), "https://a.test/private/x", "ExampleBot")
		first <- answer{rules, err}
	}()
	<-fetching
	clock.advance(11 * time.Second) // ...which runs out: the next caller fetches
	rules, err := cache.Rules(context.Background(), "https://a.test/private/y", "ExampleBot")
	if err != nil || rules.Allowed("/private/y") {
		t.Fatalf("second caller: %v", err)
	}
	rules.Close()
	close(slow)
	got := <-first
	if got.err != nil {
		t.Fatalf("the caller whose fetch was overtaken: %v", got.err)
	}
	defer got.rules.Close()
	if got.rules.Allowed("/private/x") {
		t.Error("the late 404 replaced the newer copy")
	}
	if calls.Load() != 2 {
		t.Errorf("%d fetches", calls.Load())
	}
}

// A lease outliving its cache: Store and Abandon return ErrClosed, an
// *Error, instead of panicking; Close still frees the lease.
func TestLeaseAfterCacheClose(t *testing.T) {
	cache, err := robotstxt.NewCache(nil, robotstxt.DefaultCacheOptions())
	if err != nil {
		t.Fatal(err)
	}
	lease := mustLease(t, cache, "https://a.test/", time.UnixMilli(0))
	cache.Close()
	var storeErr, abandonErr error
	if msg := panics(func() {
		_, storeErr = lease.Store(time.UnixMilli(1), robotstxt.Response{Status: 200})
		abandonErr = lease.Abandon()
	}); msg != "" {
		t.Fatalf("a lease used after Cache.Close panicked: %s", msg)
	}
	for name, err := range map[string]error{"Store": storeErr, "Abandon": abandonErr} {
		var e *robotstxt.Error
		if !errors.Is(err, robotstxt.ErrClosed) || !errors.As(err, &e) || !strings.Contains(e.Message, "closed") {
			t.Errorf("%s after Cache.Close: %v", name, err)
		}
	}
	if msg := panics(func() { lease.Close(); lease.Close() }); msg != "" {
		t.Errorf("Close after Cache.Close: %s", msg)
	}
	if _, err := lease.Store(time.UnixMilli(1), robotstxt.Response{Status: 200}); !errors.Is(err, robotstxt.ErrInvalidLease) {
		t.Errorf("Store after Close: %v", err)
	}
}
