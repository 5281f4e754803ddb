package robotstxt

import (
	"math"
	"runtime"
	"sync/atomic"
	"time"
)

// Rules are the rules that apply to one crawler: immutable, safe for
// concurrent use by any number of goroutines, and independent of the
// Robots they came from. Questions allocate nothing in the core.
//
// Call Close when done with them; a cleanup frees them otherwise, but only
// once the garbage collector notices. Close must not run at the same time
// as another method; using Rules after Close panics.
type Rules struct {
	h       atomic.Pointer[handle] // nil once closed
	cleanup runtime.Cleanup
}

func newRules(h *handle) *Rules {
	r := &Rules{}
	r.h.Store(h)
	r.cleanup = runtime.AddCleanup(r, coreRulesFree, h)
	return r
}

func (r *Rules) handle() *handle {
	if r == nil {
		panic("robotstxt: method called on a nil *Rules")
	}
	h := r.h.Load()
	if h == nil {
		panic("robotstxt: *Rules used after Close")
	}
	return h
}

// Close frees the rules. Calling Close again does nothing.
func (r *Rules) Close() {
	if r == nil {
		panic("robotstxt: method called on a nil *Rules")
	}
	if h := r.h.Swap(nil); h != nil {
		r.cleanup.Stop()
		coreRulesFree(h)
		// Stop cancels the cleanup only if r stays reachable until it
		// returns; otherwise the cleanup may already be queued, and would
		// free h a second time.
		runtime.KeepAlive(r)
	}
}

// Allowed reports whether the crawler may fetch url: absolute
// ("https://host/a?b"), scheme-relative or a path. Only path, params and
// query are matched; the fragment is dropped. The URL is passed to the core
// without copying.
func (r *Rules) Allowed(url string) bool {
	ok, f := coreCanFetch(r.handle(), url)
	runtime.KeepAlive(r)
	if f.failed() {
		must("Rules.Allowed", f)
	}
	return ok
}

// DecisionKind says which kind of rule decided, or that none matched.
type DecisionKind uint32

const (
	// NoRule: no rule matched (or the RFC /robots.txt exemption applied),
	// so the URL is allowed.
	NoRule DecisionKind = 0
	// AllowRule: an allow rule decided.
	AllowRule DecisionKind = 1
	// DisallowRule: a disallow rule decided.
	DisallowRule DecisionKind = 2
	// DecisionAllowAll: no file's rules but a blanket allow-all decided
	// (the robots.txt is unavailable, a 404 say); Rules.Blanket says why.
	DecisionAllowAll DecisionKind = 3
	// DecisionDisallowAll: no file's rules but a blanket disallow-all
	// decided (the robots.txt is unreachable, or not fetched yet);
	// Rules.Blanket says why, Rules.RetryAt when to ask again.
	DecisionDisallowAll DecisionKind = 4
)

// String returns "none", "allow", "disallow", "allow-all" or
// "disallow-all", as the core names them.
func (k DecisionKind) String() string {
	if name, ok := coreDecisionKindName(uint32(k)); ok {
		return name
	}
	switch k { // names the core's name function may not know yet
	case DecisionAllowAll:
		return "allow-all"
	case DecisionDisallowAll:
		return "disallow-all"
	}
	return "DecisionKind(" + itoa(uint64(k)) + ")"
}

// Decision is the answer for one URL and the line that gave it.
type Decision struct {
	// Allowed says whether the crawler may fetch the URL.
	Allowed bool
	// Line is the deciding rule's 1-based line, or 0 when no rule matched
	// or a blanket answer decided.
	Line int
	// Kind is the kind of the deciding rule.
	Kind DecisionKind
	// Pattern is the deciding pattern as compared (percent-normalised for
	// the profile; "/dir/$" for Google's index.html rule), or "".
	Pattern string
}

// Decide returns the answer for url (as for Allowed) and the rule that
// decided it.
func (r *Rules) Decide(url string) Decision {
	d, f := coreDecide(r.handle(), url) // the pattern copied while r is alive
	runtime.KeepAlive(r)
	must("Rules.Decide", f)
	return d
}

// Cause says why a blanket answer stands where a file's rules would.
type Cause uint32

