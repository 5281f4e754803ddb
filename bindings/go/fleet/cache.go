package fleet

import (
	"container/list"
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-engine/robotstxt-go"
)

// CacheOptions are a Cache's key prefix, lease and keep times, size,
// freshness policy, failure policy and clock. Start from
// DefaultCacheOptions.
type CacheOptions struct {
	// Prefix is the prefix of every key: "" means DefaultPrefix
	// ("robotstxt:"). Workers of one fleet use the same.
	Prefix string
	// Lease is how long one worker's fetch of a robots.txt may take
	// before another worker may fetch it instead; the fetch is cancelled
	// (its context is done) then. 0 means 60s.
	Lease time.Duration
	// Keep is how long Redis keeps a copy after it was stored: 0 means 31
	// days, past which an origin nobody asked about is forgotten.
	Keep time.Duration
	// Capacity is how many copies this worker keeps parsed, the one
	// stored longest ago going first: 0 means 10,000.
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
	// script read Redis's own (TIME), the same for every worker.
	Now func() time.Time
}

const (
	defaultLease    = 60 * time.Second
	defaultKeep     = 31 * 24 * time.Hour
	defaultCapacity = 10_000
)

// DefaultCacheOptions returns the defaults: DefaultPrefix, 60s
// leases, copies kept 31 days in Redis and 10,000 in the worker, the
// default freshness policy, waiting for fetches, no local fallback,
// Redis's clock.
func DefaultCacheOptions() CacheOptions {
	return CacheOptions{
		Prefix:   DefaultPrefix,
		Lease:    defaultLease,
		Keep:     defaultKeep,
		Capacity: defaultCapacity,
		Policy:   robotstxt.DefaultFreshnessPolicy(),
	}
}

// Cache is robotstxt.Cache's Rules over one copy of each origin's
// robots.txt kept in Redis for a whole fleet of workers: when a copy is
// due, one worker in the fleet fetches it (under a lease fenced by a
// token, so that a worker whose lease ran out cannot overwrite a newer
// copy) and the others wait for it, or answer with the copy they hold.
// Each worker keeps the copies it uses parsed, by version: until a copy
// is due a question costs no Redis call, and a check is a local call.
// Within a worker, one goroutine per origin asks Redis at a time. Its
// methods are safe for concurrent use.
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
	prefix       string
	fetch        robotstxt.FetchFunc
	clock        fleetClock
	when         robotstxt.WhenFetching
	onRedisError func(error)
	lease        time.Duration
	leaseMS      int64
	keepMS       int64
	capacity     int
	policy       robotstxt.FreshnessPolicy
	fallback     *robotstxt.Cache
	warning      fallbackWarning

	// mu guards copies, order, empty and closed, and is held (for reading)
	// while a held entry answers, so that none is closed meanwhile.
	mu     sync.RWMutex
	copies map[string]*heldCopy
	order  *list.List       // origins, the one stored longest ago first
	empty  *robotstxt.Entry // no copy: disallow-all, nothing known yet
	closed bool

	roundsMu sync.Mutex
	rounds   map[string]*cacheRound // one look at Redis per origin at a time

	hits, misses, fetches, stale, evictions, redisErrors atomic.Uint64
}

// heldCopy is a copy this worker holds: the bytes Redis has under version
// ("" when its store was refused or failed), and the entry decoded from
// them.
type heldCopy struct {
	version string
	data    []byte
	entry   *robotstxt.Entry
	elem    *list.Element
	closed  bool // its entry was closed (replaced, evicted): mu is held
}

