package fleet

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-engine/robotstxt-go"
)

// CacheOptions are a Cache's key prefix, lease, fetch timeout, keep time,
// size, freshness policy, failure policy and clock. Start from
// DefaultCacheOptions.
type CacheOptions struct {
	// Prefix is the prefix of every key: "" means DefaultPrefix
	// ("robotstxt:"). Workers of one fleet use the same.
	Prefix string
	// Lease is how long one worker's right to fetch a robots.txt lasts
	// unless renewed: the worker renews it every third of it while its
	// fetch goes on, so a slow robots.txt stays one fetch for the fleet;
	// one that dies with it frees it after Lease. 0 means 60s.
	Lease time.Duration
	// FetchTimeout is how long one fetch of a robots.txt may take before
	// it is cancelled (its context is done) and counts as no response.
	// 0 means 60s.
	FetchTimeout time.Duration
	// Keep is how long Redis keeps a copy after it was stored: 0 means 31
	// days, past which an origin nobody asked about is forgotten.
	Keep time.Duration
	// Capacity is how many copies this worker keeps parsed, the one used
	// longest ago going first: 0 means 10,000.
	Capacity int
	// Policy is how copies age, how fetch statuses are read, and when a
	// failed fetch is tried again, as for robotstxt.Cache. The zero value
	// means robotstxt.DefaultFreshnessPolicy(). Workers of one fleet use the
	// same.
	Policy robotstxt.FreshnessPolicy
	// WhenFetching is what Rules answers while another worker fetches an
	// origin this worker holds no copy of: robotstxt.WaitForFetch (the
	// default; look again at least every 250 ms) or
	// robotstxt.DisallowWhileFetching.
	WhenFetching robotstxt.WhenFetching
	// LocalFallback: when Redis cannot be reached, answer from a
	// robotstxt.Cache of this worker's own, which fetches for itself, and
	// log a warning (once): politeness then holds per worker, not per fleet.
	// Off by default: the cache fails safe instead (see Cache).
	LocalFallback bool
	// OnRedisError, if set, is told of every Redis failure (a *RedisError),
	// including those the cache answers through. It must not block.
	OnRedisError func(error)
	// Now is the clock passed to every script. nil (the default) lets each
	// script read Redis's own (TIME), the same for every worker, and tells
	// it between calls by the monotonic clock.
	Now func() time.Time
}

const (
	defaultLease    = 60 * time.Second
	defaultKeep     = 31 * 24 * time.Hour
	defaultCapacity = 10_000
)

// DefaultCacheOptions returns the defaults: DefaultPrefix, 60s
// leases and fetches, copies kept 31 days in Redis and 10,000 in the
// worker, the default freshness policy, waiting for fetches, no local
// fallback, Redis's clock.
func DefaultCacheOptions() CacheOptions {
	return CacheOptions{Prefix: DefaultPrefix, Lease: defaultLease, FetchTimeout: defaultLease, Keep: defaultKeep,
		Capacity: defaultCapacity, Policy: robotstxt.DefaultFreshnessPolicy()}
}

// Cache is robotstxt.Cache's Rules over one copy of each origin's
// robots.txt kept in Redis for a whole fleet of workers: when a copy is
// due, one worker in the fleet fetches it (under a lease fenced by a
// token, so that a worker whose lease ran out cannot overwrite a newer
// copy) and the others wait for it, or answer with the copy they hold.
// Each worker keeps the copies it uses parsed, by version: until a copy
// is due a question costs no Redis call, and a check is a local call.
// Within a worker, one goroutine per origin asks Redis at a time. A copy
// in Redis this worker cannot read (damaged, or written by a newer
// library) is no copy: it fetches over it. Its methods are safe for
// concurrent use.
//
// Rules is the whole job in one call. Lookup and Lease are the steps under
// it, as robotstxt.Cache's Lookup and robotstxt.Lease are, with an explicit
// clock: Lookup answers ready rules, or a fetch under the fleet's lease, or
// a wait; Lease.Store stores the fetch for the fleet
// (robotstxt.ErrInvalidLease when the fleet refuses it) and Lease.Abandon
// gives it back.
//
// Redis unreachable: the copy this worker holds keeps answering (as an
// unreachable robots.txt keeps the old copy); an origin it holds none of
// is disallowed until Redis answers again. With LocalFallback, this
// worker fetches for itself instead.
//
// The stored copies, keys and scripts are those of every binding, so a
// fleet may mix Go, Node.js and Python workers.
//
// Call Close when done with it. Close must not run at the same time as
// another method.
type Cache struct {
	client       redis.Scripter
	fetch        robotstxt.FetchFunc
	core         *robotstxt.FleetCache
	now          func() time.Time
	when         robotstxt.WhenFetching
	fetchTimeout time.Duration
	onRedisError func(error)
	fallback     *robotstxt.Cache
	warning      fallbackWarning

	// mu guards closed, users and rounds. Rounds and leases under way use
	// the core: it is freed when the last ends after Close.
	mu     sync.Mutex
	closed bool
	users  int
	rounds map[string]*round
}

