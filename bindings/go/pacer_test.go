package robotstxt_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

func newPacer(t *testing.T, options robotstxt.PacerOptions) *robotstxt.Pacer {
	t.Helper()
	pacer, err := robotstxt.NewPacer(options)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pacer.Close)
	return pacer
}

func reserve(t *testing.T, pacer *robotstxt.Pacer, host string, now time.Time) *robotstxt.Ticket {
	t.Helper()
	ticket, err := pacer.Reserve(host, now)
	if err != nil || ticket == nil {
		t.Fatalf("Reserve(%s): %v %v", host, ticket, err)
	}
	t.Cleanup(ticket.Close)
	return ticket
}

func confirm(t *testing.T, pacer *robotstxt.Pacer, ticket *robotstxt.Ticket, now time.Time) robotstxt.Confirm {
	t.Helper()
	c, err := pacer.Confirm(ticket, now)
	if err != nil {
		t.Fatalf("Confirm: %v", err)
	}
	return c
}

// The reserve/confirm contract step by step, with an explicit clock.
func TestPacerTickets(t *testing.T) {
	options := robotstxt.DefaultPacerOptions()
	options.Floor = 0
	pacer := newPacer(t, options)
	if err := pacer.SetDelay("shop.test", 250*time.Millisecond, robotstxt.RequestRate{}); err != nil {
		t.Fatal(err)
	}
	t0 := time.UnixMilli(1_000_000)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	a := reserve(t, pacer, "shop.test", t0)
	b := reserve(t, pacer, "SHOP.test", t0) // hosts compare case-insensitively
	if !a.Start().Equal(t0) || !b.Start().Equal(at(250)) {
		t.Fatalf("starts %v %v, want one gap apart", a.Start().Sub(t0), b.Start().Sub(t0))
	}
	// Early: wait for the slot.
	if c := confirm(t, pacer, b, t0); c.Kind != robotstxt.ConfirmWait || !c.Until.Equal(at(250)) || c.Busy {
		t.Errorf("b confirmed early: %+v", c)
	}
	if c := confirm(t, pacer, a, t0); c.Kind != robotstxt.ConfirmGo || c.Kind.String() != "go" {
		t.Errorf("a at its slot: %+v", c)
	}
	if _, err := pacer.Confirm(a, t0); !errors.Is(err, robotstxt.ErrInvalidTicket) {
		t.Errorf("a confirmed twice: %v", err)
	}
	if n, err := pacer.InFlight("shop.test", at(1)); n != 1 || err != nil {
		t.Errorf("in flight %d %v, want 1", n, err)
	}
	// One request in flight (the default): b waits for a's end, at the
	// latest until a's place times out (2 minutes).
	if c := confirm(t, pacer, b, at(250)); c.Kind != robotstxt.ConfirmWait || !c.Busy || !c.Until.Equal(at(120_000)) {
		t.Errorf("b while a is in flight: %+v", c)
	}
	if err := pacer.Record("shop.test", at(300), 200, 0); err != nil {
		t.Fatal(err)
	}
	if n, _ := pacer.InFlight("shop.test", at(300)); n != 0 {
		t.Errorf("in flight %d after Record", n)
	}
	if c := confirm(t, pacer, b, at(300)); c.Kind != robotstxt.ConfirmGo {
		t.Errorf("b after a's end: %+v", c)
	}
	if err := pacer.Record("shop.test", at(400), 200, 0); err != nil {
		t.Fatal(err)
	}

	// A 429 with Retry-After recorded while a ticket waits gives it a new
	// slot after the Retry-After; Ticket.Start follows.
	c1 := reserve(t, pacer, "shop.test", at(1000))
	c2 := reserve(t, pacer, "shop.test", at(1000))
	if c := confirm(t, pacer, c1, c1.Start()); c.Kind != robotstxt.ConfirmGo {
		t.Fatalf("c1: %+v", c)
	}
	if err := pacer.Record("shop.test", c1.Start().Add(100*time.Millisecond), 429, time.Minute); err != nil {
		t.Fatal(err)
	}
	c := confirm(t, pacer, c2, c2.Start())
	if want := c1.Start().Add(time.Minute + 100*time.Millisecond); c.Kind != robotstxt.ConfirmWait || !c.Until.Equal(want) || !c2.Start().Equal(want) {
		t.Errorf("c2 after a 429: %+v, start %v, want %v", c, c2.Start(), want)
	}

	// Cancel gives the last slot back; the cancelled ticket is spent.
	if err := pacer.SetDelay("cancel.test", time.Second, robotstxt.RequestRate{}); err != nil {
		t.Fatal(err)
	}
	reserve(t, pacer, "cancel.test", t0)
	d2 := reserve(t, pacer, "cancel.test", t0)
	pacer.Cancel(d2)
	if d3 := reserve(t, pacer, "cancel.test", t0); !d3.Start().Equal(d2.Start()) {
		t.Errorf("after Cancel the next slot is %v, want %v again", d3.Start().Sub(t0), d2.Start().Sub(t0))
	}
	if _, err := pacer.Confirm(d2, at(5000)); !errors.Is(err, robotstxt.ErrInvalidTicket) {
		t.Errorf("a cancelled ticket confirmed: %v", err)
	}

	// The kill switch: no ticket, and tickets out are spent as disabled.
	e := reserve(t, pacer, "off.test", t0)
	if err := pacer.SetEnabled("off.test", false); err != nil {
		t.Fatal(err)
	}
	if ticket, err := pacer.Reserve("off.test", t0); ticket != nil || err != nil {
		t.Errorf("Reserve while switched off: %v %v", ticket, err)
	}
	if c := confirm(t, pacer, e, t0); c.Kind != robotstxt.ConfirmDisabled || c.Kind.String() != "disabled" {
		t.Errorf("a ticket of a switched-off host: %+v", c)
	}
	if _, err := pacer.Confirm(e, t0); !errors.Is(err, robotstxt.ErrInvalidTicket) {
		t.Errorf("a disabled ticket confirmed again: %v", err)
	}

	// A ticket of another pacer.
	other := newPacer(t, options)
	f := reserve(t, other, "shop.test", t0)
	if _, err := pacer.Confirm(f, at(200_000)); !errors.Is(err, robotstxt.ErrInvalidTicket) {
		t.Errorf("another pacer's ticket: %v", err)
	}
	var e2 *robotstxt.Error
	if _, err := pacer.Confirm(f, at(200_000)); !errors.As(err, &e2) || !strings.Contains(e2.Message, "another pacer") {
		t.Errorf("another pacer's ticket: %v", err)
	}

	// Close: idempotent; using the ticket after it panics, by name.
	f.Close()
	f.Close()
	if msg := panics(func() { f.Start() }); !strings.Contains(msg, "*Ticket used after Close") {
		t.Errorf("Start after Close: %q", msg)
	}
	if msg := panics(func() { _, _ = other.Confirm(f, t0) }); !strings.Contains(msg, "*Ticket used after Close") {
		t.Errorf("Confirm after Close: %q", msg)
	}
}

