package fleet

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-engine/robotstxt-go"
)

// PacerOptions are a Pacer's key prefix, pace options, how long Redis
// keeps a host's pace, failure policy and clock. Start from
// DefaultPacerOptions.
type PacerOptions struct {
	// Prefix is the prefix of every key: "" means DefaultPrefix
	// ("robotstxt:"). Workers of one fleet use the same.
	Prefix string
	// Floor, BackoffCap, MaxInFlight and InFlightTimeout are as for
	// robotstxt.PacerOptions (1s, 10 minutes, 1, 2 minutes), across the
	// whole fleet: MaxInFlight requests to a host are in flight at once in
	// all workers together, and a worker that dies with a request in flight
	// frees its place after InFlightTimeout. Workers of one fleet use the
	// same.
	Floor           time.Duration
	BackoffCap      time.Duration
	MaxInFlight     int
	InFlightTimeout time.Duration
	// Retain is how long Redis keeps a host's pace once nothing holds it
	// back: 24 hours, so that a crawl delay outlives a pause. At least
	// 1 ms.
	Retain time.Duration
	// LocalFallback: when Redis cannot be reached, Wait paces by a
	// robotstxt.Pacer of this worker's own, and Record reports to it, with a
	// warning logged (once): politeness then holds per worker, not per
	// fleet. Off by default: every call returns a *RedisError instead (no
	// slot, no request).
	LocalFallback bool
	// OnRedisError, if set, is told of every Redis failure (a *RedisError).
	// It must not block.
	OnRedisError func(error)
	// Now is the clock passed to every script. nil (the default) lets each
	// script read Redis's own (TIME), the same for every worker, and tells
	// it between calls by the monotonic clock.
	Now func() time.Time
}

// DefaultPacerOptions returns the defaults: DefaultPrefix, the pace options
// of robotstxt.DefaultPacerOptions, a host's pace kept 24 hours, no local
// fallback, Redis's clock.
func DefaultPacerOptions() PacerOptions {
	p := robotstxt.DefaultPacerOptions()
	return PacerOptions{Prefix: DefaultPrefix, Floor: p.Floor, BackoffCap: p.BackoffCap, MaxInFlight: p.MaxInFlight,
		InFlightTimeout: p.InFlightTimeout, Retain: 24 * time.Hour}
}

// Pacer is robotstxt.Pacer's surface over each host's pace kept in Redis for
// a whole fleet of workers: slots are handed out in order across every
// worker, one gap apart, and a backoff, Retry-After, slower pace or kill
// switch recorded by one worker holds back all. Each worker remembers
// what Redis last told it of the hosts it paces, so that a host whose pace
// Redis lost (a restart with empty memory) gets back its kill switch,
// Retry-After, backoff and crawl delay. Its methods are safe for
// concurrent use.
//
// Redis unreachable: every call returns a *RedisError (errors.Is(err,
// ErrRedis)): no slot, no request. With LocalFallback, Wait paces by this
// worker's own robotstxt.Pacer instead.
//
// The keys and scripts are those of every binding, so a fleet may mix Go,
// Node.js and Python workers.
//
// Call Close when done with it. Close must not run at the same time as
// another method.
type Pacer struct {
	client       redis.Scripter
	core         *robotstxt.FleetPacer
	now          func() time.Time
	onRedisError func(error)
	fallback     *robotstxt.Pacer
	warning      fallbackWarning
	down         atomic.Bool // the last call failed
	closed       atomic.Bool
}

// NewPacer makes a pacer that shares each host's pace through client
// (a *redis.Client, *redis.ClusterClient, *redis.Ring or any
// redis.UniversalClient). The error is non-nil for a negative option, a
// Retain below 1 ms, or a nil client.
func NewPacer(client redis.Scripter, options PacerOptions) (*Pacer, error) {
	if client == nil {
		return nil, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption, Message: "fleet.NewPacer needs a Redis client"}
	}
	if options.Floor < 0 || options.BackoffCap < 0 || options.MaxInFlight < 0 || options.InFlightTimeout < 0 {
		return nil, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption,
			Message: "fleet.PacerOptions.Floor, BackoffCap, MaxInFlight and InFlightTimeout must not be negative"}
	}
	if options.Retain < time.Millisecond {
		return nil, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption,
			Message: "fleet.PacerOptions.Retain is " + options.Retain.String() + ": pass 1ms or more (the default is 24h)"}
	}
	core, err := robotstxt.NewFleetPacer(robotstxt.FleetPacerOptions{Prefix: options.Prefix, Floor: options.Floor,
		BackoffCap: options.BackoffCap, MaxInFlight: options.MaxInFlight, InFlightTimeout: options.InFlightTimeout,
		Retain: options.Retain, KnownCapacity: 10_000,
		// Names this worker's in-flight places (the core's own name reads
		// a clock the WebAssembly core has not).
		Worker: strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(rand.Uint64(), 36)})
	if err != nil {
		return nil, err
	}
	p := &Pacer{client: client, core: core, now: options.Now, onRedisError: options.OnRedisError}
	if options.LocalFallback {
		local := robotstxt.DefaultPacerOptions()
		local.Floor, local.BackoffCap, local.MaxInFlight, local.InFlightTimeout, local.Now =
			options.Floor, options.BackoffCap, options.MaxInFlight, options.InFlightTimeout, options.Now
		if p.fallback, err = robotstxt.NewPacer(local); err != nil {
			core.Close()
			return nil, err
		}
	}
	return p, nil
}