// round is one look at Redis for an origin, shared by every goroutine
// asking about it meanwhile; its result is set before done closes. Rules
// answers the goroutine that started it; the others look again.
type round struct {
	done     chan struct{}
	rules    *robotstxt.Rules
	failed   *RedisError // Redis failed: fail safe
	err      error
	panicked any // the fetch function panicked with this
}

// NewCache makes a cache that shares its copies through client (a
// *redis.Client, *redis.ClusterClient, *redis.Ring or any
// redis.UniversalClient) and fetches with fetch, as robotstxt.Cache does
// (robotstxt.FetchHTTP makes one). The error is non-nil for an option out of
// range, or a nil client or fetch.
func NewCache(client redis.Scripter, fetch robotstxt.FetchFunc, options CacheOptions) (*Cache, error) {
	if client == nil {
		return nil, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption, Message: "fleet.NewCache needs a Redis client"}
	}
	if fetch == nil {
		return nil, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption, Message: "fleet.NewCache needs a robotstxt.FetchFunc (robotstxt.FetchHTTP makes one)"}
	}
	if err := checkWhen(options.WhenFetching, "fleet.CacheOptions.WhenFetching"); err != nil {
		return nil, err
	}
	if options.Capacity < 0 {
		return nil, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption, Message: "fleet.CacheOptions.Capacity is negative: pass 0 (the default) or more"}
	}
	o := robotstxt.FleetCacheOptions{Prefix: options.Prefix, Capacity: cmp.Or(options.Capacity, defaultCapacity),
		Policy: options.Policy}
	if isZeroPolicy(o.Policy) {
		o.Policy = robotstxt.DefaultFreshnessPolicy()
	}
	c := &Cache{client: client, fetch: fetch, now: options.Now, when: options.WhenFetching,
		onRedisError: options.OnRedisError, rounds: map[string]*round{}}
	var err error
	for _, d := range []struct {
		to        *time.Duration
		from, def time.Duration
		name      string
	}{{&o.Lease, options.Lease, defaultLease, "Lease"}, {&o.Keep, options.Keep, defaultKeep, "Keep"},
		{&c.fetchTimeout, options.FetchTimeout, defaultLease, "FetchTimeout"}} {
		if *d.to, err = orDefault(d.from, d.def, "fleet.CacheOptions."+d.name); err != nil {
			return nil, err
		}
	}
	if c.core, err = robotstxt.NewFleetCache(o); err != nil {
		return nil, err
	}
	if options.LocalFallback {
		c.fallback, err = robotstxt.NewCache(fetch, robotstxt.CacheOptions{Capacity: o.Capacity, Lease: c.fetchTimeout,
			Policy: o.Policy, WhenFetching: options.WhenFetching, Now: options.Now})
		if err != nil {
			c.core.Close()
			return nil, err
		}
	}
	return c, nil
}

func isZeroPolicy(p robotstxt.FreshnessPolicy) bool {
	return p.FreshFor == 0 && p.Retry == 0 && p.UnreachableLimit == 0 && p.AfterLimit == 0 && p.Access == 0 &&
		len(p.Parse) == 0
}

func checkWhen(when robotstxt.WhenFetching, what string) error {
	if when != robotstxt.WaitForFetch && when != robotstxt.DisallowWhileFetching {
		return &robotstxt.Error{Kind: robotstxt.ErrInvalidOption,
			Message: what + " is not robotstxt.WaitForFetch or robotstxt.DisallowWhileFetching"}
	}
	return nil
}

var errCacheClosed = &robotstxt.Error{Kind: robotstxt.ErrClosed, Message: "fleet.Cache used after Close"}

func (c *Cache) open() error {
	if c == nil {
		panic("robotstxt: method called on a nil *fleet.Cache")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return errCacheClosed
	}
	return nil
}

