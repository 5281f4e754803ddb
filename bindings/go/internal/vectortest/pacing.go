package vectortest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

// Pacing schedules (behaviour §8).

// PacingStep is a step of a pacing schedule.
type PacingStep struct {
	AtS      float64           `json:"at_s"`
	Note     string            `json:"note"`
	Reserve  *string           `json:"reserve"`
	Ticket   string            `json:"ticket"`
	StartS   Nullable[float64] `json:"start_s"`
	Error    string            `json:"error"`
	Confirm  *string           `json:"confirm"`
	Expect   string            `json:"expect"`
	UntilS   *float64          `json:"until_s"`
	Busy     *bool             `json:"busy"`
	Cancel   *string           `json:"cancel"`
	InFlight *struct {
		Host  string `json:"host"`
		Count int    `json:"count"`
	} `json:"in_flight"`
	SetRules *struct {
		Host  string `json:"host"`
		Body  string `json:"body"`
		Token string `json:"token"`
	} `json:"set_rules"`
	SetDelay *struct {
		Host        string            `json:"host"`
		CrawlDelayS Nullable[float64] `json:"crawl_delay_s"`
		RequestRate Nullable[Rate]    `json:"request_rate"`
	} `json:"set_delay"`
	Record *struct {
		Host        string        `json:"host"`
		Status      Nullable[int] `json:"status"`
		RetryAfterS *float64      `json:"retry_after_s"`
	} `json:"record"`
	Enabled *struct {
		Host string `json:"host"`
		On   bool   `json:"on"`
	} `json:"enabled"`
	GapS *struct {
		Host string  `json:"host"`
		Gap  float64 `json:"gap"`
	} `json:"gap_s"`
}

// PacingCase is a case of pacing.json.
type PacingCase struct {
	Name    string `json:"name"`
	Note    string `json:"note"`
	Options *struct {
		FloorS           *float64 `json:"floor_s"`
		BackoffCapS      *float64 `json:"backoff_cap_s"`
		Capacity         *int     `json:"capacity"`
		MaxInFlight      *int     `json:"max_in_flight"`
		InFlightTimeoutS *float64 `json:"in_flight_timeout_s"`
	} `json:"options"`
	Steps []PacingStep `json:"steps"`
}

// Pacer is what a pacing schedule drives, each step at the time SetNow
// gives: a robotstxt.Pacer, or a fleet.Pacer over Redis.
type Pacer struct {
	SetNow func(now time.Time)
	// Reserve returns a nil Ticket while the host is switched off.
	Reserve    func(host string) (Ticket, error)
	Confirm    func(ticket Ticket) (robotstxt.Confirm, error)
	Cancel     func(ticket Ticket) error
	InFlight   func(host string) (int, error)
	SetRules   func(host string, rules *robotstxt.Rules) error
	SetDelay   func(host string, delay time.Duration, rate robotstxt.RequestRate) error
	Record     func(host string, status int, retryAfter time.Duration) error
	SetEnabled func(host string, on bool) error
	Gap        func(host string) (time.Duration, error)
}

// Ticket is a *robotstxt.Ticket or a *fleet.Ticket.
type Ticket interface{ Start() time.Time }

// ReadPacingCase decodes a case of pacing.json.
func ReadPacingCase(t *testing.T, raw json.RawMessage) PacingCase {
	t.Helper()
	var c PacingCase
	if err := Strict(raw, &c); err != nil {
		t.Fatalf("%v in %.200s", err, raw)
	}
	return c
}

