package robotstxt

import "runtime"

// Usage is one label's preference (behaviour §10.4): the token "y", the
// token "n", or "" when nothing usable is stated.
type Usage string

// The preferences a label can have.
const (
	// UsageUnknown: nothing usable stated (no statement names the label,
	// or one gives it a value other than y or n).
	UsageUnknown Usage = ""
	// UsageYes: the token y, the use is allowed.
	UsageYes Usage = "y"
	// UsageNo: the token n, the use is not allowed.
	UsageNo Usage = "n"
)

func usageOf(u uint32) Usage {
	switch u {
	case usageYes:
		return UsageYes
	case usageNo:
		return UsageNo
	}
	return UsageUnknown
}

// LabelPreference is one label's answer.
type LabelPreference struct {
	// Label is the label, such as "train-ai".
	Label string
	// Value is the combined preference.
	Value Usage
	// Lines are the 1-based lines whose statements gave Value (for
	// UsageUnknown, those that named the label with another value). A
	// label an HTTP field set has no lines for it.
	Lines []int
}

// Member is one member of a Content-Usage statement as written: the label
// and its value with parameters in RFC 9651 form ("n", "?1", "y;v=2").
type Member struct {
	// Key is the label.
	Key string
	// Value is the value and its parameters.
	Value string
}

// UsageStatement is a content-usage rule that applied to the URL.
type UsageStatement struct {
	// Line is its 1-based line.
	Line int
	// Path is its path pattern as compared ("/" when none was written).
	Path string
	// Members are the statement's members, for labels the vocabulary does
	// not define yet (none when the statement is invalid).
	Members []Member
}

// Preferences are the usage preferences for one URL (behaviour §10.3):
// of the selected groups' content-usage rules whose path matches the URL,
// the longest, combined per label (any n wins, then any y). It is plain
// data, copied out of the core.
type Preferences struct {
	// Crawlable is false when the rules disallow the URL; it then states
	// nothing.
	Crawlable bool
	// Decision is the access answer for the URL and the rule that gave it.
	Decision Decision
	// Labels are the labels answered: "train-ai" and "search" always and
	// first, then every other label a statement gives y or n.
	Labels []LabelPreference
	// Statements are the content-usage rules that applied, in file order.
	Statements []UsageStatement

	// What WithHeader asks again: the answer is not kept in the core.
	rules  *Rules
	url    string
	fields []string
}

// Get returns the preference for label, UsageUnknown when nothing states
// it.
func (p *Preferences) Get(label string) Usage {
	for _, l := range p.Labels {
		if l.Label == label {
			return l.Value
		}
	}
	return UsageUnknown
}

// Preferences returns the usage preferences for url (absolute or a path,
// as for Allowed): see Preferences. A URL the rules disallow states none.
// The error is nil for every URL: the answer exists for any bytes.
//
// Cost: one match of the URL against the selected content-usage rules,
// and copying the answer out.
func (r *Rules) Preferences(url string) (*Preferences, error) {
	return r.preferences("Rules.Preferences", url, nil)
}

// WithHeader returns p combined with the HTTP Content-Usage field of the
// response for the URL (behaviour §10.6): per label any n wins, then any
// y. A URL that is not crawlable keeps its answer. A field that is not an
// RFC 9651 Dictionary, or is empty, states nothing and is an *Error with
// Kind ErrInvalidField.
//
// The core keeps no answer, so WithHeader asks the Rules that made p
// again: they must not be closed yet (it panics otherwise), and p must
// come from Rules.Preferences or WithHeader.
func (p *Preferences) WithHeader(field string) (*Preferences, error) {
	if p == nil {
		panic("robotstxt: method called on a nil *Preferences")
	}
	if p.rules == nil {
		panic("robotstxt: Preferences.WithHeader on Preferences that Rules.Preferences did not make")
	}
	fields := append(p.fields[:len(p.fields):len(p.fields)], field)
	return p.rules.preferences("Preferences.WithHeader", p.url, fields)
}

// preferences asks the core for url's answer combined with each field in
// turn.
func (r *Rules) preferences(op, url string, fields []string) (*Preferences, error) {
	p, fieldFailed, f := corePreferences(r.handle(), url, fields)
	runtime.KeepAlive(r)
	if f.failed() {
		if !fieldFailed {
			must(op, f)
		}
		return nil, failure(op, f, "")
	}
	p.rules, p.url, p.fields = r, url, fields
	return p, nil
}

// Signal is one Content-Signal key and its answer.
type Signal struct {
	// Key is the key in lower case, such as "ai-train".
	Key string
	// Value is "yes", "no", or "" when no valid member sets the key.
	Value string
}

// ContentSignal is the combined content-signal lines of one crawler's
// groups (behaviour §10.5): per key any no wins, then any yes. It depends
// on no URL and on no access answer.
type ContentSignal struct {
	// Signals are "search", "ai-input" and "ai-train" always and first,
	// then every other key a valid member sets.
	Signals []Signal
	// Lines are the 1-based lines of the content-signal lines read.
	Lines []int
}

// Get returns the answer for key (lower case): "yes", "no", or "" when
// unset or not listed.
func (s *ContentSignal) Get(key string) string {
	for _, sig := range s.Signals {
		if sig.Key == key {
			return sig.Value
		}
	}
	return ""
}

// ContentSignal returns the crawler's Content-Signal, or nil when the
// selected groups hold no content-signal line (a named group replaces *
// even when it has none). The error is always nil: nothing a caller
// passes can make it fail.
func (r *Rules) ContentSignal() (*ContentSignal, error) {
	s, f := coreContentSignal(r.handle())
	runtime.KeepAlive(r)
	must("Rules.ContentSignal", f)
	return s, nil
}

// signalOf is one key of a content signal: "yes", "no", or "" when unset.
func signalOf(key string, isSet, yes bool) Signal {
	value := ""
	if isSet {
		value = "no"
		if yes {
			value = "yes"
		}
	}
	return Signal{Key: key, Value: value}
}

// OtherRecord is a line the library does not read (behaviour §10.7):
// Clean-param, LLM-Policy, Visit-time or any other unknown key, and a
// content-signal line before the first user-agent line. What it means is
// the caller's to decide.
type OtherRecord struct {
	// Key is the key as written.
	Key string
	// KeyLower is Key in ASCII lower case, for comparing keys.
	KeyLower string
	// Value is the rest of the line, comment removed, trimmed.
	Value string
	// Line is the 1-based line number.
	Line int
	// Group is the 0-based index of the group the line is in, or -1
	// before the first user-agent line (global).
	Group int
}

// OtherRecords returns every line the file has that the library does not
// read, in file order.
func (r *Robots) OtherRecords() []OtherRecord {
	return otherRecords("Robots.OtherRecords", r.handle(), nil, r)
}

// OtherRecords returns the other records that apply to the crawler: those
// of its selected groups and those before the first group, in file order.
func (r *Rules) OtherRecords() []OtherRecord {
	return otherRecords("Rules.OtherRecords", nil, r.handle(), r)
}

// otherRecords lists the records of robots, or of rules when not nil;
// owner is kept alive while their text is copied.
func otherRecords(op string, robots, rules *handle, owner any) []OtherRecord {
	out, f := coreOtherRecords(robots, rules)
	runtime.KeepAlive(owner)
	must(op, f)
	for i := range out {
		out[i].KeyLower = asciiLower(out[i].Key)
	}
	return out
}

// asciiLower lowers A-Z only, as the core compares keys; other bytes,
// invalid UTF-8 included, stay as they are.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