const (
	// CauseStatus: the fetch of /robots.txt ended with Blanket.Status
	// after Blanket.Redirects redirects: a 4xx or more than five redirects
	// allow all; a 5xx, 429, 401, 403 or an unfollowed 3xx disallow all.
	CauseStatus Cause = 1
	// CauseNoResponse: the fetch got no response (a network error or a
	// timeout), so nothing is allowed for now.
	CauseNoResponse Cause = 2
	// CauseNotFetched: no fetch has been stored for the origin yet
	// (DisallowWhileFetching), so nothing is allowed.
	CauseNotFetched Cause = 3
	// CauseUnreachableLimit: the file stayed unreachable past
	// FreshnessPolicy.UnreachableLimit, and AllowAllAfterLimit allows all.
	CauseUnreachableLimit Cause = 4
	// CauseCaller: made by the caller.
	CauseCaller Cause = 5
)

// String returns "status", "no-response", "not-fetched",
// "unreachable-limit" or "caller", as the core names them.
func (c Cause) String() string {
	switch c {
	case CauseStatus:
		return "status"
	case CauseNoResponse:
		return "no-response"
	case CauseNotFetched:
		return "not-fetched"
	case CauseUnreachableLimit:
		return "unreachable-limit"
	case CauseCaller:
		return "caller"
	}
	return "Cause(" + itoa(uint64(c)) + ")"
}

// Blanket is a blanket answer, allow-all or disallow-all, and the fetch
// outcome that caused it: what tells "disallowed by the file" from "the
// file is unreachable".
type Blanket struct {
	// Allowed: everything is allowed; else everything is disallowed.
	Allowed bool
	// Cause is why.
	Cause Cause
	// Status is the final HTTP status, for CauseStatus; else 0.
	Status int
	// Redirects is how many redirects were followed, for CauseStatus;
	// else 0.
	Redirects int
}

// Blanket reports whether the rules are a blanket answer rather than a
// file's rules (from a Cache, for a robots.txt it could not use), and why.
// Decide then says DecisionAllowAll or DecisionDisallowAll at line 0.
func (r *Rules) Blanket() (Blanket, bool) {
	b, f := coreRulesBlanket(r.handle())
	runtime.KeepAlive(r)
	must("Rules.Blanket", f)
	if !b.isBlanket {
		return Blanket{}, false
	}
	return b.blanket, true
}

// RetryAt returns when the Cache that handed out the rules will fetch the
// robots.txt again, by the cache's clock, and true, when its last fetch
// failed: the rules are then an old copy kept meanwhile, or a
// disallow-all. Ask the cache again then. Otherwise it returns false.
func (r *Rules) RetryAt() (time.Time, bool) {
	b, f := coreRulesBlanket(r.handle())
	runtime.KeepAlive(r)
	must("Rules.RetryAt", f)
	if !b.hasRetryAt {
		return time.Time{}, false
	}
	return fromUnixMS(b.retryAtMS), true
}

// Compile builds the rules' index now, where the check after their first
// few would. A selection answers its first checks by scanning its rules,
// which costs less when a copy of robots.txt gets a handful of questions;
// the next check builds the index every later one uses (once, whichever
// goroutine gets there). Call Compile to have no check allocate in the
// core at all. It changes no answer.
func (r *Rules) Compile() {
	f := coreRulesCompile(r.handle())
	runtime.KeepAlive(r)
	must("Rules.Compile", f)
}

// CrawlDelay returns the crawl delay (the largest valid crawl-delay among
// the selected groups, such as 2.5s) and whether one is set. Without one,
// your own floor applies.
func (r *Rules) CrawlDelay() (time.Duration, bool) {
	s, ok, f := coreCrawlDelay(r.handle())
	runtime.KeepAlive(r)
	must("Rules.CrawlDelay", f)
	if !ok {
		return 0, false
	}
	return seconds(s), true
}

// RequestRate is a request-rate record: Requests requests per Seconds
// seconds.
type RequestRate struct {
	// Requests is how many requests (n in "n/m").
	Requests uint32
	// Seconds is per how many seconds (m in "n/m", units converted).
	Seconds uint32
}

// Interval returns the time between two requests: Seconds / Requests.
func (r RequestRate) Interval() time.Duration {
	if r.Requests == 0 {
		return 0
	}
	return time.Duration(r.Seconds) * time.Second / time.Duration(r.Requests)
}

// RequestRate returns the slowest valid request-rate of the selected
// groups (the longest interval), and whether there is one.
func (r *Rules) RequestRate() (RequestRate, bool) {
	rate, ok, f := coreRequestRate(r.handle())
	runtime.KeepAlive(r)
	must("Rules.RequestRate", f)
	if !ok {
		return RequestRate{}, false
	}
	return rate, true
}

// seconds converts the core's seconds to a Duration, to the nearest ns.
func seconds(s float64) time.Duration {
	ns := math.Round(s * float64(time.Second))
	if ns >= math.MaxInt64 {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(ns)
}