// cacheRound is one look at Redis for an origin, shared by every
// goroutine asking about it meanwhile; its result is set before done
// closes.
type cacheRound struct {
	done     chan struct{}
	look     sharedLook // the answer, a ready look, unless one below is set
	again    bool       // look again
	fallback bool       // ask the local fallback cache
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
	if options.WhenFetching != robotstxt.WaitForFetch && options.WhenFetching != robotstxt.DisallowWhileFetching {
		return nil, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption, Message: "fleet.CacheOptions.WhenFetching is not robotstxt.WaitForFetch or robotstxt.DisallowWhileFetching"}
	}
	if options.Capacity < 0 {
		return nil, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption, Message: "fleet.CacheOptions.Capacity is negative: pass 0 (the default) or more"}
	}
	leaseMS, err := positiveMS(options.Lease, defaultLease, "fleet.CacheOptions.Lease")
	if err != nil {
		return nil, err
	}
	keepMS, err := positiveMS(options.Keep, defaultKeep, "fleet.CacheOptions.Keep")
	if err != nil {
		return nil, err
	}
	policy := options.Policy
	if isZeroPolicy(policy) {
		policy = robotstxt.DefaultFreshnessPolicy()
	}
	empty, err := robotstxt.NewEntry(policy) // checks the policy too
	if err != nil {
		return nil, err
	}
	c := &Cache{
		client:       client,
		prefix:       options.Prefix,
		fetch:        fetch,
		clock:        fleetClock{now: options.Now},
		when:         options.WhenFetching,
		onRedisError: options.OnRedisError,
		lease:        time.Duration(leaseMS) * time.Millisecond,
		leaseMS:      leaseMS,
		keepMS:       keepMS,
		capacity:     options.Capacity,
		policy:       policy,
		copies:       map[string]*heldCopy{},
		order:        list.New(),
		empty:        empty,
		rounds:       map[string]*cacheRound{},
	}
	if c.prefix == "" {
		c.prefix = DefaultPrefix
	}
	if c.capacity == 0 {
		c.capacity = defaultCapacity
	}
	if options.LocalFallback {
		c.fallback, err = robotstxt.NewCache(fetch, robotstxt.CacheOptions{Capacity: c.capacity, Lease: c.lease, Policy: policy,
			WhenFetching: options.WhenFetching, Now: options.Now})
		if err != nil {
			empty.Close()
			return nil, err
		}
	}
	return c, nil
}

func isZeroPolicy(p robotstxt.FreshnessPolicy) bool {
	return p.FreshFor == 0 && p.Retry == 0 && p.UnreachableLimit == 0 && p.AfterLimit == 0 && p.Access == 0 &&
		len(p.Parse) == 0
}

var errCacheClosed = &robotstxt.Error{Kind: robotstxt.ErrClosed, Message: "fleet.Cache used after Close"}

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
// for the goroutines still waiting, and for the fleet),
// robotstxt.ErrCopyVersion or robotstxt.ErrInvalidCopy for a fleet's copy
// this worker cannot read (a newer library wrote it) until it is due and
// fetched again (then this worker's copy replaces it). Redis failures are no
// error: see Cache and OnRedisError. A panic of the fetch function is raised
// again in every goroutine waiting for it, after the lease is given back.
func (c *Cache) Rules(ctx context.Context, url, token string) (*robotstxt.Rules, error) {
	if err := c.open(); err != nil {
		return nil, err
	}
	origin, err := robotstxt.RobotsOrigin(url)
	if err != nil {
		return nil, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if rules, _, ok, err := c.fromHeld(origin, time.Time{}, token); ok {
			return rules, err
		}
		r := c.roundFor(ctx, origin)
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
		case r.again:
			continue
		case r.fallback:
			if err := c.open(); err != nil {
				return nil, err
			}
			return c.fallback.Rules(ctx, url, token)
		}
		if rules, _, ok, err := c.answer(r.look, token); ok {
			return rules, err
		}
		// The copy was replaced or evicted meanwhile: look again.
	}
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
// answers without Redis; otherwise it makes one Redis call, and never waits
// for a fetch.
//
// Errors: robotstxt.ErrInvalidURL, a *robotstxt.TokenError (Redis is not
// asked then), robotstxt.ErrInvalidOption for another when,
// robotstxt.ErrClosed after Close, ctx.Err(), a *RedisError when Redis fails
// (no fail-safe answer here: that is Rules'), robotstxt.ErrCopyVersion or
// robotstxt.ErrInvalidCopy as for Rules.
func (c *Cache) Lookup(ctx context.Context, url, token string, now time.Time, when robotstxt.WhenFetching) (Lookup, error) {
	if err := c.open(); err != nil {
		return Lookup{}, err
	}
	if when != robotstxt.WaitForFetch && when != robotstxt.DisallowWhileFetching {
		return Lookup{}, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption, Message: "fleet.Cache.Lookup: when is not robotstxt.WaitForFetch or robotstxt.DisallowWhileFetching"}
	}
	origin, err := robotstxt.RobotsOrigin(url)
	if err != nil {
		return Lookup{}, err
	}
	for {
		if rules, stale, ok, err := c.fromHeld(origin, now, token); ok {
			return readyLookup(rules, stale), err
		}
		if err := c.checkToken(token); err != nil {
			return Lookup{}, err
		}
		look, err := c.look(ctx, origin, now, when)
		if err != nil {
			return Lookup{}, err
		}
		switch look.kind {
		case robotstxt.LookupFetch:
			return Lookup{Kind: robotstxt.LookupFetch, Lease: look.lease}, nil
		case robotstxt.LookupWait:
			return Lookup{Kind: robotstxt.LookupWait, Until: look.until}, nil
		}
		if rules, stale, ok, err := c.answer(look, token); ok {
			return readyLookup(rules, stale), err
		}
		// The copy was replaced or evicted meanwhile: look again.
	}
}

