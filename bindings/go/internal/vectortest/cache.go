package vectortest

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

// Cache timelines (behaviour §6–§7).

// CacheStep is a step of a cache timeline: a lookup, a store, an abandon
// or a look at the counters.
type CacheStep struct {
	AtS          *float64          `json:"at_s"`
	Note         string            `json:"note"`
	Lookup       *string           `json:"lookup"`
	WhenFetching string            `json:"when_fetching"`
	Expect       string            `json:"expect"`
	Stale        *bool             `json:"stale"`
	Answer       string            `json:"answer"`
	Checks       []SimpleCheck     `json:"checks"`
	Token        *string           `json:"token"`
	Validators   *Validators       `json:"validators"`
	Lease        string            `json:"lease"`
	Origin       *string           `json:"origin"`
	UntilS       *float64          `json:"until_s"`
	Error        string            `json:"error"`
	Store        string            `json:"store"`
	Fetch        *Fetch            `json:"fetch"`
	Abandon      string            `json:"abandon"`
	Stats        map[string]uint64 `json:"stats"`
	Cause        Nullable[struct {
		Kind   string `json:"kind"`
		Status *int   `json:"status"`
	}] `json:"cause"`
	RetryAtS Nullable[float64] `json:"retry_at_s"`
}

// CacheCase is a case of cache.json.
type CacheCase struct {
	Name    string `json:"name"`
	Note    string `json:"note"`
	Options *struct {
		Capacity *int     `json:"capacity"`
		LeaseS   *float64 `json:"lease_s"`
		Policy   *Policy  `json:"policy"`
	} `json:"options"`
	Steps []CacheStep `json:"steps"`
}

// Cache is what a cache timeline drives: a robotstxt.Cache, or a
// fleet.Cache over Redis, each step at the time given.
type Cache struct {
	// Lookup looks url up for token at now: the answer, and the lease
	// to fetch under for a fetch answer.
	Lookup func(url, token string, now time.Time, when robotstxt.WhenFetching) (robotstxt.Lookup, Lease, error)
	// Store stores a fetch's outcome under a lease Lookup gave.
	Store func(lease Lease, now time.Time, resp robotstxt.Response) error
	// Abandon gives a lease back.
	Abandon func(lease Lease) error
	// Stats are the counters, named as in cache.json.
	Stats func(t *testing.T) map[string]uint64
}

// Lease is a *robotstxt.Lease or a *fleet.Lease.
type Lease interface {
	Origin() string
	RobotsURL() string
	Validators() robotstxt.Validators
}

// ReadCacheCase decodes a case of cache.json.
func ReadCacheCase(t *testing.T, raw json.RawMessage) CacheCase {
	t.Helper()
	var c CacheCase
	if err := Strict(raw, &c); err != nil {
		t.Fatalf("%v in %.200s", err, raw)
	}
	return c
}

// Settings are the case's options; 0 where it gives none.
func (c *CacheCase) Settings() (capacity int, lease time.Duration, policy robotstxt.FreshnessPolicy) {
	if c.Options == nil {
		return 0, 0, robotstxt.DefaultFreshnessPolicy()
	}
	if c.Options.Capacity != nil {
		capacity = *c.Options.Capacity
	}
	if c.Options.LeaseS != nil {
		lease = Seconds(*c.Options.LeaseS)
	}
	return capacity, lease, c.Options.Policy.FreshnessPolicy()
}

