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
	"github.com/robotstxt-engine/robotstxt-go/internal/units"
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
	// script read Redis's own (TIME), the same for every worker.
	Now func() time.Time
}

// DefaultPacerOptions returns the defaults: DefaultPrefix, the pace options
// of robotstxt.DefaultPacerOptions, a host's pace kept 24 hours, no local
// fallback, Redis's clock.
func DefaultPacerOptions() PacerOptions {
	p := robotstxt.DefaultPacerOptions()
	return PacerOptions{
		Prefix:          DefaultPrefix,
		Floor:           p.Floor,
		BackoffCap:      p.BackoffCap,
		MaxInFlight:     p.MaxInFlight,
		InFlightTimeout: p.InFlightTimeout,
		Retain:          24 * time.Hour,
	}
}

// Pacer is robotstxt.Pacer's surface over each host's pace kept in Redis for
// a whole fleet of workers: slots are handed out in order across every
// worker, one gap apart, and a backoff, Retry-After, slower pace or kill
// switch recorded by one worker holds back all. Its methods are safe for
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
	prefix       string
	clock        fleetClock
	options      []any // floor, cap, max in flight, in-flight timeout, retain (ms)
	onRedisError func(error)
	fallback     *robotstxt.Pacer
	warning      fallbackWarning
	worker       string   // names this worker's in-flight places
	delays       sync.Map // host key → the delay (ms) this worker last set
	places       atomic.Uint64
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
	p := &Pacer{
		client:       client,
		prefix:       options.Prefix,
		clock:        fleetClock{now: options.Now},
		onRedisError: options.OnRedisError,
		options: []any{ms(options.Floor), ms(options.BackoffCap), options.MaxInFlight,
			ms(options.InFlightTimeout), ms(options.Retain)},
		worker: strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(rand.Uint64(), 36),
	}
	if p.prefix == "" {
		p.prefix = DefaultPrefix
	}
	if options.LocalFallback {
		local := robotstxt.DefaultPacerOptions()
		local.Floor, local.BackoffCap, local.MaxInFlight, local.InFlightTimeout, local.Now =
			options.Floor, options.BackoffCap, options.MaxInFlight, options.InFlightTimeout, options.Now
		var err error
		if p.fallback, err = robotstxt.NewPacer(local); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Ticket is a reserved start slot for one request to one host, from
// Pacer.Reserve: sleep until Start, then Pacer.Confirm it just before
// sending. It is safe for concurrent use.
type Ticket struct {
	host string
	mu   sync.Mutex
	// start and generation: the slot, as the fleet's last answer gave it.
	start      int64
	generation int64
	spent      bool // confirmed go or disabled
}

// Host returns the host, as the pacer keys it (robotstxt.PacerHost).
func (t *Ticket) Host() string { return t.host }

// Start returns when the ticket's request may start, by the fleet's clock,
// as far as is known: after a robotstxt.ConfirmWait it is the new slot.
func (t *Ticket) Start() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return time.UnixMilli(t.start)
}

// Generation returns the generation of the host's pace the slot belongs
// to: a backoff, Retry-After, slower pace or kill switch starts a new one,
// and the ticket gets a new slot when confirmed.
func (t *Ticket) Generation() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.generation
}

var errPacerClosed = &robotstxt.Error{Kind: robotstxt.ErrClosed, Message: "fleet.Pacer used after Close"}

var errTicketSpent = &robotstxt.Error{Kind: robotstxt.ErrInvalidTicket,
	Message: "the ticket was already confirmed go or disabled: confirm each ticket until it says go, or cancel it"}

// run runs pace script name for host key (robotstxt.PacerHost) and returns
// its integers.
func (p *Pacer) run(ctx context.Context, name, key string, args ...any) ([]int64, error) {
	if p == nil {
		panic("robotstxt: method called on a nil *fleet.Pacer")
	}
	if p.closed.Load() {
		return nil, errPacerClosed
	}
	keys := []string{p.prefix + "pace:{" + key + "}", p.prefix + "flight:{" + key + "}"}
	argv := append(append(append(make([]any, 0, len(p.options)+1+len(args)), p.options...), p.clock.arg()), args...)
	reply, err := runScript(ctx, p.client, name, keys, argv...)
	var values []int64
	if err == nil {
		values, err = replyInts(reply, name)
	}
	if err != nil {
		if !errors.Is(err, ErrRedis) {
			return nil, err // ctx is done
		}
		p.down.Store(true)
		if p.onRedisError != nil {
			p.onRedisError(err)
		}
		return nil, err
	}
	p.down.Store(false)
	// reserve and confirm end with Redis's now: keep our clock on it.
	if name == "reserve" || name == "confirm" {
		p.clock.saw(values[len(values)-1])
	}
	return values, nil
}

