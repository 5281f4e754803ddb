package robotstxt_test

// Runs every case of tests/vectors/*.json (format: tests/vectors/README.md)
// through the Go binding, with the answers the Rust suite checks. Decoding
// is strict (vectortest.Strict): a field the runner does not know fails the
// case, so a typo cannot hide one. The cache and pacing runners are in
// internal/vectortest, which the fleet's tests run too.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/robotstxt-engine/robotstxt-go"
	"github.com/robotstxt-engine/robotstxt-go/internal/vectortest"
)

const vectorDir = "../../tests/vectors"

// runners, by file; every file in tests/vectors must have one.
var runners = map[string]func(t *testing.T, raw json.RawMessage) (name string){
	"input.json":       runParseCase,
	"lines.json":       runParseCase,
	"groups.json":      runParseCase,
	"matching.json":    runParseCase,
	"percent.json":     runParseCase,
	"records.json":     runParseCase,
	"shop.json":        runParseCase,
	"preferences.json": runParseCase,
	"access.json":      runAccessCase,
	"freshness.json":   runTimeline,
	"cache.json":       runCacheCase,
	"pacing.json":      runPacingCase,
	"origins.json":     runOriginCase,
}

func TestVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(vectorDir, "*.json"))
	if err != nil || len(files) < 9 {
		t.Fatalf("expected the vector files in %s, found %v (%v)", vectorDir, files, err)
	}
	total := 0
	for _, path := range files {
		name := filepath.Base(path)
		if name == "http.json" {
			continue // behaviour §11: http_test.go runs it, inside the package
		}
		run, ok := runners[name]
		if !ok {
			t.Errorf("%s: no Go runner for this vector file", name)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var file vectortest.File
		if err := vectortest.Strict(data, &file); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		seen := map[string]bool{}
		t.Run(name, func(t *testing.T) {
			for i, raw := range file.Cases {
				caseName := run(t, raw)
				if caseName == "" {
					t.Errorf("%s case %d: no name", name, i)
				}
				if seen[caseName] {
					t.Errorf("%s: duplicate case %q", name, caseName)
				}
				seen[caseName] = true
			}
		})
		total += len(file.Cases)
	}
	if total < 300 {
		t.Errorf("only %d vector cases", total)
	}
	t.Logf("%d vector cases in %d files", total, len(files))
}

// --- parse-and-ask cases ---

type check struct {
	URL      *string                `json:"url"`
	URLParts *vectortest.ByteString `json:"url_parts"`
	Allowed  bool                   `json:"allowed"`
	Line     *int                   `json:"line"`
	Kind     *string                `json:"kind"`
	Pattern  *string                `json:"pattern"`
}

type diag struct {
	Line  int      `json:"line"`
	Kind  string   `json:"kind"`
	Flags []string `json:"flags"`
}

type parseCase struct {
	Name    string `json:"name"`
	Note    string `json:"note"`
	Profile string `json:"profile"`
	Options *struct {
		ParseLimit *int  `json:"parse_limit"`
		Typos      *bool `json:"typos"`
	} `json:"options"`
	Body        vectortest.ByteString                `json:"body"`
	Token       *string                              `json:"token"`
	Tokens      []string                             `json:"tokens"`
	Mode        string                               `json:"mode"`
	Checks      []check                              `json:"checks"`
	Error       string                               `json:"error"`
	CrawlDelay  vectortest.Nullable[float64]         `json:"crawl_delay"`
	RequestRate vectortest.Nullable[vectortest.Rate] `json:"request_rate"`
	Sitemaps    *[]string                            `json:"sitemaps"`
	Host        vectortest.Nullable[string]          `json:"host"`
	Diagnostics *[]diag                              `json:"diagnostics"`
	// Usage preferences (behaviour §10), compared as whole JSON values as
	// the Rust runner does.
	Preferences     []json.RawMessage `json:"preferences"`
	ContentSignal   json.RawMessage   `json:"content_signal"`
	OtherRecords    json.RawMessage   `json:"other_records"`
	OtherRecordsFor json.RawMessage   `json:"other_records_for"`
	Header          []json.RawMessage `json:"header"`
}

