package robotstxt

import (
	"context"
	"hash/maphash"
	"runtime"
	"sync/atomic"
	"time"
)

// PacerOptions are a Pacer's floor, backoff cap, size, in-flight limit and
// clock. Start from DefaultPacerOptions.
type PacerOptions struct {
	// Floor is the smallest gap between two request starts to one host:
	// 1s.
	Floor time.Duration
	// BackoffCap is the largest gap backoff may widen to: 10 minutes
	// (never below the host's own gap).
	BackoffCap time.Duration
	// Capacity is how many hosts are tracked: 100,000. At capacity the
	// least recently used host that is safe to forget goes (not switched
	// off, not backing off, nothing in flight, its gap passed); when none
	// is, a new host gets ErrPacerFull.
	Capacity int
	// MaxInFlight is how many requests to one host may be in flight at
	// once: 1, one connection per host as a polite crawler keeps; 0 is
	// taken as 1. A request is in flight from the confirmation that lets
	// it go until Record reports its end.
	MaxInFlight int
	// InFlightTimeout is how long a request confirmed and never reported
	// with Record keeps its in-flight place: 2 minutes (0 frees it at once,
	// which turns MaxInFlight off).
	InFlightTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultPacerOptions returns the core's defaults: a 1s floor, backoff
// capped at 10 minutes, 100,000 hosts, one request in flight per host, an
// unreported request's place freed after 2 minutes, time.Now.
func DefaultPacerOptions() PacerOptions {
	o := corePacerOptionsDefault()
	return PacerOptions{
		Floor:           time.Duration(o.floorMS) * time.Millisecond,
		BackoffCap:      time.Duration(o.backoffCapMS) * time.Millisecond,
		Capacity:        int(o.capacity),
		MaxInFlight:     int(o.maxInFlight),
		InFlightTimeout: time.Duration(o.inFlightTimeoutMS) * time.Millisecond,
	}
}

// Pacer hands out request start times per host (behaviour §8): the gap between
// the starts of two requests to one host is at least max(floor,
// crawl-delay, request-rate interval), widened while the host answers 429
// or 5xx, and pushed by Retry-After; at most MaxInFlight requests to a
// host are in flight at once. Slots go out in order, one gap apart,
// whatever the number of goroutines. It is safe for concurrent use.
//
// Wait is the whole job in one call. Under it: Reserve hands out a Ticket
// for the next slot; sleep until Ticket.Start, then Confirm the ticket
// just before sending, so that a backoff, Retry-After, slower pace or kill
// switch recorded meanwhile still holds the request back. Either way, call
// Record when the request ends: it frees the request's in-flight place
// and reports how it went.
//
// Call Close when done with it; a cleanup frees it otherwise. Close must
// not run at the same time as another method; using a Pacer after Close
// panics.
type Pacer struct {
	h       atomic.Pointer[handle] // nil once closed
	cleanup runtime.Cleanup
	now     func() time.Time
	seed    maphash.Seed
	shards  [64]wakeShard // wake Wait when a host's pace or load changes
}

// NewPacer makes a pacer with no hosts yet. The error is non-nil for a
// negative option.
func NewPacer(options PacerOptions) (*Pacer, error) {
	if options.Floor < 0 || options.BackoffCap < 0 || options.Capacity < 0 || options.MaxInFlight < 0 ||
		options.InFlightTimeout < 0 {
		return nil, &Error{Kind: ErrInvalidOption,
			Message: "PacerOptions.Floor, BackoffCap, Capacity, MaxInFlight and InFlightTimeout must not be negative"}
	}
	h, f := corePacerNew(corePacerOptions{
		floorMS:           durationMS(options.Floor),
		backoffCapMS:      durationMS(options.BackoffCap),
		capacity:          uint64(options.Capacity),
		maxInFlight:       count32(options.MaxInFlight),
		inFlightTimeoutMS: durationMS(options.InFlightTimeout),
	})
	if f.failed() {
		return nil, failure("NewPacer", f, "")
	}
	p := &Pacer{now: options.Now, seed: maphash.MakeSeed()}
	p.h.Store(h)
	if p.now == nil {
		p.now = time.Now
	}
	p.cleanup = runtime.AddCleanup(p, corePacerFree, h)
	return p, nil
}

func (p *Pacer) handle() *handle {
	if p == nil {
		panic("robotstxt: method called on a nil *Pacer")
	}
	h := p.h.Load()
	if h == nil {
		panic("robotstxt: *Pacer used after Close")
	}
	return h
}

// Close frees the pacer; tickets out can then only be closed. Calling
// Close again does nothing.
func (p *Pacer) Close() {
	if p == nil {
		panic("robotstxt: method called on a nil *Pacer")
	}
	if h := p.h.Swap(nil); h != nil {
		p.cleanup.Stop()
		corePacerFree(h)
		runtime.KeepAlive(p) // see Rules.Close
	}
}

// shard is where Wait for host sleeps: hosts compare case-insensitively
// (ASCII), as the core keys them.
func (p *Pacer) shard(host string) *wakeShard {
	var h maphash.Hash
	h.SetSeed(p.seed)
	for i := 0; i < len(host); i++ {
		c := host[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h.WriteByte(c)
	}
	return &p.shards[h.Sum64()%uint64(len(p.shards))]
}

// Ticket is a reserved start slot for one request to one host, from
// Pacer.Reserve: sleep until Start, then Pacer.Confirm it just before
// sending. Its methods may run at the same time, except Close.
//
// Call Close when done with it; a cleanup frees it otherwise. Using a
// Ticket after Close panics.
type Ticket struct {
	h       atomic.Pointer[handle] // nil once closed
	cleanup runtime.Cleanup
}

func (t *Ticket) handle() *handle {
	if t == nil {
		panic("robotstxt: method called on a nil *Ticket")
	}
	h := t.h.Load()
	if h == nil {
		panic("robotstxt: *Ticket used after Close")
	}
	return h
}

// Start returns when the ticket's request may start, as far as is known:
// after a ConfirmWait it is the new slot.
func (t *Ticket) Start() time.Time {
	ms := coreTicketStart(t.handle())
	runtime.KeepAlive(t)
	return fromUnixMS(ms)
}

// Close frees the ticket. A ticket closed before it was told go keeps its
// slot used (Pacer.Cancel gives it back). Calling Close again does
// nothing.
func (t *Ticket) Close() {
	if t == nil {
		panic("robotstxt: method called on a nil *Ticket")
	}
	if h := t.h.Swap(nil); h != nil {
		t.cleanup.Stop()
		coreTicketFree(h)
		runtime.KeepAlive(t) // see Rules.Close
	}
}

// Reserve reserves the next start slot for host (a host name such as
// "example.com", compared case-insensitively) at now, and returns its
// ticket: sleep until Ticket.Start (not before now), then Confirm. The
// ticket is nil while the host is switched off (SetEnabled).
//
// Errors: ErrInvalidHost for an empty or over-long host, ErrPacerFull for
// a new host when the pacer is at capacity and no host can be forgotten.
func (p *Pacer) Reserve(host string, now time.Time) (*Ticket, error) {
	h, _, f := corePacerReserve(p.handle(), host, unixMS(now))
	runtime.KeepAlive(p)
	if f.failed() {
		return nil, failure("Pacer.Reserve", f, "")
	}
	if h == nil {
		return nil, nil
	}
	t := &Ticket{}
	t.h.Store(h)
	t.cleanup = runtime.AddCleanup(t, coreTicketFree, h)
	return t, nil
}

// ConfirmKind is the kind of a Confirm.
type ConfirmKind uint32

const (
	// ConfirmGo: send the request now. It holds an in-flight place until
	// Record reports its end. The ticket is spent.
	ConfirmGo ConfirmKind = 0
	// ConfirmWait: not yet; sleep until Confirm.Until and confirm again.
	ConfirmWait ConfirmKind = 1
	// ConfirmDisabled: the host is switched off; send nothing. The ticket
	// is spent.
	ConfirmDisabled ConfirmKind = 2
)

// String returns "go", "wait" or "disabled".
func (k ConfirmKind) String() string {
	switch k {
	case ConfirmGo:
		return "go"
	case ConfirmWait:
		return "wait"
	case ConfirmDisabled:
		return "disabled"
	}
	return "ConfirmKind(" + itoa(uint64(k)) + ")"
}

// Confirm is the pacer's answer just before a request is sent.
type Confirm struct {
	// Kind says whether to send now, wait or give up.
	Kind ConfirmKind
	// Until (wait) is when to confirm again.
	Until time.Time
	// Busy (wait) says the host has as many requests in flight as
	// allowed: a Record for it may free a place before Until.
	Busy bool
}

// Confirm asks, just before sending, whether the request of t may start
// at now. ConfirmGo: send it, and call Record when it ends. ConfirmWait:
// sleep until Until (or until a request to the host ends, if Busy), then
// confirm again; a backoff, Retry-After or slower pace recorded since the
// reservation gives the ticket a new slot (Ticket.Start says which).
// ConfirmDisabled: the host was switched off.
//
// ErrInvalidTicket for a ticket already spent (go or disabled) or
// reserved with another pacer.
func (p *Pacer) Confirm(t *Ticket, now time.Time) (Confirm, error) {
	r, f := corePacerConfirm(p.handle(), t.handle(), unixMS(now))
	runtime.KeepAlive(p)
	runtime.KeepAlive(t)
	if f.failed() {
		return Confirm{}, failure("Pacer.Confirm", f, "")
	}
	c := Confirm{Kind: ConfirmKind(r.kind), Busy: r.busy}
	if c.Kind == ConfirmWait {
		c.Until = fromUnixMS(r.untilMS)
	}
	return c, nil
}

// Cancel gives the slot of an unsent ticket back, when it is the last one
// handed out for its host (the caller gave up on the request): the next
// reservation may take it. The ticket is spent; Close it still.
func (p *Pacer) Cancel(t *Ticket) {
	f := corePacerCancel(p.handle(), t.handle())
	runtime.KeepAlive(p)
	runtime.KeepAlive(t)
	must("Pacer.Cancel", f)
}

// InFlight returns how many requests to host are in flight at now:
// confirmed with ConfirmGo, neither reported with Record nor past
// InFlightTimeout. ErrInvalidHost as for Reserve.
func (p *Pacer) InFlight(host string, now time.Time) (int, error) {
	n, f := corePacerInFlight(p.handle(), host, unixMS(now))
	runtime.KeepAlive(p)
	if f.failed() {
		return 0, failure("Pacer.InFlight", f, "")
	}
	return n, nil
}

// Wait reserves host's next slot, sleeps until it starts, by the pacer's
// clock, and confirms it; while the pacer says wait (a backoff, a
// Retry-After or a slower pace recorded meanwhile, or MaxInFlight
// requests in flight), it sleeps again, waking early when Record,
// SetEnabled, SetDelay or SetRules is called for the host. It returns the
// request's start as the pacer counts it (the confirmation that let it go,
// in whole milliseconds): send it then, and call Record when it ends,
// whatever the outcome (status 0 for a network error), which frees its
// in-flight place; until then the next request to the host waits, unless
// MaxInFlight allows more.
//
// Errors: ErrHostDisabled while the host is switched off, ErrInvalidHost
// and ErrPacerFull as for Reserve, ctx.Err() if ctx is done first (the
// slot is then given back if no later one was handed out, so the host's
// pace still holds).
func (p *Pacer) Wait(ctx context.Context, host string) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	t, err := p.Reserve(host, p.now())
	if err != nil {
		return time.Time{}, err
	}
	if t == nil {
		return time.Time{}, p.disabled(host)
	}
	defer t.Close()
	shard := p.shard(host)
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for ask := false; ; {
		woken := shard.waitChan() // before confirming: no wake-up is lost
		now := p.now()
		until := t.Start()
		// At the start, or early when the host's state changed: the pacer
		// then says wait, with the new time, or disabled.
		if ask || !now.Before(until) {
			c, err := p.Confirm(t, now)
			if err != nil {
				return time.Time{}, err
			}
			switch c.Kind {
			case ConfirmGo:
				return fromUnixMS(unixMS(now)), nil // as the pacer counts it
			case ConfirmDisabled:
				return time.Time{}, p.disabled(host)
			}
			until = c.Until
		}
		d := max(until.Sub(now), time.Millisecond)
		if timer == nil {
			timer = time.NewTimer(d)
		} else {
			timer.Reset(d)
		}
		select {
		case <-timer.C:
			ask = false
		case <-woken:
			ask = true
		case <-ctx.Done():
			p.Cancel(t)
			return time.Time{}, ctx.Err()
		}
	}
}

func (p *Pacer) disabled(host string) error {
	return &Error{Kind: ErrHostDisabled, Message: "host " + quote(host) + " is switched off (Pacer.SetEnabled)"}
}

// SetDelay sets host's own pace: the larger of crawlDelay and the
// request-rate interval (fractions of a second honoured, rounded up to the
// ms); the floor still applies. A zero crawlDelay or RequestRate means
// none. A slower pace gives tickets not yet confirmed new slots.
// ErrInvalidArgument for a negative delay or a rate with 0 requests or 0
// seconds; ErrInvalidHost and ErrPacerFull as for Reserve.
func (p *Pacer) SetDelay(host string, crawlDelay time.Duration, rate RequestRate) error {
	f := corePacerSetDelay(p.handle(), host, crawlDelay != 0, crawlDelay.Seconds(), rate != RequestRate{}, rate)
	runtime.KeepAlive(p)
	if f.failed() {
		return failure("Pacer.SetDelay", f, "")
	}
	p.shard(host).wake()
	return nil
}

// SetRules sets host's pace from a crawler's rules: their crawl delay and
// request rate, as SetDelay. The pacer keeps no reference to rules.
func (p *Pacer) SetRules(host string, rules *Rules) error {
	f := corePacerSetRules(p.handle(), host, rules.handle())
	runtime.KeepAlive(p)
	runtime.KeepAlive(rules)
	if f.failed() {
		return failure("Pacer.SetRules", f, "")
	}
	p.shard(host).wake()
	return nil
}

// Record reports how a request to host that ended at now went: its HTTP
// status (0 for a network error or timeout) and its Retry-After (0 for
// none). Call it once for every request a confirmation let go, whatever
// became of it: it frees the request's in-flight place. A 429 or 5xx
// doubles the gap (up to the backoff cap), a Retry-After with it keeps
// every request from starting before now + retryAfter (up to a day), and
// both give every ticket not yet confirmed a new slot; any other status
// halves the backoff again. Waits for host wake up to confirm again.
func (p *Pacer) Record(host string, now time.Time, status int, retryAfter time.Duration) error {
	f := corePacerRecord(p.handle(), host, unixMS(now), httpStatus(status), retryAfter > 0, durationMS(retryAfter))
	runtime.KeepAlive(p)
	if f.failed() {
		return failure("Pacer.Record", f, "")
	}
	p.shard(host).wake()
	return nil
}

// SetEnabled switches host off (Reserve hands out no ticket, tickets out
// confirm as ConfirmDisabled, Wait fails with ErrHostDisabled) or back on:
// a kill switch. A switched-off host is never forgotten.
func (p *Pacer) SetEnabled(host string, enabled bool) error {
	f := corePacerSetEnabled(p.handle(), host, enabled)
	runtime.KeepAlive(p)
	if f.failed() {
		return failure("Pacer.SetEnabled", f, "")
	}
	p.shard(host).wake()
	return nil
}

// Gap returns the gap now applied between two request starts to host:
// max(floor, crawl delay, request-rate interval), widened by backoff.
func (p *Pacer) Gap(host string) (time.Duration, error) {
	ms, f := corePacerGap(p.handle(), host)
	runtime.KeepAlive(p)
	if f.failed() {
		return 0, failure("Pacer.Gap", f, "")
	}
	return time.Duration(ms) * time.Millisecond, nil
}

func quote(s string) string {
	if len(s) > 200 {
		s = s[:200]
	}
	return `"` + s + `"`
}