// release ends a round's or a lease's use of the core.
func (c *Cache) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users--; c.closed && c.users == 0 {
		c.core.Close()
	}
}

// failed counts a failed call in the core, tells OnRedisError, and
// returns the error to report.
func (c *Cache) failed(step string, err error, count bool) error {
	failure := redisFailure(step, err)
	if failure == nil {
		return err
	}
	if count {
		c.core.RedisFailed()
	}
	if c.onRedisError != nil {
		c.onRedisError(failure)
	}
	return failure
}

// Rules returns the rules for the crawler token at url (an absolute http
// or https URL), as robotstxt.Cache.Rules does, from the fleet's copy of the
// origin's robots.txt: a copy this worker holds that is not due answers
// at once; otherwise one goroutine of this worker looks at Redis, and
// takes the fleet's copy, or fetches it (when due, and no other worker
// is fetching it) and stores it for the fleet, or waits for another
// worker's fetch (answering meanwhile with the copy it holds, if any).
// Those are the steps of Lookup and Lease.
//
// robotstxt.Rules.Blanket tells rules disallowing everything because the
// file is unreachable, not fetched yet, or Redis is down and this worker
// holds no copy, from a file's own rules.
//
// The Rules are yours: Close them when done. Errors:
// robotstxt.ErrInvalidURL, a *robotstxt.TokenError, robotstxt.ErrClosed
// after Close, ctx.Err() when ctx is done first (a fetch under way goes on
// for the goroutines still waiting, and for the fleet). Redis failures
// are no error: see Cache and OnRedisError. A panic of the fetch function
// is raised again in every goroutine waiting for it, after the lease is
// given back.
func (c *Cache) Rules(ctx context.Context, url, token string) (*robotstxt.Rules, error) {
	for {
		if err := c.open(); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		l, err := c.core.Lookup(url, token, at(time.Time{}, c.now), c.when)
		if err != nil || l.Step == nil {
			return l.Rules, err // the copy held answers
		}
		r, started := c.roundFor(ctx, l, token)
		select {
		case <-r.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		switch {
		case r.panicked != nil:
			panic(r.panicked)
		case r.err != nil:
			return nil, r.err
		case r.failed != nil && c.fallback != nil:
			c.warning.warn("fleet.Cache", "cache", r.failed)
			return c.fallback.Rules(ctx, url, token)
		case r.failed != nil:
			return c.core.FailSafe(url, token, at(time.Time{}, c.now))
		case started && r.rules != nil:
			return r.rules, nil
		}
		// The copy is held now, or the other worker may be done: look again.
	}
}

// roundFor returns the round under way for l's origin, or starts one with
// l's step. A round runs on its own goroutine, whatever becomes of the
// caller that started it (ctx's values are kept, not its end).
func (c *Cache) roundFor(ctx context.Context, l robotstxt.FleetLookup, token string) (*round, bool) {
	origin := l.Step.Keys[0] // the copy's key names the origin
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.rounds[origin]; r != nil {
		l.Step.Close()
		return r, false
	}
	r := &round{done: make(chan struct{})}
	c.rounds[origin] = r
	c.users++
	go c.run(context.WithoutCancel(ctx), r, origin, l, token)
	return r, true
}

func (c *Cache) run(ctx context.Context, r *round, origin string, l robotstxt.FleetLookup, token string) {
	defer func() {
		if p := recover(); p != nil {
			r.panicked = p
		}
		c.mu.Lock()
		delete(c.rounds, origin)
		c.mu.Unlock()
		close(r.done)
		c.release()
	}()
	l, err := c.drive(ctx, l)
	switch {
	case err != nil:
		if r.failed = redisFailure("lookup", err); r.failed == nil {
			r.err = err
		}
	case l.Kind == robotstxt.LookupFetch:
		r.rules, r.failed = c.fetchAndStore(ctx, l.Lease, token)
	case l.Kind == robotstxt.LookupWait:
		_ = sleep(ctx, min(max(c.core.Until(l.Until, at(time.Time{}, c.now)), time.Millisecond), pollInterval))
	default:
		r.rules = l.Rules
	}
}

// drive runs a lookup's steps on Redis until it comes to an answer, a
// fetch or a wait.
func (c *Cache) drive(ctx context.Context, l robotstxt.FleetLookup) (robotstxt.FleetLookup, error) {
	for l.Kind == robotstxt.LookupRun {
		step := l.Step
		reply, err := run(ctx, c.client, step)
		if err == nil {
			l, err = c.core.LookupReply(step, reply)
		}
		step.Close()
		if err != nil {
			return robotstxt.FleetLookup{}, c.failed(step.Script, err, true)
		}
	}
	return l, nil
}

// fetchAndStore fetches under lease with the cache's robotstxt.FetchFunc,
// renewing the lease meanwhile, stores the copy for the fleet, and answers
// from it (nil: look again, the copy held answers).
func (c *Cache) fetchAndStore(ctx context.Context, lease *robotstxt.FleetLease, token string) (*robotstxt.Rules, *RedisError) {
	defer lease.Close()
	fetched := false
	defer func() {
		if !fetched { // the fetch function panicked
			_ = c.giveBack(ctx, lease)
		}
	}()
	stop := c.renew(ctx, lease)
	fctx, cancel := context.WithTimeout(ctx, c.fetchTimeout)
	resp, err := func() (robotstxt.Response, error) {
		defer stop()
		defer cancel()
		return c.fetch(fctx, robotstxt.FetchRequest{URL: lease.RobotsURL, Origin: lease.Origin, Validators: lease.Validators})
	}()
	fetched = true
	if err != nil {
		resp = robotstxt.Response{} // no response: a network error or a timeout (behaviour §6)
	}
	s, err := c.store(ctx, lease, resp, token, time.Time{})
	if s.Rules == nil {
		return nil, redisFailure("store", err)
	}
	if s.Stored || err != nil {
		// Held (by the fleet, or this worker alone): its answer says when
		// the fleet fetches again.
		if l, lerr := c.core.Lookup(lease.RobotsURL, token, at(time.Time{}, c.now), c.when); lerr == nil && l.Step == nil {
			s.Rules.Close()
			return l.Rules, nil
		} else if lerr == nil {
			l.Step.Close()
		}
	}
	return s.Rules, nil
}

// renew renews lease every third of it until stop is called, or it ran
// out (the store will then be refused).
func (c *Cache) renew(ctx context.Context, lease *robotstxt.FleetLease) (stop func()) {
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		tick := time.NewTicker(c.core.RenewEvery())
		defer tick.Stop()
		for held := true; held; {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			var err error
			if held, err = c.renewOnce(ctx, lease); err != nil {
				held = !errors.Is(err, robotstxt.ErrInvalidLease) // a Redis failure: try again
			}
		}
	}()
	return func() { close(done); <-ended }
}