func profiles(name string) []robotstxt.Profile {
	switch name {
	case "rfc":
		return []robotstxt.Profile{robotstxt.RFC9309}
	case "google":
		return []robotstxt.Profile{robotstxt.Google}
	case "both", "":
		return []robotstxt.Profile{robotstxt.RFC9309, robotstxt.Google}
	}
	panic("unknown profile " + name)
}

func shown(url []byte) string {
	if len(url) > 80 {
		url = url[:80]
	}
	return fmt.Sprintf("%q", url)
}

func runChecks(t *testing.T, rules *robotstxt.Rules, checks []check, at string) {
	t.Helper()
	for _, c := range checks {
		var url string
		switch {
		case c.URL != nil && c.URLParts == nil:
			url = *c.URL
		case c.URL == nil && c.URLParts != nil:
			url = string(*c.URLParts)
		default:
			t.Fatalf("%s: a check needs exactly one of url and url_parts", at)
		}
		where := at + " " + shown([]byte(url))
		d := rules.Decide(url)
		if got := rules.Allowed(url); got != d.Allowed {
			t.Errorf("%s: Allowed %v but Decide %v", where, got, d.Allowed)
		}
		if d.Allowed != c.Allowed {
			t.Errorf("%s: allowed %v, want %v (%+v)", where, d.Allowed, c.Allowed, d)
		}
		if c.Line != nil && d.Line != *c.Line {
			t.Errorf("%s: line %d, want %d", where, d.Line, *c.Line)
		}
		if c.Kind != nil && d.Kind.String() != *c.Kind {
			t.Errorf("%s: kind %s, want %s", where, d.Kind, *c.Kind)
		}
		if c.Pattern != nil && d.Pattern != *c.Pattern {
			t.Errorf("%s: pattern %q, want %q", where, d.Pattern, *c.Pattern)
		}
	}
}

