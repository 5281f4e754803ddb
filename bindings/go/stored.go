package robotstxt

// What a fleet's shared store needs from the core: an Entry as bytes and
// back, its rules, the keys a copy and a host's pace are stored under, and
// the Lua scripts that run each shared step in Redis. The fleet package
// (fleet.Cache, fleet.Pacer) uses them; they are exported for it and for a
// crawler that brings its own store code.

/*
#include "shim.h"

// A length written by a call with an output buffer.
typedef struct go_len {
    robotstxt_status status;
    size_t len;
    go_err err;
} go_len;

static inline go_len go_len_of(robotstxt_status status, size_t len) {
    go_len r;
    r.status = status;
    r.len = len;
    // Too small a buffer is no failure: the caller asks again.
    r.err = status == ROBOTSTXT_STATUS_BUFFER_TOO_SMALL ? (go_err){NULL, 0} : go_take_error(status);
    return r;
}

static inline go_len go_entry_encode(const robotstxt_entry *entry, const uint8_t *body,
                                     size_t body_len, uint8_t *out, size_t out_cap) {
    size_t len = 0;
    robotstxt_status status = robotstxt_entry_encode(entry, body, body_len, out, out_cap, &len);
    return go_len_of(status, len);
}

static inline go_handle go_entry_decode(const uint8_t *bytes, size_t len,
                                        robotstxt_freshness_policy policy) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_entry *entry = NULL;
    r.status = robotstxt_entry_decode(bytes, len, &policy, &entry);
    r.handle = entry;
    r.err = go_take_error(r.status);
    return r;
}

// The stored body as an offset into the bytes: it borrows from them, which
// are Go memory, and Go slices them.
typedef struct go_span {
    robotstxt_status status;
    size_t offset;
    size_t len;
    go_err err;
} go_span;

static inline go_span go_entry_stored_body(const uint8_t *bytes, size_t len) {
    go_span r;
    robotstxt_str body = {NULL, 0};
    memset(&r, 0, sizeof r);
    r.status = robotstxt_entry_stored_body(bytes, len, &body);
    if (r.status == ROBOTSTXT_STATUS_OK && body.len > 0) {
        r.offset = (size_t)(body.ptr - bytes);
        r.len = body.len;
    }
    r.err = go_take_error(r.status);
    return r;
}

static inline go_handle go_entry_rules_for(const robotstxt_entry *entry, uint64_t now_ms,
                                           const uint8_t *token, size_t token_len) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_rules *rules = NULL;
    r.status = robotstxt_entry_rules_for(entry, now_ms, token, token_len, &rules);
    r.handle = rules;
    r.err = go_take_error(r.status);
    return r;
}

static inline go_handle go_rules_with_retry_at(const robotstxt_rules *rules, uint64_t retry_at_ms) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_rules *copy = NULL;
    r.status = robotstxt_rules_with_retry_at(rules, retry_at_ms, &copy);
    r.handle = copy;
    r.err = go_take_error(r.status);
    return r;
}

static inline go_text go_fleet_script(const uint8_t *name, size_t len) {
    go_text r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_fleet_script(name, len, &r.text);
    r.found = r.status == ROBOTSTXT_STATUS_OK;
    r.err = go_take_error(r.status);
    return r;
}

static inline go_len go_robots_origin(const uint8_t *url, size_t len, uint8_t *out,
                                      size_t out_cap) {
    size_t n = 0;
    robotstxt_status status = robotstxt_robots_origin(url, len, out, out_cap, &n);
    return go_len_of(status, n);
}

static inline go_len go_pacer_host(const uint8_t *host, size_t len, uint8_t *out,
                                   size_t out_cap) {
    size_t n = 0;
    robotstxt_status status = robotstxt_pacer_host(host, len, out, out_cap, &n);
    return go_len_of(status, n);
}
*/
import "C"

import (
	"runtime"
	"time"
	"unsafe"
)

// bytesPtr passes a byte slice to C without copying (NULL when empty): the
// library never keeps a pointer to bytes it is given.
func bytesPtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(b)))
}

// Encode returns the entry as bytes for a shared store (DecodeEntry reads
// them back, in any process, with any policy): its copy, validators,
// failures and when it is due. body is the body the entry's copy was
// parsed from: the 2xx body of the fetch Record was given (Disposition
// FollowRules), or StoredBody of the bytes the entry was decoded from; it
// is not read when the copy is not parsed rules (nil will do then).
//
// ErrBodyMismatch for another body than the copy's.
func (e *Entry) Encode(body []byte) ([]byte, error) {
	e.rlock()
	defer e.mu.RUnlock()
	h := e.handle()
	r := C.go_entry_encode(h, bytesPtr(body), C.size_t(len(body)), nil, 0)
	for r.status == C.ROBOTSTXT_STATUS_BUFFER_TOO_SMALL {
		out := make([]byte, int(r.len))
		r = C.go_entry_encode(h, bytesPtr(body), C.size_t(len(body)), bytesPtr(out), C.size_t(len(out)))
		if r.status == C.ROBOTSTXT_STATUS_OK {
			runtime.KeepAlive(body)
			return out[:int(r.len)], nil
		}
	}
	runtime.KeepAlive(body)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return nil, failure("Entry.Encode", r.status, r.err, "")
	}
	return []byte{}, nil // never: an encoding is never empty
}

