package fleet_test

// The shared vectors through a real Redis server, with the runners of
// internal/vectortest that robotstxt.Cache and robotstxt.Pacer pass too:
// the cache timelines (cache.json) through Cache.Lookup and Lease, the
// pacing schedules (pacing.json) through Pacer.

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-engine/robotstxt-go"
	"github.com/robotstxt-engine/robotstxt-go/fleet"
	"github.com/robotstxt-engine/robotstxt-go/internal/vectortest"
)

const vectorDir = "../../../tests/vectors"

// fleetEpoch is the time the cache timelines start at in Redis (at_s 0).
var fleetEpoch = time.UnixMilli(1_700_000_000_000)

func fleetAt(s float64) time.Time { return fleetEpoch.Add(vectortest.Seconds(s)) }

// fleetCacheDifferences are the cache.json cases a fleet answers differently
// by design, and how: each edits the case's steps to the fleet's answers,
// which the runner then asserts. Stats steps are asserted too: a worker
// counts its own questions as a robotstxt.Cache does, but for what the cases
// below say.
var fleetCacheDifferences = map[string]func(t *testing.T, steps []vectortest.CacheStep){
	"an expired lease goes to the next caller; the late store still counts": func(t *testing.T, steps []vectortest.CacheStep) {
		// A fleet stores a copy only under its current lease, so that a
		// worker whose lease ran out never overwrites the fleet's copy:
		// L1's store at 61 s is refused, and at 62 s L2 (taken at 60 s,
		// for 60 s) is still held.
		late, next := &steps[3], &steps[4]
		if late.Store != "L1" || next.Lookup == nil || next.Expect != "ready" {
			t.Fatalf("the case changed: steps 3 and 4 are %+v, %+v", *late, *next)
		}
		late.Error = "invalid_lease"
		*next = vectortest.CacheStep{AtS: next.AtS, Lookup: next.Lookup, Expect: "wait", UntilS: ptr(120.0)}
	},
	"capacity: the least recently used origin is evicted": func(t *testing.T, steps []vectortest.CacheStep) {
		// Capacity bounds the copies a worker holds parsed, not the
		// fleet's copies in Redis: b.test, dropped from this worker, is
		// read back from Redis, not fetched again (dropping c.test, the
		// least recently used, as the local cache drops it for the fetch).
		readBack, stats := &steps[8], &steps[9]
		if readBack.Lookup == nil || *readBack.Lookup != "https://b.test/" || readBack.Expect != "fetch" || stats.Stats == nil {
			t.Fatalf("the case changed: steps 8 and 9 are %+v, %+v", *readBack, *stats)
		}
		*readBack = vectortest.CacheStep{AtS: readBack.AtS, Lookup: readBack.Lookup, Expect: "ready", Answer: "allow_all"}
	},
	"origins are normalised: case, default port, userinfo": func(t *testing.T, steps []vectortest.CacheStep) {
		// A worker holds the copies it stored or read, not one for every
		// origin looked up: a.test's only.
		stats := &steps[len(steps)-1]
		if stats.Stats == nil {
			t.Fatalf("the case changed: the last step is %+v", *stats)
		}
		stats.Stats["entries"] = 1
	},
}

func ptr[T any](v T) *T { return &v }

func TestCacheVectors(t *testing.T) {
	server := startRedis(t)
	client := newClient(t, server.addr())
	seen := map[string]bool{}
	for _, raw := range vectortest.Cases(t, vectorDir, "cache.json") {
		c := vectortest.ReadCacheCase(t, raw)
		if edit := fleetCacheDifferences[c.Name]; edit != nil {
			edit(t, c.Steps)
			seen[c.Name] = true
		}
		t.Run(c.Name, func(t *testing.T) {
			capacity, lease, policy := c.Settings()
			cache := newCache(t, client, fetchNothing(t), func(o *fleet.CacheOptions) {
				o.Prefix, o.Capacity, o.Lease, o.Policy = testPrefix(), capacity, lease, policy
			})
			vectortest.RunCacheSteps(t, c, vectorCache(cache), fleetAt)
		})
	}
	for name := range fleetCacheDifferences {
		if !seen[name] {
			t.Errorf("no case %q in cache.json", name)
		}
	}
}

// fetchNothing is the FetchFunc of a cache the test drives step by step.
func fetchNothing(t *testing.T) robotstxt.FetchFunc {
	return func(context.Context, robotstxt.FetchRequest) (robotstxt.Response, error) {
		t.Error("the cache fetched by itself")
		return robotstxt.Response{}, errors.New("no fetch here")
	}
}