// RunPacingSteps runs the case's steps through pacer, at(at_s) being each
// step's time.
func RunPacingSteps(t *testing.T, c PacingCase, pacer Pacer, at func(float64) time.Time) {
	t.Helper()
	// Tickets stay under their names once spent: the binding must refuse
	// a second confirmation.
	tickets := map[string]Ticket{}
	for i, step := range c.Steps {
		where := fmt.Sprintf("%s step %d", c.Name, i)
		pacer.SetNow(at(step.AtS))
		var err error
		switch {
		case step.Reserve != nil:
			ticket, rerr := pacer.Reserve(*step.Reserve)
			if step.Error != "" {
				want := map[string]error{"invalid_host": robotstxt.ErrInvalidHost, "pacer_full": robotstxt.ErrPacerFull}[step.Error]
				if want == nil || !errors.Is(rerr, want) || ticket != nil {
					t.Errorf("%s: want %s, got %v", where, step.Error, rerr)
				}
				continue
			}
			if rerr != nil || !step.StartS.Set {
				t.Fatalf("%s: %v (start_s %+v)", where, rerr, step.StartS)
			}
			switch {
			case step.StartS.Null && ticket != nil:
				t.Errorf("%s: start %d, want none (switched off)", where, ticket.Start().UnixMilli())
			case !step.StartS.Null && (ticket == nil || !ticket.Start().Equal(at(step.StartS.V))):
				t.Errorf("%s: ticket %v, want one starting at %vs", where, ticket, step.StartS.V)
			}
			if ticket != nil && step.Ticket != "" {
				if tickets[step.Ticket] != nil {
					t.Fatalf("%s: ticket %q reserved twice", where, step.Ticket)
				}
				tickets[step.Ticket] = ticket
			}
		case step.Confirm != nil:
			ticket := tickets[*step.Confirm]
			if ticket == nil {
				t.Fatalf("%s: no ticket %q", where, *step.Confirm)
			}
			got, cerr := pacer.Confirm(ticket)
			if step.Error != "" {
				if step.Error != "invalid_ticket" || !errors.Is(cerr, robotstxt.ErrInvalidTicket) {
					t.Errorf("%s: want %s, got %+v %v", where, step.Error, got, cerr)
				}
				continue
			}
			if cerr != nil {
				t.Fatalf("%s: %v", where, cerr)
			}
			if got.Kind.String() != step.Expect {
				t.Errorf("%s: confirm %s, want %s", where, got.Kind, step.Expect)
			}
			if step.UntilS != nil && !got.Until.Equal(at(*step.UntilS)) {
				t.Errorf("%s: until %d, want %vs", where, got.Until.UnixMilli(), *step.UntilS)
			}
			if step.Busy != nil && got.Busy != *step.Busy {
				t.Errorf("%s: busy %v, want %v", where, got.Busy, *step.Busy)
			}
			if got.Kind == robotstxt.ConfirmWait && ticket.Start().After(got.Until) {
				t.Errorf("%s: wait until %v, but the ticket starts at %v", where, got.Until, ticket.Start())
			}
		case step.Cancel != nil:
			ticket := tickets[*step.Cancel]
			if ticket == nil {
				t.Fatalf("%s: no ticket %q", where, *step.Cancel)
			}
			err = pacer.Cancel(ticket)
		case step.InFlight != nil:
			n, ierr := pacer.InFlight(step.InFlight.Host)
			if ierr != nil || n != step.InFlight.Count {
				t.Errorf("%s: in flight %d (%v), want %d", where, n, ierr, step.InFlight.Count)
			}
		case step.SetRules != nil:
			robots, perr := robotstxt.Parse([]byte(step.SetRules.Body))
			if perr != nil {
				t.Fatal(perr)
			}
			rules, rerr := robots.RulesFor(step.SetRules.Token)
			if rerr != nil {
				t.Fatalf("%s: %v", where, rerr)
			}
			err = pacer.SetRules(step.SetRules.Host, rules)
			rules.Close()
			robots.Close()
		case step.SetDelay != nil:
			var delay time.Duration
			if step.SetDelay.CrawlDelayS.Set && !step.SetDelay.CrawlDelayS.Null {
				delay = time.Duration(math.Round(step.SetDelay.CrawlDelayS.V * 1e9))
			}
			var r robotstxt.RequestRate
			if step.SetDelay.RequestRate.Set && !step.SetDelay.RequestRate.Null {
				r = robotstxt.RequestRate{Requests: step.SetDelay.RequestRate.V.Requests, Seconds: step.SetDelay.RequestRate.V.Seconds}
			}
			err = pacer.SetDelay(step.SetDelay.Host, delay, r)
		case step.Record != nil:
			var retry time.Duration
			if step.Record.RetryAfterS != nil {
				if *step.Record.RetryAfterS <= 0 {
					t.Fatalf("%s: Record has no way to say Retry-After: 0", where)
				}
				retry = Seconds(*step.Record.RetryAfterS)
			}
			err = pacer.Record(step.Record.Host, step.Record.Status.V, retry) // null: 0, no response
		case step.Enabled != nil:
			err = pacer.SetEnabled(step.Enabled.Host, step.Enabled.On)
		case step.GapS != nil:
			gap, gerr := pacer.Gap(step.GapS.Host)
			if gerr != nil {
				t.Fatalf("%s: %v", where, gerr)
			}
			if gap != Seconds(step.GapS.Gap) {
				t.Errorf("%s: gap %v, want %vs", where, gap, step.GapS.Gap)
			}
		default:
			t.Fatalf("%s: a step with nothing to do", where)
		}
		if err != nil {
			t.Errorf("%s: %v", where, err)
		}
	}
}
