package robotstxt

// The core layer. Every call into the compiled core goes through the core*
// functions, which take and return Go values, so that the files of the
// public API hold no C and run on either implementation, chosen by build
// constraints:
//
//   - core_cgo.go calls the core linked through cgo (librobotstxt.a), where
//     cgo is on and a prebuilt library exists (or robotstxt_from_source);
//   - core_wazero.go calls the core compiled to WebAssembly, run in pure Go
//     by wazero (internal/wasmcore), everywhere else.
//
// Both implement the same functions with the same signatures; the test
// suite runs against each. A handle is an object of the core (a parsed
// file, rules, preferences, an entry, a cache, a lease, a pacer, a ticket)
// as a *handle, nil for none; what it is inside is the implementation's.
// Text passed in is read during the call only; text handed back is copied
// into Go strings before the call returns, so no result borrows from a
// handle. A failed call returns a fault.

// fault is how a core call ended: statusOK, or the status and the core's
// message (copied; "" when it gave none).
type fault struct {
	status uint32
	msg    string
}

func (f fault) failed() bool { return f.status != statusOK }

// The core's statuses (ROBOTSTXT_STATUS_* in include/robotstxt.h;
// core_cgo_test.go checks every value against the header).
const (
	statusOK              = 0
	statusNullArgument    = 1
	statusInvalidArgument = 2
	statusInvalidToken    = 3
	statusNoTokens        = 4
	statusParseLimit      = 5
	statusInvalidOption   = 6
	statusIndexOutOfRange = 7
	statusInvalidURL      = 8
	statusInvalidHost     = 9
	statusInvalidLease    = 10
	statusInvalidTicket   = 11
	statusPacerFull       = 12
	statusInvalidField    = 13
	statusInvalidCopy     = 14
	statusCopyVersion     = 15
	statusBodyMismatch    = 16
	statusBufferTooSmall  = 17
	statusPanic           = 100
)

// The core's other enumerations that only the layer's callers read
// (ROBOTSTXT_CAUSE_NONE, ROBOTSTXT_USAGE_*); the public ones are the
// exported constants of each type.
const (
	causeNone    = 0
	usageUnknown = 0
	usageYes     = 1
	usageNo      = 2
)

// How rulesFor selects: one token, any of several, or strictest-of.
const (
	selectOne = iota
	selectAny
	selectStrictest
)

// coreOptions are robotstxt_options.
type coreOptions struct {
	profile    uint32
	parseLimit uint64
	typos      bool
}

// corePolicy is robotstxt_freshness_policy.
type corePolicy struct {
	freshForMS, retryMS, unreachableLimitMS uint64
	afterLimit, access                      uint32
	options                                 coreOptions
}

// coreCacheOptions are robotstxt_cache_options.
type coreCacheOptions struct {
	capacity uint64
	leaseMS  uint64
	policy   corePolicy
}

// corePacerOptions are robotstxt_pacer_options.
type corePacerOptions struct {
	floorMS, backoffCapMS uint64
	capacity              uint64
	maxInFlight           uint32
	inFlightTimeoutMS     uint64
}

// coreBlanket is robotstxt_blanket with robotstxt_rules_retry_at's answer.
type coreBlanket struct {
	blanket    Blanket
	isBlanket  bool
	retryAtMS  uint64
	hasRetryAt bool
}

// entryState is everything an entry says at one time.
type entryState struct {
	due          bool
	dueAtMS      uint64
	fetchedAtMS  uint64
	hasFetchedAt bool
	failures     uint32
	hasCopy      bool
	validators   Validators // "" where absent
}

// coreLookup is robotstxt_lookup, and for a fetch the lease's origin, URL
// and validators.
type coreLookup struct {
	kind, answer uint32
	stale        bool
	rules, lease *handle
	untilMS      uint64
	blanket      Blanket
	isBlanket    bool
	hasRetryAt   bool
	retryAtMS    uint64
	origin       string
	robotsURL    string
	validators   Validators
}

// coreConfirm is robotstxt_confirm.
type coreConfirm struct {
	kind    uint32
	untilMS uint64
	busy    bool
}
