//go:build (!cgo || !(robotstxt_from_source || (linux && !android && (amd64 || arm64)) || (darwin && !ios && (amd64 || arm64)) || (windows && amd64)) || robotstxt_wasm) && !robotstxt_nowasm

package robotstxt

// The core layer (core.go) over the core compiled to WebAssembly, run by
// wazero in pure Go (internal/wasmcore): each function locks the process's
// instance, copies what it passes into the module's memory, calls the
// export of the same name as the C function, and copies the answer out.
// The C structs are read at their wasm32 offsets (pointers and size_t are
// 4 bytes, uint64_t 8-aligned).

import (
	"math"

	"github.com/robotstxt-engine/robotstxt-go/internal/wasmcore"
)

// handle is an object of the core: its address in the memory of the
// instance that made it, where it stays.
type handle struct {
	in   *wasmcore.Instance
	addr uint32
}

// core is the process's instance (made on first use).
func core() *wasmcore.Instance { return wasmcore.Shared() }

// newHandle wraps the address read at out, nil for NULL.
func newHandle(in *wasmcore.Instance, out uint32) *handle {
	if addr := in.U32(out); addr != 0 {
		return &handle{in: in, addr: addr}
	}
	return nil
}

// addr is h's address, 0 for nil (NULL).
func (h *handle) ptr() uint64 {
	if h == nil {
		return 0
	}
	return uint64(h.addr)
}

// faultAt is the fault of status, with the core's last-error message; in
// is still locked since the call that failed.
func faultAt(in *wasmcore.Instance, status uint32) fault {
	if status == statusOK {
		return fault{}
	}
	out := in.Out(8)
	f := fault{status: status}
	if in.Status(wasmcore.LastError, uint64(out), uint64(out+4)) == statusOK {
		f.msg = in.Text(in.U32(out), in.U32(out+4))
	}
	return f
}

// size is n as a wasm32 size_t: anything larger is out of range either way,
// and stays so.
func size(n uint64) uint64 { return min(n, math.MaxUint32) }

