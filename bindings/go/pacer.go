package robotstxt

// #include "shim.h"
import "C"

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"
)

// PacerOptions are a Pacer's floor, backoff cap, size and clock. Start from
// DefaultPacerOptions.
type PacerOptions struct {
	// Floor is the smallest gap between two request starts to one host:
	// 1s.
	Floor time.Duration
	// BackoffCap is the largest gap backoff may widen to: 10 minutes
	// (never below the host's own gap).
	BackoffCap time.Duration
	// Capacity is how many hosts are tracked; idle ones are dropped first.
	// Default 100,000.
	Capacity int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultPacerOptions returns the core's defaults: a 1s floor, backoff
// capped at 10 minutes, 100,000 hosts, time.Now.
func DefaultPacerOptions() PacerOptions {
	o := C.robotstxt_pacer_options_default()
	return PacerOptions{
		Floor:      time.Duration(o.floor_ms) * time.Millisecond,
		BackoffCap: time.Duration(o.backoff_cap_ms) * time.Millisecond,
		Capacity:   int(o.capacity),
	}
}

// Pacer hands out request start times per host (SPEC §8): the gap between
// the starts of two requests to one host is at least max(floor,
// crawl-delay, request-rate interval), widened while the host answers 429
// or 5xx, and pushed by Retry-After. Slots go out in order, one gap apart,
// whatever the number of goroutines. It is safe for concurrent use.
//
// Wait is the whole job in one call; Reserve is the step under it, with an
// explicit clock.
//
// Call Close when done with it; a cleanup frees it otherwise. Close must
// not run at the same time as another method; using a Pacer after Close
// panics.
type Pacer struct {
	h       unsafe.Pointer // *C.robotstxt_pacer; nil once closed
	cleanup runtime.Cleanup
	now     func() time.Time
}

// NewPacer makes a pacer with no hosts yet. The error is non-nil for a
// negative option.
func NewPacer(options PacerOptions) (*Pacer, error) {
	if options.Floor < 0 || options.BackoffCap < 0 || options.Capacity < 0 {
		return nil, &Error{Kind: ErrInvalidOption, Message: "PacerOptions.Floor, BackoffCap and Capacity must not be negative"}
	}
	o := C.robotstxt_pacer_options{
		floor_ms:       durationMS(options.Floor),
		backoff_cap_ms: durationMS(options.BackoffCap),
		capacity:       C.size_t(options.Capacity),
	}
	r := C.go_pacer_new(o)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return nil, failure("NewPacer", r.status, r.err, "")
	}
	p := &Pacer{h: r.handle, now: options.Now}
	if p.now == nil {
		p.now = time.Now
	}
	p.cleanup = runtime.AddCleanup(p, freePacer, (*C.robotstxt_pacer)(r.handle))
	return p, nil
}

func freePacer(h *C.robotstxt_pacer) { C.robotstxt_pacer_free(h) }

func (p *Pacer) handle() *C.robotstxt_pacer {
	if p == nil {
		panic("robotstxt: method called on a nil *Pacer")
	}
	h := (*C.robotstxt_pacer)(atomic.LoadPointer(&p.h))
	if h == nil {
		panic("robotstxt: *Pacer used after Close")
	}
	return h
}

// Close frees the pacer. Calling Close again does nothing.
func (p *Pacer) Close() {
	if h := (*C.robotstxt_pacer)(atomic.SwapPointer(&p.h, nil)); h != nil {
		p.cleanup.Stop()
		C.robotstxt_pacer_free(h)
		runtime.KeepAlive(p) // see Rules.Close
	}
}

// Reserve reserves the next start slot for host (a host name such as
// "example.com", compared case-insensitively) at now, and returns when the
// request may start (not before now). ok is false while the host is
// switched off (SetEnabled). ErrInvalidHost for an empty or over-long host.
func (p *Pacer) Reserve(host string, now time.Time) (start time.Time, ok bool, err error) {
	r := C.go_pacer_reserve(p.handle(), cstr(host), C.size_t(len(host)), unixMS(now))
	runtime.KeepAlive(p)
	runtime.KeepAlive(host)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return time.Time{}, false, failure("Pacer.Reserve", r.status, r.err, "")
	}
	if !r.has_start {
		return time.Time{}, false, nil
	}
	return fromUnixMS(r.start_ms), true, nil
}

