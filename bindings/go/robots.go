package robotstxt

import (
	"runtime"
	"sync/atomic"
)

// Version is the version of the compiled core, such as "0.1.0".
func Version() string { return coreVersion() }

// Parse limits, in bytes (RFC 9309 §2.5): only the first DefaultParseLimit
// bytes of a body are parsed unless WithParseLimit says otherwise, and the
// limit is never below MinParseLimit.
const (
	MinParseLimit     = 512_000
	MaxParseLimit     = 536_870_912
	DefaultParseLimit = MinParseLimit
)

// Profile is the reading of robots.txt to follow where RFC 9309 and
// Google's parser differ.
type Profile uint32

const (
	// RFC9309 is RFC 9309 as written (the default): strict product tokens,
	// percent-normalised matching, /robots.txt always allowed.
	RFC9309 Profile = 0
	// Google is what Google's open-source parser answers: any crawler name
	// compared whole, paths compared as given, the index.html rule, the
	// 16,663-byte line cap and lines cut at NUL.
	Google Profile = 1
)

// String returns "rfc9309" or "google".
func (p Profile) String() string {
	switch p {
	case RFC9309:
		return "rfc9309"
	case Google:
		return "google"
	}
	return "Profile(" + itoa(uint64(p)) + ")"
}

// An Option changes how Parse reads a body.
type Option func(*config)

// config holds the core's parse options as Options set them.
type config struct{ c coreOptions }

// WithProfile parses with profile p (default RFC9309).
func WithProfile(p Profile) Option {
	return func(o *config) { o.c.profile = uint32(p) }
}

// WithParseLimit parses only the first n bytes of a body (default
// DefaultParseLimit, 512,000). n must be between MinParseLimit and
// MaxParseLimit, or Parse returns an error (ErrParseLimit).
func WithParseLimit(n int) Option {
	return func(o *config) {
		if n < 0 {
			n = 0 // out of range either way: the core says so
		}
		o.c.parseLimit = uint64(n)
	}
}

// WithTypos accepts Google's list of key typos such as "useragent" and
// "dissallow" (the default) or, with false, rejects them.
func WithTypos(accept bool) Option {
	return func(o *config) { o.c.typos = accept }
}

func options(opts []Option) coreOptions {
	o := config{coreOptionsDefault()}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o.c
}

// Robots is a parsed robots.txt: immutable, and safe for concurrent use by
// any number of goroutines.
//
// Call Close when done with it; a cleanup frees it otherwise, but only once
// the garbage collector notices. Close must not run at the same time as
// another method; using a Robots after Close panics.
type Robots struct {
	h       atomic.Pointer[handle] // nil once closed
	cleanup runtime.Cleanup
}

// Parse parses body, a robots.txt file as fetched: any bytes parse (invalid
// UTF-8, NUL, HTML...), and lines that make no sense are skipped and listed
// by Diagnostics. Only the first DefaultParseLimit bytes are read unless an
// option says otherwise.
//
// The error is non-nil only for an option out of range: a parse limit
// outside MinParseLimit..MaxParseLimit (ErrParseLimit) or an unknown
// profile (ErrInvalidOption). Without options it is always nil.
//
// Cost: one pass over the body; the body is not kept.
func Parse(body []byte, opts ...Option) (*Robots, error) {
	h, f := coreParse(body, len(opts) > 0, options(opts))
	if f.failed() {
		return nil, failure("Parse", f, "")
	}
	return newRobots(h), nil
}

func newRobots(h *handle) *Robots {
	r := &Robots{}
	r.h.Store(h)
	r.cleanup = runtime.AddCleanup(r, coreRobotsFree, h)
	return r
}

func (r *Robots) handle() *handle {
	if r == nil {
		panic("robotstxt: method called on a nil *Robots")
	}
	h := r.h.Load()
	if h == nil {
		panic("robotstxt: *Robots used after Close")
	}
	return h
}

// Close frees the parsed file. Rules selected from it stay valid. Calling
// Close again does nothing.
func (r *Robots) Close() {
	if r == nil {
		panic("robotstxt: method called on a nil *Robots")
	}
	if h := r.h.Swap(nil); h != nil {
		r.cleanup.Stop()
		coreRobotsFree(h)
		runtime.KeepAlive(r) // see Rules.Close
	}
}

// Profile returns the profile the file was parsed with.
func (r *Robots) Profile() Profile {
	p, f := coreRobotsProfile(r.handle())
	runtime.KeepAlive(r)
	must("Robots.Profile", f)
	return Profile(p)
}

// RulesFor selects the rules for the crawler whose product token is token
// (RFC 9309 §2.2.1): every group naming it, merged; else every "*" group;
// else none (everything allowed). Matching is case-insensitive and whole.
// The Rules do not depend on r: closing r first is fine.
//
// In the RFC profile a token that is not one or more of A-Z a-z _ - (empty,
// "MyBot/1.0", a whole User-Agent header) is a *TokenError
// (ErrInvalidToken) that says what was passed. The Google profile accepts
// any name and compares it whole.
func (r *Robots) RulesFor(token string) (*Rules, error) {
	h, f := coreRulesFor(r.handle(), selectOne, token, nil)
	runtime.KeepAlive(r)
	if f.failed() {
		return nil, failure("Robots.RulesFor", f, token)
	}
	return newRules(h), nil
}

// RulesForAny selects the rules for a crawler known by several names: every
// group naming any of the tokens, merged (Google's semantics); else every
// "*" group. No tokens is ErrNoTokens; each token is checked as in
// RulesFor, and one invalid token makes the whole selection fail.
func (r *Robots) RulesForAny(tokens ...string) (*Rules, error) {
	return r.rulesForList("Robots.RulesForAny", selectAny, tokens)
}

// RulesForStrictest selects strictest-of rules: a URL is allowed only if
// each token's own selection allows it, and the crawl delay is the largest
// of theirs. Use it to honour, say, GPTBot and CCBot groups as well as your
// own. Errors as for RulesForAny.
func (r *Robots) RulesForStrictest(tokens ...string) (*Rules, error) {
	return r.rulesForList("Robots.RulesForStrictest", selectStrictest, tokens)
}

func (r *Robots) rulesForList(op string, mode int, tokens []string) (*Rules, error) {
	h, f := coreRulesFor(r.handle(), mode, "", tokens)
	runtime.KeepAlive(r)
	if f.failed() {
		bad := ""
		if len(tokens) == 1 {
			bad = tokens[0]
		}
		return nil, failure(op, f, bad)
	}
	return newRules(h), nil
}

// Sitemaps returns every sitemap URL, in file order, as written.
func (r *Robots) Sitemaps() []string {
	out, f := coreSitemaps(r.handle())
	runtime.KeepAlive(r)
	must("Robots.Sitemaps", f)
	return out
}

// Host returns the first "host" value (Yandex extension), as written, and
// whether there is one.
func (r *Robots) Host() (string, bool) {
	host, found, f := coreHost(r.handle())
	runtime.KeepAlive(r)
	must("Robots.Host", f)
	return host, found
}

func itoa(n uint64) string {
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(buf[i:])
		}
	}
}