// Reserve reserves the next start slot for host (a host name such as
// "example.com", compared case-insensitively) across the fleet, and
// returns its ticket: sleep until Ticket.Start, then Confirm. The
// ticket is nil while the host is switched off (SetEnabled).
//
// Errors: robotstxt.ErrInvalidHost for an empty or over-long host, a
// *RedisError, robotstxt.ErrClosed after Close, ctx.Err().
func (p *Pacer) Reserve(ctx context.Context, host string) (*Ticket, error) {
	key, err := robotstxt.PacerHost(host)
	if err != nil {
		return nil, err
	}
	v, err := p.run(ctx, "reserve", key, p.known(key))
	if err != nil {
		return nil, err
	}
	if len(v) != 3 {
		return nil, p.badReply("reserve")
	}
	if v[0] == -1 {
		return nil, nil
	}
	return &Ticket{host: key, start: v[0], generation: v[1]}, nil
}

func (p *Pacer) badReply(step string) error {
	err := &RedisError{Step: step, Err: errors.New("the script's reply has the wrong length")}
	if p.onRedisError != nil {
		p.onRedisError(err)
	}
	return err
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

// confirm is Confirm, with the fleet's now.
func (p *Pacer) confirm(ctx context.Context, t *Ticket) (robotstxt.Confirm, time.Time, error) {
	if t == nil {
		panic("robotstxt: fleet.Pacer.Confirm given a nil *fleet.Ticket")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.spent {
		return robotstxt.Confirm{}, time.Time{}, errTicketSpent
	}
	place := p.worker + "-" + strconv.FormatUint(p.places.Add(1), 10)
	v, err := p.run(ctx, "confirm", t.host, t.start, t.generation, place, p.known(t.host))
	if err != nil {
		return robotstxt.Confirm{}, time.Time{}, err
	}
	if len(v) != 5 {
		return robotstxt.Confirm{}, time.Time{}, p.badReply("confirm")
	}
	t.start, t.generation = v[1], v[2]
	now := time.UnixMilli(v[4])
	switch v[0] {
	case 1, 2:
		return robotstxt.Confirm{Kind: robotstxt.ConfirmWait, Until: time.UnixMilli(v[3]), Busy: v[0] == 2}, now, nil
	case 0:
		t.spent = true
		return robotstxt.Confirm{Kind: robotstxt.ConfirmGo}, now, nil
	default:
		t.spent = true
		return robotstxt.Confirm{Kind: robotstxt.ConfirmDisabled}, now, nil
	}
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
	if t.spent {
		return nil
	}
	_, err := p.run(ctx, "cancel", t.host, t.start, t.generation)
	return err
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
	key, err := robotstxt.PacerHost(host)
	if err != nil {
		return err
	}
	code := int64(-1)
	if status > 0 {
		code = int64(units.Status(status))
	}
	retry := int64(-1)
	if retryAfter > 0 {
		retry = ms(retryAfter)
	}
	_, err = p.run(ctx, "record", key, code, retry, p.known(key))
	if err != nil && p.fallback != nil && errors.Is(err, ErrRedis) {
		return p.fallback.Record(key, p.clock.time(), status, retryAfter)
	}
	return err
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
	key, err := robotstxt.PacerHost(host)
	if err != nil {
		return err
	}
	gap, err := paceMS(crawlDelay, rate)
	if err != nil {
		return err
	}
	if _, err = p.run(ctx, "set_delay", key, gap); err != nil {
		return err
	}
	p.delays.Store(key, gap)
	return nil
}

// known is the delay (ms) this worker last set for host key, or "": a host
// whose pace Redis lost (a restart with empty memory, or expiry) starts
// again from it, so that its crawl delay survives (load_pace).
func (p *Pacer) known(key string) any {
	if ms, ok := p.delays.Load(key); ok {
		return ms
	}
	return ""
}

// maxDelay is the longest crawl delay the core honours (MAX_DELAY).
const maxDelay = 86_400 * time.Second

// paceMS is the gap (ms) a pace asks for: the larger of crawlDelay and the
// request-rate interval, each rounded up to the ms (a gap is never shorter
// than asked), as the core's delay_ms computes it.
func paceMS(crawlDelay time.Duration, rate robotstxt.RequestRate) (int64, error) {
	if crawlDelay < 0 {
		return 0, &robotstxt.Error{Kind: robotstxt.ErrInvalidArgument,
			Message: "the crawl delay is negative (" + crawlDelay.String() + "): pass 0 (none) or more"}
	}
	if rate != (robotstxt.RequestRate{}) && (rate.Requests == 0 || rate.Seconds == 0) {
		return 0, &robotstxt.Error{Kind: robotstxt.ErrInvalidArgument,
			Message: "a request rate needs at least 1 request per at least 1 second (robotstxt.RequestRate{} for none)"}
	}
	return max(ms(min(crawlDelay, maxDelay)), ms(rate.Interval())), nil
}

// SetEnabled switches host off for the fleet (Reserve hands out no ticket,
// tickets out confirm as robotstxt.ConfirmDisabled, Wait fails with
// robotstxt.ErrHostDisabled) or back on: a kill switch.
func (p *Pacer) SetEnabled(ctx context.Context, host string, enabled bool) error {
	key, err := robotstxt.PacerHost(host)
	if err != nil {
		return err
	}
	on := 0
	if enabled {
		on = 1
	}
	_, err = p.run(ctx, "set_enabled", key, on, p.known(key))
	return err
}

// paceState is pace_state.lua's answer for host.
func (p *Pacer) paceState(ctx context.Context, host string) ([]int64, error) {
	key, err := robotstxt.PacerHost(host)
	if err != nil {
		return nil, err
	}
	v, err := p.run(ctx, "pace_state", key)
	if err == nil && len(v) < 2 {
		err = p.badReply("pace_state")
	}
	return v, err
}

// Gap returns the gap now applied between two request starts to host
// across the fleet: max(floor, crawl delay, request-rate interval),
// widened by backoff.
func (p *Pacer) Gap(ctx context.Context, host string) (time.Duration, error) {
	v, err := p.paceState(ctx, host)
	if err != nil {
		return 0, err
	}
	return time.Duration(v[0]) * time.Millisecond, nil
}

// InFlight returns how many requests to host are in flight across the
// fleet: confirmed go, neither reported with Record nor past
// InFlightTimeout.
func (p *Pacer) InFlight(ctx context.Context, host string) (int, error) {
	v, err := p.paceState(ctx, host)
	if err != nil {
		return 0, err
	}
	return int(v[1]), nil
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
		return time.Time{}, p.disabled(host)
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
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for until := t.Start(); ; {
		if d := until.Sub(p.clock.time()); d > 0 {
			if timer == nil {
				timer = time.NewTimer(d)
			} else {
				timer.Reset(d)
			}
			select {
			case <-timer.C:
			case <-ctx.Done():
				return time.Time{}, ctx.Err()
			}
		} else if err := ctx.Err(); err != nil {
			return time.Time{}, err
		}
		got, now, err := p.confirm(ctx, t)
		if err != nil {
			return time.Time{}, err
		}
		switch got.Kind {
		case robotstxt.ConfirmGo:
			return now, nil
		case robotstxt.ConfirmDisabled:
			return time.Time{}, p.disabled(host)
		}
		until = got.Until
		if got.Busy {
			// A request may end in another worker, which no wake-up tells.
			until = minTime(until, p.clock.time().Add(pollInterval))
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func (p *Pacer) fallbackWait(ctx context.Context, host string, cause error) (time.Time, error) {
	p.warning.warn("fleet.Pacer", "pacer", cause)
	key, err := robotstxt.PacerHost(host)
	if err != nil {
		return time.Time{}, err
	}
	return p.fallback.Wait(ctx, key)
}

func (p *Pacer) disabled(host string) error {
	return &robotstxt.Error{Kind: robotstxt.ErrHostDisabled, Message: "host " + quote(host) + " is switched off (fleet.Pacer.SetEnabled)"}
}

// Close frees this worker's local fallback pacer, if any; later calls return
// robotstxt.ErrClosed. It does not close the Redis client, and the fleet's
// pace stays in Redis. Calling Close again does nothing.
func (p *Pacer) Close() {
	if p == nil {
		panic("robotstxt: method called on a nil *fleet.Pacer")
	}
	if !p.closed.Swap(true) && p.fallback != nil {
		p.fallback.Close()
	}
}