func runParseCase(t *testing.T, raw json.RawMessage) string {
	var c parseCase
	if err := vectortest.Strict(raw, &c); err != nil {
		t.Fatalf("%v in %.200s", err, raw)
	}
	for _, profile := range profiles(c.Profile) {
		at := fmt.Sprintf("%s [%s]", c.Name, profile)
		opts := []robotstxt.Option{robotstxt.WithProfile(profile)}
		if c.Options != nil {
			if c.Options.ParseLimit != nil {
				opts = append(opts, robotstxt.WithParseLimit(*c.Options.ParseLimit))
			}
			if c.Options.Typos != nil {
				opts = append(opts, robotstxt.WithTypos(*c.Options.Typos))
			}
		}
		robots, err := robotstxt.Parse(c.Body, opts...)
		if err != nil {
			t.Fatalf("%s: Parse: %v", at, err)
		}
		if c.Sitemaps != nil {
			got := robots.Sitemaps()
			if !slices.Equal(got, *c.Sitemaps) {
				t.Errorf("%s: sitemaps %q, want %q", at, got, *c.Sitemaps)
			}
		}
		if c.Host.Set {
			host, ok := robots.Host()
			if ok == c.Host.Null || (ok && host != c.Host.V) {
				t.Errorf("%s: host %q (%v), want %+v", at, host, ok, c.Host)
			}
		}
		if c.Diagnostics != nil {
			var got []diag
			for _, d := range robots.Diagnostics() {
				flags := d.Flags.Names()
				if flags == nil {
					flags = []string{}
				}
				got = append(got, diag{Line: d.Line, Kind: d.Kind.String(), Flags: flags})
			}
			want := *c.Diagnostics
			for i := range want {
				if want[i].Flags == nil {
					want[i].Flags = []string{}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: diagnostics %v, want %v", at, got, want)
			}
		}
		if c.OtherRecords != nil {
			got := []any{}
			for _, r := range robots.OtherRecords() {
				got = append(got, otherRecordJSON(r))
			}
			sameJSON(t, at+": other_records", got, c.OtherRecords)
		}
		var rules *robotstxt.Rules
		switch {
		case c.Token != nil:
			rules, err = robots.RulesFor(*c.Token)
		case c.Tokens != nil && c.Mode == "any":
			rules, err = robots.RulesForAny(c.Tokens...)
		case c.Tokens != nil && c.Mode == "strictest":
			rules, err = robots.RulesForStrictest(c.Tokens...)
		case c.Tokens != nil:
			t.Fatalf("%s: unknown mode %q", at, c.Mode)
		default:
			if c.Checks != nil || c.CrawlDelay.Set || c.RequestRate.Set || c.Error != "" ||
				c.Preferences != nil || c.ContentSignal != nil || c.OtherRecordsFor != nil || c.Header != nil {
				t.Fatalf("%s: checks need a token", at)
			}
			robots.Close()
			continue
		}
		robots.Close() // rules outlive the file they came from
		if c.Error != "" {
			if c.Error != "invalid_token" {
				t.Fatalf("%s: unknown error %q", at, c.Error)
			}
			var te *robotstxt.TokenError
			if !errors.As(err, &te) || !errors.Is(err, robotstxt.ErrInvalidToken) {
				t.Errorf("%s: want an invalid-token error, got %v", at, err)
				continue
			}
			if c.Token != nil && plainlyQuotable(*c.Token) && !strings.Contains(te.Message, `"`+*c.Token+`"`) {
				t.Errorf("%s: message %q does not quote the token", at, te.Message)
			}
			if c.Token != nil && te.Token != *c.Token {
				t.Errorf("%s: TokenError.Token %q, want %q", at, te.Token, *c.Token)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: unexpected error %v", at, err)
			continue
		}
		runChecks(t, rules, c.Checks, at)
		if c.CrawlDelay.Set {
			d, ok := rules.CrawlDelay()
			switch {
			case c.CrawlDelay.Null && ok:
				t.Errorf("%s: crawl delay %v, want none", at, d)
			case !c.CrawlDelay.Null && (!ok || d != time.Duration(math.Round(c.CrawlDelay.V*1e9))):
				t.Errorf("%s: crawl delay %v (%v), want %vs", at, d, ok, c.CrawlDelay.V)
			}
		}
		if c.RequestRate.Set {
			r, ok := rules.RequestRate()
			switch {
			case c.RequestRate.Null && ok:
				t.Errorf("%s: request rate %+v, want none", at, r)
			case !c.RequestRate.Null && (!ok || r.Requests != c.RequestRate.V.Requests || r.Seconds != c.RequestRate.V.Seconds):
				t.Errorf("%s: request rate %+v (%v), want %+v", at, r, ok, c.RequestRate.V)
			}
		}
		runPreferenceChecks(t, rules, &c, at)
		rules.Close()
	}
	return c.Name
}

// --- usage preferences (behaviour §10), as tests/vectors.rs runs them ---

// sameJSON compares got, marshalled, with the JSON want as decoded values,
// as the Rust runner compares serde_json values.
func sameJSON(t *testing.T, at string, got any, want json.RawMessage) {
	t.Helper()
	raw, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("%s: %v", at, err)
	}
	var g, w any
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("%s: %v", at, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s: %v", at, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got  %s\n want %s", at, raw, want)
	}
}

// lossy reads bytes as Rust's String::from_utf8_lossy does: each maximal
// invalid subpart becomes one U+FFFD.
func lossy(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteRune(utf8.RuneError)
		i += invalidSubpart(s[i:])
	}
	return b.String()
}

