package robotstxt

import (
	"container/list"
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// SharedCacheOptions are a SharedRobotsCache's key prefix, lease and keep
// times, size, freshness policy, failure policy and clock. Start from
// DefaultSharedCacheOptions.
type SharedCacheOptions struct {
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
	// failed fetch is tried again, as for Cache. The zero value means
	// DefaultFreshnessPolicy(). Workers of one fleet use the same.
	Policy FreshnessPolicy
	// WhenFetching is what Rules answers while another worker fetches an
	// origin this worker holds no copy of: WaitForFetch (the default;
	// look again at least every 250 ms) or DisallowWhileFetching.
	WhenFetching WhenFetching
	// LocalFallback: when Redis cannot be reached, answer from a Cache of
	// this worker's own, which fetches for itself, and log a warning (once):
	// politeness then holds per worker, not per fleet. Off by default: the
	// cache fails safe instead (see SharedRobotsCache).
	LocalFallback bool
	// OnRedisError, if set, is told of every Redis failure (a *RedisError),
	// including those the cache answers through. It must not block.
	OnRedisError func(error)
	// Now is the clock passed to every script. nil (the default) lets each
	// script read Redis's own (TIME), the same for every worker.
	Now func() time.Time
}

const (
	defaultSharedLease    = 60 * time.Second
	defaultSharedKeep     = 31 * 24 * time.Hour
	defaultSharedCapacity = 10_000
)

// DefaultSharedCacheOptions returns the defaults: DefaultPrefix, 60s
// leases, copies kept 31 days in Redis and 10,000 in the worker, the
// default freshness policy, waiting for fetches, no local fallback,
// Redis's clock.
func DefaultSharedCacheOptions() SharedCacheOptions {
	return SharedCacheOptions{
		Prefix:   DefaultPrefix,
		Lease:    defaultSharedLease,
		Keep:     defaultSharedKeep,
		Capacity: defaultSharedCapacity,
		Policy:   DefaultFreshnessPolicy(),
	}
}

// SharedRobotsCache is Cache's Rules over one copy of each origin's
// robots.txt kept in Redis for a whole fleet of workers: when a copy is
// due, one worker in the fleet fetches it (under a lease fenced by a
// token, so that a worker whose lease ran out cannot overwrite a newer
// copy) and the others wait for it, or answer with the copy they hold.
// Each worker keeps the copies it uses parsed, by version: until a copy
// is due a question costs no Redis call, and a check is a local call.
// Within a worker, one goroutine per origin asks Redis at a time. Its
// methods are safe for concurrent use.
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
type SharedRobotsCache struct {
	client       redis.Scripter
	prefix       string
	fetch        FetchFunc
	clock        fleetClock
	when         WhenFetching
	onRedisError func(error)
	lease        time.Duration
	leaseMS      int64
	keepMS       int64
	capacity     int
	policy       FreshnessPolicy
	fallback     *Cache
	warning      fallbackWarning

	// mu guards copies, order, empty and closed, and is held (for reading)
	// while a held entry answers, so that none is closed meanwhile.
	mu     sync.RWMutex
	copies map[string]*heldCopy
	order  *list.List // origins, the one stored longest ago first
	empty  *Entry     // no copy: disallow-all, nothing known yet
	closed bool

	roundsMu sync.Mutex
	rounds   map[string]*cacheRound // one look at Redis per origin at a time

	hits, misses, fetches, stale, evictions, redisErrors atomic.Uint64
}

// heldCopy is a copy this worker holds: the bytes Redis has under version
// ("" when its store was refused), and the entry decoded from them.
type heldCopy struct {
	version string
	data    []byte
	entry   *Entry
	elem    *list.Element
	closed  bool // its entry was closed (replaced, evicted): mu is held
}

// cacheRound is one look at Redis for an origin, shared by every
// goroutine asking about it meanwhile; its result is set before done
// closes.
type cacheRound struct {
	done chan struct{}
	// The answer: copy's at now, or with copy nil, disallow-all (nothing
	// known yet).
	copy     *heldCopy
	now      time.Time
	again    bool // look again
	fallback bool // ask the local fallback cache
	err      error
	panicked any // the fetch function panicked with this
}

// NewSharedRobotsCache makes a cache that shares its copies through
// client (a *redis.Client, *redis.ClusterClient, *redis.Ring or any
// redis.UniversalClient) and fetches with fetch, as Cache does (FetchHTTP
// makes one). The error is non-nil for an option out of range, or a nil
// client or fetch.
func NewSharedRobotsCache(client redis.Scripter, fetch FetchFunc, options SharedCacheOptions) (*SharedRobotsCache, error) {
	if client == nil {
		return nil, &Error{Kind: ErrInvalidOption, Message: "NewSharedRobotsCache needs a Redis client"}
	}
	if fetch == nil {
		return nil, &Error{Kind: ErrInvalidOption, Message: "NewSharedRobotsCache needs a FetchFunc (FetchHTTP makes one)"}
	}
	if options.WhenFetching != WaitForFetch && options.WhenFetching != DisallowWhileFetching {
		return nil, &Error{Kind: ErrInvalidOption, Message: "SharedCacheOptions.WhenFetching is not WaitForFetch or DisallowWhileFetching"}
	}
	if options.Capacity < 0 {
		return nil, &Error{Kind: ErrInvalidOption, Message: "SharedCacheOptions.Capacity is negative: pass 0 (the default) or more"}
	}
	leaseMS, err := positiveMS(options.Lease, defaultSharedLease, "SharedCacheOptions.Lease")
	if err != nil {
		return nil, err
	}
	keepMS, err := positiveMS(options.Keep, defaultSharedKeep, "SharedCacheOptions.Keep")
	if err != nil {
		return nil, err
	}
	policy := options.Policy
	if isZeroPolicy(policy) {
		policy = DefaultFreshnessPolicy()
	}
	empty, err := NewEntry(policy) // checks the policy too
	if err != nil {
		return nil, err
	}
	c := &SharedRobotsCache{
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
		c.capacity = defaultSharedCapacity
	}
	if options.LocalFallback {
		c.fallback, err = NewCache(fetch, CacheOptions{Capacity: c.capacity, Lease: c.lease, Policy: policy,
			WhenFetching: options.WhenFetching, Now: options.Now})
		if err != nil {
			empty.Close()
			return nil, err
		}
	}
	return c, nil
}

func isZeroPolicy(p FreshnessPolicy) bool {
	return p.FreshFor == 0 && p.Retry == 0 && p.UnreachableLimit == 0 && p.AfterLimit == 0 && p.Access == 0 &&
		len(p.Parse) == 0
}

var errSharedCacheClosed = &Error{Kind: ErrClosed, Message: "SharedRobotsCache used after Close"}

// Rules returns the rules for the crawler token at url (an absolute http
// or https URL), as Cache.Rules does, from the fleet's copy of the
// origin's robots.txt: a copy this worker holds that is not due answers
// at once; otherwise one goroutine of this worker looks at Redis, and
// takes the fleet's copy, or fetches it (when due, and no other worker
// is fetching it) and stores it for the fleet, or waits for another
// worker's fetch (answering meanwhile with the copy it holds, if any).
//
// Rules.Blanket tells rules disallowing everything because the file is
// unreachable, not fetched yet, or Redis is down and this worker holds no
// copy, from a file's own rules.
//
// The Rules are yours: Close them when done. Errors: ErrInvalidURL, a
// *TokenError, ErrClosed after Close, ctx.Err() when ctx is done first (a
// fetch under way goes on for the goroutines still waiting, and for the
// fleet), ErrCopyVersion or ErrInvalidCopy for a fleet's copy this worker
// cannot read (a newer library wrote it) until it is due and fetched
// again (then this worker's copy replaces it). Redis failures are no
// error: see SharedRobotsCache and OnRedisError. A panic of the
// fetch function is raised again in every goroutine waiting for it, after
// the lease is given back.
func (c *SharedRobotsCache) Rules(ctx context.Context, url, token string) (*Rules, error) {
	if err := c.open(); err != nil {
		return nil, err
	}
	origin, err := RobotsOrigin(url)
	if err != nil {
		return nil, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if rules, ok, err := c.local(origin, token); ok {
			return rules, err
		}
		r := c.roundFor(ctx, origin, url)
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
		if rules, ok, err := c.answer(r.copy, r.now, token); ok {
			return rules, err
		}
		// The copy was replaced or evicted meanwhile: look again.
	}
}

func (c *SharedRobotsCache) open() error {
	if c == nil {
		panic("robotstxt: method called on a nil *SharedRobotsCache")
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return errSharedCacheClosed
	}
	return nil
}

// local answers from the copy this worker holds, when it is not due.
func (c *SharedRobotsCache) local(origin, token string) (*Rules, bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return nil, true, errSharedCacheClosed
	}
	held := c.copies[origin]
	if held == nil {
		return nil, false, nil
	}
	now := c.clock.time()
	state := held.entry.State(now)
	if state.Due {
		return nil, false, nil
	}
	if state.Failures > 0 {
		c.stale.Add(1)
	} else {
		c.hits.Add(1)
	}
	rules, err := held.entry.RulesFor(now, token)
	return rules, true, err
}