// vectorCache drives cache as the runner asks, with an explicit clock.
func vectorCache(cache *fleet.Cache) vectortest.Cache {
	ctx := context.Background()
	return vectortest.Cache{
		Lookup: func(url, token string, now time.Time, when robotstxt.WhenFetching) (robotstxt.Lookup, vectortest.Lease, error) {
			l, err := cache.Lookup(ctx, url, token, now, when)
			got := robotstxt.Lookup{Kind: l.Kind, Answer: l.Answer, Blanket: l.Blanket, RetryAt: l.RetryAt, Stale: l.Stale,
				Rules: l.Rules, Until: l.Until}
			if l.Lease == nil {
				return got, nil, err
			}
			return got, l.Lease, err
		},
		Store: func(lease vectortest.Lease, now time.Time, resp robotstxt.Response) error {
			_, err := lease.(*fleet.Lease).Store(ctx, now, resp)
			return err
		},
		Abandon: func(lease vectortest.Lease) error { return lease.(*fleet.Lease).Abandon(ctx) },
		Stats: func(t *testing.T) map[string]uint64 {
			s := cache.Stats()
			if int(s.Entries) != cache.Len() || s.RedisErrors != 0 {
				t.Errorf("Len %d, Entries %d, RedisErrors %d", cache.Len(), s.Entries, s.RedisErrors)
			}
			return map[string]uint64{"hits": s.Hits, "misses": s.Misses, "fetches": s.Fetches,
				"stale": s.Stale, "evictions": s.Evictions, "entries": s.Entries}
		},
	}
}

// The pacing vectors through Redis, times shifted to now (Redis expires
// keys by its clock). The capacity cases have no counterpart: Redis holds
// every host.
var localOnlyPacing = []string{
	"a full pacer never forgets a switched-off or backing-off host",
	"a full pacer forgets the least recently used idle host, never one inside its gap",
}

func TestPacerVectors(t *testing.T) {
	var cases []vectortest.PacingCase
	for _, raw := range vectortest.Cases(t, vectorDir, "pacing.json") {
		cases = append(cases, vectortest.ReadPacingCase(t, raw))
	}
	names := make([]string, len(cases))
	for i, c := range cases {
		names[i] = c.Name
	}
	for _, name := range localOnlyPacing {
		if !slices.Contains(names, name) {
			t.Errorf("no case %q in pacing.json", name)
		}
	}
	if len(cases)-len(localOnlyPacing) < 15 {
		t.Errorf("%d shared cases, want 15 or more", len(cases)-len(localOnlyPacing))
	}
	server := startRedis(t)
	client := newClient(t, server.addr())
	for _, c := range cases {
		if slices.Contains(localOnlyPacing, c.Name) {
			continue
		}
		t.Run(c.Name, func(t *testing.T) { runPacingCase(t, client, c) })
	}
}

func runPacingCase(t *testing.T, client redis.Scripter, c vectortest.PacingCase) {
	base := time.Now().UnixMilli()
	var clock manualMS
	clock.ms.Store(base)
	pacer := newPacer(t, client, func(o *fleet.PacerOptions) {
		o.Now = clock.now
		if opts := c.Options; opts != nil {
			if opts.FloorS != nil {
				o.Floor = vectortest.Seconds(*opts.FloorS)
			}
			if opts.BackoffCapS != nil {
				o.BackoffCap = vectortest.Seconds(*opts.BackoffCapS)
			}
			if opts.MaxInFlight != nil {
				o.MaxInFlight = *opts.MaxInFlight
			}
			if opts.InFlightTimeoutS != nil {
				o.InFlightTimeout = vectortest.Seconds(*opts.InFlightTimeoutS)
			}
		}
	})
	ctx := context.Background()
	vectortest.RunPacingSteps(t, c, vectortest.Pacer{
		SetNow: func(now time.Time) { clock.ms.Store(now.UnixMilli()) },
		Reserve: func(host string) (vectortest.Ticket, error) {
			ticket, err := pacer.Reserve(ctx, host)
			if ticket == nil {
				return nil, err
			}
			return ticket, err
		},
		Confirm: func(ticket vectortest.Ticket) (robotstxt.Confirm, error) {
			return pacer.Confirm(ctx, ticket.(*fleet.Ticket))
		},
		Cancel:   func(ticket vectortest.Ticket) error { return pacer.Cancel(ctx, ticket.(*fleet.Ticket)) },
		InFlight: func(host string) (int, error) { return pacer.InFlight(ctx, host) },
		SetRules: func(host string, rules *robotstxt.Rules) error { return pacer.SetRules(ctx, host, rules) },
		SetDelay: func(host string, delay time.Duration, rate robotstxt.RequestRate) error {
			return pacer.SetDelay(ctx, host, delay, rate)
		},
		Record: func(host string, status int, retryAfter time.Duration) error {
			return pacer.Record(ctx, host, status, retryAfter)
		},
		SetEnabled: func(host string, on bool) error { return pacer.SetEnabled(ctx, host, on) },
		Gap:        func(host string) (time.Duration, error) { return pacer.Gap(ctx, host) },
	}, func(s float64) time.Time { return time.UnixMilli(base).Add(vectortest.Seconds(s)) })
}
