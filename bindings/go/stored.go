package robotstxt

// What a fleet's shared store needs from the core: an Entry as bytes and
// back, its rules, the keys a copy and a host's pace are stored under, and
// the Lua scripts that run each shared step in Redis. The fleet package
// (fleet.Cache, fleet.Pacer) uses them; they are exported for it and for a
// crawler that brings its own store code.

import (
	"runtime"
	"time"
)

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
	n, f := coreEntryEncode(h, body, nil)
	for f.status == statusBufferTooSmall {
		out := make([]byte, n)
		if n, f = coreEntryEncode(h, body, out); !f.failed() {
			return out[:n], nil
		}
	}
	if f.failed() {
		return nil, failure("Entry.Encode", f, "")
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
	h, f := coreEntryDecode(data, p)
	if f.failed() {
		return nil, failure("DecodeEntry", f, "")
	}
	return newEntry(h), nil
}

// StoredBody returns the body that bytes from Encode carry: what to pass
// to Encode again for an entry decoded from them (a failed refresh
// recorded into it keeps the copy, and its body). It is a slice of data,
// not a copy; nil when the copy is not parsed rules.
//
// ErrInvalidCopy and ErrCopyVersion as for DecodeEntry.
func StoredBody(data []byte) ([]byte, error) {
	start, n, f := coreStoredBody(data)
	if f.failed() {
		return nil, failure("StoredBody", f, "")
	}
	if n == 0 {
		return nil, nil
	}
	return data[start : start+n : start+n], nil
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
	h, f := coreEntryRulesFor(e.handle(), unixMS(now), token)
	if f.failed() {
		return nil, failure("Entry.RulesFor", f, token)
	}
	return newRules(h), nil
}

// WithRetryAt returns a copy of the rules whose RetryAt is t, their rules
// and Blanket unchanged: what a cache over a shared store answers while
// another worker fetches, until that worker's lease runs out, as
// fleet.Cache does. The copy is yours to Close, and stays valid whatever
// happens to r.
func (r *Rules) WithRetryAt(t time.Time) (*Rules, error) {
	h, f := coreRulesWithRetryAt(r.handle(), unixMS(t))
	runtime.KeepAlive(r)
	if f.failed() {
		return nil, failure("Rules.WithRetryAt", f, "")
	}
	return newRules(h), nil
}

// FleetScript returns the Lua source of the fleet script name ("lookup",
// "store", "abandon", "reserve", "confirm", "cancel", "record",
// "set_delay", "set_enabled", "pace_state"), the shared prelude first,
// ready for EVAL or SCRIPT LOAD; each begins with its keys, arguments and
// answer. Every binding runs the same text, so fleets may mix languages.
//
// ErrInvalidArgument for another name; the message lists the names.
func FleetScript(name string) (string, error) {
	script, f := coreFleetScript(name)
	if f.failed() {
		return "", failure("FleetScript", f, "")
	}
	return script, nil
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
	return written("RobotsOrigin", buf[:], func(out []byte) (int, fault) { return coreRobotsOrigin(url, out) })
}

// PacerHost returns the key a Pacer tracks host by (ASCII letters in
// lower case): what a fleet's store keys a host's pace by.
//
// ErrInvalidHost for an empty or over-long host.
func PacerHost(host string) (string, error) {
	buf := make([]byte, max(len(host), 1)) // never longer than the host
	return written("PacerHost", buf, func(out []byte) (int, fault) { return corePacerHost(host, out) })
}

// written runs call, which writes into the buffer it is given, with buf,
// and again with a buffer as long as it asks for if buf is too small.
func written(op string, buf []byte, call func(out []byte) (int, fault)) (string, error) {
	n, f := call(buf)
	if f.status == statusBufferTooSmall {
		buf = make([]byte, n)
		n, f = call(buf)
	}
	if f.failed() {
		return "", failure(op, f, "")
	}
	return string(buf[:n]), nil
}
