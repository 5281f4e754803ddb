package robotstxt

// The core layer. Every call into the compiled core goes through the core*
// functions, which take and return Go values, so that the files of the
// public API hold no C and run on either implementation, chosen by build
// constraints:
//
//   - core_cgo.go calls the core linked through cgo (librobotstxt.a), where
//     cgo is on and a prebuilt library exists (or robotstxt_from_source);
//   - core_wazero.go calls the core compiled to WebAssembly, run in pure Go
//     by wazero (internal/wasmcore), everywhere else.
//
// Both implement the same functions with the same signatures; the test
// suite runs against each. A handle is an object of the core (a parsed
// file, rules, preferences, an entry, a cache, a lease, a pacer, a ticket)
// as a *handle, nil for none; what it is inside is the implementation's.
// Text passed in is read during the call only; text handed back is copied
// into Go strings before the call returns, so no result borrows from a
// handle. A failed call returns a fault.

import (
	"errors"
	"runtime"
	"sync/atomic"
	"time"
)

// fault is how a core call ended: statusOK, or the status and the core's
// message (copied; "" when it gave none).
type fault struct {
	status uint32
	msg    string
}

func (f fault) failed() bool { return f.status != statusOK }

// The core's statuses (ROBOTSTXT_STATUS_* in include/robotstxt.h;
// core_cgo_test.go checks every value against the header).
const (
	statusOK              = 0
	statusNullArgument    = 1
	statusInvalidArgument = 2
	statusInvalidToken    = 3
	statusNoTokens        = 4
	statusParseLimit      = 5
	statusInvalidOption   = 6
	statusIndexOutOfRange = 7
	statusInvalidURL      = 8
	statusInvalidHost     = 9
	statusInvalidLease    = 10
	statusInvalidTicket   = 11
	statusPacerFull       = 12
	statusInvalidField    = 13
	statusInvalidCopy     = 14
	statusCopyVersion     = 15
	statusBodyMismatch    = 16
	statusBufferTooSmall  = 17
	statusPanic           = 100
)

// The core's other enumerations that only the layer's callers read
// (ROBOTSTXT_CAUSE_NONE, ROBOTSTXT_USAGE_*); the public ones are the
// exported constants of each type.
const (
	causeNone    = 0
	usageUnknown = 0
	usageYes     = 1
	usageNo      = 2
)

// How rulesFor selects: one token, any of several, or strictest-of.
const (
	selectOne = iota
	selectAny
	selectStrictest
)

// coreOptions are robotstxt_options.
type coreOptions struct {
	profile    uint32
	parseLimit uint64
	typos      bool
}

// corePolicy is robotstxt_freshness_policy.
type corePolicy struct {
	freshForMS, retryMS, unreachableLimitMS uint64
	afterLimit, access                      uint32
	options                                 coreOptions
}

// coreCacheOptions are robotstxt_cache_options.
type coreCacheOptions struct {
	capacity uint64
	leaseMS  uint64
	policy   corePolicy
}

// corePacerOptions are robotstxt_pacer_options.
type corePacerOptions struct {
	floorMS, backoffCapMS uint64
	capacity              uint64
	maxInFlight           uint32
	inFlightTimeoutMS     uint64
}

// coreBlanket is robotstxt_blanket with robotstxt_rules_retry_at's answer.
type coreBlanket struct {
	blanket    Blanket
	isBlanket  bool
	retryAtMS  uint64
	hasRetryAt bool
}

// entryState is everything an entry says at one time.
type entryState struct {
	due          bool
	dueAtMS      uint64
	fetchedAtMS  uint64
	hasFetchedAt bool
	failures     uint32
	hasCopy      bool
	validators   Validators // "" where absent
}

// coreLookup is robotstxt_lookup, and for a fetch the lease's origin, URL
// and validators.
type coreLookup struct {
	kind, answer uint32
	stale        bool
	rules, lease *handle
	untilMS      uint64
	blanket      Blanket
	isBlanket    bool
	hasRetryAt   bool
	retryAtMS    uint64
	origin       string
	robotsURL    string
	validators   Validators
}