// invalidSubpart is the length of the longest start of a UTF-8 sequence
// at s[0] (at least 1): what one U+FFFD replaces.
func invalidSubpart(s string) int {
	c := s[0]
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c >= 0xE0 && c <= 0xEF:
		need = 2
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		need = 3
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(s) && s[n] >= lo && s[n] <= hi; n++ {
		lo, hi = 0x80, 0xBF
	}
	return n
}

func otherRecordJSON(r robotstxt.OtherRecord) map[string]any {
	var group any
	if r.Group >= 0 {
		group = r.Group
	}
	return map[string]any{
		"key": lossy(r.Key), "key_lower": lossy(r.KeyLower), "value": lossy(r.Value),
		"line": r.Line, "group": group,
	}
}

func labelsJSON(labels []robotstxt.LabelPreference) map[string]any {
	out := map[string]any{}
	for _, l := range labels {
		var value any
		if l.Value != robotstxt.UsageUnknown {
			value = string(l.Value)
		}
		out[l.Label] = map[string]any{"value": value, "lines": l.Lines}
	}
	return out
}

// fieldError names an invalid-field error as the vectors do. The C ABI
// has one status for both; the core's message tells them apart.
func fieldError(err error) string {
	var e *robotstxt.Error
	switch {
	case !errors.Is(err, robotstxt.ErrInvalidField) || !errors.As(err, &e):
		return fmt.Sprintf("not an invalid-field error: %v", err)
	case strings.Contains(e.Message, "is empty"):
		return "empty"
	case strings.Contains(e.Message, "not an RFC 9651 Dictionary"):
		return "syntax"
	}
	return "unknown message: " + e.Message
}

func runPreferenceChecks(t *testing.T, rules *robotstxt.Rules, c *parseCase, at string) {
	t.Helper()
	for _, raw := range c.Preferences {
		var check struct {
			URL        string          `json:"url"`
			Crawlable  json.RawMessage `json:"crawlable"`
			Line       json.RawMessage `json:"line"`
			Labels     json.RawMessage `json:"labels"`
			Statements json.RawMessage `json:"statements"`
		}
		if err := vectortest.Strict(raw, &check); err != nil {
			t.Fatalf("%s: preferences: %v", at, err)
		}
		got, err := rules.Preferences(check.URL)
		if err != nil {
			t.Errorf("%s %s: %v", at, check.URL, err)
			continue
		}
		labels := labelsJSON(got.Labels)
		if len(labels) != len(got.Labels) {
			t.Errorf("%s %s: a label twice in %+v", at, check.URL, got.Labels)
		}
		statements := []int{}
		for _, s := range got.Statements {
			statements = append(statements, s.Line)
		}
		if got.Decision.Allowed != got.Crawlable {
			t.Errorf("%s %s: crawlable %v, decision %+v", at, check.URL, got.Crawlable, got.Decision)
		}
		sameJSON(t, at+" "+check.URL+": preferences", map[string]any{
			"url": check.URL, "crawlable": got.Crawlable, "line": got.Decision.Line,
			"labels": labels, "statements": statements,
		}, raw)
	}
	if c.ContentSignal != nil {
		var got any
		signal, err := rules.ContentSignal()
		if err != nil {
			t.Errorf("%s: ContentSignal: %v", at, err)
		}
		if signal != nil {
			signals := map[string]any{}
			for _, s := range signal.Signals {
				var value any
				if s.Value != "" {
					value = s.Value
				}
				signals[s.Key] = value
			}
			if len(signals) != len(signal.Signals) {
				t.Errorf("%s: a signal twice in %+v", at, signal.Signals)
			}
			got = map[string]any{"signals": signals, "lines": signal.Lines}
		}
		sameJSON(t, at+": content_signal", got, c.ContentSignal)
	}
	if c.OtherRecordsFor != nil {
		lines := []int{}
		for _, r := range rules.OtherRecords() {
			lines = append(lines, r.Line)
		}
		sameJSON(t, at+": other_records_for", lines, c.OtherRecordsFor)
	}
	for _, raw := range c.Header {
		var check struct {
			URL    string          `json:"url"`
			Field  string          `json:"field"`
			Labels json.RawMessage `json:"labels"`
			Error  *string         `json:"error"`
		}
		if err := vectortest.Strict(raw, &check); err != nil {
			t.Fatalf("%s: header: %v", at, err)
		}
		where := fmt.Sprintf("%s %s field %q", at, check.URL, check.Field)
		p, err := rules.Preferences(check.URL)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		got, err := p.WithHeader(check.Field)
		switch {
		case err == nil && check.Error == nil:
			sameJSON(t, where, labelsJSON(got.Labels), check.Labels)
		case err != nil && check.Error != nil:
			if name := fieldError(err); name != *check.Error {
				t.Errorf("%s: error %s, want %s", where, name, *check.Error)
			}
			if got != nil {
				t.Errorf("%s: an answer with the error", where)
			}
		default:
			t.Errorf("%s: got %+v, %v; want error %v", where, got, err, check.Error)
		}
	}
}

