package robotstxt

// #include "shim.h"
import "C"

import (
	"runtime"
	"strings"
)

// LineKind is what a line is, from its key.
type LineKind uint32

// The kinds of line.
const (
	LineUserAgent   LineKind = C.ROBOTSTXT_LINE_USER_AGENT   // user-agent (also useragent, user agent)
	LineAllow       LineKind = C.ROBOTSTXT_LINE_ALLOW        // allow
	LineDisallow    LineKind = C.ROBOTSTXT_LINE_DISALLOW     // disallow (also its accepted typos)
	LineSitemap     LineKind = C.ROBOTSTXT_LINE_SITEMAP      // sitemap (also site-map)
	LineCrawlDelay  LineKind = C.ROBOTSTXT_LINE_CRAWL_DELAY  // crawl-delay (extension)
	LineRequestRate LineKind = C.ROBOTSTXT_LINE_REQUEST_RATE // request-rate (extension)
	LineHost        LineKind = C.ROBOTSTXT_LINE_HOST         // host (Yandex extension)
	LineUnknown     LineKind = C.ROBOTSTXT_LINE_UNKNOWN      // a key the library does not know; ignored
	LineInvalid     LineKind = C.ROBOTSTXT_LINE_INVALID      // neither blank nor a comment, yet no key; ignored
	// content-usage: a usage-preference rule (behaviour §10.2)
	LineContentUsage LineKind = C.ROBOTSTXT_LINE_CONTENT_USAGE
	// content-signal (also content-signals; behaviour §10.5)
	LineContentSignal LineKind = C.ROBOTSTXT_LINE_CONTENT_SIGNAL
)

// String returns the kind as diagnostics print it: "user-agent", "allow",
// "disallow", "sitemap", "crawl-delay", "request-rate", "host", "unknown",
// "invalid", "content-usage" or "content-signal".
func (k LineKind) String() string {
	if name := C.robotstxt_line_kind_name(C.robotstxt_line_kind(k)); name != nil {
		return C.GoString(name)
	}
	return "LineKind(" + itoa(uint64(k)) + ")"
}

// DiagnosticFlags is a set of Flag* bits.
type DiagnosticFlags uint32

// The flags a line may carry.
const (
	// FlagTypo: the key is one of Google's accepted typos (dissallow...).
	FlagTypo DiagnosticFlags = C.ROBOTSTXT_FLAG_TYPO
	// FlagMissingColon: "key value" without a colon, accepted as Google does.
	FlagMissingColon DiagnosticFlags = C.ROBOTSTXT_FLAG_MISSING_COLON
	// FlagTooLong: Google profile, the line was cut to 16,663 bytes.
	FlagTooLong DiagnosticFlags = C.ROBOTSTXT_FLAG_TOO_LONG
	// FlagOutsideGroup: a group record before any user-agent line; ignored.
	FlagOutsideGroup DiagnosticFlags = C.ROBOTSTXT_FLAG_OUTSIDE_GROUP
	// FlagInvalidValue: a crawl-delay or request-rate that does not parse
	// (ignored), or an allow/disallow value that starts with neither "/"
	// nor "*" (still applied).
	FlagInvalidValue DiagnosticFlags = C.ROBOTSTXT_FLAG_INVALID_VALUE
	// FlagUnknownKey: the key is none the library knows; the line is
	// ignored.
	FlagUnknownKey DiagnosticFlags = C.ROBOTSTXT_FLAG_UNKNOWN_KEY
	// FlagInvalidStatement: a content-usage statement that is no RFC 9651
	// Dictionary; the rule is kept and states nothing.
	FlagInvalidStatement DiagnosticFlags = C.ROBOTSTXT_FLAG_INVALID_STATEMENT
	// FlagEmptyStatement: a content-usage path with no statement; the rule
	// is kept and states nothing.
	FlagEmptyStatement DiagnosticFlags = C.ROBOTSTXT_FLAG_EMPTY_STATEMENT
	// FlagUnknownPreference: a content-usage label whose value is not the
	// token y or n (unknown), or a content-signal member not key=yes|no
	// (ignored).
	FlagUnknownPreference DiagnosticFlags = C.ROBOTSTXT_FLAG_UNKNOWN_PREFERENCE
)

// Names returns the name of each flag set, in increasing bit order (the
// order lint output uses): "typo", "missing-colon", "too-long",
// "outside-group", "invalid-value", "unknown-key", "invalid-statement",
// "empty-statement", "unknown-preference".
func (f DiagnosticFlags) Names() []string {
	var names []string
	for bit := DiagnosticFlags(1); bit != 0 && bit <= f; bit <<= 1 {
		if f&bit == 0 {
			continue
		}
		if name := C.robotstxt_diagnostic_flag_name(C.robotstxt_diagnostic_flags(bit)); name != nil {
			names = append(names, C.GoString(name))
		} else {
			names = append(names, "flag("+itoa(uint64(bit))+")")
		}
	}
	return names
}

// String joins Names with ", ".
func (f DiagnosticFlags) String() string { return strings.Join(f.Names(), ", ") }

// Diagnostic is what one line has to report.
type Diagnostic struct {
	// Line is the 1-based line number.
	Line int
	// Kind is what the line is.
	Kind LineKind
	// Flags are what is odd about it.
	Flags DiagnosticFlags
}

// Diagnostics lists the lines that have something to report, in line
// order: unknown and invalid lines, and lines with a flag. Blank and
// comment lines never appear.
func (r *Robots) Diagnostics() []Diagnostic {
	h := r.handle()
	n := C.go_diagnostic_count(h)
	must("Robots.Diagnostics", n.status, n.err)
	out := make([]Diagnostic, 0, int(n.count))
	for i := C.size_t(0); i < n.count; i++ {
		d := C.go_diagnostic_at(h, i)
		must("Robots.Diagnostics", d.status, d.err)
		out = append(out, Diagnostic{
			Line:  int(d.diagnostic.line),
			Kind:  LineKind(d.diagnostic.kind),
			Flags: DiagnosticFlags(d.diagnostic.flags),
		})
	}
	runtime.KeepAlive(r)
	return out
}