func readyLookup(rules *robotstxt.Rules, stale bool) Lookup {
	if rules == nil {
		return Lookup{}
	}
	l := Lookup{Kind: robotstxt.LookupReady, Answer: robotstxt.AnswerRules, Stale: stale, Rules: rules}
	if b, ok := rules.Blanket(); ok {
		l.Blanket, l.Answer = &b, robotstxt.AnswerDisallowAll
		if b.Allowed {
			l.Answer = robotstxt.AnswerAllowAll
		}
	}
	l.RetryAt, _ = rules.RetryAt()
	return l
}

func (c *Cache) open() error {
	if c == nil {
		panic("robotstxt: method called on a nil *fleet.Cache")
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return errCacheClosed
	}
	return nil
}

// fromHeld answers from the copy this worker holds, when it is not due at
// now (zero: the cache's clock); ok says whether it answered.
func (c *Cache) fromHeld(origin string, now time.Time, token string) (rules *robotstxt.Rules, stale, ok bool, err error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return nil, false, true, errCacheClosed
	}
	held := c.copies[origin]
	if held == nil {
		return nil, false, false, nil
	}
	if now.IsZero() {
		now = c.clock.time()
	}
	state := held.entry.State(now)
	if state.Due {
		return nil, false, false, nil
	}
	stale = state.Failures > 0
	if stale {
		c.stale.Add(1)
	} else {
		c.hits.Add(1)
	}
	rules, err = held.entry.RulesFor(now, token)
	return rules, stale, true, err
}

// checkToken is the token check every answer makes, for a lookup that
// may get none, made before Redis is asked.
func (c *Cache) checkToken(token string) error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return errCacheClosed
	}
	rules, err := c.empty.RulesFor(time.Time{}, token)
	if err == nil {
		rules.Close()
	}
	return err
}

// sharedLook is one look at Redis for an origin, before it is put to a
// token: the steps of Lookup that every asker of an origin shares.
type sharedLook struct {
	kind robotstxt.LookupKind
	now  time.Time
	// Ready: copy answers at now (refreshing: due, while another worker
	// fetches it); with copy nil, nothing is known yet: disallow-all.
	copy       *heldCopy
	refreshing bool
	// Wait, and ready with no copy while another worker fetches: when
	// that worker's lease runs out.
	until time.Time
	lease *Lease // fetch
}

