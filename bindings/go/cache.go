package robotstxt

import (
	"context"
	"errors"
	"hash/maphash"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// WhenFetching says what a lookup answers while another caller fetches
// the origin and no copy exists yet.
type WhenFetching uint32

const (
	// WaitForFetch: wait for the other caller's fetch (the default).
	WaitForFetch WhenFetching = 0
	// DisallowWhileFetching: answer disallow-all at once (RFC 9309
	// §2.3.1.4: nothing is known yet).
	DisallowWhileFetching WhenFetching = 1
)

// String returns "wait" or "disallow_all".
func (w WhenFetching) String() string {
	switch w {
	case WaitForFetch:
		return "wait"
	case DisallowWhileFetching:
		return "disallow_all"
	}
	return "WhenFetching(" + itoa(uint64(w)) + ")"
}

// FetchRequest is what a FetchFunc must fetch.
type FetchRequest struct {
	// URL is the origin's /robots.txt, such as
	// "https://example.com:8443/robots.txt".
	URL string
	// Origin is the normalised origin, such as "https://example.com:8443".
	Origin string
	// Validators are those of the cached copy, for a conditional request
	// (If-None-Match, If-Modified-Since); a 304 then renews the copy.
	Validators Validators
}

// FetchFunc fetches /robots.txt for the cache with your own HTTP client,
// and reports what came back. An error means no response (status 0: a
// network error or timeout), unless ctx is done: then the fetch is given
// back for another caller. FetchHTTP makes one from an *http.Client.
type FetchFunc func(ctx context.Context, req FetchRequest) (Response, error)

// maxBody is how much of a body FetchHTTP reads: more than any parse limit
// most crawlers set (the core parses only up to its own limit).
const maxBody = 4 << 20

// FetchHTTP returns a FetchFunc that fetches with client (nil:
// http.DefaultClient), sending userAgent and the validators, reading at most
// 4 MiB of the body, and reporting the status, the redirects followed,
// max-age, Retry-After and the validators (see NewResponse).
func FetchHTTP(client *http.Client, userAgent string) FetchFunc {
	if client == nil {
		client = http.DefaultClient
	}
	return func(ctx context.Context, fr FetchRequest) (Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fr.URL, nil)
		if err != nil {
			return Response{}, err
		}
		if userAgent != "" {
			req.Header.Set("User-Agent", userAgent)
		}
		if fr.Validators.ETag != "" {
			req.Header.Set("If-None-Match", fr.Validators.ETag)
		}
		if fr.Validators.LastModified != "" {
			req.Header.Set("If-Modified-Since", fr.Validators.LastModified)
		}
		resp, err := client.Do(req)
		if err != nil {
			return Response{}, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
		if err != nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return Response{}, err // a 2xx cut short is no answer
		}
		return NewResponse(resp, body, time.Now()), nil
	}
}