// coreConfirm is robotstxt_confirm.
type coreConfirm struct {
	kind    uint32
	untilMS uint64
	busy    bool
}

// --- a fleet's protocol, sans I/O (docs/fleet.md) ---
//
// The core's FleetCache and FleetPacer, for package fleet and for a crawler
// that brings its own Redis client: each step gives a call to run on Redis
// (a FleetStep) and reads its reply (a []FleetReply); the core decides what
// it means, keeps the copies and the pace it learnt, and tells the fleet's
// time from Redis's.

// FleetAt is when a fleet step happens, as the worker tells it: a reading
// of its monotonic clock in ms, from any origin (the fleet's time is then
// Redis's, estimated from each reply, so that a step of the wall clock
// moves nothing), or with Given, a time on the fleet's clock (ms since the
// Unix epoch) that the scripts take instead of Redis's (tests, replays).
type FleetAt struct {
	Given bool
	MS    uint64
}

// FleetReplyKind is the kind of a FleetReply.
type FleetReplyKind uint32

// The kinds of a reply's items.
const (
	FleetReplyNil   FleetReplyKind = 0 // a nil bulk string or array
	FleetReplyInt   FleetReplyKind = 1 // Int
	FleetReplyBytes FleetReplyKind = 2 // Bytes
	FleetReplyError FleetReplyKind = 3 // an error reply: what Redis said, in Bytes
)

// FleetReply is one item of a Redis reply as the client gave it. A script's
// reply is a []FleetReply: an array's items in order, or a scalar or an
// error reply as one item.
type FleetReply struct {
	Kind  FleetReplyKind
	Int   int64
	Bytes string
}

// ErrBadReply: a reply a fleet step cannot read as its script's answer
// (a Redis error reply, or another shape). Take it as a failed call to
// Redis; the step is read and done.
var ErrBadReply = errors.New("robotstxt: a fleet reply that does not read")

// LookupRun (FleetCache only): run FleetLookup.Step, then read its reply
// with FleetCache.LookupReply.
const LookupRun LookupKind = 3

// FleetStep is one call of the fleet to make on Redis: EVALSHA of the
// script FleetScript(Script) gives, with Keys and Args (EVAL with the
// source when the server answers NOSCRIPT); then hand its reply to the
// method that reads it. Close it when done, read or not.
type FleetStep struct {
	Script string
	Keys   []string
	Args   []string // bytes: a stored copy is binary
	owned
}

// owned is a handle of the core that Go owns: freed by close, or by a
// cleanup once unreachable.
type owned struct {
	h       atomic.Pointer[handle]
	cleanup runtime.Cleanup
	free    func(*handle)
}

// own makes obj the owner of h.
func own[T any](obj *T, o *owned, h *handle, free func(*handle)) *T {
	o.h.Store(h)
	o.free = free
	o.cleanup = runtime.AddCleanup(obj, free, h)
	return obj
}

func (o *owned) handle(what string) *handle {
	if h := o.h.Load(); h != nil {
		return h
	}
	panic("robotstxt: *" + what + " used after Close")
}

func (o *owned) close() {
	if h := o.h.Swap(nil); h != nil {
		o.cleanup.Stop()
		o.free(h)
	}
}

// Close frees the step. Calling Close again does nothing.
func (s *FleetStep) Close() { s.close(); runtime.KeepAlive(s) }

func newFleetStep(h *handle, c coreFleetCall) *FleetStep {
	if h == nil {
		return nil
	}
	s := &FleetStep{Script: c.script, Keys: c.keys, Args: c.args}
	return own(s, &s.owned, h, coreFleetStepFree)
}