// Wait reserves host's next slot and sleeps until it starts, by the
// pacer's clock, then returns the slot's start: send the request then.
// ErrHostDisabled while the host is switched off, ErrInvalidHost as for
// Reserve, ctx.Err() if ctx is done first (the slot is then left unused, so
// the host's pace still holds).
func (p *Pacer) Wait(ctx context.Context, host string) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	start, ok, err := p.Reserve(host, p.now())
	if err != nil {
		return time.Time{}, err
	}
	if !ok {
		return time.Time{}, &Error{Kind: ErrHostDisabled, Message: "host " + quote(host) + " is switched off (Pacer.SetEnabled)"}
	}
	for {
		d := start.Sub(p.now())
		if d <= 0 {
			return start, nil
		}
		timer := time.NewTimer(d)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return time.Time{}, ctx.Err()
		}
	}
}

// SetDelay sets host's own pace: the larger of crawlDelay and the
// request-rate interval (fractions of a second honoured, rounded up to the
// ms); the floor still applies. A zero crawlDelay or RequestRate means
// none. ErrInvalidArgument for a negative delay or a rate with 0 requests
// or 0 seconds; ErrInvalidHost as for Reserve.
func (p *Pacer) SetDelay(host string, crawlDelay time.Duration, rate RequestRate) error {
	r := C.go_pacer_set_delay(p.handle(), cstr(host), C.size_t(len(host)),
		C.bool(crawlDelay != 0), C.double(crawlDelay.Seconds()),
		C.bool(rate != RequestRate{}), C.uint32_t(rate.Requests), C.uint32_t(rate.Seconds))
	runtime.KeepAlive(p)
	runtime.KeepAlive(host)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return failure("Pacer.SetDelay", r.status, r.err, "")
	}
	return nil
}

// SetRules sets host's pace from a crawler's rules: their crawl delay and
// request rate, as SetDelay. The pacer keeps no reference to rules.
func (p *Pacer) SetRules(host string, rules *Rules) error {
	r := C.go_pacer_set_rules(p.handle(), cstr(host), C.size_t(len(host)), rules.handle())
	runtime.KeepAlive(p)
	runtime.KeepAlive(host)
	runtime.KeepAlive(rules)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return failure("Pacer.SetRules", r.status, r.err, "")
	}
	return nil
}

// Record reports how a request to host that ended at now went: its HTTP
// status (0 for a network error or timeout) and its Retry-After (0 for
// none). A 429 or 5xx doubles the gap (up to the backoff cap) and a
// Retry-After pushes the next slot at least that far (up to a day); any
// other status halves the backoff again.
func (p *Pacer) Record(host string, now time.Time, status int, retryAfter time.Duration) error {
	r := C.go_pacer_record(p.handle(), cstr(host), C.size_t(len(host)), unixMS(now),
		httpStatus(status), C.bool(retryAfter > 0), durationMS(retryAfter))
	runtime.KeepAlive(p)
	runtime.KeepAlive(host)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return failure("Pacer.Record", r.status, r.err, "")
	}
	return nil
}

// SetEnabled switches host off (Reserve hands out no slot, Wait fails with
// ErrHostDisabled) or back on: a kill switch.
func (p *Pacer) SetEnabled(host string, enabled bool) error {
	r := C.go_pacer_set_enabled(p.handle(), cstr(host), C.size_t(len(host)), C.bool(enabled))
	runtime.KeepAlive(p)
	runtime.KeepAlive(host)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return failure("Pacer.SetEnabled", r.status, r.err, "")
	}
	return nil
}

// Gap returns the gap now applied between two request starts to host:
// max(floor, crawl delay, request-rate interval), widened by backoff.
func (p *Pacer) Gap(host string) (time.Duration, error) {
	r := C.go_pacer_gap(p.handle(), cstr(host), C.size_t(len(host)))
	runtime.KeepAlive(p)
	runtime.KeepAlive(host)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return 0, failure("Pacer.Gap", r.status, r.err, "")
	}
	return time.Duration(r.value) * time.Millisecond, nil
}

func quote(s string) string {
	if len(s) > 200 {
		s = s[:200]
	}
	return `"` + s + `"`
}