// answer answers from held at now (with held nil: nothing known yet); not
// ok when held was closed meanwhile.
func (c *SharedRobotsCache) answer(held *heldCopy, now time.Time, token string) (*Rules, bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	switch {
	case c.closed:
		return nil, true, errSharedCacheClosed
	case held == nil:
		rules, err := c.empty.RulesFor(now, token)
		return rules, true, err
	case held.closed:
		return nil, false, nil
	}
	rules, err := held.entry.RulesFor(now, token)
	return rules, true, err
}

// roundFor returns the round under way for origin, or starts one. A
// round runs on its own goroutine, whatever becomes of the caller that
// started it (ctx's values are kept, not its end).
func (c *SharedRobotsCache) roundFor(ctx context.Context, origin, url string) *cacheRound {
	c.roundsMu.Lock()
	defer c.roundsMu.Unlock()
	if r := c.rounds[origin]; r != nil {
		return r
	}
	r := &cacheRound{done: make(chan struct{})}
	c.rounds[origin] = r
	go c.run(context.WithoutCancel(ctx), r, origin, url)
	return r
}

func (c *SharedRobotsCache) run(ctx context.Context, r *cacheRound, origin, url string) {
	defer func() {
		if p := recover(); p != nil {
			r.panicked = p
		}
		c.roundsMu.Lock()
		delete(c.rounds, origin)
		c.roundsMu.Unlock()
		close(r.done)
	}()
	c.lookup(ctx, r, origin, url)
}