// renewOnce renews lease: whether it is still this worker's.
func (c *Cache) renewOnce(ctx context.Context, lease *robotstxt.FleetLease) (bool, error) {
	step, err := c.core.Renew(lease, at(time.Time{}, c.now))
	if err != nil {
		return false, err
	}
	defer step.Close()
	reply, err := run(ctx, c.client, step)
	if err == nil {
		var held bool
		if held, err = c.core.RenewReply(step, reply); err == nil {
			return held, nil
		}
	}
	return false, c.failed(step.Script, err, true)
}

// store stores what the fetch under lease returned for the fleet; when
// Redis fails, this worker holds the copy alone (and the error says why).
func (c *Cache) store(ctx context.Context, lease *robotstxt.FleetLease, resp robotstxt.Response, token string,
	now time.Time) (robotstxt.FleetStored, error) {
	step, err := c.core.Store(lease, resp, token, at(now, c.now))
	if err != nil {
		return robotstxt.FleetStored{}, err
	}
	defer step.Close()
	var s robotstxt.FleetStored
	reply, err := run(ctx, c.client, step)
	if err != nil {
		s, _ = c.core.StoreFailed(step)
	} else if s, err = c.core.StoreReply(step, reply); err == nil && s.Failed {
		err = &RedisError{Step: step.Script, Err: errors.New("Redis answered the store with an error")}
	}
	return s, c.failed(step.Script, err, false) // the core counted it
}

// giveBack ends lease unstored and gives it back to the fleet.
func (c *Cache) giveBack(ctx context.Context, lease *robotstxt.FleetLease) error {
	step, err := c.core.Abandon(lease)
	if err != nil {
		return err
	}
	defer step.Close()
	if _, err := run(ctx, c.client, step); err != nil {
		return c.failed(step.Script, err, true)
	}
	return nil
}