// Ticket is a reserved start slot for one request to one host, from
// Pacer.Reserve: sleep until Start, then Pacer.Confirm it just before
// sending. It is safe for concurrent use.
type Ticket struct {
	t  *robotstxt.FleetTicket
	mu sync.Mutex // one confirmation at a time
}

// Host returns the host, as the pacer keys it (robotstxt.PacerHost).
func (t *Ticket) Host() string { return t.t.Host }

// Start returns when the ticket's request may start, by the fleet's clock,
// as far as is known: after a robotstxt.ConfirmWait it is the new slot.
func (t *Ticket) Start() time.Time { start, _ := t.t.Slot(); return start }

// Generation returns the generation of the host's pace the slot belongs
// to: a backoff, Retry-After, slower pace or kill switch starts a new one,
// and the ticket gets a new slot when confirmed.
func (t *Ticket) Generation() int64 { _, gen := t.t.Slot(); return gen }

var errPacerClosed = &robotstxt.Error{Kind: robotstxt.ErrClosed, Message: "fleet.Pacer used after Close"}

func (p *Pacer) at() robotstxt.FleetAt { return at(time.Time{}, p.now) }

// call makes a pace step (a nil one: nothing to do), runs it on Redis and
// reads its reply with read.
func (p *Pacer) call(ctx context.Context, made func() (*robotstxt.FleetStep, error),
	read func(*robotstxt.FleetStep, []robotstxt.FleetReply) error) error {
	if p == nil {
		panic("robotstxt: method called on a nil *fleet.Pacer")
	}
	if p.closed.Load() {
		return errPacerClosed
	}
	step, err := made()
	if err != nil || step == nil {
		return err
	}
	defer step.Close()
	reply, err := run(ctx, p.client, step)
	if err == nil {
		err = read(step, reply)
	}
	if failure := redisFailure(step.Script, err); failure != nil {
		p.down.Store(true)
		if p.onRedisError != nil {
			p.onRedisError(failure)
		}
		return failure
	}
	if err == nil {
		p.down.Store(false)
	}
	return err
}

// gap runs a step whose reply is the host's gap.
func (p *Pacer) gap(ctx context.Context, made func() (*robotstxt.FleetStep, error)) error {
	return p.call(ctx, made, func(step *robotstxt.FleetStep, r []robotstxt.FleetReply) error {
		_, err := p.core.StepReply(step, r)
		return err
	})
}

// Reserve reserves the next start slot for host (a host name such as
// "example.com", compared case-insensitively) across the fleet, and
// returns its ticket: sleep until Ticket.Start, then Confirm. The
// ticket is nil while the host is switched off (SetEnabled).
//
// Errors: robotstxt.ErrInvalidHost for an empty or over-long host, a
// *RedisError, robotstxt.ErrClosed after Close, ctx.Err().
func (p *Pacer) Reserve(ctx context.Context, host string) (*Ticket, error) {
	var ticket *robotstxt.FleetTicket
	err := p.call(ctx, func() (*robotstxt.FleetStep, error) { return p.core.Reserve(host, p.at()) },
		func(step *robotstxt.FleetStep, r []robotstxt.FleetReply) (err error) {
			ticket, err = p.core.ReserveReply(step, r)
			return err
		})
	if err != nil || ticket == nil {
		return nil, err
	}
	return &Ticket{t: ticket}, nil
}