// CacheOptions are a Cache's size, lease time, freshness policy and clock.
// Start from DefaultCacheOptions.
type CacheOptions struct {
	// Capacity is how many origins are kept; the least recently used goes
	// first. Default 10,000.
	Capacity int
	// Lease is how long a fetch may take: one neither stored nor abandoned
	// by then is handed to the next caller. Default 60s.
	Lease time.Duration
	// Policy is how copies age, how fetch statuses are read, and when a
	// failed fetch is tried again (its Retry-After, kept between 1 minute
	// and 24 hours, or Policy.Retry).
	Policy FreshnessPolicy
	// WhenFetching is what Rules answers while another goroutine fetches a
	// new origin: WaitForFetch (default) or DisallowWhileFetching.
	WhenFetching WhenFetching
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultCacheOptions returns the core's defaults: 10,000 origins, 60s
// leases, the default freshness policy, waiting for fetches, time.Now.
func DefaultCacheOptions() CacheOptions {
	o := coreCacheOptionsDefault()
	return CacheOptions{
		Capacity: int(o.capacity),
		Lease:    time.Duration(o.leaseMS) * time.Millisecond,
		Policy:   DefaultFreshnessPolicy(),
	}
}

// Cache is a cache of robots.txt copies keyed by origin
// (scheme://host[:port]), safe for concurrent use: it fetches each origin
// once even when many goroutines ask at the same moment, refreshes copies
// on time (behaviour §7), and answers with the rules for your crawler.
//
// Rules is the whole job in one call. Lookup and Lease are the steps under
// it, with an explicit clock, for callers that schedule fetches
// themselves.
//
// Call Close when done with it; a cleanup frees it otherwise. Close must
// not run at the same time as another method; using a Cache after Close
// panics.
type Cache struct {
	h       atomic.Pointer[handle] // nil once closed
	cleanup runtime.Cleanup
	fetch   FetchFunc
	now     func() time.Time
	when    WhenFetching
	seed    maphash.Seed
	shards  [64]wakeShard
}

// wakeShard wakes the goroutines waiting for fetches of the origins that
// hash to it. ch is made by the first waiter and closed by the next store
// or abandon: waiters take it before they look up, so no wake-up is lost.
type wakeShard struct {
	mu sync.Mutex
	ch chan struct{}
}

// NewCache makes an empty cache that fetches with fetch (which may be nil
// if you only use Lookup). The error is non-nil for an option out of range.
func NewCache(fetch FetchFunc, options CacheOptions) (*Cache, error) {
	p, err := options.Policy.c()
	if err != nil {
		return nil, err
	}
	if options.Capacity < 0 || options.Lease < 0 {
		return nil, &Error{Kind: ErrInvalidOption, Message: "CacheOptions.Capacity and Lease must not be negative"}
	}
	if options.WhenFetching != WaitForFetch && options.WhenFetching != DisallowWhileFetching {
		return nil, &Error{Kind: ErrInvalidOption, Message: "CacheOptions.WhenFetching is not WaitForFetch or DisallowWhileFetching"}
	}
	o := coreCacheOptions{capacity: uint64(options.Capacity), leaseMS: durationMS(options.Lease), policy: p}
	h, f := coreCacheNew(o)
	if f.failed() {
		return nil, failure("NewCache", f, "")
	}
	c := &Cache{fetch: fetch, now: options.Now, when: options.WhenFetching, seed: maphash.MakeSeed()}
	c.h.Store(h)
	if c.now == nil {
		c.now = time.Now
	}
	c.cleanup = runtime.AddCleanup(c, coreCacheFree, h)
	return c, nil
}

func (c *Cache) handle() *handle {
	if c == nil {
		panic("robotstxt: method called on a nil *Cache")
	}
	h := c.h.Load()
	if h == nil {
		panic("robotstxt: *Cache used after Close")
	}
	return h
}

// Close frees the cache. Rules handed out stay valid; leases still out
// can only be closed (Store and Abandon return ErrClosed). Calling Close
// again does nothing.
func (c *Cache) Close() {
	if c == nil {
		panic("robotstxt: method called on a nil *Cache")
	}
	if h := c.h.Swap(nil); h != nil {
		c.cleanup.Stop()
		coreCacheFree(h)
		runtime.KeepAlive(c) // see Rules.Close
	}
}

// LookupKind is the kind of a Lookup.
type LookupKind uint32

const (
	// LookupReady: answer with Lookup.Rules.
	LookupReady LookupKind = 0
	// LookupFetch: this caller must fetch /robots.txt now, then store or
	// abandon Lookup.Lease.
	LookupFetch LookupKind = 1
	// LookupWait: another caller is fetching and there is no copy yet: ask
	// again once it is stored, or at Lookup.Until.
	LookupWait LookupKind = 2
)

// String returns "ready", "fetch" or "wait".
func (k LookupKind) String() string {
	switch k {
	case LookupReady:
		return "ready"
	case LookupFetch:
		return "fetch"
	case LookupWait:
		return "wait"
	case LookupRun:
		return "run"
	}
	return "LookupKind(" + itoa(uint64(k)) + ")"
}

// Lookup is what the cache answers for one URL at one time.
type Lookup struct {
	// Kind says which of the fields below are set.
	Kind LookupKind
	// Answer (ready) says where Rules come from: a parsed copy, or a
	// blanket allow-all or disallow-all.
	Answer Answer
	// Blanket (ready) is, for a blanket answer, why: the fetch outcome
	// that caused it (as Rules.Blanket says too); nil for a parsed copy.
	Blanket *Blanket
	// RetryAt (ready) is when the cache will fetch again after a failed
	// fetch (the answer is then an old copy kept meanwhile, or a
	// disallow-all): ask again then. With DisallowWhileFetching while
	// another caller fetches, when its lease runs out. Zero when no retry
	// is pending.
	RetryAt time.Time
	// Stale (ready) says the copy is past its freshness, kept while it is
	// refreshed or while the file is unreachable.
	Stale bool
	// Rules (ready) are the rules for the token looked up; yours to Close.
	Rules *Rules
	// Lease (fetch) is the right, and duty, to fetch.
	Lease *Lease
	// Until (wait) is when the other caller's lease runs out.
	Until time.Time
}

// Lookup asks the cache about url (an absolute http or https URL) for the
// crawler token at now: ready rules, or fetch now (one caller per origin at
// a time), or wait. It does no I/O and never blocks on a fetch.
//
// Errors: ErrInvalidURL for a URL the cache cannot key, a *TokenError for a
// token that is not a product token; the cache is left as it was.
func (c *Cache) Lookup(url, token string, now time.Time, when WhenFetching) (Lookup, error) {
	r, f := coreCacheLookup(c.handle(), url, token, unixMS(now), uint32(when))
	if f.failed() {
		runtime.KeepAlive(c)
		return Lookup{}, failure("Cache.Lookup", f, token)
	}
	l := Lookup{Kind: LookupKind(r.kind), Answer: Answer(r.answer), Stale: r.stale}
	if r.rules != nil {
		l.Rules = newRules(r.rules)
	}
	if r.isBlanket {
		b := r.blanket
		l.Blanket = &b
	}
	if r.hasRetryAt {
		l.RetryAt = fromUnixMS(r.retryAtMS)
	}
	if r.lease != nil {
		lease := &Lease{
			cache:      c,
			h:          r.lease,
			origin:     r.origin,
			robotsURL:  r.robotsURL,
			validators: r.validators,
			asked:      url,
		}
		lease.cleanup = runtime.AddCleanup(lease, coreLeaseFree, r.lease)
		l.Lease = lease
	}
	if l.Kind == LookupWait {
		l.Until = fromUnixMS(r.untilMS)
	}
	runtime.KeepAlive(c)
	return l, nil
}

// Rules returns the rules for the crawler token at url (an absolute http or
// https URL), from a fresh copy of the origin's robots.txt, or from an old
// copy while it is refreshed or unreachable, or a blanket allow-all or
// disallow-all as behaviour §6 says. When the copy is missing or due, one
// goroutine per origin calls the cache's FetchFunc and stores what it got;
// the others wait for it (or, with DisallowWhileFetching and no copy, get
// disallow-all rules at once), or use the old copy meanwhile.
//
// Rules.Blanket tells rules disallowing everything because the file is
// unreachable (a 5xx, no response: ask again at Rules.RetryAt) from a
// file's own rules.
//
// The Rules are yours: Close them when done (a cleanup frees them
// otherwise). Errors: ErrInvalidURL, a *TokenError, or ctx.Err() when ctx
// is done first (a fetch under way is then given back for another caller).
func (c *Cache) Rules(ctx context.Context, url, token string) (*Rules, error) {
	if c.fetch == nil {
		return nil, &Error{Kind: ErrInvalidOption, Message: "Cache.Rules needs a FetchFunc: pass one to NewCache"}
	}
	shard := c.shardFor(originKey(url))
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		woken := shard.waitChan() // before the lookup: no wake-up is lost
		l, err := c.Lookup(url, token, c.now(), c.when)
		if err != nil {
			return nil, err
		}
		switch l.Kind {
		case LookupReady:
			return l.Rules, nil
		case LookupFetch:
			// ErrInvalidLease: the fetch outlived its lease and a newer
			// copy was stored meanwhile, which the next lookup answers with.
			if err := c.fetchAndStore(ctx, l.Lease); err != nil && !errors.Is(err, ErrInvalidLease) {
				return nil, err
			}
		default:
			// Until the fetch is stored (woken), its lease runs out, or, if
			// this URL's origin hashed elsewhere than the fetcher's, a
			// second has passed.
			wait := min(l.Until.Sub(c.now()), time.Second)
			timer := time.NewTimer(max(wait, time.Millisecond))
			select {
			case <-woken:
			case <-timer.C:
			case <-ctx.Done():
			}
			timer.Stop()
		}
	}
}