// fleetFailure is failure for the fleet's calls: a reply that does not
// read is ErrBadReply; a step misused is a bug of the caller.
func fleetFailure(op string, f fault, token string) error {
	if f.status == statusBadReply {
		return &Error{Kind: ErrBadReply, Message: f.msg}
	}
	if f.status == statusInvalidStep {
		panic("robotstxt: " + op + ": " + f.msg)
	}
	return failure(op, f, token)
}

// FleetCacheOptions are a FleetCache's: its key prefix ("" for
// "robotstxt:"), lease (renewed every third of it while a fetch goes on),
// how long Redis keeps a copy, how many origins the worker keeps decoded,
// and how copies age. Each must be set: package fleet fills in defaults.
type FleetCacheOptions struct {
	Prefix      string
	Lease, Keep time.Duration
	Capacity    int
	Policy      FreshnessPolicy
}

// FleetCache is one worker's side of a fleet's shared robots.txt cache:
// its lookups answer from the copy it holds while it is fresh, else give a
// step to run on Redis. Safe for concurrent use; Close must not run at the
// same time as another method.
type FleetCache struct{ owned }

// NewFleetCache makes a worker's cache. ErrInvalidOption for a lease or
// keep under 1 ms, a capacity under 1, and as NewEntry for the policy.
func NewFleetCache(o FleetCacheOptions) (*FleetCache, error) {
	p, err := o.Policy.c()
	if err != nil {
		return nil, err
	}
	h, f := coreFleetCacheNew(coreFleetCacheOptions{prefix: o.Prefix, leaseMS: durationMS(o.Lease),
		keepMS: durationMS(o.Keep), capacity: uint64(max(o.Capacity, 0)), policy: p})
	if f.failed() {
		return nil, failure("NewFleetCache", f, "")
	}
	c := &FleetCache{}
	return own(c, &c.owned, h, coreFleetCacheFree), nil
}

// Close frees the cache and the copies it holds. Calling Close again does
// nothing.
func (c *FleetCache) Close() { c.close(); runtime.KeepAlive(c) }

func (c *FleetCache) core() *handle { return c.handle("FleetCache") }

// FleetLookup is what a FleetCache lookup comes to: Lookup's fields (Kind
// LookupReady, LookupFetch or LookupWait), or with LookupRun, a Step to run
// first.
type FleetLookup struct {
	Kind    LookupKind
	Answer  Answer
	Blanket *Blanket
	RetryAt time.Time
	Stale   bool
	Rules   *Rules      // ready: yours to Close
	Lease   *FleetLease // fetch: renew it, then store or abandon it; Close it
	Until   time.Time   // wait: when the other worker's lease runs out
	Step    *FleetStep  // run
}

// FleetLease is the fleet's right, and duty, to fetch Origin's robots.txt
// (RobotsURL), with the Validators of the copy it refreshes. Close it when
// it is stored or abandoned (one closed before runs out in Redis).
type FleetLease struct {
	Origin, RobotsURL string
	Validators        Validators
	owned
}

// Close frees the lease. Calling Close again does nothing.
func (l *FleetLease) Close() { l.close(); runtime.KeepAlive(l) }

func fleetLookup(r coreFleetLookup) FleetLookup {
	l := FleetLookup{Kind: LookupKind(r.kind), Answer: Answer(r.answer), Stale: r.stale,
		Step: newFleetStep(r.step, r.call)}
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
		lease := &FleetLease{Origin: r.origin, RobotsURL: r.robotsURL, Validators: r.validators}
		l.Lease = own(lease, &lease.owned, r.lease, coreFleetLeaseFree)
	}
	if l.Kind == LookupWait {
		l.Until = fromUnixMS(r.untilMS)
	}
	return l
}

// Lookup looks url up for the crawler token at at: ready from the copy
// held while it is fresh (no Redis call), else a step to run. when says
// what answers while another worker fetches an origin no copy of which is
// held. ErrInvalidURL, a *TokenError, ErrInvalidOption for another when.
func (c *FleetCache) Lookup(url, token string, at FleetAt, when WhenFetching) (FleetLookup, error) {
	r, f := coreFleetCacheLookup(c.core(), url, token, at, uint32(when), false)
	runtime.KeepAlive(c)
	if f.failed() {
		return FleetLookup{}, failure("FleetCache.Lookup", f, token)
	}
	return fleetLookup(r), nil
}

