package robotstxt_test

// A copy as bytes (Entry.Encode, DecodeEntry, StoredBody) and what a
// fleet's store needs besides (Entry.RulesFor, FleetScript, RobotsOrigin,
// PacerHost).

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

const storedBody = "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n"

func recorded(t *testing.T, at time.Time, resp robotstxt.Response) *robotstxt.Entry {
	t.Helper()
	entry, err := robotstxt.NewEntry(robotstxt.DefaultFreshnessPolicy())
	if err != nil {
		t.Fatal(err)
	}
	entry.Record(at, resp)
	return entry
}

func rulesFor(t *testing.T, entry *robotstxt.Entry, at time.Time, token string) *robotstxt.Rules {
	t.Helper()
	rules, err := entry.RulesFor(at, token)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rules.Close)
	return rules
}

func TestStoredCopyRoundTrip(t *testing.T) {
	policy := robotstxt.DefaultFreshnessPolicy()
	t0 := time.UnixMilli(1_000)
	entry := recorded(t, t0, robotstxt.Response{Status: 200, Body: []byte(storedBody), ETag: `"v1"`})
	defer entry.Close()
	data, err := entry.Encode([]byte(storedBody))
	if err != nil || len(data) == 0 {
		t.Fatalf("Encode: %d bytes, %v", len(data), err)
	}
	copied, err := robotstxt.DecodeEntry(data, policy)
	if err != nil {
		t.Fatal(err)
	}
	defer copied.Close()
	at := time.UnixMilli(2_000)
	if got, want := copied.State(at), entry.State(at); got != want {
		t.Errorf("decoded state %+v, want %+v", got, want)
	}
	rules := rulesFor(t, copied, at, "ExampleBot")
	delay, _ := rules.CrawlDelay()
	if rules.Allowed("/private/x") || !rules.Allowed("/x") || delay != 2*time.Second {
		t.Errorf("decoded rules: /private/x %v, /x %v, delay %v", rules.Allowed("/private/x"), rules.Allowed("/x"), delay)
	}
	body, err := robotstxt.StoredBody(data)
	if err != nil || string(body) != storedBody {
		t.Fatalf("StoredBody: %q, %v", body, err)
	}

	// A failed refresh recorded into the copy: encoded with the kept body.
	later := t0.Add(25 * time.Hour)
	if d := copied.Record(later, robotstxt.Response{Status: 503}); d != robotstxt.DisallowAll {
		t.Fatalf("503: %v", d)
	}
	again, err := copied.Encode(body)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := robotstxt.DecodeEntry(again, policy)
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	if answer, robots := kept.Answer(later); answer != robotstxt.AnswerRules || robots == nil {
		t.Errorf("after a 503 the copy answers %v", answer)
	} else {
		robots.Close()
	}
	if s := kept.State(later); s.Failures != 1 || !s.HasCopy {
		t.Errorf("after a 503: %+v", s)
	}
	// The rules under the kept copy say when it is fetched again.
	if retryAt, ok := rulesFor(t, kept, later, "ExampleBot").RetryAt(); !ok || !retryAt.After(later) {
		t.Errorf("RetryAt %v %v", retryAt, ok)
	}

	// A blanket answer needs no body.
	gone := recorded(t, time.UnixMilli(0), robotstxt.Response{Status: 404})
	defer gone.Close()
	goneData, err := gone.Encode(nil)
	if err != nil {
		t.Fatal(err)
	}
	if body, err := robotstxt.StoredBody(goneData); err != nil || body != nil {
		t.Errorf("StoredBody of an allow-all: %q, %v", body, err)
	}
	decoded, err := robotstxt.DecodeEntry(goneData, policy)
	if err != nil {
		t.Fatal(err)
	}
	defer decoded.Close()
	if answer, _ := decoded.Answer(time.UnixMilli(1)); answer != robotstxt.AnswerAllowAll {
		t.Errorf("a 404 decoded answers %v", answer)
	}
	blanket, ok := rulesFor(t, decoded, time.UnixMilli(1), "ExampleBot").Blanket()
	if !ok || !blanket.Allowed || blanket.Status != 404 {
		t.Errorf("blanket %+v %v", blanket, ok)
	}

	// An entry with nothing recorded disallows all: nothing is known yet.
	empty, err := robotstxt.NewEntry(policy)
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	blanket, ok = rulesFor(t, empty, t0, "ExampleBot").Blanket()
	if !ok || blanket.Allowed || blanket.Cause != robotstxt.CauseNotFetched {
		t.Errorf("empty entry: %+v %v", blanket, ok)
	}
}