// plainlyQuotable: the token appears as itself inside the core's quotes
// (no character a Rust debug string would escape).
func plainlyQuotable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '"' || r == '\\' || r > 0x7e {
			return false
		}
	}
	return true
}

// --- access cases (behaviour §6) ---

type accessCase struct {
	Name       string                   `json:"name"`
	Note       string                   `json:"note"`
	Status     vectortest.Nullable[int] `json:"status"`
	Redirects  int                      `json:"redirects"`
	Policy     string                   `json:"policy"`
	Access     string                   `json:"access"`
	RetryLater *bool                    `json:"retry_later"`
}

func runAccessCase(t *testing.T, raw json.RawMessage) string {
	var c accessCase
	if err := vectortest.Strict(raw, &c); err != nil {
		t.Fatalf("%v in %.200s", err, raw)
	}
	if !c.Status.Set {
		t.Fatalf("%s: no status", c.Name)
	}
	got := robotstxt.Classify(c.Status.V, c.Redirects, vectortest.AccessPolicy(c.Policy)) // null: 0, no response
	if got.String() != c.Access {
		t.Errorf("%s: access %s, want %s", c.Name, got, c.Access)
	}
	if c.RetryLater != nil && got.RetryLater() != *c.RetryLater {
		t.Errorf("%s: retry later %v, want %v", c.Name, got.RetryLater(), *c.RetryLater)
	}
	// FromOutcome agrees, and parses only what it follows.
	d, robots, err := robotstxt.FromOutcome(robotstxt.Response{Status: c.Status.V, Redirects: c.Redirects,
		Body: []byte("User-agent: *\nDisallow: /\n")}, vectortest.AccessPolicy(c.Policy))
	if err != nil || d != got || (robots != nil) != (got == robotstxt.FollowRules) {
		t.Errorf("%s: FromOutcome %v %v %v", c.Name, d, robots, err)
	}
	if robots != nil {
		robots.Close()
	}
	return c.Name
}

// --- freshness timelines (behaviour §7) ---

func clock(s float64) time.Time { return time.UnixMilli(int64(math.Round(s * 1000))) }

type timelineStep struct {
	AtS        float64                  `json:"at_s"`
	Note       string                   `json:"note"`
	Fetch      *vectortest.Fetch        `json:"fetch"`
	Due        *bool                    `json:"due"`
	Access     string                   `json:"access"`
	Checks     []vectortest.SimpleCheck `json:"checks"`
	Token      string                   `json:"token"`
	NextTryS   *float64                 `json:"next_try_s"`
	Validators *vectortest.Validators   `json:"validators"`
}

type timelineCase struct {
	Name    string             `json:"name"`
	Note    string             `json:"note"`
	Policy  *vectortest.Policy `json:"policy"`
	Steps   []timelineStep     `json:"steps"`
	Fetches *int               `json:"fetches"`
}