// LookupReply reads the reply to a lookup's step: ready, fetch, wait, or
// one more step to run (the fleet's copy did not read: the next step takes
// the lease to fetch over it). ErrBadReply.
func (c *FleetCache) LookupReply(step *FleetStep, reply []FleetReply) (FleetLookup, error) {
	r, f := coreFleetCacheLookupReply(c.core(), step.handle("FleetStep"), reply)
	runtime.KeepAlive(c)
	runtime.KeepAlive(step)
	if f.failed() {
		return FleetLookup{}, fleetFailure("FleetCache.LookupReply", f, "")
	}
	return fleetLookup(r), nil
}

// FailSafe answers url while Redis does not: the copy held, due or not,
// else nothing allowed. Errors as for Lookup.
func (c *FleetCache) FailSafe(url, token string, at FleetAt) (*Rules, error) {
	r, f := coreFleetCacheLookup(c.core(), url, token, at, 0, true)
	runtime.KeepAlive(c)
	if f.failed() {
		return nil, failure("FleetCache.FailSafe", f, token)
	}
	return newRules(r.rules), nil
}

func (c *FleetCache) leaseStep(op string, lease *FleetLease, kind int, at FleetAt) (*FleetStep, error) {
	h, call, f := coreFleetCacheLeaseStep(c.core(), lease.handle("FleetLease"), kind, at)
	runtime.KeepAlive(c)
	runtime.KeepAlive(lease)
	if f.failed() {
		return nil, failure(op, f, "")
	}
	return newFleetStep(h, call), nil
}

// Renew gives the step that renews lease while its fetch goes on (every
// RenewEvery). ErrInvalidLease for a lease stored, abandoned, or of
// another cache.
func (c *FleetCache) Renew(lease *FleetLease, at FleetAt) (*FleetStep, error) {
	return c.leaseStep("FleetCache.Renew", lease, fleetRenew, at)
}

// RenewReply reads a renewal's reply: whether the lease is still this
// worker's. ErrBadReply.
func (c *FleetCache) RenewReply(step *FleetStep, reply []FleetReply) (bool, error) {
	held, f := coreFleetCacheRenewReply(c.core(), step.handle("FleetStep"), reply)
	runtime.KeepAlive(c)
	runtime.KeepAlive(step)
	if f.failed() {
		return false, fleetFailure("FleetCache.RenewReply", f, "")
	}
	return held, nil
}

// Store records what the fetch of lease returned at at, ends the lease,
// and gives the step that stores the copy for the fleet; its answer is for
// the crawler token. ErrInvalidLease as for Renew, a *TokenError; the lease
// is left as it was then.
func (c *FleetCache) Store(lease *FleetLease, resp Response, token string, at FleetAt) (*FleetStep, error) {
	h, call, f := coreFleetCacheStore(c.core(), lease.handle("FleetLease"), &resp, token, at)
	runtime.KeepAlive(c)
	runtime.KeepAlive(lease)
	if f.failed() {
		return nil, failure("FleetCache.Store", f, token)
	}
	return newFleetStep(h, call), nil
}

// FleetStored is what a store came to: what the outcome meant, whether the
// fleet took the copy (not when the lease ran out and another is current,
// nor when Redis failed), whether Redis failed (answered an error: this
// worker holds the copy alone), and the rules it answers with (yours to
// Close).
type FleetStored struct {
	Disposition    Disposition
	Stored, Failed bool
	Rules          *Rules
}

// StoreReply reads a store's reply: whether the fleet took the copy (this
// worker then holds it), and the answer. ErrBadReply (the copy is held
// then, as when Redis fails).
func (c *FleetCache) StoreReply(step *FleetStep, reply []FleetReply) (FleetStored, error) {
	return c.stored("FleetCache.StoreReply", step, reply, false)
}

