package robotstxt

// Behaviour §11, the HTTP facts: every case of tests/vectors/http.json
// (format: tests/vectors/README.md) through the header values NewResponse
// passes to the core, and NewResponse itself. (Inside the package, for the
// max-age floor NewResponse does not take; the strict decoding is
// vectortest.Strict's, which imports the package.)

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"
	"net/http"
	"os"
	"testing"
	"time"
)

// httpValue is a value: a string, or parts {"text"} / {"hex"}.
type httpValue struct {
	set  bool
	text string
}

func (v *httpValue) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	v.set = true
	if data[0] == '"' {
		return json.Unmarshal(data, &v.text)
	}
	var parts []struct {
		Text *string `json:"text"`
		Hex  *string `json:"hex"`
	}
	if err := strictJSON(data, &parts); err != nil {
		return err
	}
	var b bytes.Buffer
	for _, p := range parts {
		if p.Hex != nil {
			raw, err := hex.DecodeString(*p.Hex)
			if err != nil {
				return err
			}
			b.Write(raw)
		} else if p.Text != nil {
			b.WriteString(*p.Text)
		}
	}
	v.text = b.String()
	return nil
}

type httpCase struct {
	Name       string    `json:"name"`
	Note       string    `json:"note"`
	Header     string    `json:"header"`
	Value      httpValue `json:"value"`
	NowS       float64   `json:"now_s"`
	WaitS      *float64  `json:"wait_s"`
	MaxAgeS    *float64  `json:"max_age_s"`
	Error      *string   `json:"error"`
	MinMaxAgeS float64   `json:"min_max_age_s"`
	Response   *struct {
		Status       *int      `json:"status"`
		Redirects    int       `json:"redirects"`
		RetryAfter   httpValue `json:"retry_after"`
		CacheControl httpValue `json:"cache_control"`
		ETag         httpValue `json:"etag"`
		LastModified httpValue `json:"last_modified"`
	} `json:"response"`
	Expect *struct {
		MaxAgeS      *float64 `json:"max_age_s"`
		RetryAfterS  *float64 `json:"retry_after_s"`
		ETag         *string  `json:"etag"`
		LastModified *string  `json:"last_modified"`
		Ignored      []string `json:"ignored"`
	} `json:"expect"`
}

const vectorDirHTTP = "../../tests/vectors"

func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func secondsMS(s float64) uint64 { return uint64(math.Round(s * 1000)) }

// headerOf is one value under name, as a server sends it.
func headerOf(name string, v httpValue) http.Header {
	h := http.Header{}
	if v.set {
		h[http.CanonicalHeaderKey(name)] = []string{v.text}
	}
	return h
}

func TestHTTPVectors(t *testing.T) {
	data, err := os.ReadFile(vectorDirHTTP + "/http.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Spec  string            `json:"spec"`
		Note  string            `json:"note"`
		Cases []json.RawMessage `json:"cases"`
	}
	if err := strictJSON(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 80 {
		t.Fatalf("only %d cases", len(file.Cases))
	}
	seen := map[string]bool{}
	for _, raw := range file.Cases {
		var c httpCase
		if err := strictJSON(raw, &c); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if seen[c.Name] {
			t.Errorf("duplicate case %q", c.Name)
		}
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) { runHTTPCase(t, c) })
	}
}