func runTimeline(t *testing.T, raw json.RawMessage) string {
	var c timelineCase
	if err := vectortest.Strict(raw, &c); err != nil {
		t.Fatalf("%v in %.200s", err, raw)
	}
	entry, err := robotstxt.NewEntry(c.Policy.FreshnessPolicy())
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	defer entry.Close()
	fetches := 0
	for i, step := range c.Steps {
		where := fmt.Sprintf("%s step %d", c.Name, i)
		now := clock(step.AtS)
		if step.Fetch != nil {
			if step.Due != nil || step.Access != "" || step.Checks != nil || step.NextTryS != nil || step.Validators != nil || step.Token != "" {
				t.Fatalf("%s: a fetch step asks nothing", where)
			}
			entry.Record(now, step.Fetch.Response())
			fetches++
			continue
		}
		state := entry.State(now)
		if step.Due != nil && state.Due != *step.Due {
			t.Errorf("%s: due %v, want %v", where, state.Due, *step.Due)
		}
		if step.NextTryS != nil && !state.DueAt.Equal(clock(*step.NextTryS)) {
			t.Errorf("%s: next try %v, want %v", where, state.DueAt.UnixMilli(), clock(*step.NextTryS).UnixMilli())
		}
		if step.Validators != nil {
			step.Validators.Check(t, state.Validators, where)
		}
		answer, robots := entry.Answer(now)
		if step.Access != "" && answer.String() != step.Access {
			t.Errorf("%s: access %s, want %s", where, answer, step.Access)
		}
		token := step.Token
		if token == "" {
			token = "ExampleBot"
		}
		for _, ch := range step.Checks {
			var allowed bool
			switch answer {
			case robotstxt.AnswerRules:
				rules, err := robots.RulesFor(token)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				allowed = rules.Allowed(ch.URL)
				rules.Close()
			case robotstxt.AnswerAllowAll:
				allowed = true
			}
			if allowed != ch.Allowed {
				t.Errorf("%s: %s allowed %v, want %v", where, ch.URL, allowed, ch.Allowed)
			}
		}
		if robots != nil {
			robots.Close()
		}
	}
	if c.Fetches != nil && *c.Fetches != fetches {
		t.Errorf("%s: %d fetch steps, the case says %d", c.Name, fetches, *c.Fetches)
	}
	return c.Name
}

// --- cache timelines (behaviour §6–§7), run by internal/vectortest ---

func runCacheCase(t *testing.T, raw json.RawMessage) string {
	c := vectortest.ReadCacheCase(t, raw)
	options := robotstxt.DefaultCacheOptions()
	capacity, lease, policy := c.Settings()
	if capacity != 0 {
		options.Capacity = capacity
	}
	if lease != 0 {
		options.Lease = lease
	}
	options.Policy = policy
	cache, err := robotstxt.NewCache(nil, options)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	var leases []*robotstxt.Lease // closed when the case ends
	defer func() {
		for _, l := range leases {
			l.Close()
		}
		cache.Close()
	}()
	vectortest.RunCacheSteps(t, c, vectortest.Cache{
		Lookup: func(url, token string, now time.Time, when robotstxt.WhenFetching) (robotstxt.Lookup, vectortest.Lease, error) {
			l, err := cache.Lookup(url, token, now, when)
			if l.Lease == nil {
				return l, nil, err
			}
			leases = append(leases, l.Lease)
			return l, l.Lease, err
		},
		Store: func(lease vectortest.Lease, now time.Time, resp robotstxt.Response) error {
			_, err := lease.(*robotstxt.Lease).Store(now, resp)
			return err
		},
		Abandon: func(lease vectortest.Lease) error { return lease.(*robotstxt.Lease).Abandon() },
		Stats: func(t *testing.T) map[string]uint64 {
			s := cache.Stats()
			if int(s.Entries) != cache.Len() {
				t.Errorf("Len %d but Entries %d", cache.Len(), s.Entries)
			}
			return map[string]uint64{"hits": s.Hits, "misses": s.Misses, "fetches": s.Fetches,
				"stale": s.Stale, "evictions": s.Evictions, "entries": s.Entries}
		},
	}, clock)
	return c.Name
}