// RunCacheSteps runs the case's steps through cache, at(at_s) being each
// step's time.
func RunCacheSteps(t *testing.T, c CacheCase, cache Cache, at func(float64) time.Time) {
	t.Helper()
	// Leases stay under their names once stored or abandoned: the binding
	// itself must refuse a second use.
	leases := map[string]Lease{}
	for i, step := range c.Steps {
		where := fmt.Sprintf("%s step %d", c.Name, i)
		if step.Stats != nil {
			if step.AtS != nil || step.Lookup != nil || step.Store != "" || step.Abandon != "" {
				t.Fatalf("%s: a stats step does nothing else", where)
			}
			got := cache.Stats(t)
			for key, want := range step.Stats {
				g, ok := got[key]
				if !ok {
					t.Fatalf("%s: unknown counter %q", where, key)
				}
				if g != want {
					t.Errorf("%s: stats.%s %d, want %d", where, key, g, want)
				}
			}
			continue
		}
		if step.AtS == nil {
			t.Fatalf("%s: no at_s", where)
		}
		now := at(*step.AtS)
		switch {
		case step.Store != "":
			lease := leases[step.Store]
			if lease == nil || step.Fetch == nil {
				t.Fatalf("%s: store needs a known lease and a fetch", where)
			}
			err := cache.Store(lease, now, step.Fetch.Response())
			switch step.Error {
			case "":
				if err != nil {
					t.Errorf("%s: store: %v", where, err)
				}
			case "invalid_lease":
				var e *robotstxt.Error
				if !errors.Is(err, robotstxt.ErrInvalidLease) || !errors.As(err, &e) {
					t.Errorf("%s: store: want an invalid-lease *Error, got %v", where, err)
				}
			default:
				t.Fatalf("%s: unknown error %q", where, step.Error)
			}
			continue
		case step.Abandon != "":
			lease := leases[step.Abandon]
			if lease == nil || step.Error != "" {
				t.Fatalf("%s: abandon needs a known lease", where)
			}
			if err := cache.Abandon(lease); err != nil {
				t.Errorf("%s: abandon: %v", where, err)
			}
			continue
		case step.Lookup == nil:
			t.Fatalf("%s: a step with nothing to do", where)
		}
		when := robotstxt.WaitForFetch
		switch step.WhenFetching {
		case "", "wait":
		case "disallow_all":
			when = robotstxt.DisallowWhileFetching
		default:
			t.Fatalf("%s: when_fetching %q", where, step.WhenFetching)
		}
		token := "ExampleBot"
		if step.Token != nil {
			token = *step.Token
		}
		got, lease, err := cache.Lookup(*step.Lookup, token, now, when)
		if step.Error != "" {
			if step.Error != "invalid_url" || !errors.Is(err, robotstxt.ErrInvalidURL) {
				t.Errorf("%s: want %s, got %v", where, step.Error, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if got.Kind.String() != step.Expect {
			t.Errorf("%s: %s, want %s", where, got.Kind, step.Expect)
		}
		switch got.Kind {
		case robotstxt.LookupReady:
			if step.Stale != nil && got.Stale != *step.Stale {
				t.Errorf("%s: stale %v, want %v", where, got.Stale, *step.Stale)
			}
			if step.Answer != "" && got.Answer.String() != step.Answer {
				t.Errorf("%s: answer %s, want %s", where, got.Answer, step.Answer)
			}
			checkBlanket(t, got, where)
			if step.Cause.Set {
				want := step.Cause.V
				switch {
				case (got.Blanket == nil) != step.Cause.Null:
					t.Errorf("%s: blanket %+v, want cause %+v", where, got.Blanket, step.Cause)
				case got.Blanket == nil:
				case got.Blanket.Cause.String() != want.Kind || (want.Status == nil) != (got.Blanket.Cause != robotstxt.CauseStatus) ||
					(want.Status != nil && got.Blanket.Status != *want.Status):
					t.Errorf("%s: cause %s status %d, want %+v", where, got.Blanket.Cause, got.Blanket.Status, want)
				}
			}
			if step.RetryAtS.Set {
				switch {
				case step.RetryAtS.Null && !got.RetryAt.IsZero():
					t.Errorf("%s: retry at %d, want none", where, got.RetryAt.UnixMilli())
				case !step.RetryAtS.Null && !got.RetryAt.Equal(at(step.RetryAtS.V)):
					t.Errorf("%s: retry at %d, want %vs", where, got.RetryAt.UnixMilli(), step.RetryAtS.V)
				}
			}
			for _, ch := range step.Checks {
				if a := got.Rules.Allowed(ch.URL); a != ch.Allowed {
					t.Errorf("%s: %s allowed %v, want %v", where, ch.URL, a, ch.Allowed)
				}
			}
			got.Rules.Close()
		case robotstxt.LookupFetch:
			if step.Validators != nil {
				step.Validators.Check(t, lease.Validators(), where)
			}
			if step.Cause.Set || step.RetryAtS.Set {
				t.Fatalf("%s: cause and retry_at_s are for ready answers", where)
			}
			if step.Origin != nil && lease.Origin() != *step.Origin {
				t.Errorf("%s: origin %q, want %q", where, lease.Origin(), *step.Origin)
			}
			if lease.RobotsURL() != lease.Origin()+"/robots.txt" {
				t.Errorf("%s: robots URL %q", where, lease.RobotsURL())
			}
			if step.Lease == "" {
				t.Fatalf("%s: a fetch needs a lease name", where)
			}
			leases[step.Lease] = lease
		case robotstxt.LookupWait:
			if step.UntilS != nil && !got.Until.Equal(at(*step.UntilS)) {
				t.Errorf("%s: until %d, want %v", where, got.Until.UnixMilli(), *step.UntilS)
			}
		}
	}
}

// checkBlanket checks that a ready lookup, its rules and their decisions
// agree on whether and why the answer is blanket.
func checkBlanket(t *testing.T, got robotstxt.Lookup, where string) {
	t.Helper()
	b, ok := got.Rules.Blanket()
	retryAt, retry := got.Rules.RetryAt()
	switch {
	case ok != (got.Blanket != nil) || ok != (got.Answer != robotstxt.AnswerRules):
		t.Errorf("%s: Rules.Blanket %+v %v, Lookup.Blanket %+v, answer %s", where, b, ok, got.Blanket, got.Answer)
	case ok && b != *got.Blanket:
		t.Errorf("%s: Rules.Blanket %+v, Lookup.Blanket %+v", where, b, *got.Blanket)
	case ok && b.Allowed != (got.Answer == robotstxt.AnswerAllowAll):
		t.Errorf("%s: blanket allowed %v for answer %s", where, b.Allowed, got.Answer)
	case retry == got.RetryAt.IsZero() || !retryAt.Equal(got.RetryAt):
		t.Errorf("%s: Rules.RetryAt %v %v, Lookup.RetryAt %v", where, retryAt, retry, got.RetryAt)
	}
	d := got.Rules.Decide("https://any.test/page")
	want := map[robotstxt.Answer]robotstxt.DecisionKind{
		robotstxt.AnswerAllowAll:    robotstxt.DecisionAllowAll,
		robotstxt.AnswerDisallowAll: robotstxt.DecisionDisallowAll,
	}[got.Answer]
	if ok && (d.Kind != want || d.Line != 0 || d.Allowed != b.Allowed) {
		t.Errorf("%s: a blanket %s decides %+v", where, got.Answer, d)
	}
	if !ok && (d.Kind == robotstxt.DecisionAllowAll || d.Kind == robotstxt.DecisionDisallowAll) {
		t.Errorf("%s: a file's rules decide %+v", where, d)
	}
}
