package robotstxt_test

// The shared vectors through a real Redis server, with the runners of
// vectors_test.go: the cache timelines (cache.json) through
// SharedRobotsCache.Lookup and SharedLease, the pacing schedules
// (pacing.json) through SharedPacer.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotstxt-engine/robotstxt-go"
)

// vectorCases reads the cases of a vector file.
func vectorCases(t *testing.T, name string) []json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(vectorDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var file vectorFile
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	return file.Cases
}

// fleetEpoch is the time the cache timelines start at in Redis (at_s 0).
var fleetEpoch = time.UnixMilli(1_700_000_000_000)

func fleetAt(s float64) time.Time { return fleetEpoch.Add(secondsOf(s)) }

// fleetCacheDifferences are the cache.json cases a fleet answers
// differently by design, and how: each edits the case's steps to the
// fleet's answers, which the runner then asserts. Stats steps are asserted
// too: a worker counts its own questions as a Cache does, but for what
// the cases below say.
var fleetCacheDifferences = map[string]func(t *testing.T, steps []cacheStep){
	"an expired lease goes to the next caller; the late store still counts": func(t *testing.T, steps []cacheStep) {
		// A fleet stores a copy only under its current lease, so that a
		// worker whose lease ran out never overwrites the fleet's copy:
		// L1's store at 61 s is refused, and at 62 s L2 (taken at 60 s,
		// for 60 s) is still held.
		late, next := &steps[3], &steps[4]
		if late.Store != "L1" || next.Lookup == nil || next.Expect != "ready" {
			t.Fatalf("the case changed: steps 3 and 4 are %+v, %+v", *late, *next)
		}
		late.Error = "invalid_lease"
		*next = cacheStep{AtS: next.AtS, Lookup: next.Lookup, Expect: "wait", UntilS: ptr(120.0)}
	},
	"capacity: the least recently used origin is evicted": func(t *testing.T, steps []cacheStep) {
		// Capacity bounds the copies a worker holds parsed, not the
		// fleet's copies in Redis: b.test, dropped from this worker, is
		// read back from Redis, not fetched again, and dropping c.test for
		// it is one more eviction.
		readBack, stats := &steps[8], &steps[9]
		if readBack.Lookup == nil || *readBack.Lookup != "https://b.test/" || readBack.Expect != "fetch" || stats.Stats == nil {
			t.Fatalf("the case changed: steps 8 and 9 are %+v, %+v", *readBack, *stats)
		}
		*readBack = cacheStep{AtS: readBack.AtS, Lookup: readBack.Lookup, Expect: "ready", Answer: "allow_all"}
		stats.Stats["evictions"] = 3
	},
	"origins are normalised: case, default port, userinfo": func(t *testing.T, steps []cacheStep) {
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

func TestSharedCacheVectors(t *testing.T) {
	server := startRedis(t)
	client := newClient(t, server.addr())
	seen := map[string]bool{}
	for _, raw := range vectorCases(t, "cache.json") {
		c := readCacheCase(t, raw)
		if edit := fleetCacheDifferences[c.Name]; edit != nil {
			edit(t, c.Steps)
			seen[c.Name] = true
		}
		t.Run(c.Name, func(t *testing.T) {
			capacity, lease, policy := c.settings()
			cache := newSharedCache(t, client, fetchNothing(t), func(o *robotstxt.SharedCacheOptions) {
				o.Prefix, o.Capacity, o.Lease, o.Policy = testPrefix(), capacity, lease, policy
			})
			runCacheSteps(t, c, fleetCache{cache}, fleetAt)
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

type fleetCache struct{ *robotstxt.SharedRobotsCache }

func (c fleetCache) lookup(url, token string, now time.Time, when robotstxt.WhenFetching) (robotstxt.Lookup, leaseUnderTest, error) {
	l, err := c.Lookup(context.Background(), url, token, now, when)
	got := robotstxt.Lookup{Kind: l.Kind, Answer: l.Answer, Blanket: l.Blanket, RetryAt: l.RetryAt, Stale: l.Stale,
		Rules: l.Rules, Until: l.Until}
	if l.Lease == nil {
		return got, nil, err
	}
	return got, fleetLease{l.Lease}, err
}

func (c fleetCache) stats(t *testing.T) map[string]uint64 {
	s := c.Stats()
	if int(s.Entries) != c.Len() || s.RedisErrors != 0 {
		t.Errorf("Len %d, Entries %d, RedisErrors %d", c.Len(), s.Entries, s.RedisErrors)
	}
	return map[string]uint64{"hits": s.Hits, "misses": s.Misses, "fetches": s.Fetches,
		"stale": s.Stale, "evictions": s.Evictions, "entries": s.Entries}
}

type fleetLease struct{ *robotstxt.SharedLease }

func (l fleetLease) store(now time.Time, resp robotstxt.Response) error {
	_, err := l.Store(context.Background(), now, resp)
	return err
}

func (l fleetLease) abandon() error { return l.Abandon(context.Background()) }

// The pacing vectors through Redis, times shifted to now (Redis expires
// keys by its clock). The capacity cases have no counterpart: Redis holds
// every host.
var localOnlyPacing = []string{
	"a full pacer never forgets a switched-off or backing-off host",
	"a full pacer forgets the least recently used idle host, never one inside its gap",
}

func TestSharedPacerVectors(t *testing.T) {
	var cases []pacingCase
	for _, raw := range vectorCases(t, "pacing.json") {
		cases = append(cases, readPacingCase(t, raw))
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
		t.Run(c.Name, func(t *testing.T) { runSharedPacingCase(t, client, c) })
	}
}

func runSharedPacingCase(t *testing.T, client redis.Scripter, c pacingCase) {
	base := time.Now().UnixMilli()
	p := &fleetPacer{}
	p.clock.ms.Store(base)
	p.SharedPacer = newSharedPacer(t, client, func(o *robotstxt.SharedPacerOptions) {
		o.Now = p.clock.now
		if opts := c.Options; opts != nil {
			if opts.FloorS != nil {
				o.Floor = secondsOf(*opts.FloorS)
			}
			if opts.BackoffCapS != nil {
				o.BackoffCap = secondsOf(*opts.BackoffCapS)
			}
			if opts.MaxInFlight != nil {
				o.MaxInFlight = *opts.MaxInFlight
			}
			if opts.InFlightTimeoutS != nil {
				o.InFlightTimeout = secondsOf(*opts.InFlightTimeoutS)
			}
		}
	})
	runPacingSteps(t, c, p, func(s float64) time.Time { return time.UnixMilli(base).Add(secondsOf(s)) })
}

// fleetPacer is a SharedPacer on a clock the runner sets.
type fleetPacer struct {
	*robotstxt.SharedPacer
	clock manualMS
}

func (p *fleetPacer) setNow(now time.Time) { p.clock.ms.Store(now.UnixMilli()) }

func (p *fleetPacer) reserve(host string) (pacedTicket, error) {
	ticket, err := p.Reserve(context.Background(), host)
	if ticket == nil {
		return nil, err
	}
	return ticket, err
}

func (p *fleetPacer) confirm(ticket pacedTicket) (robotstxt.Confirm, error) {
	return p.Confirm(context.Background(), ticket.(*robotstxt.SharedTicket))
}

func (p *fleetPacer) cancel(ticket pacedTicket) error {
	return p.Cancel(context.Background(), ticket.(*robotstxt.SharedTicket))
}

func (p *fleetPacer) inFlight(host string) (int, error) {
	return p.InFlight(context.Background(), host)
}

func (p *fleetPacer) setRules(host string, rules *robotstxt.Rules) error {
	return p.SetRules(context.Background(), host, rules)
}

func (p *fleetPacer) setDelay(host string, delay time.Duration, rate robotstxt.RequestRate) error {
	return p.SetDelay(context.Background(), host, delay, rate)
}

func (p *fleetPacer) record(host string, status int, retryAfter time.Duration) error {
	return p.Record(context.Background(), host, status, retryAfter)
}

func (p *fleetPacer) setEnabled(host string, on bool) error {
	return p.SetEnabled(context.Background(), host, on)
}

func (p *fleetPacer) gap(host string) (time.Duration, error) {
	return p.Gap(context.Background(), host)
}