// --- pacing schedules (behaviour §8), run by internal/vectortest ---

func runPacingCase(t *testing.T, raw json.RawMessage) string {
	c := vectortest.ReadPacingCase(t, raw)
	options := robotstxt.DefaultPacerOptions()
	if o := c.Options; o != nil {
		if o.FloorS != nil {
			options.Floor = vectortest.Seconds(*o.FloorS)
		}
		if o.BackoffCapS != nil {
			options.BackoffCap = vectortest.Seconds(*o.BackoffCapS)
		}
		if o.Capacity != nil {
			options.Capacity = *o.Capacity
		}
		if o.MaxInFlight != nil {
			options.MaxInFlight = *o.MaxInFlight
		}
		if o.InFlightTimeoutS != nil {
			options.InFlightTimeout = vectortest.Seconds(*o.InFlightTimeoutS)
		}
	}
	pacer, err := robotstxt.NewPacer(options)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	var now time.Time
	var tickets []*robotstxt.Ticket // closed when the case ends
	defer func() {
		for _, ticket := range tickets {
			ticket.Close()
		}
		pacer.Close()
	}()
	vectortest.RunPacingSteps(t, c, vectortest.Pacer{
		SetNow: func(at time.Time) { now = at },
		Reserve: func(host string) (vectortest.Ticket, error) {
			ticket, err := pacer.Reserve(host, now)
			if ticket == nil {
				return nil, err
			}
			tickets = append(tickets, ticket)
			return ticket, err
		},
		Confirm: func(ticket vectortest.Ticket) (robotstxt.Confirm, error) {
			return pacer.Confirm(ticket.(*robotstxt.Ticket), now)
		},
		Cancel: func(ticket vectortest.Ticket) error {
			pacer.Cancel(ticket.(*robotstxt.Ticket))
			return nil
		},
		InFlight: func(host string) (int, error) { return pacer.InFlight(host, now) },
		SetRules: pacer.SetRules,
		SetDelay: pacer.SetDelay,
		Record: func(host string, status int, retryAfter time.Duration) error {
			return pacer.Record(host, now, status, retryAfter)
		},
		SetEnabled: pacer.SetEnabled,
		Gap:        pacer.Gap,
	}, clock)
	return c.Name
}

// --- origins (§2.3) ---

type originCase struct {
	Name   string  `json:"name"`
	Note   string  `json:"note"`
	URL    string  `json:"url"`
	Origin *string `json:"origin"`
	Error  string  `json:"error"`
}

// netURLExcluded lists, by name, the rows the core accepts that are not
// compared with net/url, and why: none. Every accepted row of origins.json
// parses with net/url to a non-empty Host, so every one is compared; a new
// row that does not fails the test until it is listed here.
//
// Rows the core refuses are not compared (both must accept). net/url
// accepts some of them, which is why the core refuses them: "port 65536
// refused", "two ports", "IPv4 in hex", "IPv4 as one number", "IPv4 short
// form", "IPv4 in octal", "IPv4 with a trailing dot", "%-escape in
// userinfo", "forbidden host character", "not http" and "port only".
var netURLExcluded = map[string]string{}

// originKeyExcluded lists the rows whose wake-up key (originKey) differs
// from the core's origin: international hosts, which originKey keeps in
// Unicode where the core writes punycode (the key only groups waiters).
var originKeyExcluded = map[string]bool{
	"IDN as punycode": true,
	"upper-case IDN":  true,
	"Japanese IDN":    true,
}