func (c *Cache) fetchAndStore(ctx context.Context, lease *Lease) error {
	defer lease.Close() // gives the fetch back if fetch panics
	resp, err := c.fetch(ctx, FetchRequest{URL: lease.robotsURL, Origin: lease.origin, Validators: lease.validators})
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		resp = Response{} // no response: a network error (behaviour §6)
	}
	_, err = lease.Store(c.now(), resp)
	return err
}

// CacheStats are a cache's counters since it was made.
type CacheStats struct {
	// Hits are answers from a fresh copy.
	Hits uint64
	// Misses are lookups with no usable copy (a fetch handed out, a wait,
	// or a disallow-all while another caller fetches).
	Misses uint64
	// Fetches are fetches handed out.
	Fetches uint64
	// Stale are answers from a copy past its freshness.
	Stale uint64
	// Evictions are origins dropped to stay within capacity.
	Evictions uint64
	// Entries are the origins held now.
	Entries uint64
}

// Stats returns the counters.
func (c *Cache) Stats() CacheStats {
	s, _, f := coreCacheStats(c.handle())
	runtime.KeepAlive(c)
	must("Cache.Stats", f)
	return s
}

// Len returns how many origins the cache holds.
func (c *Cache) Len() int {
	_, n, f := coreCacheStats(c.handle())
	runtime.KeepAlive(c)
	must("Cache.Len", f)
	return n
}

