package robotstxt

import (
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/robotstxt-engine/robotstxt-go/internal/units"
)

// AccessPolicy says how to read the statuses where RFC 9309 leaves a
// choice (behaviour §6).
type AccessPolicy uint32

const (
	// Careful is the default: 401, 403 and 429 disallow everything until a
	// retry.
	Careful AccessPolicy = 0
	// StrictRFC is RFC 9309 to the letter: 401, 403 and 429 allow
	// everything.
	StrictRFC AccessPolicy = 1
)

// String returns "careful" or "strict-rfc".
func (p AccessPolicy) String() string {
	switch p {
	case Careful:
		return "careful"
	case StrictRFC:
		return "strict-rfc"
	}
	return "AccessPolicy(" + itoa(uint64(p)) + ")"
}

// Disposition is what a fetch outcome means (behaviour §6).
type Disposition uint32

const (
	// FollowRules: a 2xx reached in at most 5 redirects; parse the body and
	// follow its rules.
	FollowRules Disposition = 0
	// AllowAll: unavailable (404, 410, other 4xx, more than 5 redirects);
	// crawl everything.
	AllowAll Disposition = 1
	// DisallowAll: unreachable or refused (5xx, no response, 401/403/429
	// when careful, an unfollowed 3xx, 1xx, 6xx...); crawl nothing and
	// fetch again later.
	DisallowAll Disposition = 2
	// NotModified: a 304 to a conditional request; keep the cached copy,
	// renewed.
	NotModified Disposition = 3
)

// RetryLater reports whether d is a failure to retry later (DisallowAll).
func (d Disposition) RetryLater() bool {
	return coreRetryLater(uint32(d))
}

// String returns "follow_rules", "allow_all", "disallow_all" or
// "not_modified".
func (d Disposition) String() string {
	switch d {
	case FollowRules:
		return "follow_rules"
	case AllowAll:
		return "allow_all"
	case DisallowAll:
		return "disallow_all"
	case NotModified:
		return "not_modified"
	}
	return "Disposition(" + itoa(uint64(d)) + ")"
}

// Classify says what a fetch of /robots.txt means (behaviour §6). status is the
// final HTTP status, or 0 for a network error or timeout (no response);
// redirects is how many redirects were followed to reach it.
//
// It panics for an AccessPolicy other than Careful and StrictRFC.
func Classify(status, redirects int, policy AccessPolicy) Disposition {
	d, f := coreClassify(httpStatus(status), count32(redirects), uint32(policy))
	if f.failed() {
		err := failure("Classify", f, "")
		panic("robotstxt: Classify: " + strings.TrimPrefix(err.Error(), "robotstxt: "))
	}
	return Disposition(d)
}

// Response is what a fetch of /robots.txt returned. Set what you have; the
// zero value of each optional field means absent. NewResponse fills one
// from an *http.Response.
type Response struct {
	// Status is the final HTTP status, or 0 for a network error or timeout.
	Status int
	// Redirects is how many redirects were followed to reach it.
	Redirects int
	// Body is the body, for a 2xx. It is read during the call, not kept.
	Body []byte
	// MaxAge is Cache-Control: max-age, when HasMaxAge: it may shorten
	// freshness, never lengthen it past a day.
	MaxAge    time.Duration
	HasMaxAge bool
	// RetryAfter is the Retry-After wait, when HasRetryAfter: when to try
	// again after a failure (kept between 1 minute and 24 hours; see
	// FreshnessPolicy.Retry).
	RetryAfter    time.Duration
	HasRetryAfter bool
	// ETag and LastModified are the validators; "" means absent.
	ETag         string
	LastModified string
}

// NewResponse makes a Response from resp, whose body you have read into
// body: its status, and its header values as the core reads them
// (behaviour §11): Cache-Control's max-age, Retry-After (delta-seconds, or
// an HTTP-date in any of its three forms, always GMT, counted from now),
// ETag and Last-Modified. A value the core cannot read is left out.
// Redirects counts the redirects the client followed (resp.Request's
// chain). A nil resp is a network error (Status 0).
func NewResponse(resp *http.Response, body []byte, now time.Time) Response {
	if resp == nil {
		return Response{}
	}
	r := Response{Status: resp.StatusCode, Body: body}
	for req := resp.Request; req != nil && req.Response != nil; req = req.Response.Request {
		r.Redirects++
	}
	facts := readHTTP(resp.Header, unixMS(now), 0)
	r.MaxAge, r.HasMaxAge = msDuration(facts.maxAgeMS), facts.hasMaxAge
	r.RetryAfter, r.HasRetryAfter = msDuration(facts.retryAfterMS), facts.hasRetryAfter
	r.ETag, r.LastModified = facts.etag, facts.lastModified
	return r
}

// readHTTP passes h's values to the core, which reads them: Cache-Control,
// a list, with its lines joined; the others as their first line.
func readHTTP(h http.Header, nowMS, minMaxAgeMS uint64) coreHTTPFacts {
	first := func(name string) (string, bool) {
		v := h.Values(name)
		if len(v) == 0 {
			return "", false
		}
		return v[0], true
	}
	var c coreHTTP
	c.retryAfter, c.hasRetryAfter = first("Retry-After")
	if v := h.Values("Cache-Control"); len(v) > 0 {
		c.cacheControl, c.hasCacheControl = strings.Join(v, ", "), true
	}
	c.etag, c.hasETag = first("ETag")
	c.lastModified, c.hasLastModified = first("Last-Modified")
	facts, f := coreHTTPRead(c, nowMS, minMaxAgeMS)
	if f.failed() {
		panic("robotstxt: NewResponse: " + strings.TrimPrefix(failure("NewResponse", f, "").Error(), "robotstxt: "))
	}
	return facts
}

// msDuration is ms milliseconds; the core keeps them below 2^31 s.
func msDuration(ms uint64) time.Duration {
	if ms > uint64(math.MaxInt64/int64(time.Millisecond)) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(ms) * time.Millisecond
}

// FromOutcome classifies resp as Classify does and, for FollowRules, parses
// its body with opts. For every other disposition the *Robots is nil. The
// error is non-nil only for an option out of range, as for Parse.
//
// It panics for an AccessPolicy other than Careful and StrictRFC.
func FromOutcome(resp Response, policy AccessPolicy, opts ...Option) (Disposition, *Robots, error) {
	if policy != Careful && policy != StrictRFC {
		panic("robotstxt: FromOutcome: unknown " + policy.String())
	}
	d, h, f := coreFromOutcome(&resp, uint32(policy), options(opts))
	if f.failed() {
		return 0, nil, failure("FromOutcome", f, "")
	}
	if h == nil {
		return Disposition(d), nil, nil
	}
	return Disposition(d), newRobots(h), nil
}

func httpStatus(status int) uint16 { return units.Status(status) }

func count32(n int) uint32 {
	switch {
	case n < 0:
		return 0
	case uint64(n) > math.MaxUint32:
		return math.MaxUint32
	}
	return uint32(n)
}

// durationMS converts to whole milliseconds, rounding up; negative is 0.
func durationMS(d time.Duration) uint64 { return units.MS(d) }

// unixMS is t in milliseconds since the Unix epoch, the core's clock;
// times before 1970 are 0.
func unixMS(t time.Time) uint64 { return units.UnixMS(t) }

// fromUnixMS is the inverse of unixMS; "never" (the largest values) stays
// the far future.
func fromUnixMS(ms uint64) time.Time {
	if ms > math.MaxInt64 {
		return time.UnixMilli(math.MaxInt64)
	}
	return time.UnixMilli(int64(ms))
}
