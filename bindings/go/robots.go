package robotstxt

// #include "shim.h"
import "C"

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Version is the version of the compiled core, such as "0.1.0".
func Version() string { return C.GoString(C.robotstxt_version()) }

// Parse limits, in bytes (RFC 9309 §2.5): only the first DefaultParseLimit
// bytes of a body are parsed unless WithParseLimit says otherwise, and the
// limit is never below MinParseLimit.
const (
	MinParseLimit     = C.ROBOTSTXT_MIN_PARSE_LIMIT
	MaxParseLimit     = C.ROBOTSTXT_MAX_PARSE_LIMIT
	DefaultParseLimit = MinParseLimit
)

// Profile is the reading of robots.txt to follow where RFC 9309 and
// Google's parser differ.
type Profile uint32

const (
	// RFC9309 is RFC 9309 as written (the default): strict product tokens,
	// percent-normalised matching, /robots.txt always allowed.
	RFC9309 Profile = C.ROBOTSTXT_PROFILE_RFC
	// Google is what Google's open-source parser answers: any crawler name
	// compared whole, paths compared as given, the index.html rule, the
	// 16,663-byte line cap and lines cut at NUL.
	Google Profile = C.ROBOTSTXT_PROFILE_GOOGLE
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
type config struct{ c C.robotstxt_options }

// WithProfile parses with profile p (default RFC9309).
func WithProfile(p Profile) Option {
	return func(o *config) { o.c.profile = C.robotstxt_profile(p) }
}

// WithParseLimit parses only the first n bytes of a body (default
// DefaultParseLimit, 512,000). n must be between MinParseLimit and
// MaxParseLimit, or Parse returns an error (ErrParseLimit).
func WithParseLimit(n int) Option {
	return func(o *config) {
		if n < 0 {
			n = 0 // out of range either way: the core says so
		}
		o.c.parse_limit = C.size_t(n)
	}
}

// WithTypos accepts Google's list of key typos such as "useragent" and
// "dissallow" (the default) or, with false, rejects them.
func WithTypos(accept bool) Option {
	return func(o *config) { o.c.typos = C.bool(accept) }
}

func options(opts []Option) C.robotstxt_options {
	o := config{C.robotstxt_options_default()}
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
	h       unsafe.Pointer // *C.robotstxt_robots; nil once closed (read atomically)
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
	var ptr *C.uint8_t
	if len(body) > 0 {
		ptr = (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(body)))
	}
	r := C.go_parse(ptr, C.size_t(len(body)), C.bool(len(opts) > 0), options(opts))
	runtime.KeepAlive(body)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return nil, failure("Parse", r.status, r.err, "")
	}
	return newRobots((*C.robotstxt_robots)(r.handle)), nil
}

func newRobots(h *C.robotstxt_robots) *Robots {
	r := &Robots{}
	r.h = unsafe.Pointer(h)
	r.cleanup = runtime.AddCleanup(r, freeRobots, h)
	return r
}

func freeRobots(h *C.robotstxt_robots) { C.robotstxt_robots_free(h) }

func (r *Robots) handle() *C.robotstxt_robots {
	if r == nil {
		panic("robotstxt: method called on a nil *Robots")
	}
	h := (*C.robotstxt_robots)(atomic.LoadPointer(&r.h))
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
	if h := (*C.robotstxt_robots)(atomic.SwapPointer(&r.h, nil)); h != nil {
		r.cleanup.Stop()
		C.robotstxt_robots_free(h)
		runtime.KeepAlive(r) // see Rules.Close
	}
}

// Profile returns the profile the file was parsed with.
func (r *Robots) Profile() Profile {
	res := C.go_robots_profile(r.handle())
	runtime.KeepAlive(r)
	must("Robots.Profile", res.status, res.err)
	return Profile(res.value)
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
	res := C.go_rules_for(r.handle(), 0, cstr(token), C.size_t(len(token)), nil, 0)
	runtime.KeepAlive(r)
	runtime.KeepAlive(token)
	if res.status != C.ROBOTSTXT_STATUS_OK {
		return nil, failure("Robots.RulesFor", res.status, res.err, token)
	}
	return newRules((*C.robotstxt_rules)(res.handle)), nil
}

// RulesForAny selects the rules for a crawler known by several names: every
// group naming any of the tokens, merged (Google's semantics); else every
// "*" group. No tokens is ErrNoTokens; each token is checked as in
// RulesFor, and one invalid token makes the whole selection fail.
func (r *Robots) RulesForAny(tokens ...string) (*Rules, error) {
	return r.rulesForList("Robots.RulesForAny", 1, tokens)
}

// RulesForStrictest selects strictest-of rules: a URL is allowed only if
// each token's own selection allows it, and the crawl delay is the largest
// of theirs. Use it to honour, say, GPTBot and CCBot groups as well as your
// own. Errors as for RulesForAny.
func (r *Robots) RulesForStrictest(tokens ...string) (*Rules, error) {
	return r.rulesForList("Robots.RulesForStrictest", 2, tokens)
}

func (r *Robots) rulesForList(op string, mode C.int, tokens []string) (*Rules, error) {
	h := r.handle()
	// The array holds pointers to the tokens' bytes, so the Go memory it
	// points to is pinned for the call (the C side keeps nothing).
	var pinner runtime.Pinner
	defer pinner.Unpin()
	var list []C.robotstxt_str
	if len(tokens) > 0 {
		list = make([]C.robotstxt_str, len(tokens))
		for i, t := range tokens {
			if len(t) > 0 {
				p := unsafe.StringData(t)
				pinner.Pin(p)
				list[i] = C.robotstxt_str{ptr: (*C.uint8_t)(unsafe.Pointer(p)), len: C.size_t(len(t))}
			}
		}
	}
	res := C.go_rules_for(h, mode, nil, 0, unsafe.SliceData(list), C.size_t(len(list)))
	runtime.KeepAlive(r)
	runtime.KeepAlive(tokens)
	if res.status != C.ROBOTSTXT_STATUS_OK {
		bad := ""
		if len(tokens) == 1 {
			bad = tokens[0]
		}
		return nil, failure(op, res.status, res.err, bad)
	}
	return newRules((*C.robotstxt_rules)(res.handle)), nil
}

// Sitemaps returns every sitemap URL, in file order, as written.
func (r *Robots) Sitemaps() []string {
	h := r.handle()
	n := C.go_sitemap_count(h)
	must("Robots.Sitemaps", n.status, n.err)
	out := make([]string, 0, int(n.count))
	for i := C.size_t(0); i < n.count; i++ {
		s := C.go_sitemap(h, i)
		must("Robots.Sitemaps", s.status, s.err)
		out = append(out, gostr(s.text))
	}
	runtime.KeepAlive(r)
	return out
}

// Host returns the first "host" value (Yandex extension), as written, and
// whether there is one.
func (r *Robots) Host() (string, bool) {
	s := C.go_host(r.handle())
	must("Robots.Host", s.status, s.err)
	host := gostr(s.text)
	runtime.KeepAlive(r)
	return host, bool(s.found)
}

// cstr passes a Go string's bytes to C without copying: the library never
// keeps a pointer to text it is given.
func cstr(s string) *C.uint8_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s)))
}

// gostr copies text handed out by the library.
func gostr(s C.robotstxt_str) string {
	if s.len == 0 || s.ptr == nil {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(s.ptr)), int(s.len)))
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
