package robotstxt

import (
	"runtime"
	"sync"
	"time"
)

// AfterLimit says what to do once a file has stayed unreachable past
// FreshnessPolicy.UnreachableLimit.
type AfterLimit uint32

const (
	// KeepCopy keeps answering with the old copy (the default).
	KeepCopy AfterLimit = 0
	// AllowAllAfterLimit treats the file as unavailable: allow everything.
	AllowAllAfterLimit AfterLimit = 1
)

// FreshnessPolicy says how long copies live and how failures are retried
// (behaviour §7). Start from DefaultFreshnessPolicy and change what you need.
type FreshnessPolicy struct {
	// FreshFor is how long a copy is fresh: 24h. A shorter max-age
	// shortens it.
	FreshFor time.Duration
	// Retry is when to fetch again after a failure to retry later: 1h.
	// A failed answer's Retry-After (Response.RetryAfter) takes its place,
	// clamped to between 1 minute and 24 hours: a Retry-After: 0 cannot
	// make a crawler hammer the file, nor one of a year silence it.
	Retry time.Duration
	// UnreachableLimit is how long a file may stay unreachable before
	// AfterLimit applies: 30 days.
	UnreachableLimit time.Duration
	// AfterLimit is what answers past UnreachableLimit: KeepCopy.
	AfterLimit AfterLimit
	// Access is how fetch statuses are read: Careful.
	Access AccessPolicy
	// Parse are the options bodies are parsed with.
	Parse []Option
}

// DefaultFreshnessPolicy returns the core's defaults: fresh for 24h, retry
// after 1h, keep the copy after 30 days unreachable, careful access,
// default parse options.
func DefaultFreshnessPolicy() FreshnessPolicy {
	p := corePolicyDefault()
	return FreshnessPolicy{
		FreshFor:         time.Duration(p.freshForMS) * time.Millisecond,
		Retry:            time.Duration(p.retryMS) * time.Millisecond,
		UnreachableLimit: time.Duration(p.unreachableLimitMS) * time.Millisecond,
		AfterLimit:       AfterLimit(p.afterLimit),
		Access:           AccessPolicy(p.access),
	}
}

func (p *FreshnessPolicy) c() (corePolicy, error) {
	for _, d := range []struct {
		name string
		d    time.Duration
	}{{"FreshFor", p.FreshFor}, {"Retry", p.Retry}, {"UnreachableLimit", p.UnreachableLimit}} {
		if d.d < 0 {
			return corePolicy{}, &Error{Kind: ErrInvalidOption,
				Message: "FreshnessPolicy." + d.name + " is negative (" + d.d.String() + "): pass a duration of 0 or more"}
		}
	}
	return corePolicy{
		freshForMS:         durationMS(p.FreshFor),
		retryMS:            durationMS(p.Retry),
		unreachableLimitMS: durationMS(p.UnreachableLimit),
		afterLimit:         uint32(p.AfterLimit),
		access:             uint32(p.Access),
		options:            options(p.Parse),
	}, nil
}

// Answer is what answers questions now, according to an Entry.
type Answer uint32

const (
	// AnswerRules: follow the parsed copy.
	AnswerRules Answer = 0
	// AnswerAllowAll: crawl everything.
	AnswerAllowAll Answer = 1
	// AnswerDisallowAll: crawl nothing.
	AnswerDisallowAll Answer = 2
)

// String returns "rules", "allow_all" or "disallow_all".
func (a Answer) String() string {
	switch a {
	case AnswerRules:
		return "rules"
	case AnswerAllowAll:
		return "allow_all"
	case AnswerDisallowAll:
		return "disallow_all"
	}
	return "Answer(" + itoa(uint64(a)) + ")"
}

// Validators are what a conditional request sends: If-None-Match with
// ETag, If-Modified-Since with LastModified; "" means absent.
type Validators struct {
	ETag         string
	LastModified string
}

// Entry is one origin's copy of its robots.txt and when to fetch it again
// (behaviour §7): the freshness rules as functions of the time you pass. It is
// safe for concurrent use. Cache does this for many origins at once.
//
// Call Close when done with it; a cleanup frees it otherwise. Using an
// Entry after Close panics.
type Entry struct {
	mu      sync.RWMutex
	h       *handle
	cleanup runtime.Cleanup
}

