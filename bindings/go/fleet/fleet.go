// Package fleet keeps robots.txt copies and per-host pace in Redis, so that
// many worker processes (on many machines, in any of the project's
// languages) fetch each robots.txt once and pace each host like one
// crawler: Cache does the work of robotstxt.Cache, and Pacer that of
// robotstxt.Pacer, for the whole fleet. It is a package of its own so that
// only the programs that run a fleet link a Redis client
// (github.com/redis/go-redis/v9).
//
//	client := redis.NewClient(&redis.Options{Addr: "10.0.0.5:6379", MaxRetries: 1, DialerRetries: 1,
//		DialTimeout: 400 * time.Millisecond, ReadTimeout: 400 * time.Millisecond, WriteTimeout: 400 * time.Millisecond})
//	cache, err := fleet.NewCache(client, robotstxt.FetchHTTP(http.DefaultClient, "ExampleBot/1.0"), fleet.DefaultCacheOptions())
//	pacer, err := fleet.NewPacer(client, fleet.DefaultPacerOptions())
//	rules, err := cache.Rules(ctx, url, "ExampleBot") // then pacer.SetRules, pacer.Wait, pacer.Record
//
// The core holds the whole protocol (robotstxt.FleetCache and
// robotstxt.FleetPacer, docs/fleet.md): it says which of its Lua scripts
// to run with which keys and arguments, reads Redis's replies, and keeps
// the fleet's time from Redis's clock and the worker's monotonic one. This
// package runs the scripts on go-redis and adds the waiting, the lease
// renewal while a fetch goes on, and the fail-safe when Redis fails.
// Cache.Lookup and Lease are the steps under Cache.Rules, as
// robotstxt.Cache.Lookup and robotstxt.Lease are robotstxt.Cache's, with
// the same answers and an explicit clock.
//
// Keys, under a prefix of your choosing (default "robotstxt:"), with the
// origin or host in braces so that each step's keys share a cluster slot:
//
//	<prefix>copy:{<origin>}   hash: data (Entry.Encode), version, due, fence
//	<prefix>lease:{<origin>}  the fetch lease: fencing token and end, PX lease ms
//	<prefix>pace:{<host>}     hash: next, last, nb, delay, factor, off, gen
//	<prefix>flight:{<host>}   sorted set: in-flight places by expiry
//
// Give the client bounded retries and timeouts, as above: a call while
// Redis is down then fails within about a second, and the cache and pacer
// fail safe (see Cache and Pacer) instead of waiting on the client.
//
// Errors are those of package robotstxt (match them with errors.Is), and
// ErrRedis for a failed Redis call.
package fleet

// This file holds what the cache and the pacer share: running a step on
// Redis, the Redis error, the clock.

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-engine/robotstxt-go"
	"github.com/robotstxt-engine/robotstxt-go/internal/units"
)

// DefaultPrefix is the prefix of every key a Cache or Pacer uses unless
// told otherwise.
const DefaultPrefix = "robotstxt:"

// pollInterval: a worker waiting for another's fetch, or for an in-flight
// place, looks again at least this often.
const pollInterval = 250 * time.Millisecond

// ErrRedis: a call to Redis failed (unreachable, timed out, refused, or a
// reply the fleet cannot read). The error is a *RedisError, which says
// during which step and why.
var ErrRedis = errors.New("robotstxt: Redis failed")

// RedisError is the error of a Redis call that failed: errors.Is(err,
// ErrRedis) holds for it, and errors.Is and errors.As reach the client's
// own error (Unwrap).
type RedisError struct {
	// Step is the fleet script that failed, such as "lookup" or "reserve".
	Step string
	// Err is the Redis client's error, or robotstxt.ErrBadReply's.
	Err error
}

// Error says which step failed and why.
func (e *RedisError) Error() string {
	return "robotstxt: Redis failed during " + e.Step + ": " + e.Err.Error()
}

// Is reports whether target is ErrRedis.
func (e *RedisError) Is(target error) bool { return target == ErrRedis }

// Unwrap returns the Redis client's error.
func (e *RedisError) Unwrap() error { return e.Err }

// scripts holds each fleet script as go-redis runs it: EVALSHA, and EVAL
// when the server does not have it yet (or lost it in a restart).
var scripts sync.Map