// MaxInFlight, InFlightTimeout and Capacity.
func TestPacerInFlightAndCapacity(t *testing.T) {
	options := robotstxt.DefaultPacerOptions()
	if options.MaxInFlight != 1 || options.InFlightTimeout != 2*time.Minute {
		t.Errorf("defaults: %d in flight, %v", options.MaxInFlight, options.InFlightTimeout)
	}
	options.Floor = 0
	options.MaxInFlight = 2
	options.InFlightTimeout = 5 * time.Second
	options.Capacity = 1
	pacer := newPacer(t, options)
	t0 := time.UnixMilli(1_000_000)
	var tickets []*robotstxt.Ticket
	for range 3 {
		tickets = append(tickets, reserve(t, pacer, "a.test", t0))
	}
	for i, want := range []robotstxt.ConfirmKind{robotstxt.ConfirmGo, robotstxt.ConfirmGo, robotstxt.ConfirmWait} {
		if c := confirm(t, pacer, tickets[i], t0); c.Kind != want {
			t.Errorf("ticket %d: %+v, want %s", i, c, want)
		}
	}
	if n, _ := pacer.InFlight("a.test", t0.Add(4999*time.Millisecond)); n != 2 {
		t.Errorf("%d in flight before the timeout", n)
	}
	if n, _ := pacer.InFlight("a.test", t0.Add(5*time.Second)); n != 0 {
		t.Errorf("%d in flight after the timeout", n)
	}
	// a.test has requests in flight: it cannot be forgotten for b.test.
	if ticket, err := pacer.Reserve("b.test", t0.Add(time.Second)); !errors.Is(err, robotstxt.ErrPacerFull) || ticket != nil {
		t.Errorf("a second host at capacity 1: %v %v", ticket, err)
	}
	if _, err := pacer.Reserve("b.test", t0.Add(time.Minute)); err != nil {
		t.Errorf("once a.test is safe to forget: %v", err)
	}
	if _, err := pacer.InFlight("", t0); !errors.Is(err, robotstxt.ErrInvalidHost) {
		t.Errorf("InFlight of an empty host: %v", err)
	}
}