// StoreFailed says Redis failed to take a store (its call failed): this
// worker holds the copy alone, counted as a Redis error.
func (c *FleetCache) StoreFailed(step *FleetStep) (FleetStored, error) {
	return c.stored("FleetCache.StoreFailed", step, nil, true)
}

func (c *FleetCache) stored(op string, step *FleetStep, reply []FleetReply, failed bool) (FleetStored, error) {
	r, f := coreFleetCacheStoreReply(c.core(), step.handle("FleetStep"), reply, failed)
	runtime.KeepAlive(c)
	runtime.KeepAlive(step)
	if f.failed() {
		return FleetStored{}, fleetFailure(op, f, "")
	}
	return FleetStored{Disposition: Disposition(r.disposition), Stored: r.stored, Failed: r.failed,
		Rules: newRules(r.rules)}, nil
}

// Abandon ends lease unstored and gives the step that gives it back to the
// fleet (its reply needs no reading). ErrInvalidLease as for Renew.
func (c *FleetCache) Abandon(lease *FleetLease) (*FleetStep, error) {
	return c.leaseStep("FleetCache.Abandon", lease, fleetAbandon, FleetAt{})
}

// RedisFailed counts a step whose call failed in Redis, or whose reply did
// not read; then answer with FailSafe.
func (c *FleetCache) RedisFailed() { coreFleetCacheRedisFailed(c.core()); runtime.KeepAlive(c) }

// Remove forgets this worker's copy of url's origin (the fleet's stays).
// ErrInvalidURL.
func (c *FleetCache) Remove(url string) (bool, error) {
	removed, f := coreFleetCacheRemove(c.core(), url)
	runtime.KeepAlive(c)
	if f.failed() {
		return false, failure("FleetCache.Remove", f, "")
	}
	return removed, nil
}

// FleetCacheStats are a FleetCache's counters: as CacheStats, and the
// copies in Redis this worker could not read (Unreadable) and the calls
// that failed in Redis.
type FleetCacheStats struct {
	Hits, Misses, Fetches, Stale, Evictions, Unreadable, RedisErrors, Entries uint64
}

// Stats returns the counters and how many origins are held.
func (c *FleetCache) Stats() (FleetCacheStats, int) {
	s, n, f := coreFleetCacheStats(c.core())
	runtime.KeepAlive(c)
	must("FleetCache.Stats", f)
	return s, n
}

// Until returns how long from at until t (a fleet time such as
// FleetLookup.Until), 0 when past.
func (c *FleetCache) Until(t time.Time, at FleetAt) time.Duration {
	left, _ := coreFleetCacheTimes(c.core(), unixMS(t), at)
	runtime.KeepAlive(c)
	return time.Duration(left) * time.Millisecond
}

// RenewEvery returns how often a lease is renewed while its fetch goes on.
func (c *FleetCache) RenewEvery() time.Duration {
	_, every := coreFleetCacheTimes(c.core(), 0, FleetAt{})
	runtime.KeepAlive(c)
	return time.Duration(every) * time.Millisecond
}

// FleetPacerOptions are a FleetPacer's: its key prefix ("" for
// "robotstxt:"), the pace (as PacerOptions), how long Redis keeps a host's
// pace, how many hosts the worker remembers, and its name for its
// in-flight places ("" for one made at NewFleetPacer). Each must be set:
// package fleet fills in defaults.
type FleetPacerOptions struct {
	Prefix, Worker                     string
	Floor, BackoffCap, InFlightTimeout time.Duration
	MaxInFlight                        int
	Retain                             time.Duration
	KnownCapacity                      int
}

// FleetPacer is one worker's side of a fleet's shared pacer: each step is
// one call, whose reply carries the host's state, which the pacer keeps to
// give back to Redis if Redis loses it. Safe for concurrent use; Close must
// not run at the same time as another method.
type FleetPacer struct{ owned }