// Looks the URL up in a new cache at time 0: a lease with the case's
// origin, or an invalid-URL error that names the URL. Accepted URLs are
// also read with net/url (see compareWithNetURL).
func runOriginCase(t *testing.T, raw json.RawMessage) string {
	var c originCase
	if err := vectortest.Strict(raw, &c); err != nil {
		t.Fatalf("%v in %.200s", err, raw)
	}
	if (c.Origin == nil) == (c.Error == "") {
		t.Fatalf("%s: a case has exactly one of origin and error", c.Name)
	}
	cache, err := robotstxt.NewCache(nil, robotstxt.DefaultCacheOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	got, err := cache.Lookup(c.URL, "ExampleBot", time.UnixMilli(0), robotstxt.WaitForFetch)
	if c.Error != "" {
		var e *robotstxt.Error
		if c.Error != "invalid_url" || !errors.Is(err, robotstxt.ErrInvalidURL) || !errors.As(err, &e) {
			t.Errorf("%s: want %s, got %+v %v", c.Name, c.Error, got, err)
		} else if plainlyQuotable(c.URL) && !strings.Contains(e.Message, `"`+c.URL+`"`) {
			t.Errorf("%s: message %q does not name the URL", c.Name, e.Message)
		}
		return c.Name
	}
	if err != nil || got.Kind != robotstxt.LookupFetch {
		t.Errorf("%s: want a lease, got %+v %v", c.Name, got, err)
		return c.Name
	}
	defer got.Lease.Close()
	origin := got.Lease.Origin()
	if origin != *c.Origin {
		t.Errorf("%s: origin %q, want %q", c.Name, origin, *c.Origin)
	}
	if got.Lease.RobotsURL() != origin+"/robots.txt" {
		t.Errorf("%s: robots URL %q for origin %q", c.Name, got.Lease.RobotsURL(), origin)
	}
	compareWithNetURL(t, c.Name, c.URL, origin)
	if key := robotstxt.OriginKey(c.URL); !originKeyExcluded[c.Name] && key != origin {
		t.Errorf("%s: wake-up key %q, origin %q", c.Name, key, origin)
	}
	return c.Name
}

// compareWithNetURL checks that the core's origin for raw is what net/url
// reads: scheme://lower(host) without the default port. Where a WHATWG
// parser and net/url legitimately differ, it compares what both mean
// instead of skipping the row:
//   - the port is a number: net/url keeps "0080" as written, WHATWG reads
//     80 (and drops it as http's default);
//   - an international host: net/url keeps Unicode, WHATWG writes punycode;
//     it is converted with golang.org/x/net/idna (its UTS 46 lookup
//     profile; the module is one go.sum holds already, for grobotstxt);
//   - an IPv6 host: net/url keeps it as written, WHATWG compresses it; the
//     addresses are compared (net.ParseIP).
func compareWithNetURL(t *testing.T, name, raw, origin string) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		if _, ok := netURLExcluded[name]; !ok {
			t.Errorf("%s: net/url reads no host in %q (%v): compare the row, or list it in netURLExcluded with why", name, raw, err)
		}
		return
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil {
			t.Errorf("%s: net/url port %q: %v", name, port, err)
			return
		}
		port = strconv.FormatUint(n, 10)
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	core, err := url.Parse(origin)
	if err != nil || core.Scheme+"://"+core.Host != origin {
		t.Errorf("%s: the core's origin %q is not scheme://host[:port] (%v)", name, origin, err)
		return
	}
	coreHost := core.Hostname()
	same := core.Scheme == scheme && core.Port() == port
	switch {
	case strings.Contains(host, ":"): // IPv6
		a, b := net.ParseIP(host), net.ParseIP(coreHost)
		same = same && a != nil && a.Equal(b)
	case !isASCII(host):
		ascii, err := idna.Lookup.ToASCII(host)
		same = same && err == nil && ascii == coreHost
	default:
		same = same && host == coreHost
	}
	if !same {
		t.Errorf("%s: the core's origin %q, but net/url reads %q as scheme %q, host %q, port %q", name, origin, raw, scheme, host, port)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