// Confirm asks, just before sending, whether the request of t may start now,
// by the fleet's clock, as robotstxt.Pacer.Confirm does: robotstxt.ConfirmGo
// (send it, and call Record when it ends), robotstxt.ConfirmWait (sleep
// until Until, or, if Busy, until a request to the host in any worker may
// have ended, then confirm again; the ticket may have a new slot),
// robotstxt.ConfirmDisabled (the host was switched off).
//
// robotstxt.ErrInvalidTicket for a ticket already confirmed go or disabled;
// a *RedisError, robotstxt.ErrClosed after Close, ctx.Err().
func (p *Pacer) Confirm(ctx context.Context, t *Ticket) (robotstxt.Confirm, error) {
	c, _, err := p.confirm(ctx, t)
	return c, err
}

// confirm is Confirm, with the fleet's time of a go.
func (p *Pacer) confirm(ctx context.Context, t *Ticket) (c robotstxt.Confirm, goAt time.Time, err error) {
	if t == nil {
		panic("robotstxt: fleet.Pacer.Confirm given a nil *fleet.Ticket")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	err = p.call(ctx, func() (*robotstxt.FleetStep, error) { return p.core.Confirm(t.t, p.at()) },
		func(step *robotstxt.FleetStep, r []robotstxt.FleetReply) (err error) {
			c, goAt, err = p.core.ConfirmReply(t.t, step, r)
			return err
		})
	return c, goAt, err
}

// Cancel gives the slot of an unsent ticket back, when it is the last one
// handed out for its host in the fleet (the caller gave up on the request):
// the next reservation may take it. A ticket confirmed go or disabled is
// left as it is. Errors: a *RedisError, robotstxt.ErrClosed after Close,
// ctx.Err().
func (p *Pacer) Cancel(ctx context.Context, t *Ticket) error {
	if t == nil {
		panic("robotstxt: fleet.Pacer.Cancel given a nil *fleet.Ticket")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return p.gap(ctx, func() (*robotstxt.FleetStep, error) { return p.core.Cancel(t.t, p.at()) })
}

// Record reports how a request to host that just ended went, as
// robotstxt.Pacer.Record does, for the whole fleet: its HTTP status (0 for a
// network error or timeout) and its Retry-After (0 for none). Call it once
// for every request a confirmation let go: it frees an in-flight place. A
// 429 or 5xx doubles the gap (up to the backoff cap) and, with a
// Retry-After, keeps every request from starting before now + retryAfter
// (up to a day), in every worker; any other status halves the backoff
// again.
//
// robotstxt.ErrInvalidHost, a *RedisError (with LocalFallback, none: this
// worker's own pacer is told instead), robotstxt.ErrClosed after Close,
// ctx.Err().
func (p *Pacer) Record(ctx context.Context, host string, status int, retryAfter time.Duration) error {
	err := p.gap(ctx, func() (*robotstxt.FleetStep, error) { return p.core.Record(host, status, retryAfter, p.at()) })
	if err != nil && p.fallback != nil && errors.Is(err, ErrRedis) {
		return p.fallback.Record(host, p.localNow(), status, retryAfter)
	}
	return err
}

func (p *Pacer) localNow() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

// SetRules sets host's own pace from a crawler's rules: their crawl delay
// and request rate, as SetDelay. The pacer keeps no reference to rules.
func (p *Pacer) SetRules(ctx context.Context, host string, rules *robotstxt.Rules) error {
	delay, _ := rules.CrawlDelay()
	rate, _ := rules.RequestRate()
	return p.SetDelay(ctx, host, delay, rate)
}

// SetDelay sets host's own pace for the fleet: the larger of crawlDelay and
// the request-rate interval, rounded up to the ms, as
// robotstxt.Pacer.SetDelay does; the floor still applies. A zero crawlDelay
// or robotstxt.RequestRate means none. A slower pace gives tickets not yet
// confirmed new slots. robotstxt.ErrInvalidArgument for a negative delay or
// a rate with 0 requests or 0 seconds; robotstxt.ErrInvalidHost, a
// *RedisError, robotstxt.ErrClosed, ctx.Err().
func (p *Pacer) SetDelay(ctx context.Context, host string, crawlDelay time.Duration, rate robotstxt.RequestRate) error {
	return p.gap(ctx, func() (*robotstxt.FleetStep, error) { return p.core.SetDelay(host, crawlDelay, rate, p.at()) })
}

// SetEnabled switches host off for the fleet (Reserve hands out no ticket,
// tickets out confirm as robotstxt.ConfirmDisabled, Wait fails with
// robotstxt.ErrHostDisabled) or back on: a kill switch.
func (p *Pacer) SetEnabled(ctx context.Context, host string, enabled bool) error {
	return p.gap(ctx, func() (*robotstxt.FleetStep, error) { return p.core.SetEnabled(host, enabled, p.at()) })
}

// paceState is host's pace as it stands: its gap and requests in flight.
func (p *Pacer) paceState(ctx context.Context, host string) (gap time.Duration, inFlight int, err error) {
	err = p.call(ctx, func() (*robotstxt.FleetStep, error) { return p.core.PaceState(host, p.at()) },
		func(step *robotstxt.FleetStep, r []robotstxt.FleetReply) (err error) {
			gap, inFlight, err = p.core.PaceStateReply(step, r)
			return err
		})
	return gap, inFlight, err
}

// Gap returns the gap now applied between two request starts to host
// across the fleet: max(floor, crawl delay, request-rate interval),
// widened by backoff.
func (p *Pacer) Gap(ctx context.Context, host string) (time.Duration, error) {
	gap, _, err := p.paceState(ctx, host)
	return gap, err
}

// InFlight returns how many requests to host are in flight across the
// fleet: confirmed go, neither reported with Record nor past
// InFlightTimeout.
func (p *Pacer) InFlight(ctx context.Context, host string) (int, error) {
	_, n, err := p.paceState(ctx, host)
	return n, err
}

// Wait reserves host's next slot in the fleet, sleeps until it starts, by
// the fleet's clock, and confirms it; while the fleet's pace says wait (a
// backoff, a Retry-After or a slower pace recorded meanwhile by any
// worker, or MaxInFlight requests in flight, when it looks again at least
// every 250 ms), it sleeps again. It returns the request's start by the
// fleet's clock: send it then, and call Record when it ends, whatever the
// outcome (status 0 for a network error), which frees its in-flight place.
//
// Errors: robotstxt.ErrHostDisabled while the host is switched off,
// robotstxt.ErrInvalidHost, a *RedisError (with LocalFallback, none: this
// worker's own pacer paces the request instead), robotstxt.ErrClosed after
// Close, ctx.Err() if ctx is done first (the slot is then given back if no
// later one was handed out).
func (p *Pacer) Wait(ctx context.Context, host string) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	if p.fallback != nil && p.down.Load() {
		return p.fallbackWait(ctx, host, errors.New("its last call failed"))
	}
	t, err := p.Reserve(ctx, host)
	if err != nil {
		if p.fallback != nil && errors.Is(err, ErrRedis) {
			return p.fallbackWait(ctx, host, err)
		}
		return time.Time{}, err
	}
	if t == nil {
		return time.Time{}, disabled(host)
	}
	start, err := p.wait(ctx, host, t)
	if err != nil && !errors.Is(err, robotstxt.ErrHostDisabled) {
		// Given back on a context of its own: ctx may be done.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		_ = p.Cancel(cctx, t)
		cancel()
	}
	return start, err
}

func (p *Pacer) wait(ctx context.Context, host string, t *Ticket) (time.Time, error) {
	until, busy := t.Start(), false
	for {
		d := p.core.Until(until, p.at())
		if busy {
			// A request may end in another worker, which no wake-up tells.
			d = min(d, pollInterval)
		}
		if err := sleep(ctx, d); err != nil {
			return time.Time{}, err
		}
		got, goAt, err := p.confirm(ctx, t)
		switch {
		case err != nil:
			return time.Time{}, err
		case got.Kind == robotstxt.ConfirmGo:
			return goAt, nil
		case got.Kind == robotstxt.ConfirmDisabled:
			return time.Time{}, disabled(host)
		}
		until, busy = got.Until, got.Busy
	}
}

func (p *Pacer) fallbackWait(ctx context.Context, host string, cause error) (time.Time, error) {
	p.warning.warn("fleet.Pacer", "pacer", cause)
	return p.fallback.Wait(ctx, host)
}

func disabled(host string) error {
	return &robotstxt.Error{Kind: robotstxt.ErrHostDisabled, Message: "host \"" + host + "\" is switched off (fleet.Pacer.SetEnabled)"}
}

// Close frees this worker's side of the pacer and its local fallback
// pacer, if any; later calls return robotstxt.ErrClosed. It does not close
// the Redis client, and the fleet's pace stays in Redis. Calling Close
// again does nothing.
func (p *Pacer) Close() {
	if p == nil {
		panic("robotstxt: method called on a nil *fleet.Pacer")
	}
	if !p.closed.Swap(true) {
		p.core.Close()
		if p.fallback != nil {
			p.fallback.Close()
		}
	}
}