// answer puts a ready look to token; not ok when its copy was closed
// (replaced, evicted) meanwhile.
func (c *Cache) answer(look sharedLook, token string) (rules *robotstxt.Rules, stale, ok bool, err error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	switch {
	case c.closed:
		return nil, false, true, errCacheClosed
	case look.copy == nil && !look.until.IsZero():
		// Another worker fetches: disallow-all, not fetched, until its
		// lease runs out, as a robotstxt.Cache answers then.
		nothing, err := c.empty.RulesFor(look.now, token)
		if err != nil {
			return nil, false, true, err
		}
		defer nothing.Close()
		rules, err := nothing.WithRetryAt(look.until)
		return rules, false, true, err
	case look.copy == nil:
		rules, err := c.empty.RulesFor(look.now, token)
		return rules, false, true, err
	case look.copy.closed:
		return nil, false, false, nil
	}
	stale = look.refreshing || look.copy.entry.State(look.now).Failures > 0
	rules, err = look.copy.entry.RulesFor(look.now, token)
	return rules, stale, true, err
}

// roundFor returns the round under way for origin, or starts one. A
// round runs on its own goroutine, whatever becomes of the caller that
// started it (ctx's values are kept, not its end).
func (c *Cache) roundFor(ctx context.Context, origin string) *cacheRound {
	c.roundsMu.Lock()
	defer c.roundsMu.Unlock()
	if r := c.rounds[origin]; r != nil {
		return r
	}
	r := &cacheRound{done: make(chan struct{})}
	c.rounds[origin] = r
	go c.run(context.WithoutCancel(ctx), r, origin)
	return r
}

func (c *Cache) run(ctx context.Context, r *cacheRound, origin string) {
	defer func() {
		if p := recover(); p != nil {
			r.panicked = p
		}
		c.roundsMu.Lock()
		delete(c.rounds, origin)
		c.roundsMu.Unlock()
		close(r.done)
	}()
	look, err := c.look(ctx, origin, time.Time{}, c.when)
	switch {
	case errors.Is(err, ErrRedis):
		c.redisDown(r, err, origin)
	case err != nil:
		r.err = err
	case look.kind == robotstxt.LookupFetch:
		c.fetchAndStore(ctx, r, look.lease)
	case look.kind == robotstxt.LookupWait:
		left := look.until.Sub(look.now)
		time.Sleep(min(max(left, time.Millisecond), pollInterval))
		r.again = true
	default:
		r.look = look
	}
}

func (c *Cache) keys(origin string) []string {
	return []string{c.prefix + "copy:{" + origin + "}", c.prefix + "lease:{" + origin + "}"}
}

func (c *Cache) held(origin string) *heldCopy {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.copies[origin]
}

// look is one look at Redis for origin at now (zero: the cache's clock).
// A copy of the fleet's that this worker does not hold yet becomes the
// one it holds.
func (c *Cache) look(ctx context.Context, origin string, now time.Time, when robotstxt.WhenFetching) (sharedLook, error) {
	keys := c.keys(origin)
	held := c.held(origin)
	version := ""
	if held != nil {
		version = held.version
	}
	_, nowArg := c.clock.at(now)
	reply, err := c.script(ctx, "lookup", keys, c.leaseMS, nowArg, version)
	if err != nil {
		return sharedLook{}, err
	}
	l, err := readLookup(reply)
	if err != nil {
		c.redisFailed(err)
		return sharedLook{}, err
	}
	if nowArg == "" {
		c.clock.saw(l.now)
	}
	look := sharedLook{now: time.UnixMilli(l.now)}
	if l.data != "" {
		data := []byte(l.data)
		entry, err := robotstxt.DecodeEntry(data, c.policy)
		switch {
		case err == nil:
			held = c.put(origin, l.version, data, entry)
		case l.kind == "fetch":
			held = nil // a copy this worker cannot read: fetch anew over it
		default:
			return sharedLook{}, err
		}
	}
	switch l.kind {
	case "fresh":
		if held != nil {
			c.hits.Add(1)
		}
		look.kind, look.copy = robotstxt.LookupReady, held // held nil: no copy, nothing known
	case "wait":
		if held != nil {
			c.stale.Add(1)
			look.kind, look.copy, look.refreshing = robotstxt.LookupReady, held, true
			break
		}
		c.misses.Add(1)
		leftMS, _ := strconv.ParseInt(l.tokenOrLeft, 10, 64)
		look.until = look.now.Add(time.Duration(leftMS) * time.Millisecond)
		look.kind = robotstxt.LookupWait
		if when == robotstxt.DisallowWhileFetching {
			look.kind = robotstxt.LookupReady
		}
	default: // "fetch"
		c.fetches.Add(1)
		if held == nil {
			c.misses.Add(1)
		}
		lease, err := c.newLease(ctx, origin, keys, l.tokenOrLeft, held, look.now)
		if err != nil {
			return sharedLook{}, err
		}
		look.kind, look.lease = robotstxt.LookupFetch, lease
	}
	return look, nil
}

