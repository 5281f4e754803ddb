package robotstxt

import (
	"runtime"
	"strings"
)

// LineKind is what a line is, from its key.
type LineKind uint32

// The kinds of line.
const (
	LineUserAgent   LineKind = 0 // user-agent (also useragent, user agent)
	LineAllow       LineKind = 1 // allow
	LineDisallow    LineKind = 2 // disallow (also its accepted typos)
	LineSitemap     LineKind = 3 // sitemap (also site-map)
	LineCrawlDelay  LineKind = 4 // crawl-delay (extension)
	LineRequestRate LineKind = 5 // request-rate (extension)
	LineHost        LineKind = 6 // host (Yandex extension)
	LineUnknown     LineKind = 7 // a key the library does not know; ignored
	LineInvalid     LineKind = 8 // neither blank nor a comment, yet no key; ignored
	// content-usage: a usage-preference rule (behaviour §10.2)
	LineContentUsage LineKind = 9
	// content-signal (also content-signals; behaviour §10.5)
	LineContentSignal LineKind = 10
)

// String returns the kind as diagnostics print it: "user-agent", "allow",
// "disallow", "sitemap", "crawl-delay", "request-rate", "host", "unknown",
// "invalid", "content-usage" or "content-signal".
func (k LineKind) String() string {
	if name, ok := coreLineKindName(uint32(k)); ok {
		return name
	}
	return "LineKind(" + itoa(uint64(k)) + ")"
}

// DiagnosticFlags is a set of Flag* bits.
type DiagnosticFlags uint32

// The flags a line may carry.
const (
	// FlagTypo: the key is one of Google's accepted typos (dissallow...).
	FlagTypo DiagnosticFlags = 1 << 0
	// FlagMissingColon: "key value" without a colon, accepted as Google does.
	FlagMissingColon DiagnosticFlags = 1 << 1
	// FlagTooLong: Google profile, the line was cut to 16,663 bytes.
	FlagTooLong DiagnosticFlags = 1 << 2
	// FlagOutsideGroup: a group record before any user-agent line; ignored.
	FlagOutsideGroup DiagnosticFlags = 1 << 3
	// FlagInvalidValue: a crawl-delay or request-rate that does not parse
	// (ignored), or an allow/disallow value that starts with neither "/"
	// nor "*" (still applied).
	FlagInvalidValue DiagnosticFlags = 1 << 4
	// FlagUnknownKey: the key is none the library knows; the line is
	// ignored.
	FlagUnknownKey DiagnosticFlags = 1 << 5
	// FlagInvalidStatement: a content-usage statement that is no RFC 9651
	// Dictionary; the rule is kept and states nothing.
	FlagInvalidStatement DiagnosticFlags = 1 << 6
	// FlagEmptyStatement: a content-usage path with no statement; the rule
	// is kept and states nothing.
	FlagEmptyStatement DiagnosticFlags = 1 << 7
	// FlagUnknownPreference: a content-usage label whose value is not the
	// token y or n (unknown), or a content-signal member not key=yes|no
	// (ignored).
	FlagUnknownPreference DiagnosticFlags = 1 << 8
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
		if name, ok := coreFlagName(uint32(bit)); ok {
			names = append(names, name)
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
	out, f := coreDiagnostics(r.handle())
	runtime.KeepAlive(r)
	must("Robots.Diagnostics", f)
	return out
}