// NewFleetPacer makes a worker's pacer. ErrInvalidOption for a Retain
// under 1 ms or a KnownCapacity under 1.
func NewFleetPacer(o FleetPacerOptions) (*FleetPacer, error) {
	h, f := coreFleetPacerNew(coreFleetPacerOptions{prefix: o.Prefix, worker: o.Worker,
		floorMS: durationMS(o.Floor), backoffCapMS: durationMS(o.BackoffCap), maxInFlight: count32(o.MaxInFlight),
		inFlightTimeoutMS: durationMS(o.InFlightTimeout), retainMS: durationMS(o.Retain),
		knownCapacity: uint64(max(o.KnownCapacity, 0))})
	if f.failed() {
		return nil, failure("NewFleetPacer", f, "")
	}
	p := &FleetPacer{}
	return own(p, &p.owned, h, coreFleetPacerFree), nil
}

// Close frees the pacer. Calling Close again does nothing.
func (p *FleetPacer) Close() { p.close(); runtime.KeepAlive(p) }

func (p *FleetPacer) core() *handle { return p.handle("FleetPacer") }

// FleetTicket is a slot of the fleet for one request to Host (as the pacer
// keys it): confirm it just before sending, until go or disabled, or
// cancel it. Close it when done.
type FleetTicket struct {
	Host string
	owned
}

// Close frees the ticket. Calling Close again does nothing.
func (t *FleetTicket) Close() { t.close(); runtime.KeepAlive(t) }

// Slot returns when the request may start (fleet time), as far as is
// known, and the host's generation the slot belongs to.
func (t *FleetTicket) Slot() (time.Time, int64) {
	_, start, gen := coreFleetTicketRead(t.handle("FleetTicket"))
	runtime.KeepAlive(t)
	return fromUnixMS(start), int64(gen)
}

func (p *FleetPacer) hostStep(op, host string, kind int, at FleetAt, status uint16, flag bool, n uint64) (*FleetStep, error) {
	h, call, f := coreFleetPacerHostStep(p.core(), kind, host, at, status, flag, n)
	runtime.KeepAlive(p)
	if f.failed() {
		return nil, failure(op, f, "")
	}
	return newFleetStep(h, call), nil
}

// Reserve gives the step that reserves host's next slot; ReserveReply
// reads its reply. ErrInvalidHost.
func (p *FleetPacer) Reserve(host string, at FleetAt) (*FleetStep, error) {
	return p.hostStep("FleetPacer.Reserve", host, fleetReserve, at, 0, false, 0)
}

// ReserveReply reads a reservation's reply: the ticket, or nil while the
// host is switched off. ErrBadReply.
func (p *FleetPacer) ReserveReply(step *FleetStep, reply []FleetReply) (*FleetTicket, error) {
	h, f := coreFleetPacerReserveReply(p.core(), step.handle("FleetStep"), reply)
	runtime.KeepAlive(p)
	runtime.KeepAlive(step)
	if f.failed() {
		return nil, fleetFailure("FleetPacer.ReserveReply", f, "")
	}
	if h == nil {
		return nil, nil
	}
	host, _, _ := coreFleetTicketRead(h)
	t := &FleetTicket{Host: host}
	return own(t, &t.owned, h, coreFleetTicketFree), nil
}

func (p *FleetPacer) ticketStep(op string, t *FleetTicket, cancel bool, at FleetAt) (*FleetStep, error) {
	h, call, f := coreFleetPacerTicketStep(p.core(), t.handle("FleetTicket"), cancel, at)
	runtime.KeepAlive(p)
	runtime.KeepAlive(t)
	if f.failed() {
		return nil, failure(op, f, "")
	}
	return newFleetStep(h, call), nil
}