// DecodeEntry makes an entry from bytes Encode wrote, in this process or
// another, that follows policy (its copy parsed with policy.Parse). Close
// it when done with it, as one from NewEntry.
//
// Errors: ErrInvalidCopy for bytes that are not a whole, intact stored copy
// (damaged, cut short, or not one at all), ErrCopyVersion for a format a
// newer library wrote, and those of NewEntry for policy.
func DecodeEntry(data []byte, policy FreshnessPolicy) (*Entry, error) {
	p, err := policy.c()
	if err != nil {
		return nil, err
	}
	r := C.go_entry_decode(bytesPtr(data), C.size_t(len(data)), p)
	runtime.KeepAlive(data)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return nil, failure("DecodeEntry", r.status, r.err, "")
	}
	h := (*C.robotstxt_entry)(r.handle)
	e := &Entry{h: h}
	e.cleanup = runtime.AddCleanup(e, freeEntry, h)
	return e, nil
}

// StoredBody returns the body that bytes from Encode carry: what to pass
// to Encode again for an entry decoded from them (a failed refresh
// recorded into it keeps the copy, and its body). It is a slice of data,
// not a copy; nil when the copy is not parsed rules.
//
// ErrInvalidCopy and ErrCopyVersion as for DecodeEntry.
func StoredBody(data []byte) ([]byte, error) {
	r := C.go_entry_stored_body(bytesPtr(data), C.size_t(len(data)))
	runtime.KeepAlive(data)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return nil, failure("StoredBody", r.status, r.err, "")
	}
	if r.len == 0 {
		return nil, nil
	}
	start := int(r.offset)
	return data[start : start+int(r.len) : start+int(r.len)], nil
}

// RulesFor returns the rules for the crawler token under what the entry
// answers at now: the copy's own (kept while the file is unreachable), or
// rules that allow or disallow everything and say why (Rules.Blanket,
// Rules.RetryAt), as Cache.Lookup gives them. The Rules are yours: Close
// them when done; they stay valid whatever happens to the entry.
//
// A *TokenError for a token that is not a product token (RFC profile),
// whatever the answer.
func (e *Entry) RulesFor(now time.Time, token string) (*Rules, error) {
	e.rlock()
	defer e.mu.RUnlock()
	r := C.go_entry_rules_for(e.handle(), unixMS(now), cstr(token), C.size_t(len(token)))
	runtime.KeepAlive(token)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return nil, failure("Entry.RulesFor", r.status, r.err, token)
	}
	return newRules((*C.robotstxt_rules)(r.handle)), nil
}

// WithRetryAt returns a copy of the rules whose RetryAt is t, their rules
// and Blanket unchanged: what a cache over a shared store answers while
// another worker fetches, until that worker's lease runs out, as
// fleet.Cache does. The copy is yours to Close, and stays valid whatever
// happens to r.
func (r *Rules) WithRetryAt(t time.Time) (*Rules, error) {
	res := C.go_rules_with_retry_at(r.handle(), unixMS(t))
	runtime.KeepAlive(r)
	if res.status != C.ROBOTSTXT_STATUS_OK {
		return nil, failure("Rules.WithRetryAt", res.status, res.err, "")
	}
	return newRules((*C.robotstxt_rules)(res.handle)), nil
}

// FleetScript returns the Lua source of the fleet script name ("lookup",
// "store", "abandon", "reserve", "confirm", "cancel", "record",
// "set_delay", "set_enabled", "pace_state"), the shared prelude first,
// ready for EVAL or SCRIPT LOAD; each begins with its keys, arguments and
// answer. Every binding runs the same text, so fleets may mix languages.
//
// ErrInvalidArgument for another name; the message lists the names.
func FleetScript(name string) (string, error) {
	r := C.go_fleet_script(cstr(name), C.size_t(len(name)))
	runtime.KeepAlive(name)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return "", failure("FleetScript", r.status, r.err, "")
	}
	return gostr(r.text), nil // static text
}

// RobotsOrigin returns the origin whose /robots.txt governs url,
// scheme://host[:port] as Cache keys it (scheme and host in lower case, an
// international host in punycode, no default port): what a fleet's store
// keys a copy by.
//
// ErrInvalidURL for a URL the cache refuses (not absolute http or https
// with a host).
func RobotsOrigin(url string) (string, error) {
	var buf [1100]byte // always enough, says the core
	return written("RobotsOrigin", buf[:], func(out []byte) C.go_len {
		r := C.go_robots_origin(cstr(url), C.size_t(len(url)), bytesPtr(out), C.size_t(len(out)))
		runtime.KeepAlive(url)
		return r
	})
}

// PacerHost returns the key a Pacer tracks host by (ASCII letters in
// lower case): what a fleet's store keys a host's pace by.
//
// ErrInvalidHost for an empty or over-long host.
func PacerHost(host string) (string, error) {
	buf := make([]byte, max(len(host), 1)) // never longer than the host
	return written("PacerHost", buf, func(out []byte) C.go_len {
		r := C.go_pacer_host(cstr(host), C.size_t(len(host)), bytesPtr(out), C.size_t(len(out)))
		runtime.KeepAlive(host)
		return r
	})
}

// written runs call, which writes into the buffer it is given, with buf,
// and again with a buffer as long as it asks for if buf is too small.
func written(op string, buf []byte, call func(out []byte) C.go_len) (string, error) {
	r := call(buf)
	if r.status == C.ROBOTSTXT_STATUS_BUFFER_TOO_SMALL {
		buf = make([]byte, int(r.len))
		r = call(buf)
	}
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return "", failure(op, r.status, r.err, "")
	}
	return string(buf[:int(r.len)]), nil
}