// Remove forgets the origin of url and reports whether it was held.
// ErrInvalidURL as for Lookup.
func (c *Cache) Remove(url string) (bool, error) {
	removed, f := coreCacheRemove(c.handle(), url)
	runtime.KeepAlive(c)
	if f.failed() {
		return false, failure("Cache.Remove", f, "")
	}
	return removed, nil
}

func (c *Cache) shardFor(key string) *wakeShard {
	return &c.shards[maphash.String(c.seed, key)%uint64(len(c.shards))]
}

func (s *wakeShard) waitChan() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

func (s *wakeShard) wake() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

// originKey groups waiters by origin for wake-ups only: the cache keys by
// the core's origin, and a waiter whose key differs from the fetcher's
// still wakes within a second. It reads the URL as the core does where
// net/url can: scheme and host in lower case, the port as a number without
// the default, IPv6 compressed; an international host stays in Unicode
// (the core's is punycode, which would need an IDNA table here).
func originKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if strings.Contains(host, ":") {
		if ip, err := netip.ParseAddr(host); err == nil {
			host = ip.String()
		}
		host = "[" + host + "]"
	}
	if n, err := strconv.ParseUint(port, 10, 16); err == nil {
		port = strconv.FormatUint(n, 10)
	}
	if port == "" || (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		return scheme + "://" + host
	}
	return scheme + "://" + host + ":" + port
}