func TestStoredCopyRefused(t *testing.T) {
	policy := robotstxt.DefaultFreshnessPolicy()
	entry := recorded(t, time.UnixMilli(0), robotstxt.Response{Status: 200, Body: []byte(storedBody)})
	defer entry.Close()
	for _, body := range [][]byte{[]byte("User-agent: *\nDisallow: /\n"), nil} {
		_, err := entry.Encode(body)
		var e *robotstxt.Error
		if !errors.Is(err, robotstxt.ErrBodyMismatch) || !errors.As(err, &e) || !strings.Contains(e.Message, "stored_body") {
			t.Errorf("Encode(%q): %v", body, err)
		}
	}
	data, err := entry.Encode([]byte(storedBody))
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{0, 4, 9, len(data) - 1} {
		damaged := bytes.Clone(data)
		damaged[at] ^= 0x10
		_, err := robotstxt.DecodeEntry(damaged, policy)
		if !errors.Is(err, robotstxt.ErrInvalidCopy) && !errors.Is(err, robotstxt.ErrCopyVersion) {
			t.Errorf("byte %d damaged: %v", at, err)
		}
		if _, err := robotstxt.StoredBody(damaged); err == nil && at < 10 {
			t.Errorf("StoredBody with byte %d damaged: no error", at)
		}
	}
	_, err = robotstxt.DecodeEntry(data[:20], policy)
	if !errors.Is(err, robotstxt.ErrInvalidCopy) || !strings.Contains(err.Error(), "cut short") {
		t.Errorf("cut short: %v", err)
	}
	for _, junk := range [][]byte{nil, []byte("User-agent: *\n")} {
		if _, err := robotstxt.DecodeEntry(junk, policy); !errors.Is(err, robotstxt.ErrInvalidCopy) {
			t.Errorf("DecodeEntry(%q): %v", junk, err)
		}
		if _, err := robotstxt.StoredBody(junk); !errors.Is(err, robotstxt.ErrInvalidCopy) {
			t.Errorf("StoredBody(%q): %v", junk, err)
		}
	}
	bad := policy
	bad.Retry = -time.Second
	if _, err := robotstxt.DecodeEntry(data, bad); !errors.Is(err, robotstxt.ErrInvalidOption) {
		t.Errorf("a negative policy: %v", err)
	}
	// The token is checked whatever the answer (RFC profile).
	if _, err := entry.RulesFor(time.UnixMilli(0), "Example Bot"); !errors.Is(err, robotstxt.ErrInvalidToken) {
		t.Errorf("RulesFor with a bad token: %v", err)
	}
}

func TestFleetKeysAndScripts(t *testing.T) {
	for name, want := range map[string]string{"reserve": "HostPace::reserve", "lookup": "local function clock"} {
		source, err := robotstxt.FleetScript(name)
		if err != nil || !strings.Contains(source, want) {
			t.Errorf("FleetScript(%q): %v, no %q in %.80q", name, err, want, source)
		}
	}
	for _, name := range []string{"lookup", "store", "abandon", "reserve", "confirm", "cancel", "record",
		"set_delay", "set_enabled", "pace_state"} {
		if _, err := robotstxt.FleetScript(name); err != nil {
			t.Errorf("FleetScript(%q): %v", name, err)
		}
	}
	if _, err := robotstxt.FleetScript("nope"); !errors.Is(err, robotstxt.ErrInvalidArgument) ||
		!strings.Contains(err.Error(), "pass one of lookup, store") {
		t.Errorf("FleetScript(nope): %v", err)
	}
	for url, want := range map[string]string{
		"HTTPS://Shop.Test:443/a?b":   "https://shop.test",
		"http://127.0.0.1:8080/x":     "http://127.0.0.1:8080",
		"https://bücher.example/":     "https://xn--bcher-kva.example",
		"https://u:p@a.test:8443/x#y": "https://a.test:8443",
	} {
		if got, err := robotstxt.RobotsOrigin(url); err != nil || got != want {
			t.Errorf("RobotsOrigin(%q) = %q, %v; want %q", url, got, err, want)
		}
	}
	long := "https://" + strings.Repeat("a", 60) + "." + strings.Repeat("b", 60) + ".test/"
	if got, err := robotstxt.RobotsOrigin(long); err != nil || got != strings.TrimSuffix(long, "/") {
		t.Errorf("RobotsOrigin(long) = %q, %v", got, err)
	}
	for _, url := range []string{"ftp://x", "/relative", ""} {
		if _, err := robotstxt.RobotsOrigin(url); !errors.Is(err, robotstxt.ErrInvalidURL) {
			t.Errorf("RobotsOrigin(%q): %v", url, err)
		}
	}
	if got, err := robotstxt.PacerHost("Shop.TEST:8080"); err != nil || got != "shop.test:8080" {
		t.Errorf("PacerHost = %q, %v", got, err)
	}
	for _, host := range []string{"", strings.Repeat("a", 100_000)} {
		if _, err := robotstxt.PacerHost(host); !errors.Is(err, robotstxt.ErrInvalidHost) {
			t.Errorf("PacerHost(%d bytes): %v", len(host), err)
		}
	}
}