func script(name string) *redis.Script {
	if s, ok := scripts.Load(name); ok {
		return s.(*redis.Script)
	}
	source, err := robotstxt.FleetScript(name)
	if err != nil {
		panic("robotstxt: the core has no fleet script " + name + ": " + err.Error())
	}
	s, _ := scripts.LoadOrStore(name, redis.NewScript(source))
	return s.(*redis.Script)
}

// run runs step's call on client and returns the reply as the client gave
// it (an error reply included: the core reads it). A call that failed is
// ctx.Err() when ctx is done, else a *RedisError.
func run(ctx context.Context, client redis.Scripter, step *robotstxt.FleetStep) ([]robotstxt.FleetReply, error) {
	args := make([]any, len(step.Args))
	for i, a := range step.Args {
		args[i] = a
	}
	v, err := script(step.Script).Run(ctx, client, step.Keys, args...).Result()
	var answered redis.Error
	switch {
	case err == nil || errors.Is(err, redis.Nil):
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.As(err, &answered):
		v = err
	default:
		return nil, &RedisError{Step: step.Script, Err: err}
	}
	if items, ok := v.([]any); ok {
		reply := make([]robotstxt.FleetReply, len(items))
		for i, item := range items {
			reply[i] = replyItem(item)
		}
		return reply, nil
	}
	return []robotstxt.FleetReply{replyItem(v)}, nil
}

func replyItem(v any) robotstxt.FleetReply {
	switch v := v.(type) {
	case nil:
		return robotstxt.FleetReply{Kind: robotstxt.FleetReplyNil}
	case int64:
		return robotstxt.FleetReply{Kind: robotstxt.FleetReplyInt, Int: v}
	case string:
		return robotstxt.FleetReply{Kind: robotstxt.FleetReplyBytes, Bytes: v}
	case error:
		return robotstxt.FleetReply{Kind: robotstxt.FleetReplyError, Bytes: v.Error()}
	}
	return robotstxt.FleetReply{Kind: robotstxt.FleetReplyError, Bytes: fmt.Sprintf("a reply item of type %T", v)}
}

// redisFailure is err as a *RedisError of step, when Redis failed or its
// reply did not read; nil for any other error.
func redisFailure(step string, err error) *RedisError {
	var failed *RedisError
	switch {
	case errors.As(err, &failed):
		return failed
	case errors.Is(err, robotstxt.ErrBadReply):
		return &RedisError{Step: step, Err: err}
	}
	return nil
}

// clock is where the fleet's monotonic readings come from (time.Now; a
// test's stand-in), epoch the first. A step of the wall clock moves
// neither: time.Time.Sub reads the monotonic clock.
var (
	clock atomic.Pointer[func() time.Time]
	epoch = time.Now()
)

// at is a step's time: given (a non-zero now, or else the clock of the
// options), or a reading of the monotonic clock, whose offset to Redis's
// time the core keeps.
func at(now time.Time, given func() time.Time) robotstxt.FleetAt {
	if now.IsZero() && given != nil {
		now = given()
	}
	if !now.IsZero() {
		return robotstxt.FleetAt{Given: true, MS: units.UnixMS(now)}
	}
	reading := time.Now()
	if now := clock.Load(); now != nil {
		reading = (*now)()
	}
	return robotstxt.FleetAt{MS: uint64(max(reading.Sub(epoch), 0) / time.Millisecond)}
}

// sleep waits d, or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fallbackWarning logs, once per instance, that a worker falls back to a
// cache or pacer of its own.
type fallbackWarning struct{ once sync.Once }

func (w *fallbackWarning) warn(class, own string, err error) {
	w.once.Do(func() {
		log.Printf("robotstxt: %s: Redis is unreachable (%v); this worker falls back to its own %s, "+
			"which the rest of the fleet does not see", class, err, own)
	})
}

// orDefault is d, or fallback for 0; an error for a negative d.
func orDefault(d, fallback time.Duration, what string) (time.Duration, error) {
	if d < 0 {
		return 0, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption,
			Message: what + " is negative (" + d.String() + "): pass a duration of 0 (the default) or more"}
	}
	if d == 0 {
		return fallback, nil
	}
	return d, nil
}