// Lease is the right, and duty, to fetch one origin's robots.txt, handed
// out by Cache.Lookup to one caller per origin at a time. Store what the
// fetch returned, or Abandon it, once, before the Cache is closed; Close
// gives it back if neither happened, and frees it in any case (a cleanup
// does so otherwise). It is safe for concurrent use.
type Lease struct {
	mu         sync.Mutex
	cache      *Cache
	h          *handle // nil once stored, abandoned or closed
	cleanup    runtime.Cleanup
	origin     string
	robotsURL  string
	validators Validators
	asked      string // the URL looked up, for wake-ups
}

func (l *Lease) notNil() {
	if l == nil {
		panic("robotstxt: method called on a nil *Lease")
	}
}

// Origin returns the normalised origin, such as "https://example.com:8443":
// scheme and host in lower case, an international host in punycode, no
// default port, no userinfo (as a WHATWG URL parser reads the URL).
func (l *Lease) Origin() string { l.notNil(); return l.origin }

// RobotsURL returns the URL to fetch: the origin's /robots.txt.
func (l *Lease) RobotsURL() string { l.notNil(); return l.robotsURL }

// Validators returns the cached copy's validators, for a conditional
// request; a 304 stored with the lease then renews the copy.
func (l *Lease) Validators() Validators { l.notNil(); return l.validators }

var errLeaseUsed = &Error{Kind: ErrInvalidLease, Message: "the lease was already stored or abandoned: each lease is stored or abandoned once"}

var errCacheClosed = &Error{Kind: ErrClosed, Message: "the lease's cache was closed: store or abandon a lease before Cache.Close (Lease.Close still frees it)"}

// cacheHandle is the lease's cache, or nil once that is closed; l.mu is
// held.
func (l *Lease) cacheHandle() *handle {
	return l.cache.h.Load()
}

// Store records what the fetch returned at now and ends the lease: a 2xx
// body is parsed and becomes the copy, a 304 renews the copy, a failure
// keeps the old copy and sets the next try (behaviour §6–§7). It returns what the
// outcome meant, and wakes the goroutines waiting in Cache.Rules.
//
// Errors: ErrInvalidLease when the lease was already stored or abandoned,
// or ran out (CacheOptions.Lease) and a newer lease of its origin stored a
// copy since: a late answer never replaces a newer one, and nothing
// changes. ErrClosed after Cache.Close.
func (l *Lease) Store(now time.Time, resp Response) (Disposition, error) {
	l.notNil()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h == nil {
		return 0, errLeaseUsed
	}
	cache := l.cacheHandle()
	if cache == nil {
		return 0, errCacheClosed
	}
	d, f := coreCacheStore(cache, l.h, unixMS(now), &resp)
	l.release()
	if f.failed() {
		return 0, failure("Lease.Store", f, "")
	}
	return Disposition(d), nil
}

// Abandon gives the fetch back without an outcome (the caller gave up):
// the next lookup of the origin hands it to someone else. Errors as for
// Store.
func (l *Lease) Abandon() error {
	l.notNil()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h == nil {
		return errLeaseUsed
	}
	cache := l.cacheHandle()
	if cache == nil {
		return errCacheClosed
	}
	f := coreCacheAbandon(cache, l.h)
	l.release()
	if f.failed() {
		return failure("Lease.Abandon", f, "")
	}
	return nil
}

// Close gives the fetch back unless it was stored or abandoned, and frees
// the lease, also after Cache.Close. Calling it again does nothing.
func (l *Lease) Close() {
	l.notNil()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h != nil {
		l.release() // freeing an open lease abandons it
	}
}

// release frees the C lease and wakes waiters; l.mu is held.
func (l *Lease) release() {
	l.cleanup.Stop()
	coreLeaseFree(l.h)
	l.h = nil
	a, b := originKey(l.origin), originKey(l.asked)
	l.cache.shardFor(a).wake()
	if b != a {
		l.cache.shardFor(b).wake()
	}
}