// Lookup is what Cache.Lookup answers for one URL at one time: the fields
// of robotstxt.Lookup, with a lease of the fleet's.
type Lookup struct {
	// Kind says which of the fields below are set.
	Kind robotstxt.LookupKind
	// Answer (ready) says where Rules come from: a parsed copy, or a
	// blanket allow-all or disallow-all.
	Answer robotstxt.Answer
	// Blanket (ready) is, for a blanket answer, why (as
	// robotstxt.Rules.Blanket says too); nil for a parsed copy.
	Blanket *robotstxt.Blanket
	// RetryAt (ready) is when the fleet will fetch again after a failed
	// fetch; with robotstxt.DisallowWhileFetching while another worker
	// fetches an origin this worker holds no copy of, when that worker's
	// lease runs out. Zero when no retry is pending.
	RetryAt time.Time
	// Stale (ready) says the copy is past its freshness, kept while it is
	// refreshed or while the file is unreachable.
	Stale bool
	// Rules (ready) are the rules for the token looked up; yours to Close.
	Rules *robotstxt.Rules
	// Lease (fetch) is the fleet's right, and this caller's duty, to fetch.
	Lease *Lease
	// Until (wait) is when the other worker's lease runs out.
	Until time.Time
}

// Lookup asks the fleet about url (an absolute http or https URL) for the
// crawler token at now, as robotstxt.Cache.Lookup asks a robotstxt.Cache:
// ready rules, or fetch now (one caller in the fleet per origin at a time,
// under a Lease), or wait. A zero now is the cache's clock
// (CacheOptions.Now, else Redis's). A copy this worker holds that is not due
// answers without Redis; otherwise it makes one Redis call (two when the
// fleet's copy does not read: the second takes the lease to fetch over
// it), and never waits for a fetch.
//
// Errors: robotstxt.ErrInvalidURL, a *robotstxt.TokenError (Redis is not
// asked then), robotstxt.ErrInvalidOption for another when,
// robotstxt.ErrClosed after Close, ctx.Err(), a *RedisError when Redis fails
// (no fail-safe answer here: that is Rules').
func (c *Cache) Lookup(ctx context.Context, url, token string, now time.Time, when robotstxt.WhenFetching) (Lookup, error) {
	if err := c.open(); err != nil {
		return Lookup{}, err
	}
	if err := checkWhen(when, "fleet.Cache.Lookup: when"); err != nil {
		return Lookup{}, err
	}
	l, err := c.core.Lookup(url, token, at(now, c.now), when)
	if err == nil {
		l, err = c.drive(ctx, l)
	}
	if err != nil {
		return Lookup{}, err
	}
	out := Lookup{Kind: l.Kind, Answer: l.Answer, Blanket: l.Blanket, RetryAt: l.RetryAt, Stale: l.Stale,
		Rules: l.Rules, Until: l.Until}
	if l.Lease != nil {
		c.mu.Lock()
		c.users++
		c.mu.Unlock()
		out.Lease = &Lease{cache: c, lease: l.Lease, token: token}
	}
	return out, nil
}

// Lease is the fleet's right, and duty, to fetch one origin's
// robots.txt, handed out by Cache.Lookup to one caller in the
// fleet per origin at a time, under a fencing token. Store what the
// fetch returned, or Abandon it, once; one neither stored nor abandoned
// runs out after CacheOptions.Lease, and the next lookup hands the
// fetch to another caller. It is safe for concurrent use.
type Lease struct {
	cache *Cache
	lease *robotstxt.FleetLease
	token string // the lookup's: the store's answer is for it
	once  sync.Once
}

func (l *Lease) notNil() {
	if l == nil {
		panic("robotstxt: method called on a nil *fleet.Lease")
	}
}

// Origin returns the normalised origin, as robotstxt.Lease.Origin does.
func (l *Lease) Origin() string { l.notNil(); return l.lease.Origin }

// RobotsURL returns the URL to fetch: the origin's /robots.txt.
func (l *Lease) RobotsURL() string { l.notNil(); return l.lease.RobotsURL }

// Validators returns the validators of the fleet's copy, for a
// conditional request; a 304 stored with the lease then renews the copy.
func (l *Lease) Validators() robotstxt.Validators { l.notNil(); return l.lease.Validators }

var errLeaseRefused = &robotstxt.Error{Kind: robotstxt.ErrInvalidLease, Message: "the fleet refused the store: the lease ran out " +
	"(by the clock that took it) or another lease replaced it; the fleet's copy is unchanged"}

// end gives the lease's use of the cache's core back, once.
func (l *Lease) end() { l.once.Do(l.cache.release) }