func runHTTPCase(t *testing.T, c httpCase) {
	if r := c.Response; r != nil {
		h := http.Header{}
		for name, v := range map[string]httpValue{
			"Retry-After": r.RetryAfter, "Cache-Control": r.CacheControl, "ETag": r.ETag, "Last-Modified": r.LastModified,
		} {
			if v.set {
				h[http.CanonicalHeaderKey(name)] = []string{v.text}
			}
		}
		got := readHTTP(h, secondsMS(c.NowS), secondsMS(c.MinMaxAgeS))
		e := c.Expect
		checkMS(t, "max-age", got.hasMaxAge, got.maxAgeMS, e.MaxAgeS)
		checkMS(t, "retry-after", got.hasRetryAfter, got.retryAfterMS, e.RetryAfterS)
		if want := deref(e.ETag); got.etag != want {
			t.Errorf("etag %q, want %q", got.etag, want)
		}
		if want := deref(e.LastModified); got.lastModified != want {
			t.Errorf("last-modified %q, want %q", got.lastModified, want)
		}
		var want uint32
		for _, name := range e.Ignored {
			want |= map[string]uint32{"Retry-After": httpIgnoredRetryAfter, "Cache-Control": httpIgnoredCacheControl}[name]
		}
		if got.ignored != want {
			t.Errorf("ignored %b, want %b", got.ignored, want)
		}
		return
	}
	switch c.Header {
	case "retry-after":
		got := readHTTP(headerOf("Retry-After", c.Value), secondsMS(c.NowS), 0)
		if c.Error != nil {
			if got.hasRetryAfter || got.ignored != httpIgnoredRetryAfter {
				t.Errorf("read %v %d ms, ignored %b: want it ignored (%s)", got.hasRetryAfter, got.retryAfterMS, got.ignored, *c.Error)
			}
			return
		}
		checkMS(t, "retry-after", got.hasRetryAfter, got.retryAfterMS, c.WaitS)
	case "cache-control":
		got := readHTTP(headerOf("Cache-Control", c.Value), 0, 0)
		if c.Error != nil {
			if got.hasMaxAge || got.ignored != httpIgnoredCacheControl {
				t.Errorf("read %v %d ms, ignored %b: want it ignored (%s)", got.hasMaxAge, got.maxAgeMS, got.ignored, *c.Error)
			}
			return
		}
		checkMS(t, "max-age", got.hasMaxAge, got.maxAgeMS, c.MaxAgeS)
	default:
		t.Fatalf("unknown header %q", c.Header)
	}
}

func checkMS(t *testing.T, what string, has bool, ms uint64, want *float64) {
	t.Helper()
	if want == nil {
		if has {
			t.Errorf("%s: %d ms, want none", what, ms)
		}
		return
	}
	if !has || ms != secondsMS(*want) {
		t.Errorf("%s: %v %d ms, want %d", what, has, ms, secondsMS(*want))
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// An asctime Retry-After names no zone: it is GMT (RFC 9110 §5.6.7),
// whatever zone the caller's clock is in.
func TestNewResponseReadsHeadersThroughTheCore(t *testing.T) {
	newYork := time.FixedZone("EST", -5*3600)
	now := time.Date(1994, time.November, 6, 3, 49, 37, 0, newYork) // 08:49:37 GMT
	resp := &http.Response{StatusCode: 503, Header: http.Header{
		"Retry-After":   {"Sun Nov  6 08:51:37 1994"},
		"Cache-Control": {"public", "max-age=600"},
		"Etag":          {` "v1" `},
		"Last-Modified": {""},
	}}
	r := NewResponse(resp, nil, now)
	if !r.HasRetryAfter || r.RetryAfter != 2*time.Minute {
		t.Errorf("RetryAfter %v %v, want 2m0s", r.HasRetryAfter, r.RetryAfter)
	}
	if !r.HasMaxAge || r.MaxAge != 10*time.Minute {
		t.Errorf("MaxAge %v %v, want 10m0s (Cache-Control's lines joined)", r.HasMaxAge, r.MaxAge)
	}
	if r.ETag != `"v1"` || r.LastModified != "" {
		t.Errorf("validators %q %q", r.ETag, r.LastModified)
	}
	// Values the core cannot read are left out; a huge one saturates.
	resp.Header = http.Header{"Retry-After": {"soon"}, "Cache-Control": {"max-age=99999999999999999999"}}
	r = NewResponse(resp, nil, now)
	if r.HasRetryAfter || !r.HasMaxAge || r.MaxAge != (1<<31)*time.Second {
		t.Errorf("RetryAfter %v, MaxAge %v %v", r.HasRetryAfter, r.HasMaxAge, r.MaxAge)
	}
	if got := NewResponse(nil, nil, now); got.Status != 0 || got.HasRetryAfter {
		t.Errorf("a nil response: %+v", got)
	}
}