func b64(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// text reads a robotstxt_str at p.
func text(in *wasmcore.Instance, p uint32) string { return in.Text(in.U32(p), in.U32(p+4)) }

// putText writes s as a robotstxt_str at p.
func putText(in *wasmcore.Instance, p uint32, s string) {
	in.PutU32(p, in.String(s))
	in.PutU32(p+4, uint32(len(s)))
}

// --- names, versions and defaults ---

func coreVersion() string {
	in := core()
	in.Lock()
	defer in.Unlock()
	return in.CString(uint32(in.Call(wasmcore.Version)))
}

func coreStatusMessage(status uint32) string {
	in := core()
	in.Lock()
	defer in.Unlock()
	return in.CString(uint32(in.Call(wasmcore.StatusMessage, uint64(status))))
}

func name(f wasmcore.Func, v uint32) (string, bool) {
	in := core()
	in.Lock()
	defer in.Unlock()
	p := uint32(in.Call(f, uint64(v)))
	return in.CString(p), p != 0
}

func coreDecisionKindName(k uint32) (string, bool) { return name(wasmcore.DecisionKindName, k) }

func coreLineKindName(k uint32) (string, bool) { return name(wasmcore.LineKindName, k) }

func coreFlagName(bit uint32) (string, bool) { return name(wasmcore.DiagnosticFlagName, bit) }

func coreRetryLater(d uint32) bool {
	in := core()
	in.Lock()
	defer in.Unlock()
	return in.Call(wasmcore.DispositionRetryLater, uint64(d))&0xff != 0
}

// robotstxt_options: profile @0, parse_limit @4, typos @8; 12 bytes.
const optionsSize = 12

func readOptions(in *wasmcore.Instance, p uint32) coreOptions {
	return coreOptions{profile: in.U32(p), parseLimit: uint64(in.U32(p + 4)), typos: in.Bool(p + 8)}
}

func writeOptions(in *wasmcore.Instance, p uint32, o coreOptions) {
	in.PutU32(p, o.profile)
	in.PutU32(p+4, uint32(size(o.parseLimit)))
	in.PutBool(p+8, o.typos)
}

// robotstxt_freshness_policy: fresh_for_ms @0, retry_ms @8,
// unreachable_limit_ms @16, after_limit @24, access @28, options @32; 48.
const policySize = 48

func readPolicy(in *wasmcore.Instance, p uint32) corePolicy {
	return corePolicy{
		freshForMS: in.U64(p), retryMS: in.U64(p + 8), unreachableLimitMS: in.U64(p + 16),
		afterLimit: in.U32(p + 24), access: in.U32(p + 28), options: readOptions(in, p+32),
	}
}

func writePolicy(in *wasmcore.Instance, p uint32, c corePolicy) {
	in.PutU64(p, c.freshForMS)
	in.PutU64(p+8, c.retryMS)
	in.PutU64(p+16, c.unreachableLimitMS)
	in.PutU32(p+24, c.afterLimit)
	in.PutU32(p+28, c.access)
	writeOptions(in, p+32, c.options)
}

func coreOptionsDefault() coreOptions {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(optionsSize)
	in.Call(wasmcore.OptionsDefault, uint64(out))
	return readOptions(in, out)
}

func corePolicyDefault() corePolicy {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(policySize)
	in.Call(wasmcore.FreshnessPolicyDefault, uint64(out))
	return readPolicy(in, out)
}

// robotstxt_cache_options: capacity @0, lease_ms @8, policy @16; 64.
func coreCacheOptionsDefault() coreCacheOptions {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(16 + policySize)
	in.Call(wasmcore.CacheOptionsDefault, uint64(out))
	return coreCacheOptions{capacity: uint64(in.U32(out)), leaseMS: in.U64(out + 8), policy: readPolicy(in, out+16)}
}

// robotstxt_pacer_options: floor_ms @0, backoff_cap_ms @8, capacity @16,
// max_in_flight @20, in_flight_timeout_ms @24; 32.
func corePacerOptionsDefault() corePacerOptions {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(32)
	in.Call(wasmcore.PacerOptionsDefault, uint64(out))
	return corePacerOptions{
		floorMS: in.U64(out), backoffCapMS: in.U64(out + 8), capacity: uint64(in.U32(out + 16)),
		maxInFlight: in.U32(out + 20), inFlightTimeoutMS: in.U64(out + 24),
	}
}

// --- parsing and selecting ---

func coreParse(body []byte, withOptions bool, o coreOptions) (*handle, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	var st uint32
	if withOptions {
		opts := in.Out(optionsSize)
		writeOptions(in, opts, o)
		st = in.Status(wasmcore.RobotsParseWith, uint64(in.Bytes(body)), uint64(len(body)), uint64(opts), uint64(out))
	} else {
		st = in.Status(wasmcore.RobotsParse, uint64(in.Bytes(body)), uint64(len(body)), uint64(out))
	}
	if st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

func free(f wasmcore.Func, h *handle) {
	h.in.Lock()
	defer h.in.Unlock()
	h.in.Call(f, uint64(h.addr))
}

func coreRobotsFree(h *handle) { free(wasmcore.RobotsFree, h) }

// u32Of calls f(h, out) and reads a uint32 at out.
func u32Of(f wasmcore.Func, h *handle) (uint32, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	if st := in.Status(f, uint64(h.addr), uint64(out)); st != statusOK {
		return 0, faultAt(in, st)
	}
	return in.U32(out), fault{}
}

func coreRobotsProfile(h *handle) (uint32, fault) { return u32Of(wasmcore.RobotsProfile, h) }

func coreRulesFor(h *handle, mode int, token string, tokens []string) (*handle, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	var st uint32
	if mode == selectOne {
		st = in.Status(wasmcore.RobotsRulesFor, uint64(h.addr), uint64(in.String(token)), uint64(len(token)), uint64(out))
	} else {
		var list uint32
		if len(tokens) > 0 {
			list = in.Out(8 * in32(len(tokens)))
			for i, t := range tokens {
				putText(in, list+8*uint32(i), t)
			}
		}
		f := wasmcore.RobotsRulesForAny
		if mode == selectStrictest {
			f = wasmcore.RobotsRulesForStrictest
		}
		st = in.Status(f, uint64(h.addr), uint64(list), uint64(len(tokens)), uint64(out))
	}
	if st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

// in32 is a count that must fit in the module's memory.
func in32(n int) uint32 {
	if uint64(n) > math.MaxUint32/64 {
		panic("robotstxt: too many items for the WebAssembly core's memory")
	}
	return uint32(n)
}

// count calls f(h, out) and reads a size_t at out.
func count(in *wasmcore.Instance, f wasmcore.Func, h uint64) (uint32, fault) {
	out := in.Out(4)
	if st := in.Status(f, h, uint64(out)); st != statusOK {
		return 0, faultAt(in, st)
	}
	return in.U32(out), fault{}
}

func coreSitemaps(h *handle) ([]string, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	n, f := count(in, wasmcore.RobotsSitemapCount, uint64(h.addr))
	if f.failed() {
		return nil, f
	}
	out := in.Out(8)
	list := make([]string, 0, int(n))
	for i := uint32(0); i < n; i++ {
		if st := in.Status(wasmcore.RobotsSitemap, uint64(h.addr), uint64(i), uint64(out), uint64(out+4)); st != statusOK {
			return nil, faultAt(in, st)
		}
		list = append(list, text(in, out))
	}
	return list, fault{}
}

func coreHost(h *handle) (string, bool, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(12)
	if st := in.Status(wasmcore.RobotsHost, uint64(h.addr), uint64(out), uint64(out+4), uint64(out+8)); st != statusOK {
		return "", false, faultAt(in, st)
	}
	return text(in, out), in.Bool(out + 8), fault{}
}

func coreProductToken(userAgent string) (offset, n int, f fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(8)
	ua := in.String(userAgent)
	if st := in.Status(wasmcore.ProductToken, uint64(ua), uint64(len(userAgent)), uint64(out), uint64(out+4)); st != statusOK {
		return 0, 0, faultAt(in, st)
	}
	if n = int(in.U32(out + 4)); n > 0 {
		offset = int(in.U32(out) - ua) // the token is a part of the header
	}
	return offset, n, fault{}
}

// --- rules ---

func coreRulesFree(h *handle) { free(wasmcore.RulesFree, h) }

func coreCanFetch(h *handle, url string) (bool, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(1)
	if st := in.Status(wasmcore.RulesCanFetch, uint64(h.addr), uint64(in.String(url)), uint64(len(url)), uint64(out)); st != statusOK {
		return false, faultAt(in, st)
	}
	return in.Bool(out), fault{}
}

// robotstxt_decision: allowed @0, line @4, kind @8, pattern @12; 20.
func readDecision(in *wasmcore.Instance, p uint32) Decision {
	return Decision{Allowed: in.Bool(p), Line: int(in.U32(p + 4)), Kind: DecisionKind(in.U32(p + 8)), Pattern: text(in, p+12)}
}

func coreDecide(h *handle, url string) (Decision, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(20)
	if st := in.Status(wasmcore.RulesDecide, uint64(h.addr), uint64(in.String(url)), uint64(len(url)), uint64(out)); st != statusOK {
		return Decision{}, faultAt(in, st)
	}
	return readDecision(in, out), fault{}
}

// robotstxt_blanket: is_blanket @0, allowed @1, cause @4, http_status @8,
// redirects @12; 16.
func readBlanket(in *wasmcore.Instance, p uint32) (Blanket, bool) {
	return Blanket{Allowed: in.Bool(p + 1), Cause: Cause(in.U32(p + 4)), Status: int(in.U16(p + 8)),
		Redirects: int(in.U32(p + 12))}, in.Bool(p)
}

func coreRulesBlanket(h *handle) (coreBlanket, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(32)
	if st := in.Status(wasmcore.RulesBlanket, uint64(h.addr), uint64(out)); st != statusOK {
		return coreBlanket{}, faultAt(in, st)
	}
	if st := in.Status(wasmcore.RulesRetryAt, uint64(h.addr), uint64(out+16), uint64(out+24)); st != statusOK {
		return coreBlanket{}, faultAt(in, st)
	}
	b := coreBlanket{retryAtMS: in.U64(out + 16), hasRetryAt: in.Bool(out + 24)}
	b.blanket, b.isBlanket = readBlanket(in, out)
	return b, fault{}
}

func coreRulesCompile(h *handle) fault {
	in := h.in
	in.Lock()
	defer in.Unlock()
	return faultAt(in, in.Status(wasmcore.RulesCompile, uint64(h.addr)))
}

func coreCrawlDelay(h *handle) (float64, bool, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(16)
	if st := in.Status(wasmcore.RulesCrawlDelay, uint64(h.addr), uint64(out), uint64(out+8)); st != statusOK {
		return 0, false, faultAt(in, st)
	}
	return in.F64(out), in.Bool(out + 8), fault{}
}

func coreRequestRate(h *handle) (RequestRate, bool, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(12)
	if st := in.Status(wasmcore.RulesRequestRate, uint64(h.addr), uint64(out), uint64(out+4), uint64(out+8)); st != statusOK {
		return RequestRate{}, false, faultAt(in, st)
	}
	return RequestRate{Requests: in.U32(out), Seconds: in.U32(out + 4)}, in.Bool(out + 8), fault{}
}

func coreRulesWithRetryAt(h *handle, retryAtMS uint64) (*handle, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	if st := in.Status(wasmcore.RulesWithRetryAt, uint64(h.addr), retryAtMS, uint64(out)); st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

// --- file records and diagnostics ---

// robotstxt_diagnostic: line @0, kind @4, flags @8; 12.
func coreDiagnostics(h *handle) ([]Diagnostic, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	n, f := count(in, wasmcore.RobotsDiagnosticCount, uint64(h.addr))
	if f.failed() {
		return nil, f
	}
	out := in.Out(12)
	list := make([]Diagnostic, 0, int(n))
	for i := uint32(0); i < n; i++ {
		if st := in.Status(wasmcore.RobotsDiagnostic, uint64(h.addr), uint64(i), uint64(out)); st != statusOK {
			return nil, faultAt(in, st)
		}
		list = append(list, Diagnostic{Line: int(in.U32(out)), Kind: LineKind(in.U32(out + 4)),
			Flags: DiagnosticFlags(in.U32(out + 8))})
	}
	return list, fault{}
}

// robotstxt_other_record: key @0, value @8, line @16, in_group @20,
// group @24; 28.
func coreOtherRecords(robots, rules *handle) ([]OtherRecord, fault) {
	h, countF, recordF := robots, wasmcore.RobotsOtherRecordCount, wasmcore.RobotsOtherRecord
	if rules != nil {
		h, countF, recordF = rules, wasmcore.RulesOtherRecordCount, wasmcore.RulesOtherRecord
	}
	in := h.in
	in.Lock()
	defer in.Unlock()
	n, f := count(in, countF, uint64(h.addr))
	if f.failed() {
		return nil, f
	}
	out := in.Out(28)
	list := make([]OtherRecord, 0, int(n))
	for i := uint32(0); i < n; i++ {
		if st := in.Status(recordF, uint64(h.addr), uint64(i), uint64(out)); st != statusOK {
			return nil, faultAt(in, st)
		}
		rec := OtherRecord{Key: text(in, out), Value: text(in, out+8), Line: int(in.U32(out + 16)), Group: -1}
		if in.Bool(out + 20) {
			rec.Group = int(in.U32(out + 24))
		}
		list = append(list, rec)
	}
	return list, fault{}
}

// --- usage preferences (behaviour §10) ---

// corePreferences asks for url's answer combined with each field in turn,
// copies it out and frees the objects. A field's failure comes back as
// the fault with fieldFailed set; any other is a bug.
func corePreferences(rules *handle, url string, fields []string) (p *Preferences, fieldFailed bool, f fault) {
	in := rules.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(32)
	if st := in.Status(wasmcore.RulesPreferences, uint64(rules.addr), uint64(in.String(url)), uint64(len(url)), uint64(out)); st != statusOK {
		return nil, false, faultAt(in, st)
	}
	h := uint64(in.U32(out))
	defer func() { in.Call(wasmcore.PreferencesFree, h) }()
	for _, field := range fields {
		if st := in.Status(wasmcore.PreferencesWithHeader, h, uint64(in.String(field)), uint64(len(field)), uint64(out)); st != statusOK {
			return nil, true, faultAt(in, st)
		}
		in.Call(wasmcore.PreferencesFree, h)
		h = uint64(in.U32(out))
	}
	// crawlable @0, decision @4 (20 bytes), labels @24, statements @28.
	if st := in.Status(wasmcore.PreferencesCrawlable, h, uint64(out), uint64(out+4)); st != statusOK {
		return nil, false, faultAt(in, st)
	}
	p = &Preferences{Crawlable: in.Bool(out), Decision: readDecision(in, out+4)}
	nLabels, f := count(in, wasmcore.PreferencesLabelCount, h)
	if f.failed() {
		return nil, false, f
	}
	nStatements, f := count(in, wasmcore.PreferencesStatementCount, h)
	if f.failed() {
		return nil, false, f
	}
	p.Labels = make([]LabelPreference, 0, int(nLabels))
	p.Statements = make([]UsageStatement, 0, int(nStatements))
	// robotstxt_label_preference: label @0, value @8, lines @12,
	// line_count @16; 20.
	item := in.Out(20)
	for i := uint32(0); i < nLabels; i++ {
		if st := in.Status(wasmcore.PreferencesLabel, h, uint64(i), uint64(item)); st != statusOK {
			return nil, false, faultAt(in, st)
		}
		p.Labels = append(p.Labels, LabelPreference{
			Label: text(in, item),
			Value: usageOf(in.U32(item + 8)),
			Lines: lines(in, in.U32(item+12), in.U32(item+16)),
		})
	}
	// robotstxt_usage_statement: line @0, path @4, member_count @12; 16.
	// robotstxt_member: key @0, value @8; 16.
	for i := uint32(0); i < nStatements; i++ {
		if st := in.Status(wasmcore.PreferencesStatement, h, uint64(i), uint64(item)); st != statusOK {
			return nil, false, faultAt(in, st)
		}
		members := in.U32(item + 12)
		st := UsageStatement{Line: int(in.U32(item)), Path: text(in, item+4), Members: make([]Member, 0, int(members))}
		for m := uint32(0); m < members; m++ {
			if s := in.Status(wasmcore.PreferencesMember, h, uint64(i), uint64(m), uint64(out)); s != statusOK {
				return nil, false, faultAt(in, s)
			}
			st.Members = append(st.Members, Member{Key: text(in, out), Value: text(in, out+8)})
		}
		p.Statements = append(p.Statements, st)
	}
	return p, false, fault{}
}

// lines copies n line numbers at p; never nil.
func lines(in *wasmcore.Instance, p, n uint32) []int {
	out := make([]int, int(n))
	for i := range out {
		out[i] = int(in.U32(p + 4*uint32(i)))
	}
	return out
}

// coreContentSignal copies the crawler's content signal out; nil when
// there is none.
func coreContentSignal(rules *handle) (*ContentSignal, fault) {
	in := rules.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(16)
	if st := in.Status(wasmcore.RulesContentSignal, uint64(rules.addr), uint64(out)); st != statusOK {
		return nil, faultAt(in, st)
	}
	h := uint64(in.U32(out))
	if h == 0 {
		return nil, fault{}
	}
	defer func() { in.Call(wasmcore.ContentSignalFree, h) }()
	n, f := count(in, wasmcore.ContentSignalCount, h)
	if f.failed() {
		return nil, f
	}
	if st := in.Status(wasmcore.ContentSignalLines, h, uint64(out), uint64(out+4)); st != statusOK {
		return nil, faultAt(in, st)
	}
	s := &ContentSignal{Signals: make([]Signal, 0, int(n)), Lines: lines(in, in.U32(out), in.U32(out+4))}
	// robotstxt_signal: key @0, is_set @8, yes @9; 12.
	for i := uint32(0); i < n; i++ {
		if st := in.Status(wasmcore.ContentSignalEntry, h, uint64(i), uint64(out)); st != statusOK {
			return nil, faultAt(in, st)
		}
		s.Signals = append(s.Signals, signalOf(text(in, out), in.Bool(out+8), in.Bool(out+9)))
	}
	return s, fault{}
}

// --- fetch outcome (behaviour §6) ---

func coreClassify(status uint16, redirects uint32, policy uint32) (uint32, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	if st := in.Status(wasmcore.AccessClassify, uint64(status), uint64(redirects), uint64(policy), uint64(out)); st != statusOK {
		return 0, faultAt(in, st)
	}
	return in.U32(out), fault{}
}

// writeFetch copies resp into the module as a robotstxt_fetch and returns
// its address: http_status @0, redirects @4, body @8, has_max_age @16,
// max_age_ms @24, has_retry_after @32, retry_after_ms @40, has_etag @48,
// etag @52, has_last_modified @60, last_modified @64; 72.
func writeFetch(in *wasmcore.Instance, resp *Response) uint32 {
	p := in.Out(72)
	in.PutU16(p, httpStatus(resp.Status))
	in.PutU32(p+4, count32(resp.Redirects))
	in.PutU32(p+8, in.Bytes(resp.Body))
	in.PutU32(p+12, uint32(len(resp.Body)))
	if resp.HasMaxAge {
		in.PutBool(p+16, true)
		in.PutU64(p+24, durationMS(resp.MaxAge))
	}
	if resp.HasRetryAfter {
		in.PutBool(p+32, true)
		in.PutU64(p+40, durationMS(resp.RetryAfter))
	}
	if resp.ETag != "" {
		in.PutBool(p+48, true)
		putText(in, p+52, resp.ETag)
	}
	if resp.LastModified != "" {
		in.PutBool(p+60, true)
		putText(in, p+64, resp.LastModified)
	}
	return p
}

func coreFromOutcome(resp *Response, policy uint32, o coreOptions) (uint32, *handle, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(8)
	opts := in.Out(optionsSize)
	writeOptions(in, opts, o)
	fetch := writeFetch(in, resp)
	if st := in.Status(wasmcore.AccessFromOutcome, uint64(fetch), uint64(policy), uint64(opts), uint64(out), uint64(out+4)); st != statusOK {
		return 0, nil, faultAt(in, st)
	}
	return in.U32(out), newHandle(in, out+4), fault{}
}

// --- freshness (behaviour §7) ---

func coreEntryNew(p corePolicy) (*handle, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	policy := in.Out(policySize)
	writePolicy(in, policy, p)
	if st := in.Status(wasmcore.EntryNew, uint64(policy), uint64(out)); st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

func coreEntryFree(h *handle) { free(wasmcore.EntryFree, h) }

func coreEntryRecord(h *handle, nowMS uint64, resp *Response) (uint32, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	if st := in.Status(wasmcore.EntryRecord, uint64(h.addr), nowMS, uint64(writeFetch(in, resp)), uint64(out)); st != statusOK {
		return 0, faultAt(in, st)
	}
	return in.U32(out), fault{}
}

// robotstxt_validators: has_etag @0, etag @4, has_last_modified @12,
// last_modified @16; 24.
func readValidators(in *wasmcore.Instance, p uint32) Validators {
	var v Validators
	if in.Bool(p) {
		v.ETag = text(in, p+4)
	}
	if in.Bool(p + 12) {
		v.LastModified = text(in, p+16)
	}
	return v
}

func coreEntryState(h *handle, nowMS uint64) (entryState, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	// due @0, due_at @8, fetched_at @16, has_fetched_at @24, failures @28,
	// has_copy @32, validators @36.
	out := in.Out(64)
	e := uint64(h.addr)
	for _, call := range [...]struct {
		f    wasmcore.Func
		args [3]uint64
		n    int
	}{
		{wasmcore.EntryIsDue, [3]uint64{e, nowMS, uint64(out)}, 3},
		{wasmcore.EntryDueAt, [3]uint64{e, uint64(out + 8)}, 2},
		{wasmcore.EntryFetchedAt, [3]uint64{e, uint64(out + 16), uint64(out + 24)}, 3},
		{wasmcore.EntryFailures, [3]uint64{e, uint64(out + 28)}, 2},
		{wasmcore.EntryHasCopy, [3]uint64{e, uint64(out + 32)}, 2},
		{wasmcore.EntryValidators, [3]uint64{e, uint64(out + 36)}, 2},
	} {
		if st := in.Status(call.f, call.args[:call.n]...); st != statusOK {
			return entryState{}, faultAt(in, st)
		}
	}
	return entryState{
		due: in.Bool(out), dueAtMS: in.U64(out + 8),
		fetchedAtMS: in.U64(out + 16), hasFetchedAt: in.Bool(out + 24),
		failures: in.U32(out + 28), hasCopy: in.Bool(out + 32),
		validators: readValidators(in, out+36),
	}, fault{}
}

func coreEntryAnswer(h *handle, nowMS uint64) (uint32, *handle, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(8)
	if st := in.Status(wasmcore.EntryAnswer, uint64(h.addr), nowMS, uint64(out), uint64(out+4)); st != statusOK {
		return 0, nil, faultAt(in, st)
	}
	return in.U32(out), newHandle(in, out+4), fault{}
}

// --- stored copies and fleet keys ---

// writtenTo calls f with the output buffer out (copied back) or says how
// long the answer is (statusBufferTooSmall, with n the length needed).
// args are f's arguments before the buffer's.
func writtenTo(in *wasmcore.Instance, f wasmcore.Func, out []byte, args ...uint64) (int, fault) {
	lenOut := in.Out(4)
	buf := in.Out(in32(len(out)))
	var a [8]uint64
	n := copy(a[:], args)
	a[n], a[n+1], a[n+2] = uint64(buf), uint64(len(out)), uint64(lenOut)
	st := in.Status(f, a[:n+3]...)
	if st == statusBufferTooSmall {
		return int(in.U32(lenOut)), fault{status: statusBufferTooSmall}
	}
	if st != statusOK {
		return 0, faultAt(in, st)
	}
	length := in.U32(lenOut)
	copy(out, in.View(buf, length))
	return int(length), fault{}
}

func coreEntryEncode(h *handle, body, out []byte) (int, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	return writtenTo(in, wasmcore.EntryEncode, out, uint64(h.addr), uint64(in.Bytes(body)), uint64(len(body)))
}

func coreEntryDecode(data []byte, p corePolicy) (*handle, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	policy := in.Out(policySize)
	writePolicy(in, policy, p)
	if st := in.Status(wasmcore.EntryDecode, uint64(in.Bytes(data)), uint64(len(data)), uint64(policy), uint64(out)); st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

func coreStoredBody(data []byte) (offset, n int, f fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(8)
	p := in.Bytes(data)
	if st := in.Status(wasmcore.EntryStoredBody, uint64(p), uint64(len(data)), uint64(out)); st != statusOK {
		return 0, 0, faultAt(in, st)
	}
	if n = int(in.U32(out + 4)); n > 0 {
		offset = int(in.U32(out) - p) // the body is a part of the bytes
	}
	return offset, n, fault{}
}

func coreEntryRulesFor(h *handle, nowMS uint64, token string) (*handle, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	if st := in.Status(wasmcore.EntryRulesFor, uint64(h.addr), nowMS, uint64(in.String(token)), uint64(len(token)), uint64(out)); st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

func coreFleetScript(name string) (string, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(8)
	if st := in.Status(wasmcore.FleetScript, uint64(in.String(name)), uint64(len(name)), uint64(out)); st != statusOK {
		return "", faultAt(in, st)
	}
	return text(in, out), fault{}
}

func coreRobotsOrigin(url string, out []byte) (int, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	return writtenTo(in, wasmcore.RobotsOrigin, out, uint64(in.String(url)), uint64(len(url)))
}

func corePacerHost(host string, out []byte) (int, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	return writtenTo(in, wasmcore.PacerHost, out, uint64(in.String(host)), uint64(len(host)))
}

// --- the cache (behaviour §6–§7) ---

func coreCacheNew(o coreCacheOptions) (*handle, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	opts := in.Out(16 + policySize)
	in.PutU32(opts, uint32(size(o.capacity)))
	in.PutU64(opts+8, o.leaseMS)
	writePolicy(in, opts+16, o.policy)
	if st := in.Status(wasmcore.CacheNew, uint64(opts), uint64(out)); st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

func coreCacheFree(h *handle) { free(wasmcore.CacheFree, h) }

// robotstxt_lookup: kind @0, answer @4, stale @8, rules @12, lease @16,
// until_ms @24, blanket @32, has_retry_at @48, retry_at_ms @56; 64.
func coreCacheLookup(h *handle, url, token string, nowMS uint64, when uint32) (coreLookup, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(64)
	st := in.Status(wasmcore.CacheLookup, uint64(h.addr), uint64(in.String(url)), uint64(len(url)),
		uint64(in.String(token)), uint64(len(token)), nowMS, uint64(when), uint64(out))
	if st != statusOK {
		return coreLookup{}, faultAt(in, st)
	}
	l := coreLookup{
		kind: in.U32(out), answer: in.U32(out + 4), stale: in.Bool(out + 8),
		rules: newHandle(in, out+12), lease: newHandle(in, out+16), untilMS: in.U64(out + 24),
		hasRetryAt: in.Bool(out + 48), retryAtMS: in.U64(out + 56),
	}
	l.blanket, l.isBlanket = readBlanket(in, out+32)
	if l.lease != nil {
		// The lease's origin, URL and validators, which borrow from it.
		s := in.Out(40)
		lease := uint64(l.lease.addr)
		st := in.Status(wasmcore.LeaseOrigin, lease, uint64(s), uint64(s+4))
		if st == statusOK {
			st = in.Status(wasmcore.LeaseRobotsURL, lease, uint64(s+8), uint64(s+12))
		}
		if st == statusOK {
			st = in.Status(wasmcore.LeaseValidators, lease, uint64(s+16))
		}
		if st != statusOK {
			f := faultAt(in, st)
			in.Call(wasmcore.LeaseFree, lease)
			return coreLookup{}, f
		}
		l.origin, l.robotsURL, l.validators = text(in, s), text(in, s+8), readValidators(in, s+16)
	}
	return l, fault{}
}

func coreCacheStore(cache, lease *handle, nowMS uint64, resp *Response) (uint32, fault) {
	in := cache.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	if st := in.Status(wasmcore.CacheStore, uint64(cache.addr), uint64(lease.addr), nowMS, uint64(writeFetch(in, resp)), uint64(out)); st != statusOK {
		return 0, faultAt(in, st)
	}
	return in.U32(out), fault{}
}

func coreCacheAbandon(cache, lease *handle) fault {
	in := cache.in
	in.Lock()
	defer in.Unlock()
	return faultAt(in, in.Status(wasmcore.CacheAbandon, uint64(cache.addr), uint64(lease.addr)))
}

func coreLeaseFree(h *handle) { free(wasmcore.LeaseFree, h) }

func coreCacheRemove(h *handle, url string) (bool, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(1)
	if st := in.Status(wasmcore.CacheRemove, uint64(h.addr), uint64(in.String(url)), uint64(len(url)), uint64(out)); st != statusOK {
		return false, faultAt(in, st)
	}
	return in.Bool(out), fault{}
}

// robotstxt_cache_counters: six uint64_t, then the length.
func coreCacheStats(h *handle) (CacheStats, int, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(56)
	if st := in.Status(wasmcore.CacheStats, uint64(h.addr), uint64(out)); st != statusOK {
		return CacheStats{}, 0, faultAt(in, st)
	}
	if st := in.Status(wasmcore.CacheLen, uint64(h.addr), uint64(out+48)); st != statusOK {
		return CacheStats{}, 0, faultAt(in, st)
	}
	return CacheStats{Hits: in.U64(out), Misses: in.U64(out + 8), Fetches: in.U64(out + 16),
		Stale: in.U64(out + 24), Evictions: in.U64(out + 32), Entries: in.U64(out + 40)}, int(in.U32(out + 48)), fault{}
}

// --- the pacer (behaviour §8) ---

func corePacerNew(o corePacerOptions) (*handle, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	opts := in.Out(32)
	in.PutU64(opts, o.floorMS)
	in.PutU64(opts+8, o.backoffCapMS)
	in.PutU32(opts+16, uint32(size(o.capacity)))
	in.PutU32(opts+20, o.maxInFlight)
	in.PutU64(opts+24, o.inFlightTimeoutMS)
	if st := in.Status(wasmcore.PacerNew, uint64(opts), uint64(out)); st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

func corePacerFree(h *handle) { free(wasmcore.PacerFree, h) }

func corePacerReserve(h *handle, host string, nowMS uint64) (*handle, uint64, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	if st := in.Status(wasmcore.PacerReserve, uint64(h.addr), uint64(in.String(host)), uint64(len(host)), nowMS, uint64(out)); st != statusOK {
		return nil, 0, faultAt(in, st)
	}
	t := newHandle(in, out)
	return t, in.Call(wasmcore.TicketStart, t.ptr()), fault{}
}

func coreTicketStart(h *handle) uint64 {
	h.in.Lock()
	defer h.in.Unlock()
	return h.in.Call(wasmcore.TicketStart, uint64(h.addr))
}

func coreTicketFree(h *handle) { free(wasmcore.TicketFree, h) }

// robotstxt_confirm: kind @0, until_ms @8, busy @16; 24.
func corePacerConfirm(pacer, ticket *handle, nowMS uint64) (coreConfirm, fault) {
	in := pacer.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(24)
	if st := in.Status(wasmcore.PacerConfirm, uint64(pacer.addr), uint64(ticket.addr), nowMS, uint64(out)); st != statusOK {
		return coreConfirm{}, faultAt(in, st)
	}
	return coreConfirm{kind: in.U32(out), untilMS: in.U64(out + 8), busy: in.Bool(out + 16)}, fault{}
}

func corePacerCancel(pacer, ticket *handle) fault {
	in := pacer.in
	in.Lock()
	defer in.Unlock()
	return faultAt(in, in.Status(wasmcore.PacerCancel, uint64(pacer.addr), uint64(ticket.addr)))
}

func corePacerInFlight(h *handle, host string, nowMS uint64) (int, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	if st := in.Status(wasmcore.PacerInFlight, uint64(h.addr), uint64(in.String(host)), uint64(len(host)), nowMS, uint64(out)); st != statusOK {
		return 0, faultAt(in, st)
	}
	return int(in.U32(out)), fault{}
}

func corePacerSetDelay(h *handle, host string, hasDelay bool, delayS float64, hasRate bool, rate RequestRate) fault {
	in := h.in
	in.Lock()
	defer in.Unlock()
	return faultAt(in, in.Status(wasmcore.PacerSetDelay, uint64(h.addr), uint64(in.String(host)), uint64(len(host)),
		b64(hasDelay), math.Float64bits(delayS), b64(hasRate), uint64(rate.Requests), uint64(rate.Seconds)))
}

func corePacerSetRules(h *handle, host string, rules *handle) fault {
	in := h.in
	in.Lock()
	defer in.Unlock()
	return faultAt(in, in.Status(wasmcore.PacerSetRules, uint64(h.addr), uint64(in.String(host)), uint64(len(host)), uint64(rules.addr)))
}

func corePacerRecord(h *handle, host string, nowMS uint64, status uint16, hasRetryAfter bool, retryAfterMS uint64) fault {
	in := h.in
	in.Lock()
	defer in.Unlock()
	return faultAt(in, in.Status(wasmcore.PacerRecord, uint64(h.addr), uint64(in.String(host)), uint64(len(host)), nowMS,
		uint64(status), b64(hasRetryAfter), retryAfterMS))
}

func corePacerSetEnabled(h *handle, host string, enabled bool) fault {
	in := h.in
	in.Lock()
	defer in.Unlock()
	return faultAt(in, in.Status(wasmcore.PacerSetEnabled, uint64(h.addr), uint64(in.String(host)), uint64(len(host)), b64(enabled)))
}

func corePacerGap(h *handle, host string) (uint64, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(8)
	if st := in.Status(wasmcore.PacerGapMS, uint64(h.addr), uint64(in.String(host)), uint64(len(host)), uint64(out)); st != statusOK {
		return 0, faultAt(in, st)
	}
	return in.U64(out), fault{}
}

// --- a fleet's protocol, sans I/O ---

func coreFleetStepFree(h *handle)   { free(wasmcore.FleetStepFree, h) }
func coreFleetLeaseFree(h *handle)  { free(wasmcore.FleetLeaseFree, h) }
func coreFleetTicketFree(h *handle) { free(wasmcore.FleetTicketFree, h) }
func coreFleetCacheFree(h *handle)  { free(wasmcore.FleetCacheFree, h) }
func coreFleetPacerFree(h *handle)  { free(wasmcore.FleetPacerFree, h) }

// putAt writes a robotstxt_fleet_at: given @0, ms @8; 16.
func putAt(in *wasmcore.Instance, at FleetAt) uint64 {
	p := in.Out(16)
	in.PutBool(p, at.Given)
	in.PutU64(p+8, at.MS)
	return uint64(p)
}

// putReply writes a reply's robotstxt_fleet_reply_items: kind @0,
// integer @8, bytes @16, len @20; 24 each.
func putReply(in *wasmcore.Instance, reply []FleetReply) (uint64, uint64) {
	if len(reply) == 0 {
		return 0, 0
	}
	p := in.Out(24 * in32(len(reply)))
	for i, r := range reply {
		item := p + 24*uint32(i)
		in.PutU32(item, uint32(r.Kind))
		in.PutU64(item+8, uint64(r.Int))
		putText(in, item+16, r.Bytes)
	}
	return uint64(p), uint64(len(reply))
}

// stepCall copies the call of the step at step out.
func stepCall(in *wasmcore.Instance, step uint32) coreFleetCall {
	out := in.Out(16)
	in.Status(wasmcore.FleetStepScript, uint64(step), uint64(out))
	in.Status(wasmcore.FleetStepCounts, uint64(step), uint64(out+8), uint64(out+12))
	c := coreFleetCall{script: text(in, out), keys: make([]string, in.U32(out+8)), args: make([]string, in.U32(out+12))}
	for i := range c.keys {
		in.Status(wasmcore.FleetStepKey, uint64(step), uint64(i), uint64(out))
		c.keys[i] = text(in, out)
	}
	for i := range c.args {
		in.Status(wasmcore.FleetStepArg, uint64(step), uint64(i), uint64(out))
		c.args[i] = text(in, out)
	}
	return c
}

// stepAt is the step a call with status st wrote at out (none: NULL).
func stepAt(in *wasmcore.Instance, st, out uint32) (*handle, coreFleetCall, fault) {
	if st != statusOK {
		return nil, coreFleetCall{}, faultAt(in, st)
	}
	step := newHandle(in, out)
	if step == nil {
		return nil, coreFleetCall{}, fault{}
	}
	return step, stepCall(in, step.addr), fault{}
}

// robotstxt_fleet_lookup: kind @0, answer @4, stale @8, rules @12,
// lease @16, step @20, until_ms @24, blanket @32, has_retry_at @48,
// retry_at_ms @56; 64. robotstxt_fleet_lease_info: origin @0,
// robots_url @8, validators @16; 40.
func lookupAt(in *wasmcore.Instance, st, out uint32) (coreFleetLookup, fault) {
	if st != statusOK {
		return coreFleetLookup{}, faultAt(in, st)
	}
	l := coreFleetLookup{
		kind: in.U32(out), answer: in.U32(out + 4), stale: in.Bool(out + 8),
		rules: newHandle(in, out+12), lease: newHandle(in, out+16), step: newHandle(in, out+20),
		untilMS: in.U64(out + 24), hasRetryAt: in.Bool(out + 48), retryAtMS: in.U64(out + 56),
	}
	l.blanket, l.isBlanket = readBlanket(in, out+32)
	if l.step != nil {
		l.call = stepCall(in, l.step.addr)
	}
	if l.lease != nil {
		info := in.Out(40)
		in.Status(wasmcore.FleetLeaseRead, uint64(l.lease.addr), uint64(info))
		l.origin, l.robotsURL, l.validators = text(in, info), text(in, info+8), readValidators(in, info+16)
	}
	return l, fault{}
}

// robotstxt_fleet_cache_options: prefix @0, lease_ms @8, keep_ms @16,
// capacity @24, policy @32; 80.
func coreFleetCacheNew(o coreFleetCacheOptions) (*handle, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	opts, out := in.Out(80), in.Out(4)
	putText(in, opts, o.prefix)
	in.PutU64(opts+8, o.leaseMS)
	in.PutU64(opts+16, o.keepMS)
	in.PutU32(opts+24, uint32(size(o.capacity)))
	writePolicy(in, opts+32, o.policy)
	if st := in.Status(wasmcore.FleetCacheNew, uint64(opts), uint64(out)); st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

func coreFleetCacheLookup(h *handle, url, token string, at FleetAt, when uint32, failSafe bool) (coreFleetLookup, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(64)
	u, t := uint64(in.String(url)), uint64(in.String(token))
	var st uint32
	if failSafe {
		st = in.Status(wasmcore.FleetCacheFailSafe, uint64(h.addr), u, uint64(len(url)), t, uint64(len(token)),
			putAt(in, at), uint64(out))
	} else {
		st = in.Status(wasmcore.FleetCacheLookup, uint64(h.addr), u, uint64(len(url)), t, uint64(len(token)),
			putAt(in, at), uint64(when), uint64(out))
	}
	return lookupAt(in, st, out)
}

func coreFleetCacheLookupReply(h, step *handle, reply []FleetReply) (coreFleetLookup, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(64)
	items, n := putReply(in, reply)
	return lookupAt(in, in.Status(wasmcore.FleetCacheLookupReply, uint64(h.addr), uint64(step.addr), items, n, uint64(out)), out)
}

func coreFleetCacheLeaseStep(h, lease *handle, kind int, at FleetAt) (*handle, coreFleetCall, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	var st uint32
	if kind == fleetRenew {
		st = in.Status(wasmcore.FleetCacheRenew, uint64(h.addr), uint64(lease.addr), putAt(in, at), uint64(out))
	} else {
		st = in.Status(wasmcore.FleetCacheAbandon, uint64(h.addr), uint64(lease.addr), uint64(out))
	}
	return stepAt(in, st, out)
}

func coreFleetCacheRenewReply(h, step *handle, reply []FleetReply) (bool, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(1)
	items, n := putReply(in, reply)
	if st := in.Status(wasmcore.FleetCacheRenewReply, uint64(h.addr), uint64(step.addr), items, n, uint64(out)); st != statusOK {
		return false, faultAt(in, st)
	}
	return in.Bool(out), fault{}
}

func coreFleetCacheStore(h, lease *handle, resp *Response, token string, at FleetAt) (*handle, coreFleetCall, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	st := in.Status(wasmcore.FleetCacheStore, uint64(h.addr), uint64(lease.addr), uint64(writeFetch(in, resp)),
		uint64(in.String(token)), uint64(len(token)), putAt(in, at), uint64(out))
	return stepAt(in, st, out)
}

// robotstxt_fleet_stored: disposition @0, stored @4, failed @5, answer @8,
// rules @12, blanket @16; 32.
func coreFleetCacheStoreReply(h, step *handle, reply []FleetReply, failed bool) (coreFleetStored, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(32)
	var st uint32
	if failed {
		st = in.Status(wasmcore.FleetCacheStoreFailed, uint64(h.addr), uint64(step.addr), uint64(out))
	} else {
		items, n := putReply(in, reply)
		st = in.Status(wasmcore.FleetCacheStoreReply, uint64(h.addr), uint64(step.addr), items, n, uint64(out))
	}
	if st != statusOK {
		return coreFleetStored{}, faultAt(in, st)
	}
	return coreFleetStored{disposition: in.U32(out), stored: in.Bool(out + 4), failed: in.Bool(out + 5),
		rules: newHandle(in, out+12)}, fault{}
}

func coreFleetCacheRedisFailed(h *handle) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	must("FleetCache.RedisFailed", faultAt(in, in.Status(wasmcore.FleetCacheRedisFailed, uint64(h.addr))))
}

func coreFleetCacheRemove(h *handle, url string) (bool, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(1)
	if st := in.Status(wasmcore.FleetCacheRemove, uint64(h.addr), uint64(in.String(url)), uint64(len(url)), uint64(out)); st != statusOK {
		return false, faultAt(in, st)
	}
	return in.Bool(out), fault{}
}

// robotstxt_fleet_cache_counters: eight uint64_t; then the length.
func coreFleetCacheStats(h *handle) (FleetCacheStats, int, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(72)
	if st := in.Status(wasmcore.FleetCacheStats, uint64(h.addr), uint64(out)); st != statusOK {
		return FleetCacheStats{}, 0, faultAt(in, st)
	}
	if st := in.Status(wasmcore.FleetCacheLen, uint64(h.addr), uint64(out+64)); st != statusOK {
		return FleetCacheStats{}, 0, faultAt(in, st)
	}
	return FleetCacheStats{Hits: in.U64(out), Misses: in.U64(out + 8), Fetches: in.U64(out + 16),
		Stale: in.U64(out + 24), Evictions: in.U64(out + 32), Unreadable: in.U64(out + 40),
		RedisErrors: in.U64(out + 48), Entries: in.U64(out + 56)}, int(in.U32(out + 64)), fault{}
}

func coreFleetCacheTimes(h *handle, untilMS uint64, at FleetAt) (left, renewEvery uint64) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(16)
	in.Status(wasmcore.FleetCacheMSUntil, uint64(h.addr), untilMS, putAt(in, at), uint64(out))
	in.Status(wasmcore.FleetCacheRenewEveryMS, uint64(h.addr), uint64(out+8))
	return in.U64(out), in.U64(out + 8)
}

// robotstxt_fleet_pacer_options: prefix @0, floor_ms @8, backoff_cap_ms
// @16, max_in_flight @24, in_flight_timeout_ms @32, retain_ms @40,
// known_capacity @48, worker @52; 64.
func coreFleetPacerNew(o coreFleetPacerOptions) (*handle, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	opts, out := in.Out(64), in.Out(4)
	putText(in, opts, o.prefix)
	in.PutU64(opts+8, o.floorMS)
	in.PutU64(opts+16, o.backoffCapMS)
	in.PutU32(opts+24, o.maxInFlight)
	in.PutU64(opts+32, o.inFlightTimeoutMS)
	in.PutU64(opts+40, o.retainMS)
	in.PutU32(opts+48, uint32(size(o.knownCapacity)))
	putText(in, opts+52, o.worker)
	if st := in.Status(wasmcore.FleetPacerNew, uint64(opts), uint64(out)); st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

func coreFleetPacerHostStep(h *handle, kind int, host string, at FleetAt, status uint16, flag bool,
	n uint64) (*handle, coreFleetCall, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	p, hs, hl, a := uint64(h.addr), uint64(in.String(host)), uint64(len(host)), putAt(in, at)
	var st uint32
	switch kind {
	case fleetReserve:
		st = in.Status(wasmcore.FleetPacerReserve, p, hs, hl, a, uint64(out))
	case fleetRecord:
		st = in.Status(wasmcore.FleetPacerRecord, p, hs, hl, uint64(status), b64(flag), n, a, uint64(out))
	case fleetSetDelay:
		st = in.Status(wasmcore.FleetPacerSetDelay, p, hs, hl, n, a, uint64(out))
	case fleetSetEnabled:
		st = in.Status(wasmcore.FleetPacerSetEnabled, p, hs, hl, b64(flag), a, uint64(out))
	default:
		st = in.Status(wasmcore.FleetPacerPaceState, p, hs, hl, a, uint64(out))
	}
	return stepAt(in, st, out)
}

func coreFleetPacerReserveReply(h, step *handle, reply []FleetReply) (*handle, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	items, n := putReply(in, reply)
	if st := in.Status(wasmcore.FleetPacerReserveReply, uint64(h.addr), uint64(step.addr), items, n, uint64(out)); st != statusOK {
		return nil, faultAt(in, st)
	}
	return newHandle(in, out), fault{}
}

// robotstxt_fleet_ticket_info: host @0, start_ms @8, generation @16; 24.
func coreFleetTicketRead(h *handle) (host string, startMS, generation uint64) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(24)
	in.Status(wasmcore.FleetTicketRead, uint64(h.addr), uint64(out))
	return text(in, out), in.U64(out + 8), in.U64(out + 16)
}

func coreFleetPacerTicketStep(h, ticket *handle, cancel bool, at FleetAt) (*handle, coreFleetCall, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(4)
	f := wasmcore.FleetPacerConfirm
	if cancel {
		f = wasmcore.FleetPacerCancel
	}
	return stepAt(in, in.Status(f, uint64(h.addr), uint64(ticket.addr), putAt(in, at), uint64(out)), out)
}

// robotstxt_fleet_confirm: kind @0, until_ms @8, busy @16, at_ms @24; 32.
func coreFleetPacerConfirmReply(h, ticket, step *handle, reply []FleetReply) (coreFleetConfirm, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(32)
	items, n := putReply(in, reply)
	if st := in.Status(wasmcore.FleetPacerConfirmReply, uint64(h.addr), uint64(ticket.addr), uint64(step.addr), items, n,
		uint64(out)); st != statusOK {
		return coreFleetConfirm{}, faultAt(in, st)
	}
	return coreFleetConfirm{kind: in.U32(out), untilMS: in.U64(out + 8), busy: in.Bool(out + 16), atMS: in.U64(out + 24)}, fault{}
}

// robotstxt_fleet_pace_state: gap_ms @0, in_flight @8; 16.
func coreFleetPacerStepReply(h, step *handle, reply []FleetReply, state bool) (uint64, uint64, fault) {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(16)
	items, n := putReply(in, reply)
	f := wasmcore.FleetPacerStepReply
	if state {
		f = wasmcore.FleetPacerPaceStateReply
	}
	if st := in.Status(f, uint64(h.addr), uint64(step.addr), items, n, uint64(out)); st != statusOK {
		return 0, 0, faultAt(in, st)
	}
	return in.U64(out), in.U64(out + 8), fault{}
}

func coreFleetPacerMSUntil(h *handle, untilMS uint64, at FleetAt) uint64 {
	in := h.in
	in.Lock()
	defer in.Unlock()
	out := in.Out(8)
	in.Status(wasmcore.FleetPacerMSUntil, uint64(h.addr), untilMS, putAt(in, at), uint64(out))
	return in.U64(out)
}

func corePaceDelayMS(hasDelay bool, delayS float64, hasRate bool, rate RequestRate) (uint64, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	out := in.Out(8)
	if st := in.Status(wasmcore.PaceDelayMS, b64(hasDelay), math.Float64bits(delayS), b64(hasRate),
		uint64(rate.Requests), uint64(rate.Seconds), uint64(out)); st != statusOK {
		return 0, faultAt(in, st)
	}
	return in.U64(out), fault{}
}

// --- HTTP facts (behaviour §11) ---

// coreHTTPRead writes a robotstxt_http_response (http_status @0,
// redirects @4, body @8, has_retry_after @16, retry_after @20,
// has_cache_control @28, cache_control @32, has_etag @40, etag @44,
// has_last_modified @52, last_modified @56; 64), and reads back the
// robotstxt_fetch (writeFetch's layout) and the ignored bits.
func coreHTTPRead(h coreHTTP, nowMS, minMaxAgeMS uint64) (coreHTTPFacts, fault) {
	in := core()
	in.Lock()
	defer in.Unlock()
	p := in.Out(64)
	for _, v := range []struct {
		at  uint32
		has bool
		s   string
	}{{16, h.hasRetryAfter, h.retryAfter}, {28, h.hasCacheControl, h.cacheControl}, {40, h.hasETag, h.etag}, {52, h.hasLastModified, h.lastModified}} {
		if v.has {
			in.PutBool(p+v.at, true)
			putText(in, p+v.at+4, v.s)
		}
	}
	f := in.Out(72)
	ignored := in.Out(4)
	if st := in.Status(wasmcore.HTTPRead, uint64(p), nowMS, minMaxAgeMS, uint64(f), uint64(ignored)); st != statusOK {
		return coreHTTPFacts{}, faultAt(in, st)
	}
	facts := coreHTTPFacts{ignored: in.U32(ignored)}
	if in.Bool(f + 16) {
		facts.hasMaxAge, facts.maxAgeMS = true, in.U64(f+24)
	}
	if in.Bool(f + 32) {
		facts.hasRetryAfter, facts.retryAfterMS = true, in.U64(f+40)
	}
	if in.Bool(f + 48) {
		facts.etag = text(in, f+52)
	}
	if in.Bool(f + 60) {
		facts.lastModified = text(in, f+64)
	}
	return facts, fault{}
}