// Confirm gives the step that asks whether t's request may go now;
// ConfirmReply reads its reply, with t. ErrInvalidTicket for a ticket
// spent (go, disabled, cancelled) or of another pacer.
func (p *FleetPacer) Confirm(t *FleetTicket, at FleetAt) (*FleetStep, error) {
	return p.ticketStep("FleetPacer.Confirm", t, false, at)
}

// ConfirmReply reads the reply to t's confirmation: ConfirmGo (with the
// fleet's time of the go), ConfirmWait (t may have a new slot) or
// ConfirmDisabled; go and disabled spend t. ErrBadReply.
func (p *FleetPacer) ConfirmReply(t *FleetTicket, step *FleetStep, reply []FleetReply) (Confirm, time.Time, error) {
	r, f := coreFleetPacerConfirmReply(p.core(), t.handle("FleetTicket"), step.handle("FleetStep"), reply)
	runtime.KeepAlive(p)
	runtime.KeepAlive(t)
	runtime.KeepAlive(step)
	if f.failed() {
		return Confirm{}, time.Time{}, fleetFailure("FleetPacer.ConfirmReply", f, "")
	}
	c := Confirm{Kind: ConfirmKind(r.kind), Busy: r.busy}
	if c.Kind == ConfirmWait {
		c.Until = fromUnixMS(r.untilMS)
	}
	return c, fromUnixMS(r.atMS), nil
}

// Cancel spends t unsent and gives the step that gives its slot back
// (StepReply reads its reply), or nil for a ticket already spent.
// ErrInvalidTicket for a ticket of another pacer.
func (p *FleetPacer) Cancel(t *FleetTicket, at FleetAt) (*FleetStep, error) {
	return p.ticketStep("FleetPacer.Cancel", t, true, at)
}

// Record gives the step that records how a request to host ended: its
// status (0: no response) and Retry-After (0: none). ErrInvalidHost.
func (p *FleetPacer) Record(host string, status int, retryAfter time.Duration, at FleetAt) (*FleetStep, error) {
	return p.hostStep("FleetPacer.Record", host, fleetRecord, at, httpStatus(status), retryAfter > 0, durationMS(retryAfter))
}

// SetDelay gives the step that sets host's own pace for the fleet: the
// larger of crawlDelay and the request-rate interval (a zero one is none),
// as Pacer.SetDelay takes them. ErrInvalidArgument, ErrInvalidHost.
func (p *FleetPacer) SetDelay(host string, crawlDelay time.Duration, rate RequestRate, at FleetAt) (*FleetStep, error) {
	gap, f := corePaceDelayMS(crawlDelay != 0, crawlDelay.Seconds(), rate != RequestRate{}, rate)
	if f.failed() {
		return nil, failure("FleetPacer.SetDelay", f, "")
	}
	return p.hostStep("FleetPacer.SetDelay", host, fleetSetDelay, at, 0, false, gap)
}

// SetEnabled gives the step that switches host off for the fleet, or back
// on. ErrInvalidHost.
func (p *FleetPacer) SetEnabled(host string, enabled bool, at FleetAt) (*FleetStep, error) {
	return p.hostStep("FleetPacer.SetEnabled", host, fleetSetEnabled, at, 0, enabled, 0)
}

// PaceState gives the step that reads host's pace as it stands;
// PaceStateReply reads its reply. ErrInvalidHost.
func (p *FleetPacer) PaceState(host string, at FleetAt) (*FleetStep, error) {
	return p.hostStep("FleetPacer.PaceState", host, fleetPaceState, at, 0, false, 0)
}

// PaceStateReply reads a pace_state step's reply: the gap between starts
// now and the requests in flight across the fleet. ErrBadReply.
func (p *FleetPacer) PaceStateReply(step *FleetStep, reply []FleetReply) (time.Duration, int, error) {
	gap, inFlight, f := coreFleetPacerStepReply(p.core(), step.handle("FleetStep"), reply, true)
	runtime.KeepAlive(p)
	runtime.KeepAlive(step)
	if f.failed() {
		return 0, 0, fleetFailure("FleetPacer.PaceStateReply", f, "")
	}
	return time.Duration(gap) * time.Millisecond, int(inFlight), nil
}

