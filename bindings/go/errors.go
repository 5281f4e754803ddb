package robotstxt

import (
	"errors"
	"fmt"
)

// The kinds of error a caller can cause. Match them with errors.Is:
//
//	if errors.Is(err, robotstxt.ErrInvalidToken) { ... }
//
// The error values themselves are *TokenError or *Error, which carry the
// core's message.
var (
	// ErrInvalidToken: in the RFC profile, a crawler name that is not a
	// product token (one or more of A-Z a-z _ -, such as ExampleBot).
	ErrInvalidToken = errors.New("robotstxt: not a product token")
	// ErrNoTokens: a selection by several tokens was given none.
	ErrNoTokens = errors.New("robotstxt: no tokens")
	// ErrParseLimit: a parse limit outside MinParseLimit..MaxParseLimit.
	ErrParseLimit = errors.New("robotstxt: parse limit out of range")
	// ErrInvalidOption: an option value the library does not know (such
	// as Profile(7)) or a negative duration.
	ErrInvalidOption = errors.New("robotstxt: invalid option")
	// ErrInvalidURL: the cache needs an absolute http or https URL with a
	// host.
	ErrInvalidURL = errors.New("robotstxt: invalid URL")
	// ErrInvalidHost: the pacer needs a host name that is neither empty
	// nor too long.
	ErrInvalidHost = errors.New("robotstxt: invalid host")
	// ErrInvalidArgument: a number outside its range, such as a negative
	// crawl delay or a request rate of 0 requests.
	ErrInvalidArgument = errors.New("robotstxt: invalid argument")
	// ErrInvalidLease: a cache lease stored or abandoned twice, or one
	// that ran out while a newer lease of its origin stored a copy (a late
	// answer never replaces a newer one).
	ErrInvalidLease = errors.New("robotstxt: invalid lease")
	// ErrClosed: a lease stored or abandoned after its Cache was closed,
	// or a fleet.Cache or fleet.Pacer used after Close.
	ErrClosed = errors.New("robotstxt: cache closed")
	// ErrInvalidTicket: a pacer ticket confirmed again after it was told
	// go or disabled, or confirmed with another pacer.
	ErrInvalidTicket = errors.New("robotstxt: invalid ticket")
	// ErrPacerFull: a new host while the pacer tracks as many hosts as its
	// capacity and none can be forgotten safely (switched off, backing off,
	// a request in flight or inside its gap).
	ErrPacerFull = errors.New("robotstxt: pacer full")
	// ErrHostDisabled: Pacer.Wait for a host switched off with
	// Pacer.SetEnabled.
	ErrHostDisabled = errors.New("robotstxt: host switched off")
	// ErrInvalidField: an HTTP Content-Usage field given to
	// Preferences.WithHeader that is not an RFC 9651 Dictionary, or is
	// empty; it states nothing. The message says which.
	ErrInvalidField = errors.New("robotstxt: invalid Content-Usage field")
	// ErrInvalidCopy: bytes given to DecodeEntry or StoredBody that are not
	// a whole, intact stored copy (damaged, cut short, or not one at all).
	ErrInvalidCopy = errors.New("robotstxt: invalid stored copy")
	// ErrCopyVersion: a stored copy in a format this library does not
	// read: a newer library wrote it.
	ErrCopyVersion = errors.New("robotstxt: stored copy of another format version")
	// ErrBodyMismatch: Entry.Encode given another body than the one the
	// entry's copy was parsed from.
	ErrBodyMismatch = errors.New("robotstxt: body mismatch")
)

// TokenError is the error for a crawler name that is not a product token
// (RFC profile). errors.Is(err, ErrInvalidToken) holds for it.
type TokenError struct {
	// Token is the name as passed ("" when a selection by several tokens
	// failed: the message names the bad one).
	Token string
	// Message is the core's explanation: what was passed and what a
	// product token looks like.
	Message string
}

// Error returns the core's message.
func (e *TokenError) Error() string { return "robotstxt: " + e.Message }

// Is reports whether target is ErrInvalidToken.
func (e *TokenError) Is(target error) bool { return target == ErrInvalidToken }

// Error is any other error a caller can cause: a bad option, an empty token
// list, a URL the cache cannot key, a host the pacer cannot key, a lease
// used twice, a ticket confirmed after it was spent, a full pacer, a
// Content-Usage field that states nothing, a stored copy that cannot be
// read or encoded.
// errors.Is(err, Kind) holds for its Kind.
type Error struct {
	// Kind is one of the Err* values above other than ErrInvalidToken.
	Kind error
	// Message is the core's explanation of what was wrong.
	Message string
}

// Error returns the core's message.
func (e *Error) Error() string { return "robotstxt: " + e.Message }

// Is reports whether target is e.Kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns e.Kind.
func (e *Error) Unwrap() error { return e.Kind }

// failure turns a failed call into an error the caller can act on, or
// panics when the failure can only come from a bug (a NULL, an index out of
// range, a panic in the core). token is the token passed, for TokenError.
func failure(op string, f fault, token string) error {
	msg := f.msg
	if msg == "" {
		msg = coreStatusMessage(f.status)
	}
	var kind error
	switch f.status {
	case statusInvalidToken:
		return &TokenError{Token: token, Message: msg}
	case statusNoTokens:
		kind = ErrNoTokens
	case statusParseLimit:
		kind = ErrParseLimit
	case statusInvalidOption:
		kind = ErrInvalidOption
	case statusInvalidURL:
		kind = ErrInvalidURL
	case statusInvalidHost:
		kind = ErrInvalidHost
	case statusInvalidArgument:
		kind = ErrInvalidArgument
	case statusInvalidLease:
		kind = ErrInvalidLease
	case statusInvalidTicket:
		kind = ErrInvalidTicket
	case statusPacerFull:
		kind = ErrPacerFull
	case statusInvalidField:
		kind = ErrInvalidField
	case statusInvalidCopy:
		kind = ErrInvalidCopy
	case statusCopyVersion:
		kind = ErrCopyVersion
	case statusBodyMismatch:
		kind = ErrBodyMismatch
	default:
		panic(fmt.Sprintf("robotstxt: %s failed: %s (status %d): %s; this is a bug, please report it",
			op, coreStatusMessage(f.status), f.status, msg))
	}
	return &Error{Kind: kind, Message: msg}
}

// must panics unless the call succeeded: for calls that fail only on a
// bug.
func must(op string, f fault) {
	if f.failed() {
		err := failure(op, f, "")
		panic(fmt.Sprintf("robotstxt: %s failed unexpectedly: %v", op, err))
	}
}