// lookupReply is lookup.lua's answer.
type lookupReply struct {
	kind, version, tokenOrLeft, data string
	now                              int64
}

func readLookup(reply any) (lookupReply, error) {
	v, ok := reply.([]any)
	if ok && len(v) == 6 {
		kind, ok1 := v[0].(string)
		now, ok2 := v[1].(int64)
		version, ok3 := v[2].(string)
		tokenOrLeft, ok4 := v[4].(string)
		data, ok5 := v[5].(string)
		if ok1 && ok2 && ok3 && ok4 && ok5 && (kind == "fresh" || kind == "wait" || kind == "fetch") {
			return lookupReply{kind: kind, version: version, tokenOrLeft: tokenOrLeft, data: data, now: now}, nil
		}
	}
	return lookupReply{}, &RedisError{Step: "lookup", Err: errors.New("the script's reply is not {kind, now, version, due, token, data}")}
}

// Lease is the fleet's right, and duty, to fetch one origin's
// robots.txt, handed out by Cache.Lookup to one caller in the
// fleet per origin at a time, under a fencing token. Store what the
// fetch returned, or Abandon it, once; one neither stored nor abandoned
// runs out after CacheOptions.Lease, and the next lookup hands the
// fetch to another caller. It is safe for concurrent use.
type Lease struct {
	cache      *Cache
	origin     string
	keys       []string
	token      string
	validators robotstxt.Validators
	base       []byte // the copy the fetch refreshes, as Redis has it; nil for none

	mu    sync.Mutex
	entry *robotstxt.Entry // decoded from base: the fetch is recorded into it
	ended bool
}

// newLease makes the lease Redis handed out under token, to refresh held
// (nil: none); an error gives it back.
func (c *Cache) newLease(ctx context.Context, origin string, keys []string, token string, held *heldCopy,
	now time.Time) (*Lease, error) {
	l := &Lease{cache: c, origin: origin, keys: keys, token: token}
	var err error
	if held != nil {
		l.base = held.data
		l.entry, err = robotstxt.DecodeEntry(held.data, c.policy)
	} else {
		l.entry, err = robotstxt.NewEntry(c.policy)
	}
	if err != nil {
		_, _ = c.script(ctx, "abandon", keys[1:], token)
		return nil, err
	}
	l.validators = l.entry.State(now).Validators
	return l, nil
}

func (l *Lease) notNil() {
	if l == nil {
		panic("robotstxt: method called on a nil *fleet.Lease")
	}
}

// Origin returns the normalised origin, as robotstxt.Lease.Origin does.
func (l *Lease) Origin() string { l.notNil(); return l.origin }

// RobotsURL returns the URL to fetch: the origin's /robots.txt.
func (l *Lease) RobotsURL() string { l.notNil(); return l.origin + "/robots.txt" }

// Validators returns the validators of the fleet's copy, for a
// conditional request; a 304 stored with the lease then renews the copy.
func (l *Lease) Validators() robotstxt.Validators { l.notNil(); return l.validators }