// Store records what the fetch returned at now (zero: the cache's clock), as
// robotstxt.Lease.Store does, stores the copy for the fleet and ends the
// lease; this worker holds the copy from then on. It returns what the
// outcome meant.
//
// Errors: robotstxt.ErrInvalidLease when the lease was already stored or
// abandoned (Redis is not asked then), or when Redis refuses the store
// because the lease ran out by now (a copy is stored only under the fleet's
// current lease: a late answer never replaces a newer one), and nothing
// changes; robotstxt.ErrClosed after Cache.Close (the fetch is given back
// then). A *RedisError or ctx.Err() when the copy could not be stored: the
// disposition is then returned too, and the copy answers in this worker
// only, until it is due.
func (l *Lease) Store(ctx context.Context, now time.Time, resp robotstxt.Response) (robotstxt.Disposition, error) {
	l.notNil()
	if l.cache.open() != nil {
		return 0, l.Abandon(ctx)
	}
	s, err := l.cache.store(ctx, l.lease, resp, l.token, now)
	if s.Rules == nil && errors.Is(err, robotstxt.ErrInvalidLease) {
		return 0, err // ended before: nothing changed
	}
	l.end()
	if s.Rules == nil {
		return 0, err
	}
	s.Rules.Close()
	if err == nil && !s.Stored {
		return 0, errLeaseRefused
	}
	return s.Disposition, err
}

// Renew extends the lease while its fetch goes on, by CacheOptions.Lease
// from now: call it every third of the lease, so that a slow robots.txt
// stays one fetch for the fleet. It reports whether the lease is still this
// caller's (false: it ran out, and Store will be refused). Errors:
// robotstxt.ErrInvalidLease when the lease was already stored or
// abandoned, a *RedisError, ctx.Err().
func (l *Lease) Renew(ctx context.Context) (bool, error) {
	l.notNil()
	return l.cache.renewOnce(ctx, l.lease)
}

// Abandon gives the fetch back without an outcome (the caller gave up), if
// the lease is still the fleet's current one: the next lookup of the origin
// hands it to someone else. Errors: robotstxt.ErrInvalidLease when the lease
// was already stored or abandoned, robotstxt.ErrClosed after Cache.Close
// (the fetch is given back all the same), a *RedisError or ctx.Err() (the
// lease then runs out in its time).
func (l *Lease) Abandon(ctx context.Context) error {
	l.notNil()
	err := l.cache.giveBack(ctx, l.lease)
	if errors.Is(err, robotstxt.ErrInvalidLease) {
		return err
	}
	l.end()
	if closed := l.cache.open(); closed != nil {
		return closed
	}
	return err
}

// Remove forgets this worker's copy of url's origin (the fleet's stays)
// and reports whether it held one. robotstxt.ErrInvalidURL as for Rules.
func (c *Cache) Remove(url string) (bool, error) {
	if err := c.open(); err != nil {
		return false, err
	}
	return c.core.Remove(url)
}

// CacheStats are a Cache's counters in this worker since it was made.
type CacheStats struct {
	// Hits are answers from a copy that was not due.
	Hits uint64
	// Misses are looks at Redis with no copy held (a fetch, a wait, or a
	// disallow-all while another worker fetches).
	Misses uint64
	// Fetches are fetches this worker made for the fleet.
	Fetches uint64
	// Stale are answers from a copy past its freshness, or kept through
	// failed fetches.
	Stale uint64
	// Evictions are copies dropped to stay within Capacity.
	Evictions uint64
	// Unreadable are copies in Redis this worker could not read (damaged,
	// or written by a newer library): taken for no copy, and fetched over.
	Unreadable uint64
	// RedisErrors are Redis calls that failed.
	RedisErrors uint64
	// Entries are the copies held now.
	Entries uint64
}

// Stats returns this worker's counters.
func (c *Cache) Stats() CacheStats {
	if c.open() != nil {
		return CacheStats{}
	}
	s, _ := c.core.Stats()
	return CacheStats(s)
}

// Len returns how many copies this worker holds.
func (c *Cache) Len() int {
	if c.open() != nil {
		return 0
	}
	_, n := c.core.Stats()
	return n
}

// Close frees this worker's copies (the fleet's stay in Redis; once the
// rounds and leases under way end) and its local fallback cache; later
// calls return robotstxt.ErrClosed. It does not close the Redis client.
// Calling Close again does nothing.
func (c *Cache) Close() {
	if c == nil {
		panic("robotstxt: method called on a nil *fleet.Cache")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	if c.users == 0 {
		c.core.Close()
	}
	if c.fallback != nil {
		c.fallback.Close()
	}
}