func (c *SharedRobotsCache) keys(origin string) []string {
	return []string{c.prefix + "copy:{" + origin + "}", c.prefix + "lease:{" + origin + "}"}
}

func (c *SharedRobotsCache) held(origin string) *heldCopy {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.copies[origin]
}

// lookup is one look at Redis for origin.
func (c *SharedRobotsCache) lookup(ctx context.Context, r *cacheRound, origin, url string) {
	keys := c.keys(origin)
	held := c.held(origin)
	version := ""
	if held != nil {
		version = held.version
	}
	reply, err := runScript(ctx, c.client, "lookup", keys, c.leaseMS, c.clock.arg(), version)
	if err != nil {
		c.redisDown(r, err, origin)
		return
	}
	l, err := readLookup(reply)
	if err != nil {
		c.redisDown(r, err, origin)
		return
	}
	c.clock.saw(l.now)
	now := time.UnixMilli(l.now)
	if l.data != "" {
		data := []byte(l.data)
		entry, err := DecodeEntry(data, c.policy)
		switch {
		case err == nil:
			held = c.put(origin, l.version, data, entry)
		case l.kind == "fetch":
			held = nil // a copy this worker cannot read: fetch anew over it
		default:
			r.err = err
			return
		}
	}
	switch l.kind {
	case "fresh":
		if held == nil {
			r.again = true
			return
		}
		c.hits.Add(1)
		r.copy, r.now = held, now
	case "wait":
		if held != nil {
			c.stale.Add(1)
			r.copy, r.now = held, now
			return
		}
		c.misses.Add(1)
		if c.when == DisallowWhileFetching {
			r.now = now
			return
		}
		leftMS, _ := strconv.ParseInt(l.tokenOrLeft, 10, 64)
		left := time.Duration(leftMS) * time.Millisecond
		time.Sleep(min(max(left, time.Millisecond), pollInterval))
		r.again = true
	default: // "fetch"
		c.fetches.Add(1)
		if held == nil {
			c.misses.Add(1)
		}
		c.fetchAndStore(ctx, r, origin, keys, l.tokenOrLeft, held, now)
	}
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

// fetchAndStore fetches under the fleet's lease token, stores the copy for
// the fleet, and answers from it.
func (c *SharedRobotsCache) fetchAndStore(ctx context.Context, r *cacheRound, origin string, keys []string,
	token string, held *heldCopy, leaseNow time.Time) {
	var entry *Entry
	var err error
	if held != nil {
		entry, err = DecodeEntry(held.data, c.policy)
	} else {
		entry, err = NewEntry(c.policy)
	}
	if err != nil {
		c.abandon(ctx, keys[1], token)
		r.err = err
		return
	}
	stored := false
	defer func() {
		if !stored { // an error, or the fetch function panicked
			entry.Close()
			c.abandon(ctx, keys[1], token)
		}
	}()
	fetchCtx, cancel := context.WithTimeout(ctx, c.lease)
	defer cancel()
	started := time.Now()
	resp, err := c.fetch(fetchCtx, FetchRequest{URL: origin + "/robots.txt", Origin: origin,
		Validators: entry.State(leaseNow).Validators})
	if err != nil {
		resp = Response{} // no response: a network error or a timeout (behaviour §6)
	}
	now := leaseNow.Add(time.Since(started))
	if c.clock.now != nil {
		now = c.clock.now()
	}
	disposition := entry.Record(now, resp)
	// The body the copy now comes from: this one, or the one kept.
	var body []byte
	switch {
	case disposition == FollowRules:
		body = resp.Body
	case held != nil:
		body, _ = StoredBody(held.data) // decoded above: readable
	}
	data, err := entry.Encode(body)
	if err != nil {
		r.err = err
		return
	}
	version := ""
	reply, err := runScript(ctx, c.client, "store", keys, token, data, entry.State(now).DueAt.UnixMilli(), c.keepMS)
	if err != nil {
		c.redisErrors.Add(1)
		c.report(err)
	} else {
		version, _ = reply.(string)
	}
	// Refused (the lease ran out and was taken again): the answer still
	// holds for this worker; its next look at Redis takes the fleet's.
	stored = true
	r.copy, r.now = c.put(origin, version, data, entry), now
}

// abandon gives the lease back unstored, if it is still the current one.
func (c *SharedRobotsCache) abandon(ctx context.Context, lease, token string) {
	_, _ = runScript(ctx, c.client, "abandon", []string{lease}, token)
}

// put makes (version, data, entry) the copy of origin this worker holds.
func (c *SharedRobotsCache) put(origin, version string, data []byte, entry *Entry) *heldCopy {
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
func (c *SharedRobotsCache) drop(origin string, held *heldCopy) {
	held.entry.Close()
	held.closed = true
	c.order.Remove(held.elem)
	delete(c.copies, origin)
}

// redisDown fails safe: the copy this worker holds answers (as an
// unreachable robots.txt keeps the old copy); with none, nothing is
// allowed. With LocalFallback, this worker's own cache answers.
func (c *SharedRobotsCache) redisDown(r *cacheRound, err error, origin string) {
	c.redisErrors.Add(1)
	c.report(err)
	if c.fallback != nil {
		c.warning.warn("SharedRobotsCache", "cache", err)
		r.fallback = true
		return
	}
	r.copy, r.now = c.held(origin), c.clock.time()
}

func (c *SharedRobotsCache) report(err error) {
	if c.onRedisError != nil {
		c.onRedisError(err)
	}
}

// Remove forgets this worker's copy of url's origin (the fleet's stays)
// and reports whether it held one. ErrInvalidURL as for Rules.
func (c *SharedRobotsCache) Remove(url string) (bool, error) {
	if err := c.open(); err != nil {
		return false, err
	}
	origin, err := RobotsOrigin(url)
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

// SharedCacheStats are a SharedRobotsCache's counters in this worker since
// it was made.
type SharedCacheStats struct {
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
func (c *SharedRobotsCache) Stats() SharedCacheStats {
	return SharedCacheStats{Hits: c.hits.Load(), Misses: c.misses.Load(), Fetches: c.fetches.Load(),
		Stale: c.stale.Load(), Evictions: c.evictions.Load(), RedisErrors: c.redisErrors.Load(), Entries: uint64(c.Len())}
}

// Len returns how many copies this worker holds.
func (c *SharedRobotsCache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.copies)
}

// Close frees this worker's copies (the fleet's stay in Redis) and its
// local fallback cache; later calls return ErrClosed. It does not close
// the Redis client. Calling Close again does nothing.
func (c *SharedRobotsCache) Close() {
	if c == nil {
		panic("robotstxt: method called on a nil *SharedRobotsCache")
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
