// Package fleet keeps robots.txt copies and per-host pace in Redis, so that
// many worker processes (on many machines, in any of the project's
// languages) fetch each robots.txt once and pace each host like one
// crawler: Cache does the work of robotstxt.Cache, and Pacer that of
// robotstxt.Pacer, for the whole fleet. It is a package of its own so that
// only the programs that run a fleet link a Redis client
// (github.com/redis/go-redis/v9).
//
//	client := redis.NewClient(&redis.Options{Addr: "10.0.0.5:6379"})
//	cache, err := fleet.NewCache(client, robotstxt.FetchHTTP(http.DefaultClient, "ExampleBot/1.0"), fleet.DefaultCacheOptions())
//	pacer, err := fleet.NewPacer(client, fleet.DefaultPacerOptions())
//	rules, err := cache.Rules(ctx, url, "ExampleBot") // then pacer.SetRules, pacer.Wait, pacer.Record
//
// The core decides (its stored-copy encoding, its pace arithmetic); every
// shared step runs in Redis as one of the core's Lua scripts
// (robotstxt.FleetScript), atomically and on Redis's clock. Cache.Lookup and
// Lease are the steps under Cache.Rules, as robotstxt.Cache.Lookup and
// robotstxt.Lease are robotstxt.Cache's, with the same answers and an
// explicit clock.
//
// Keys, under a prefix of your choosing (default "robotstxt:"), with the
// origin or host in braces so that each step's keys share a cluster slot:
//
//	<prefix>copy:{<origin>}   hash: data (Entry.Encode), version, due, fence
//	<prefix>lease:{<origin>}  the fetch lease: fencing token and end, PX lease ms
//	<prefix>pace:{<host>}     hash: next, last, nb, delay, factor, off, gen
//	<prefix>flight:{<host>}   sorted set: in-flight places by expiry
//
// Errors are those of package robotstxt (match them with errors.Is), and
// ErrRedis for a failed Redis call.
package fleet

// This file holds what the cache and the pacer have in common: running the
// scripts, the Redis error, the clock.

import (
	"context"
	"errors"
	"log"
	"strconv"
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

// ErrRedis: a call to Redis failed (unreachable, timed out, refused). The
// error is a *RedisError, which says during which step and why.
var ErrRedis = errors.New("robotstxt: Redis failed")

// RedisError is the error of a Redis call that failed: errors.Is(err,
// ErrRedis) holds for it, and errors.Is and errors.As reach the client's
// own error (Unwrap).
type RedisError struct {
	// Step is the fleet script that failed, such as "lookup" or "reserve".
	Step string
	// Err is the Redis client's error.
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

// scripts holds the core's fleet scripts, each loaded once per process.
var scripts struct {
	mu     sync.Mutex
	byName map[string]*redis.Script
}

// fleetScript returns the script name, ready to Run: EVALSHA, and EVAL
// when the server does not have it yet (or lost it in a restart).
func fleetScript(name string) *redis.Script {
	scripts.mu.Lock()
	defer scripts.mu.Unlock()
	if s := scripts.byName[name]; s != nil {
		return s
	}
	source, err := robotstxt.FleetScript(name)
	if err != nil {
		panic("robotstxt: the core has no fleet script " + quote(name) + ": " + err.Error())
	}
	if scripts.byName == nil {
		scripts.byName = map[string]*redis.Script{}
	}
	s := redis.NewScript(source)
	scripts.byName[name] = s
	return s
}

// runScript runs fleet script name on client. A failure because ctx is
// done is ctx.Err(); any other is a *RedisError.
func runScript(ctx context.Context, client redis.Scripter, name string, keys []string, args ...any) (any, error) {
	reply, err := fleetScript(name).Run(ctx, client, keys, args...).Result()
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, &RedisError{Step: name, Err: err}
	}
	return reply, nil
}

// fleetClock is the clock a Cache or Pacer passes to every script: the one
// given, or else none ("": each script reads Redis's TIME, the same for
// every worker), with an offset from the last reply to tell Redis's now
// between calls.
type fleetClock struct {
	now    func() time.Time
	offset atomic.Int64 // Redis's clock minus ours, ms
}

// time is now by the clock given, else by Redis's (as of the last reply).
func (c *fleetClock) time() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now().Add(time.Duration(c.offset.Load()) * time.Millisecond)
}

// arg is what the scripts take for now.
func (c *fleetClock) arg() string {
	if c.now == nil {
		return ""
	}
	return strconv.FormatUint(units.UnixMS(c.now()), 10)
}

// at is the time of a step given now (zero: by this clock), and what the
// scripts take for it: "" when Redis's own clock decides.
func (c *fleetClock) at(given time.Time) (time.Time, string) {
	switch {
	case !given.IsZero():
	case c.now != nil:
		given = c.now()
	default:
		return c.time(), ""
	}
	return given, strconv.FormatUint(units.UnixMS(given), 10)
}

// saw keeps the offset from Redis's now (epoch ms) in a reply.
func (c *fleetClock) saw(redisNow int64) {
	if c.now == nil {
		c.offset.Store(redisNow - time.Now().UnixMilli())
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

// positiveMS is d in whole ms (rounded up), or fallback for 0; an error
// for a negative d.
func positiveMS(d time.Duration, fallback time.Duration, what string) (int64, error) {
	if d < 0 {
		return 0, &robotstxt.Error{Kind: robotstxt.ErrInvalidOption,
			Message: what + " is negative (" + d.String() + "): pass a duration of 0 (the default) or more"}
	}
	if d == 0 {
		d = fallback
	}
	return ms(d), nil
}

// replyInts reads a script's reply of integers.
func replyInts(reply any, step string) ([]int64, error) {
	switch v := reply.(type) {
	case int64:
		return []int64{v}, nil
	case []any:
		out := make([]int64, len(v))
		for i, x := range v {
			n, ok := x.(int64)
			if !ok {
				return nil, &RedisError{Step: step, Err: errors.New("the script's reply is not a list of integers")}
			}
			out[i] = n
		}
		return out, nil
	}
	return nil, &RedisError{Step: step, Err: errors.New("the script's reply is not an integer or a list")}
}

// ms is d in whole ms, rounded up, as the core reads durations.
func ms(d time.Duration) int64 { return int64(units.MS(d)) }

// quote puts s (cut to 200 bytes) in quotes, as the core's messages do.
func quote(s string) string {
	if len(s) > 200 {
		s = s[:200]
	}
	return `"` + s + `"`
}