// NewEntry makes an entry with no copy (a fetch is due at once) that
// follows policy. The error is non-nil for an option out of range (a
// negative duration, an unknown enumeration value, a parse limit out of
// range).
func NewEntry(policy FreshnessPolicy) (*Entry, error) {
	p, err := policy.c()
	if err != nil {
		return nil, err
	}
	h, f := coreEntryNew(p)
	if f.failed() {
		return nil, failure("NewEntry", f, "")
	}
	return newEntry(h), nil
}

func newEntry(h *handle) *Entry {
	e := &Entry{h: h}
	e.cleanup = runtime.AddCleanup(e, coreEntryFree, h)
	return e
}

// lock and rlock take the entry's lock; a nil *Entry panics with a clear
// message first, not with the runtime's nil dereference.
func (e *Entry) lock() {
	e.notNil()
	e.mu.Lock()
}

func (e *Entry) rlock() {
	e.notNil()
	e.mu.RLock()
}

func (e *Entry) notNil() {
	if e == nil {
		panic("robotstxt: method called on a nil *Entry")
	}
}

func (e *Entry) handle() *handle {
	e.notNil()
	if e.h == nil {
		panic("robotstxt: *Entry used after Close")
	}
	return e.h
}

// Close frees the entry; Robots from Answer stay valid. Calling Close
// again does nothing.
func (e *Entry) Close() {
	e.lock()
	defer e.mu.Unlock()
	if e.h != nil {
		e.cleanup.Stop()
		coreEntryFree(e.h)
		e.h = nil
	}
}

// Record records the outcome of a fetch made at now: a 2xx body is parsed
// and becomes the copy; a 304 renews the copy; a failure keeps the old copy
// and sets the next try. It returns what the outcome meant.
func (e *Entry) Record(now time.Time, resp Response) Disposition {
	e.lock()
	defer e.mu.Unlock()
	d, f := coreEntryRecord(e.handle(), unixMS(now), &resp)
	must("Entry.Record", f)
	return Disposition(d)
}

// EntryState is everything an Entry can say at one time.
type EntryState struct {
	// Due says whether a fetch is due.
	Due bool
	// DueAt is when the next fetch is due.
	DueAt time.Time
	// FetchedAt is when the copy was last fetched or revalidated; zero
	// without a copy.
	FetchedAt time.Time
	// Failures is how many fetches in a row have failed.
	Failures int
	// HasCopy says whether a copy (rules or allow-all) is held.
	HasCopy bool
	// Validators are those of the copy, for a conditional request.
	Validators Validators
}

// State returns what the entry says at now.
func (e *Entry) State(now time.Time) EntryState {
	e.rlock()
	defer e.mu.RUnlock()
	r, f := coreEntryState(e.handle(), unixMS(now))
	must("Entry.State", f)
	s := EntryState{
		Due:        r.due,
		DueAt:      fromUnixMS(r.dueAtMS),
		Failures:   int(r.failures),
		HasCopy:    r.hasCopy,
		Validators: r.validators,
	}
	if r.hasFetchedAt {
		s.FetchedAt = fromUnixMS(r.fetchedAtMS)
	}
	return s
}

// Due reports whether a fetch is due at now.
func (e *Entry) Due(now time.Time) bool { return e.State(now).Due }

// Answer says what answers at now: the copy (kept while the file is
// unreachable), or disallow-all with none; past the unreachable limit, as
// the policy says. For AnswerRules it also returns the parsed copy, which
// the caller owns (Close it when done) and which stays valid whatever
// happens to the entry; otherwise the *Robots is nil.
func (e *Entry) Answer(now time.Time) (Answer, *Robots) {
	e.rlock()
	defer e.mu.RUnlock()
	a, h, f := coreEntryAnswer(e.handle(), unixMS(now))
	must("Entry.Answer", f)
	if h == nil {
		return Answer(a), nil
	}
	return Answer(a), newRobots(h)
}