// errLeaseUsed is robotstxt.Lease's error for a second store or abandon.
var errLeaseUsed = &robotstxt.Error{Kind: robotstxt.ErrInvalidLease,
	Message: "the lease was already stored or abandoned: each lease is stored or abandoned once"}

var errLeaseRefused = &robotstxt.Error{Kind: robotstxt.ErrInvalidLease, Message: "the fleet refused the store: the lease ran out " +
	"(by the clock that took it) or another lease replaced it; the fleet's copy is unchanged"}

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
	s, err := l.store(ctx, now, resp)
	switch {
	case s.refused:
		s.copy.entry.Close()
		return 0, errLeaseRefused
	case s.copy == nil:
		return 0, err
	}
	return s.disposition, err
}

// leaseStored is what storing a fetch made: the copy at now, held by this
// worker unless the fleet refused it.
type leaseStored struct {
	copy        *heldCopy
	now         time.Time
	disposition robotstxt.Disposition
	refused     bool
}

func (l *Lease) store(ctx context.Context, now time.Time, resp robotstxt.Response) (leaseStored, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return leaseStored{}, errLeaseUsed
	}
	l.ended = true
	c := l.cache
	if err := c.open(); err != nil {
		_ = l.giveBack(ctx)
		return leaseStored{}, err
	}
	now, nowArg := c.clock.at(now)
	disposition := l.entry.Record(now, resp)
	// The body the copy now comes from: this one, or the one kept.
	var body []byte
	switch {
	case disposition == robotstxt.FollowRules:
		body = resp.Body
	case l.base != nil:
		body, _ = robotstxt.StoredBody(l.base) // decoded before: readable
	}
	data, err := l.entry.Encode(body)
	if err != nil {
		_ = l.giveBack(ctx)
		return leaseStored{}, err
	}
	reply, err := c.script(ctx, "store", l.keys, l.token, data, l.entry.State(now).DueAt.UnixMilli(), c.keepMS, nowArg)
	version, _ := reply.(string)
	if err == nil && version == "" {
		return leaseStored{copy: &heldCopy{data: data, entry: l.entry}, now: now, refused: true}, nil
	}
	// Stored, or not (Redis failed): this worker holds the copy, in the
	// second case under no version, so that its next look takes the
	// fleet's.
	return leaseStored{copy: c.put(l.origin, version, data, l.entry), now: now, disposition: disposition}, err
}

// Abandon gives the fetch back without an outcome (the caller gave up), if
// the lease is still the fleet's current one: the next lookup of the origin
// hands it to someone else. Errors: robotstxt.ErrInvalidLease when the lease
// was already stored or abandoned, robotstxt.ErrClosed after Cache.Close
// (the fetch is given back all the same), a *RedisError or ctx.Err() (the
// lease then runs out in its time).
func (l *Lease) Abandon(ctx context.Context) error {
	l.notNil()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return errLeaseUsed
	}
	l.ended = true
	err := l.giveBack(ctx)
	if closed := l.cache.open(); closed != nil {
		return closed
	}
	return err
}

// giveBack frees the lease's entry and gives the fetch back to the fleet,
// if the lease is still the current one; l.mu is held.
func (l *Lease) giveBack(ctx context.Context) error {
	l.entry.Close()
	_, err := l.cache.script(ctx, "abandon", l.keys[1:], l.token)
	return err
}

// fetchAndStore fetches under lease with the cache's robotstxt.FetchFunc,
// stores the copy for the fleet, and answers from it.
func (c *Cache) fetchAndStore(ctx context.Context, r *cacheRound, lease *Lease) {
	fetched := false
	defer func() {
		if !fetched { // the fetch function panicked
			_ = lease.Abandon(ctx)
		}
	}()
	fetchCtx, cancel := context.WithTimeout(ctx, c.lease)
	defer cancel()
	resp, err := c.fetch(fetchCtx, robotstxt.FetchRequest{URL: lease.RobotsURL(), Origin: lease.origin, Validators: lease.validators})
	fetched = true
	if err != nil {
		resp = robotstxt.Response{} // no response: a network error or a timeout (behaviour §6)
	}
	s, err := lease.store(ctx, time.Time{}, resp)
	switch {
	case s.refused:
		// The lease ran out (and may have been taken again): the answer
		// still holds for this worker; its next look at Redis takes the
		// fleet's.
		s.copy = c.put(lease.origin, "", s.copy.data, s.copy.entry)
	case s.copy == nil:
		r.err = err
		return
	}
	// An error here is Redis's, counted and reported: the copy answers.
	r.look = sharedLook{kind: robotstxt.LookupReady, now: s.now, copy: s.copy}
}