// StepReply reads the reply to a Cancel, Record, SetDelay or SetEnabled
// step: the host's gap now in ms (a cancel's: 1 when the slot was given
// back). ErrBadReply.
func (p *FleetPacer) StepReply(step *FleetStep, reply []FleetReply) (uint64, error) {
	v, _, f := coreFleetPacerStepReply(p.core(), step.handle("FleetStep"), reply, false)
	runtime.KeepAlive(p)
	runtime.KeepAlive(step)
	if f.failed() {
		return 0, fleetFailure("FleetPacer.StepReply", f, "")
	}
	return v, nil
}

// Until returns how long from at until t (a fleet time such as a ticket's
// start), 0 when past.
func (p *FleetPacer) Until(t time.Time, at FleetAt) time.Duration {
	left := coreFleetPacerMSUntil(p.core(), unixMS(t), at)
	runtime.KeepAlive(p)
	return time.Duration(left) * time.Millisecond
}

// The core layer's fleet types and step kinds.

// coreFleetCall is a step's call, copied out.
type coreFleetCall struct {
	script     string
	keys, args []string
}

// coreFleetLookup is robotstxt_fleet_lookup, with a step's call and a
// lease's origin, URL and validators.
type coreFleetLookup struct {
	kind, answer       uint32
	stale              bool
	rules, lease, step *handle
	untilMS            uint64
	blanket            Blanket
	isBlanket          bool
	hasRetryAt         bool
	retryAtMS          uint64
	call               coreFleetCall
	origin, robotsURL  string
	validators         Validators
}

// coreFleetStored is robotstxt_fleet_stored, less what Go reads from the
// rules.
type coreFleetStored struct {
	disposition    uint32
	stored, failed bool
	rules          *handle
}

// coreFleetConfirm is robotstxt_fleet_confirm.
type coreFleetConfirm struct {
	kind          uint32
	untilMS, atMS uint64
	busy          bool
}

// coreFleetCacheOptions are robotstxt_fleet_cache_options.
type coreFleetCacheOptions struct {
	prefix                    string
	leaseMS, keepMS, capacity uint64
	policy                    corePolicy
}

// coreFleetPacerOptions are robotstxt_fleet_pacer_options.
type coreFleetPacerOptions struct {
	prefix, worker                                     string
	floorMS, backoffCapMS, inFlightTimeoutMS, retainMS uint64
	maxInFlight                                        uint32
	knownCapacity                                      uint64
}

// The steps on a lease, and those on a host (shim.h numbers them alike).
const (
	fleetRenew   = 0
	fleetAbandon = 1

	fleetReserve    = 0
	fleetRecord     = 1
	fleetSetDelay   = 2
	fleetSetEnabled = 3
	fleetPaceState  = 4
)

// The fleet's statuses (ROBOTSTXT_STATUS_BAD_REPLY, _INVALID_STEP).
const (
	statusBadReply    = 18
	statusInvalidStep = 19
)

// coreHTTP is what robotstxt_http_read is given: a response's header
// values as the client got them, each with whether it was there.
type coreHTTP struct {
	retryAfter, cacheControl, etag, lastModified             string
	hasRetryAfter, hasCacheControl, hasETag, hasLastModified bool
}

// coreHTTPFacts is what the core read from them: the header fields of
// robotstxt_fetch ("" for an absent validator) and the
// ROBOTSTXT_HTTP_IGNORED_* bits of the values it ignored.
type coreHTTPFacts struct {
	maxAgeMS, retryAfterMS   uint64
	hasMaxAge, hasRetryAfter bool
	etag, lastModified       string
	ignored                  uint32
}

// The ROBOTSTXT_HTTP_IGNORED_* bits.
const (
	httpIgnoredRetryAfter   = 1 << 0
	httpIgnoredCacheControl = 1 << 1
)