// Wait holds a request back while another is in flight, and lets it go as
// soon as that one is recorded: Record wakes it, long before the in-flight
// timeout.
func TestPacerWaitWakesOnRecord(t *testing.T) {
	options := robotstxt.DefaultPacerOptions()
	options.Floor = 0
	pacer := newPacer(t, options)
	ctx := context.Background()
	if _, err := pacer.Wait(ctx, "shop.test"); err != nil {
		t.Fatal(err)
	}
	done := make(chan time.Time, 1)
	go func() {
		if _, err := pacer.Wait(ctx, "shop.test"); err != nil {
			t.Error(err)
		}
		done <- time.Now()
	}()
	select {
	case <-done:
		t.Fatal("a second request went while the first was in flight")
	case <-time.After(300 * time.Millisecond):
	}
	recorded := time.Now()
	if err := pacer.Record("shop.test", recorded, 200, 0); err != nil {
		t.Fatal(err)
	}
	select {
	case went := <-done:
		if went.Before(recorded) {
			t.Errorf("the second request went before the first was recorded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Record did not wake the waiting request")
	}
}

// Switching a host off stops a Wait under way at once, and cancelling a
// Wait gives its slot back.
func TestPacerWaitKillSwitchAndCancel(t *testing.T) {
	options := robotstxt.DefaultPacerOptions()
	options.Floor = 0
	pacer := newPacer(t, options)
	ctx := context.Background()
	for _, host := range []string{"off.test", "cancel.test"} {
		if err := pacer.SetDelay(host, 30*time.Second, robotstxt.RequestRate{}); err != nil {
			t.Fatal(err)
		}
		if _, err := pacer.Wait(ctx, host); err != nil {
			t.Fatal(err)
		}
		if err := pacer.Record(host, time.Now(), 200, 0); err != nil {
			t.Fatal(err)
		}
	}

	done := make(chan error, 1)
	go func() {
		_, err := pacer.Wait(ctx, "off.test") // its slot is 30 s away
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := pacer.SetEnabled("OFF.test", false); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, robotstxt.ErrHostDisabled) {
			t.Errorf("Wait for a host switched off meanwhile: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("SetEnabled did not stop the Wait")
	}

	// A cancelled Wait gives its slot (30 s after the first start) back.
	before := reserve(t, pacer, "cancel.test", time.Now())
	pacer.Cancel(before)
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := pacer.Wait(short, "cancel.test"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait past its context: %v", err)
	}
	if after := reserve(t, pacer, "cancel.test", time.Now()); !after.Start().Equal(before.Start()) {
		t.Errorf("the next slot is %v after the cancelled one's", after.Start().Sub(before.Start()))
	}
}

// 20 goroutines each Wait, then GET a local server with Crawl-delay 200 ms
// (Floor 0; BackoffCap 200 ms, so that the 429 does not widen the gap and
// the gap is what is measured), and Record the status and Retry-After. The first request is
// answered 429 with Retry-After: 1 while the others wait with their
// tickets. By the server's clock, no request may arrive in the second
// after the 429 was answered, every two requests after it must arrive at
// least 200 ms apart, and none while another is in flight.
//
// Slack: the server sees a request a little after the pacer let it go, and
// that delay varies (scheduling, the race detector, GOGC=1), and the pacer
// counts whole milliseconds; arrivals may be up to 25 ms closer than the
// pacer's gap. The second after the 429 needs no slack in principle (the
// client records the 429 after the server answered it), but gets the same.
func TestPacerWaitHTTPRetryAfter(t *testing.T) {
	const (
		gap     = 200 * time.Millisecond
		slack   = 25 * time.Millisecond
		workers = 20
	)
	type hit struct {
		arrived, answered time.Time
		status            int
	}
	var (
		mu    sync.Mutex
		hits  []hit
		count atomic.Int32
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := hit{arrived: time.Now(), status: http.StatusOK}
		if count.Add(1) == 1 {
			h.status = http.StatusTooManyRequests
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(h.status)
		h.answered = time.Now() // before the response leaves the handler
		mu.Lock()
		hits = append(hits, h)
		mu.Unlock()
	}))
	defer srv.Close()
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	host := u.Host // 127.0.0.1:port

	options := robotstxt.DefaultPacerOptions()
	options.Floor = 0
	options.BackoffCap = gap // no doubling: the requests after the 429 go one crawl delay apart
	pacer := newPacer(t, options)
	if err := pacer.SetDelay(host, gap, robotstxt.RequestRate{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := srv.Client()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := pacer.Wait(ctx, host); err != nil {
				t.Error(err)
				return
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/page", nil)
			resp, err := client.Do(req)
			if err != nil {
				_ = pacer.Record(host, time.Now(), 0, 0) // no response: still ends the request
				t.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			retry := robotstxt.NewResponse(resp, nil, time.Now()).RetryAfter
			if err := pacer.Record(host, time.Now(), resp.StatusCode, retry); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()

	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(hits, func(a, b hit) int { return a.arrived.Compare(b.arrived) })
	if len(hits) != workers || hits[0].status != http.StatusTooManyRequests {
		t.Fatalf("%d requests, the first answered %d", len(hits), hits[0].status)
	}
	throttled := hits[0].answered
	for i, h := range hits[1:] {
		if h.status != http.StatusOK {
			t.Errorf("request %d answered %d", i+1, h.status)
		}
		if d := h.arrived.Sub(throttled); d < time.Second-slack {
			t.Errorf("request %d arrived %v after the 429 with Retry-After: 1", i+1, d)
		}
	}
	closest := time.Hour
	for i := 1; i < len(hits); i++ {
		d := hits[i].arrived.Sub(hits[i-1].arrived)
		closest = min(closest, d)
		if d < gap-slack {
			t.Errorf("requests %d and %d arrived %v apart", i-1, i, d)
		}
		if hits[i].arrived.Before(hits[i-1].answered) {
			t.Errorf("request %d arrived while request %d was in flight", i, i-1)
		}
	}
	t.Logf("%d requests in %v; the first after the 429 came %v after it; the closest two %v apart", len(hits),
		hits[len(hits)-1].arrived.Sub(hits[0].arrived), hits[1].arrived.Sub(throttled), closest)
}