// put makes (version, data, entry) the copy of origin this worker holds.
func (c *Cache) put(origin, version string, data []byte, entry *robotstxt.Entry) *heldCopy {
	c.mu.Lock()
	defer c.mu.Unlock()
	held := &heldCopy{version: version, data: data, entry: entry}
	if c.closed {
		entry.Close()
		held.closed = true
		return held
	}
	if old := c.copies[origin]; old != nil {
		c.drop(origin, old)
	}
	held.elem = c.order.PushBack(origin)
	c.copies[origin] = held
	if len(c.copies) > c.capacity {
		oldest := c.order.Front().Value.(string)
		c.drop(oldest, c.copies[oldest])
		c.evictions.Add(1)
	}
	return held
}

// drop forgets a held copy; mu is held.
func (c *Cache) drop(origin string, held *heldCopy) {
	held.entry.Close()
	held.closed = true
	c.order.Remove(held.elem)
	delete(c.copies, origin)
}

// script runs the fleet script name; a Redis failure is counted and
// reported.
func (c *Cache) script(ctx context.Context, name string, keys []string, args ...any) (any, error) {
	reply, err := runScript(ctx, c.client, name, keys, args...)
	if errors.Is(err, ErrRedis) {
		c.redisFailed(err)
	}
	return reply, err
}

func (c *Cache) redisFailed(err error) {
	c.redisErrors.Add(1)
	if c.onRedisError != nil {
		c.onRedisError(err)
	}
}

// redisDown fails safe: the copy this worker holds answers (as an
// unreachable robots.txt keeps the old copy); with none, nothing is
// allowed. With LocalFallback, this worker's own cache answers.
func (c *Cache) redisDown(r *cacheRound, err error, origin string) {
	if c.fallback != nil {
		c.warning.warn("fleet.Cache", "cache", err)
		r.fallback = true
		return
	}
	r.look = sharedLook{kind: robotstxt.LookupReady, now: c.clock.time(), copy: c.held(origin)}
}

// Remove forgets this worker's copy of url's origin (the fleet's stays)
// and reports whether it held one. robotstxt.ErrInvalidURL as for Rules.
func (c *Cache) Remove(url string) (bool, error) {
	if err := c.open(); err != nil {
		return false, err
	}
	origin, err := robotstxt.RobotsOrigin(url)
	if err != nil {
		return false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	held := c.copies[origin]
	if held == nil {
		return false, nil
	}
	c.drop(origin, held)
	return true, nil
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
	// RedisErrors are Redis calls that failed.
	RedisErrors uint64
	// Entries are the copies held now.
	Entries uint64
}

// Stats returns this worker's counters.
func (c *Cache) Stats() CacheStats {
	return CacheStats{Hits: c.hits.Load(), Misses: c.misses.Load(), Fetches: c.fetches.Load(),
		Stale: c.stale.Load(), Evictions: c.evictions.Load(), RedisErrors: c.redisErrors.Load(), Entries: uint64(c.Len())}
}

// Len returns how many copies this worker holds.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.copies)
}

// Close frees this worker's copies (the fleet's stay in Redis) and its local
// fallback cache; later calls return robotstxt.ErrClosed. It does not close
// the Redis client. Calling Close again does nothing.
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
	for origin, held := range c.copies {
		c.drop(origin, held)
	}
	c.empty.Close()
	if c.fallback != nil {
		c.fallback.Close()
	}
}
