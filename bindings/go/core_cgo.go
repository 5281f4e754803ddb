//go:build cgo && (robotstxt_from_source || (linux && !android && (amd64 || arm64)) || (darwin && !ios && (amd64 || arm64)) || (windows && amd64)) && !robotstxt_wasm

package robotstxt

// The core layer (core.go) over the core linked through cgo: each function
// calls one helper of shim.h, which makes the library call (or a few in a
// row) and copies the last-error message on the same thread. Results are
// returned by value from the C stack, so a question allocates nothing.

// #include "shim.h"
import "C"

import (
	"math"
	"runtime"
	"unsafe"
)

// handle stands for a C object: a *handle is the C pointer itself, never
// dereferenced in Go.
type handle struct{}

func hp(p unsafe.Pointer) *handle           { return (*handle)(p) }
func robotsC(h *handle) *C.robotstxt_robots { return (*C.robotstxt_robots)(unsafe.Pointer(h)) }
func rulesC(h *handle) *C.robotstxt_rules   { return (*C.robotstxt_rules)(unsafe.Pointer(h)) }
func entryC(h *handle) *C.robotstxt_entry   { return (*C.robotstxt_entry)(unsafe.Pointer(h)) }
func cacheC(h *handle) *C.robotstxt_cache   { return (*C.robotstxt_cache)(unsafe.Pointer(h)) }
func leaseC(h *handle) *C.robotstxt_lease   { return (*C.robotstxt_lease)(unsafe.Pointer(h)) }
func pacerC(h *handle) *C.robotstxt_pacer   { return (*C.robotstxt_pacer)(unsafe.Pointer(h)) }
func ticketC(h *handle) *C.robotstxt_ticket { return (*C.robotstxt_ticket)(unsafe.Pointer(h)) }

// faultOf takes the status and the message copied by the shim (freeing it).
func faultOf(status C.robotstxt_status, e C.go_err) fault {
	if status == C.ROBOTSTXT_STATUS_OK {
		return fault{}
	}
	f := fault{status: uint32(status)}
	if e.ptr != nil {
		f.msg = C.GoStringN(e.ptr, C.int(e.len))
		C.free(unsafe.Pointer(e.ptr))
	}
	return f
}

// cstr passes a Go string's bytes to C without copying: the library never
// keeps a pointer to text it is given.
func cstr(s string) *C.uint8_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s)))
}

// cbytes passes a byte slice to C without copying (NULL when empty).
func cbytes(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(b)))
}

// gostr copies text handed out by the library.
func gostr(s C.robotstxt_str) string {
	if s.len == 0 || s.ptr == nil {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(s.ptr)), int(s.len)))
}

// cname copies a static name, "" for NULL.
func cname(p *C.char) (string, bool) {
	if p == nil {
		return "", false
	}
	return C.GoString(p), true
}

func csize(n uint64) C.size_t {
	if uint64(C.size_t(n)) != n {
		return C.size_t(math.MaxUint) // out of range either way: the core says so
	}
	return C.size_t(n)
}

// --- names, versions and defaults ---

func coreVersion() string { return C.GoString(C.robotstxt_version()) }

func coreStatusMessage(status uint32) string {
	return C.GoString(C.robotstxt_status_message(C.robotstxt_status(status)))
}

func coreDecisionKindName(k uint32) (string, bool) {
	return cname(C.robotstxt_decision_kind_name(C.robotstxt_decision_kind(k)))
}

func coreLineKindName(k uint32) (string, bool) {
	return cname(C.robotstxt_line_kind_name(C.robotstxt_line_kind(k)))
}

func coreFlagName(bit uint32) (string, bool) {
	return cname(C.robotstxt_diagnostic_flag_name(C.robotstxt_diagnostic_flags(bit)))
}

func coreRetryLater(d uint32) bool {
	return bool(C.robotstxt_disposition_retry_later(C.robotstxt_disposition(d)))
}

func optionsFromC(o C.robotstxt_options) coreOptions {
	return coreOptions{profile: uint32(o.profile), parseLimit: uint64(o.parse_limit), typos: bool(o.typos)}
}

func optionsC(o coreOptions) C.robotstxt_options {
	return C.robotstxt_options{profile: C.robotstxt_profile(o.profile), parse_limit: csize(o.parseLimit), typos: C.bool(o.typos)}
}

func policyFromC(p C.robotstxt_freshness_policy) corePolicy {
	return corePolicy{
		freshForMS: uint64(p.fresh_for_ms), retryMS: uint64(p.retry_ms),
		unreachableLimitMS: uint64(p.unreachable_limit_ms),
		afterLimit:         uint32(p.after_limit), access: uint32(p.access),
		options: optionsFromC(p.options),
	}
}

func policyC(p corePolicy) C.robotstxt_freshness_policy {
	return C.robotstxt_freshness_policy{
		fresh_for_ms: C.uint64_t(p.freshForMS), retry_ms: C.uint64_t(p.retryMS),
		unreachable_limit_ms: C.uint64_t(p.unreachableLimitMS),
		after_limit:          C.robotstxt_after_limit(p.afterLimit), access: C.robotstxt_access_policy(p.access),
		options: optionsC(p.options),
	}
}

func coreOptionsDefault() coreOptions { return optionsFromC(C.robotstxt_options_default()) }

func corePolicyDefault() corePolicy { return policyFromC(C.robotstxt_freshness_policy_default()) }

func coreCacheOptionsDefault() coreCacheOptions {
	o := C.robotstxt_cache_options_default()
	return coreCacheOptions{capacity: uint64(o.capacity), leaseMS: uint64(o.lease_ms), policy: policyFromC(o.policy)}
}

func corePacerOptionsDefault() corePacerOptions {
	o := C.robotstxt_pacer_options_default()
	return corePacerOptions{
		floorMS: uint64(o.floor_ms), backoffCapMS: uint64(o.backoff_cap_ms), capacity: uint64(o.capacity),
		maxInFlight: uint32(o.max_in_flight), inFlightTimeoutMS: uint64(o.in_flight_timeout_ms),
	}
}

// --- parsing and selecting ---

func coreParse(body []byte, withOptions bool, o coreOptions) (*handle, fault) {
	r := C.go_parse(cbytes(body), C.size_t(len(body)), C.bool(withOptions), optionsC(o))
	runtime.KeepAlive(body)
	return hp(r.handle), faultOf(r.status, r.err)
}

func coreRobotsFree(h *handle) { C.robotstxt_robots_free(robotsC(h)) }

func coreRobotsProfile(h *handle) (uint32, fault) {
	r := C.go_robots_profile(robotsC(h))
	return uint32(r.value), faultOf(r.status, r.err)
}

func coreRulesFor(h *handle, mode int, token string, tokens []string) (*handle, fault) {
	var r C.go_handle
	if mode == selectOne {
		r = C.go_rules_for(robotsC(h), 0, cstr(token), C.size_t(len(token)), nil, 0)
		runtime.KeepAlive(token)
	} else {
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
		r = C.go_rules_for(robotsC(h), C.int(mode), nil, 0, unsafe.SliceData(list), C.size_t(len(list)))
		runtime.KeepAlive(tokens)
	}
	return hp(r.handle), faultOf(r.status, r.err)
}

func coreSitemaps(h *handle) ([]string, fault) {
	n := C.go_sitemap_count(robotsC(h))
	if n.status != C.ROBOTSTXT_STATUS_OK {
		return nil, faultOf(n.status, n.err)
	}
	out := make([]string, 0, int(n.count))
	for i := C.size_t(0); i < n.count; i++ {
		s := C.go_sitemap(robotsC(h), i)
		if s.status != C.ROBOTSTXT_STATUS_OK {
			return nil, faultOf(s.status, s.err)
		}
		out = append(out, gostr(s.text))
	}
	return out, fault{}
}

func coreHost(h *handle) (string, bool, fault) {
	s := C.go_host(robotsC(h))
	return gostr(s.text), bool(s.found), faultOf(s.status, s.err)
}

func coreProductToken(userAgent string) (offset, n int, f fault) {
	r := C.go_product_token(cstr(userAgent), C.size_t(len(userAgent)))
	runtime.KeepAlive(userAgent)
	return int(r.offset), int(r.len), faultOf(r.status, r.err)
}

// --- rules ---

func coreRulesFree(h *handle) { C.robotstxt_rules_free(rulesC(h)) }

func coreCanFetch(h *handle, url string) (bool, fault) {
	r := C.go_can_fetch(rulesC(h), cstr(url), C.size_t(len(url)))
	runtime.KeepAlive(url)
	return bool(r.value), faultOf(r.status, r.err)
}

func coreDecide(h *handle, url string) (Decision, fault) {
	r := C.go_decide(rulesC(h), cstr(url), C.size_t(len(url)))
	runtime.KeepAlive(url)
	return decisionOf(r.decision), faultOf(r.status, r.err)
}

func decisionOf(d C.robotstxt_decision) Decision {
	return Decision{Allowed: bool(d.allowed), Line: int(d.line), Kind: DecisionKind(d.kind), Pattern: gostr(d.pattern)}
}

func blanketOfC(b C.robotstxt_blanket) (Blanket, bool) {
	return Blanket{Allowed: bool(b.allowed), Cause: Cause(b.cause), Status: int(b.http_status),
		Redirects: int(b.redirects)}, bool(b.is_blanket)
}

func coreRulesBlanket(h *handle) (coreBlanket, fault) {
	r := C.go_rules_blanket(rulesC(h))
	b := coreBlanket{retryAtMS: uint64(r.retry_at_ms), hasRetryAt: bool(r.has_retry_at)}
	b.blanket, b.isBlanket = blanketOfC(r.blanket)
	return b, faultOf(r.status, r.err)
}

func coreRulesCompile(h *handle) fault {
	r := C.go_rules_compile(rulesC(h))
	return faultOf(r.status, r.err)
}

func coreCrawlDelay(h *handle) (float64, bool, fault) {
	r := C.go_crawl_delay(rulesC(h))
	return float64(r.seconds), bool(r.has_value), faultOf(r.status, r.err)
}

func coreRequestRate(h *handle) (RequestRate, bool, fault) {
	r := C.go_request_rate(rulesC(h))
	return RequestRate{Requests: uint32(r.requests), Seconds: uint32(r.seconds)}, bool(r.has_value), faultOf(r.status, r.err)
}

func coreRulesWithRetryAt(h *handle, retryAtMS uint64) (*handle, fault) {
	r := C.go_rules_with_retry_at(rulesC(h), C.uint64_t(retryAtMS))
	return hp(r.handle), faultOf(r.status, r.err)
}

// --- file records and diagnostics ---

func coreDiagnostics(h *handle) ([]Diagnostic, fault) {
	n := C.go_diagnostic_count(robotsC(h))
	if n.status != C.ROBOTSTXT_STATUS_OK {
		return nil, faultOf(n.status, n.err)
	}
	out := make([]Diagnostic, 0, int(n.count))
	for i := C.size_t(0); i < n.count; i++ {
		d := C.go_diagnostic_at(robotsC(h), i)
		if d.status != C.ROBOTSTXT_STATUS_OK {
			return nil, faultOf(d.status, d.err)
		}
		out = append(out, Diagnostic{
			Line:  int(d.diagnostic.line),
			Kind:  LineKind(d.diagnostic.kind),
			Flags: DiagnosticFlags(d.diagnostic.flags),
		})
	}
	return out, fault{}
}

// coreOtherRecords lists the records of robots, or of rules when not nil;
// KeyLower is left to the caller.
func coreOtherRecords(robots, rules *handle) ([]OtherRecord, fault) {
	n := C.go_other_record_count(robotsC(robots), rulesC(rules))
	if n.status != C.ROBOTSTXT_STATUS_OK {
		return nil, faultOf(n.status, n.err)
	}
	out := make([]OtherRecord, 0, int(n.count))
	for i := C.size_t(0); i < n.count; i++ {
		res := C.go_other_record_at(robotsC(robots), rulesC(rules), i)
		if res.status != C.ROBOTSTXT_STATUS_OK {
			return nil, faultOf(res.status, res.err)
		}
		rec := OtherRecord{Key: gostr(res.record.key), Value: gostr(res.record.value), Line: int(res.record.line), Group: -1}
		if res.record.in_group {
			rec.Group = int(res.record.group)
		}
		out = append(out, rec)
	}
	return out, fault{}
}

// --- usage preferences (behaviour §10) ---

// corePreferences asks for url's answer combined with each field in turn,
// copies it out and frees the handles. A field's failure comes back as
// the fault with fieldFailed set; any other is a bug.
func corePreferences(rules *handle, url string, fields []string) (p *Preferences, fieldFailed bool, f fault) {
	res := C.go_preferences(rulesC(rules), cstr(url), C.size_t(len(url)))
	runtime.KeepAlive(url)
	if res.status != C.ROBOTSTXT_STATUS_OK {
		return nil, false, faultOf(res.status, res.err)
	}
	h := (*C.robotstxt_preferences)(res.handle)
	defer func() { C.robotstxt_preferences_free(h) }()
	for _, field := range fields {
		c := C.go_with_header(h, cstr(field), C.size_t(len(field)))
		runtime.KeepAlive(field)
		if c.status != C.ROBOTSTXT_STATUS_OK {
			return nil, true, faultOf(c.status, c.err)
		}
		C.robotstxt_preferences_free(h)
		h = (*C.robotstxt_preferences)(c.handle)
	}
	head := C.go_preferences_head(h)
	if head.status != C.ROBOTSTXT_STATUS_OK {
		return nil, false, faultOf(head.status, head.err)
	}
	p = &Preferences{
		Crawlable:  bool(head.crawlable),
		Decision:   decisionOf(head.decision),
		Labels:     make([]LabelPreference, 0, int(head.labels)),
		Statements: make([]UsageStatement, 0, int(head.statements)),
	}
	for i := C.size_t(0); i < head.labels; i++ {
		l := C.go_preferences_label(h, i)
		if l.status != C.ROBOTSTXT_STATUS_OK {
			return nil, false, faultOf(l.status, l.err)
		}
		p.Labels = append(p.Labels, LabelPreference{
			Label: gostr(l.label.label),
			Value: usageOf(uint32(l.label.value)),
			Lines: lineList(l.label.lines, l.label.line_count),
		})
	}
	for i := C.size_t(0); i < head.statements; i++ {
		s := C.go_preferences_statement(h, i)
		if s.status != C.ROBOTSTXT_STATUS_OK {
			return nil, false, faultOf(s.status, s.err)
		}
		st := UsageStatement{
			Line:    int(s.statement.line),
			Path:    gostr(s.statement.path),
			Members: make([]Member, 0, int(s.statement.member_count)),
		}
		for m := C.size_t(0); m < s.statement.member_count; m++ {
			mem := C.go_preferences_member(h, i, m)
			if mem.status != C.ROBOTSTXT_STATUS_OK {
				return nil, false, faultOf(mem.status, mem.err)
			}
			st.Members = append(st.Members, Member{Key: gostr(mem.member.key), Value: gostr(mem.member.value)})
		}
		p.Statements = append(p.Statements, st)
	}
	return p, false, fault{}
}

// lineList copies line numbers handed out by the library; never nil.
func lineList(lines *C.uint32_t, n C.size_t) []int {
	out := make([]int, int(n))
	if n > 0 {
		for i, l := range unsafe.Slice((*uint32)(unsafe.Pointer(lines)), int(n)) {
			out[i] = int(l)
		}
	}
	return out
}

// coreContentSignal copies the crawler's content signal out; nil when
// there is none.
func coreContentSignal(rules *handle) (*ContentSignal, fault) {
	res := C.go_content_signal(rulesC(rules))
	if res.status != C.ROBOTSTXT_STATUS_OK || res.handle == nil {
		return nil, faultOf(res.status, res.err)
	}
	h := (*C.robotstxt_content_signal)(res.handle)
	defer C.robotstxt_content_signal_free(h)
	head := C.go_content_signal_head(h)
	if head.status != C.ROBOTSTXT_STATUS_OK {
		return nil, faultOf(head.status, head.err)
	}
	s := &ContentSignal{
		Signals: make([]Signal, 0, int(head.count)),
		Lines:   lineList(head.lines, head.line_count),
	}
	for i := C.size_t(0); i < head.count; i++ {
		e := C.go_content_signal_entry(h, i)
		if e.status != C.ROBOTSTXT_STATUS_OK {
			return nil, faultOf(e.status, e.err)
		}
		s.Signals = append(s.Signals, signalOf(gostr(e.entry.key), bool(e.entry.is_set), bool(e.entry.yes)))
	}
	return s, fault{}
}

// --- fetch outcome (behaviour §6) ---

func coreClassify(status uint16, redirects uint32, policy uint32) (uint32, fault) {
	r := C.go_classify(C.uint16_t(status), C.uint32_t(redirects), C.robotstxt_access_policy(policy))
	return uint32(r.value), faultOf(r.status, r.err)
}

// fetchC is resp in the core's form. Its text points into Go memory that
// the caller keeps alive (and, being bytes, holds no Go pointers).
func fetchC(resp *Response) C.robotstxt_fetch {
	var f C.robotstxt_fetch
	f.http_status = C.uint16_t(httpStatus(resp.Status))
	f.redirects = C.uint32_t(count32(resp.Redirects))
	if len(resp.Body) > 0 {
		f.body = C.robotstxt_str{ptr: cbytes(resp.Body), len: C.size_t(len(resp.Body))}
	}
	if resp.HasMaxAge {
		f.has_max_age, f.max_age_ms = true, C.uint64_t(durationMS(resp.MaxAge))
	}
	if resp.HasRetryAfter {
		f.has_retry_after, f.retry_after_ms = true, C.uint64_t(durationMS(resp.RetryAfter))
	}
	if resp.ETag != "" {
		f.has_etag, f.etag = true, C.robotstxt_str{ptr: cstr(resp.ETag), len: C.size_t(len(resp.ETag))}
	}
	if resp.LastModified != "" {
		f.has_last_modified = true
		f.last_modified = C.robotstxt_str{ptr: cstr(resp.LastModified), len: C.size_t(len(resp.LastModified))}
	}
	return f
}

func coreFromOutcome(resp *Response, policy uint32, o coreOptions) (uint32, *handle, fault) {
	r := C.go_from_outcome(fetchC(resp), C.robotstxt_access_policy(policy), optionsC(o))
	runtime.KeepAlive(resp)
	return uint32(r.disposition), hp(unsafe.Pointer(r.robots)), faultOf(r.status, r.err)
}

// --- freshness (behaviour §7) ---

func coreEntryNew(p corePolicy) (*handle, fault) {
	r := C.go_entry_new(policyC(p))
	return hp(r.handle), faultOf(r.status, r.err)
}

func coreEntryFree(h *handle) { C.robotstxt_entry_free(entryC(h)) }

func coreEntryRecord(h *handle, nowMS uint64, resp *Response) (uint32, fault) {
	r := C.go_entry_record(entryC(h), C.uint64_t(nowMS), fetchC(resp))
	runtime.KeepAlive(resp)
	return uint32(r.value), faultOf(r.status, r.err)
}

func validatorsOf(v C.robotstxt_validators) Validators {
	var out Validators
	if v.has_etag {
		out.ETag = gostr(v.etag)
	}
	if v.has_last_modified {
		out.LastModified = gostr(v.last_modified)
	}
	return out
}

func coreEntryState(h *handle, nowMS uint64) (entryState, fault) {
	r := C.go_entry_read(entryC(h), C.uint64_t(nowMS))
	return entryState{
		due: bool(r.due), dueAtMS: uint64(r.due_at_ms),
		fetchedAtMS: uint64(r.fetched_at_ms), hasFetchedAt: bool(r.has_fetched_at),
		failures: uint32(r.failures), hasCopy: bool(r.has_copy),
		validators: validatorsOf(r.validators),
	}, faultOf(r.status, r.err)
}

func coreEntryAnswer(h *handle, nowMS uint64) (uint32, *handle, fault) {
	r := C.go_entry_answer(entryC(h), C.uint64_t(nowMS))
	return uint32(r.answer), hp(unsafe.Pointer(r.robots)), faultOf(r.status, r.err)
}

// --- stored copies and fleet keys ---

// coreEntryEncode writes the entry's encoding into out, or says how long
// it is (statusBufferTooSmall, with n the length needed).
func coreEntryEncode(h *handle, body, out []byte) (n int, f fault) {
	r := C.go_entry_encode(entryC(h), cbytes(body), C.size_t(len(body)), cbytes(out), C.size_t(len(out)))
	runtime.KeepAlive(body)
	runtime.KeepAlive(out)
	if r.status == C.ROBOTSTXT_STATUS_BUFFER_TOO_SMALL {
		return int(r.len), fault{status: statusBufferTooSmall}
	}
	return int(r.len), faultOf(r.status, r.err)
}

func coreEntryDecode(data []byte, p corePolicy) (*handle, fault) {
	r := C.go_entry_decode(cbytes(data), C.size_t(len(data)), policyC(p))
	runtime.KeepAlive(data)
	return hp(r.handle), faultOf(r.status, r.err)
}

func coreStoredBody(data []byte) (offset, n int, f fault) {
	r := C.go_entry_stored_body(cbytes(data), C.size_t(len(data)))
	runtime.KeepAlive(data)
	return int(r.offset), int(r.len), faultOf(r.status, r.err)
}

func coreEntryRulesFor(h *handle, nowMS uint64, token string) (*handle, fault) {
	r := C.go_entry_rules_for(entryC(h), C.uint64_t(nowMS), cstr(token), C.size_t(len(token)))
	runtime.KeepAlive(token)
	return hp(r.handle), faultOf(r.status, r.err)
}

func coreFleetScript(name string) (string, fault) {
	r := C.go_fleet_script(cstr(name), C.size_t(len(name)))
	runtime.KeepAlive(name)
	return gostr(r.text), faultOf(r.status, r.err)
}

// coreRobotsOrigin and corePacerHost write into out, or say how long the
// answer is (statusBufferTooSmall, with n the length needed).
func coreRobotsOrigin(url string, out []byte) (n int, f fault) {
	r := C.go_robots_origin(cstr(url), C.size_t(len(url)), cbytes(out), C.size_t(len(out)))
	runtime.KeepAlive(url)
	runtime.KeepAlive(out)
	return lenFault(r)
}

func corePacerHost(host string, out []byte) (n int, f fault) {
	r := C.go_pacer_host(cstr(host), C.size_t(len(host)), cbytes(out), C.size_t(len(out)))
	runtime.KeepAlive(host)
	runtime.KeepAlive(out)
	return lenFault(r)
}

func lenFault(r C.go_len) (int, fault) {
	if r.status == C.ROBOTSTXT_STATUS_BUFFER_TOO_SMALL {
		return int(r.len), fault{status: statusBufferTooSmall}
	}
	return int(r.len), faultOf(r.status, r.err)
}

// --- the cache (behaviour §6–§7) ---

func coreCacheNew(o coreCacheOptions) (*handle, fault) {
	r := C.go_cache_new(C.robotstxt_cache_options{capacity: csize(o.capacity), lease_ms: C.uint64_t(o.leaseMS), policy: policyC(o.policy)})
	return hp(r.handle), faultOf(r.status, r.err)
}

func coreCacheFree(h *handle) { C.robotstxt_cache_free(cacheC(h)) }

func coreCacheLookup(h *handle, url, token string, nowMS uint64, when uint32) (coreLookup, fault) {
	r := C.go_cache_lookup(cacheC(h), cstr(url), C.size_t(len(url)), cstr(token), C.size_t(len(token)),
		C.uint64_t(nowMS), C.robotstxt_when_fetching(when))
	runtime.KeepAlive(url)
	runtime.KeepAlive(token)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return coreLookup{}, faultOf(r.status, r.err)
	}
	l := coreLookup{
		kind: uint32(r.lookup.kind), answer: uint32(r.lookup.answer), stale: bool(r.lookup.stale),
		rules: hp(unsafe.Pointer(r.lookup.rules)), lease: hp(unsafe.Pointer(r.lookup.lease)), untilMS: uint64(r.lookup.until_ms),
		hasRetryAt: bool(r.lookup.has_retry_at), retryAtMS: uint64(r.lookup.retry_at_ms),
	}
	l.blanket, l.isBlanket = blanketOfC(r.lookup.blanket)
	if l.lease != nil {
		l.origin, l.robotsURL, l.validators = gostr(r.origin), gostr(r.robots_url), validatorsOf(r.validators)
	}
	return l, fault{}
}

func coreCacheStore(cache, lease *handle, nowMS uint64, resp *Response) (uint32, fault) {
	r := C.go_cache_store(cacheC(cache), leaseC(lease), C.uint64_t(nowMS), fetchC(resp))
	runtime.KeepAlive(resp)
	return uint32(r.value), faultOf(r.status, r.err)
}

func coreCacheAbandon(cache, lease *handle) fault {
	r := C.go_cache_abandon(cacheC(cache), leaseC(lease))
	return faultOf(r.status, r.err)
}

func coreLeaseFree(h *handle) { C.robotstxt_lease_free(leaseC(h)) }

func coreCacheRemove(h *handle, url string) (bool, fault) {
	r := C.go_cache_remove(cacheC(h), cstr(url), C.size_t(len(url)))
	runtime.KeepAlive(url)
	return bool(r.value), faultOf(r.status, r.err)
}

func coreCacheStats(h *handle) (CacheStats, int, fault) {
	r := C.go_cache_stats(cacheC(h))
	s := r.counters
	return CacheStats{Hits: uint64(s.hits), Misses: uint64(s.misses), Fetches: uint64(s.fetches),
		Stale: uint64(s.stale), Evictions: uint64(s.evictions), Entries: uint64(s.entries)}, int(r.len), faultOf(r.status, r.err)
}

// --- the pacer (behaviour §8) ---

func corePacerNew(o corePacerOptions) (*handle, fault) {
	r := C.go_pacer_new(C.robotstxt_pacer_options{
		floor_ms:             C.uint64_t(o.floorMS),
		backoff_cap_ms:       C.uint64_t(o.backoffCapMS),
		capacity:             csize(o.capacity),
		max_in_flight:        C.uint32_t(o.maxInFlight),
		in_flight_timeout_ms: C.uint64_t(o.inFlightTimeoutMS),
	})
	return hp(r.handle), faultOf(r.status, r.err)
}

func corePacerFree(h *handle) { C.robotstxt_pacer_free(pacerC(h)) }

func corePacerReserve(h *handle, host string, nowMS uint64) (*handle, uint64, fault) {
	r := C.go_pacer_reserve(pacerC(h), cstr(host), C.size_t(len(host)), C.uint64_t(nowMS))
	runtime.KeepAlive(host)
	return hp(unsafe.Pointer(r.ticket)), uint64(r.start_ms), faultOf(r.status, r.err)
}

func coreTicketStart(h *handle) uint64 { return uint64(C.robotstxt_ticket_start(ticketC(h))) }

func coreTicketFree(h *handle) { C.robotstxt_ticket_free(ticketC(h)) }

func corePacerConfirm(pacer, ticket *handle, nowMS uint64) (coreConfirm, fault) {
	r := C.go_pacer_confirm(pacerC(pacer), ticketC(ticket), C.uint64_t(nowMS))
	return coreConfirm{kind: uint32(r.confirm.kind), untilMS: uint64(r.confirm.until_ms), busy: bool(r.confirm.busy)},
		faultOf(r.status, r.err)
}

func corePacerCancel(pacer, ticket *handle) fault {
	r := C.go_pacer_cancel(pacerC(pacer), ticketC(ticket))
	return faultOf(r.status, r.err)
}

func corePacerInFlight(h *handle, host string, nowMS uint64) (int, fault) {
	r := C.go_pacer_in_flight(pacerC(h), cstr(host), C.size_t(len(host)), C.uint64_t(nowMS))
	runtime.KeepAlive(host)
	return int(r.count), faultOf(r.status, r.err)
}

func corePacerSetDelay(h *handle, host string, hasDelay bool, delayS float64, hasRate bool, rate RequestRate) fault {
	r := C.go_pacer_set_delay(pacerC(h), cstr(host), C.size_t(len(host)), C.bool(hasDelay), C.double(delayS),
		C.bool(hasRate), C.uint32_t(rate.Requests), C.uint32_t(rate.Seconds))
	runtime.KeepAlive(host)
	return faultOf(r.status, r.err)
}

func corePacerSetRules(h *handle, host string, rules *handle) fault {
	r := C.go_pacer_set_rules(pacerC(h), cstr(host), C.size_t(len(host)), rulesC(rules))
	runtime.KeepAlive(host)
	return faultOf(r.status, r.err)
}

func corePacerRecord(h *handle, host string, nowMS uint64, status uint16, hasRetryAfter bool, retryAfterMS uint64) fault {
	r := C.go_pacer_record(pacerC(h), cstr(host), C.size_t(len(host)), C.uint64_t(nowMS), C.uint16_t(status),
		C.bool(hasRetryAfter), C.uint64_t(retryAfterMS))
	runtime.KeepAlive(host)
	return faultOf(r.status, r.err)
}

func corePacerSetEnabled(h *handle, host string, enabled bool) fault {
	r := C.go_pacer_set_enabled(pacerC(h), cstr(host), C.size_t(len(host)), C.bool(enabled))
	runtime.KeepAlive(host)
	return faultOf(r.status, r.err)
}

func corePacerGap(h *handle, host string) (uint64, fault) {
	r := C.go_pacer_gap(pacerC(h), cstr(host), C.size_t(len(host)))
	runtime.KeepAlive(host)
	return uint64(r.value), faultOf(r.status, r.err)
}

// headerValue pairs a constant of include/robotstxt.h with the Go constant
// that stands for it, for core_cgo_test.go: the WebAssembly build cannot
// read the header, so the Go side spells the values out.
type headerValue struct {
	name          string
	header, value uint64
}

func headerValues() []headerValue {
	return append([]headerValue{
		{"ROBOTSTXT_HTTP_IGNORED_RETRY_AFTER", C.ROBOTSTXT_HTTP_IGNORED_RETRY_AFTER, httpIgnoredRetryAfter},
		{"ROBOTSTXT_HTTP_IGNORED_CACHE_CONTROL", C.ROBOTSTXT_HTTP_IGNORED_CACHE_CONTROL, httpIgnoredCacheControl},
		{"ROBOTSTXT_STATUS_OK", C.ROBOTSTXT_STATUS_OK, statusOK},
		{"ROBOTSTXT_STATUS_NULL_ARGUMENT", C.ROBOTSTXT_STATUS_NULL_ARGUMENT, statusNullArgument},
		{"ROBOTSTXT_STATUS_INVALID_ARGUMENT", C.ROBOTSTXT_STATUS_INVALID_ARGUMENT, statusInvalidArgument},
		{"ROBOTSTXT_STATUS_INVALID_TOKEN", C.ROBOTSTXT_STATUS_INVALID_TOKEN, statusInvalidToken},
		{"ROBOTSTXT_STATUS_NO_TOKENS", C.ROBOTSTXT_STATUS_NO_TOKENS, statusNoTokens},
		{"ROBOTSTXT_STATUS_PARSE_LIMIT", C.ROBOTSTXT_STATUS_PARSE_LIMIT, statusParseLimit},
		{"ROBOTSTXT_STATUS_INVALID_OPTION", C.ROBOTSTXT_STATUS_INVALID_OPTION, statusInvalidOption},
		{"ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE", C.ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE, statusIndexOutOfRange},
		{"ROBOTSTXT_STATUS_INVALID_URL", C.ROBOTSTXT_STATUS_INVALID_URL, statusInvalidURL},
		{"ROBOTSTXT_STATUS_INVALID_HOST", C.ROBOTSTXT_STATUS_INVALID_HOST, statusInvalidHost},
		{"ROBOTSTXT_STATUS_INVALID_LEASE", C.ROBOTSTXT_STATUS_INVALID_LEASE, statusInvalidLease},
		{"ROBOTSTXT_STATUS_INVALID_TICKET", C.ROBOTSTXT_STATUS_INVALID_TICKET, statusInvalidTicket},
		{"ROBOTSTXT_STATUS_PACER_FULL", C.ROBOTSTXT_STATUS_PACER_FULL, statusPacerFull},
		{"ROBOTSTXT_STATUS_INVALID_FIELD", C.ROBOTSTXT_STATUS_INVALID_FIELD, statusInvalidField},
		{"ROBOTSTXT_STATUS_INVALID_COPY", C.ROBOTSTXT_STATUS_INVALID_COPY, statusInvalidCopy},
		{"ROBOTSTXT_STATUS_COPY_VERSION", C.ROBOTSTXT_STATUS_COPY_VERSION, statusCopyVersion},
		{"ROBOTSTXT_STATUS_BODY_MISMATCH", C.ROBOTSTXT_STATUS_BODY_MISMATCH, statusBodyMismatch},
		{"ROBOTSTXT_STATUS_BUFFER_TOO_SMALL", C.ROBOTSTXT_STATUS_BUFFER_TOO_SMALL, statusBufferTooSmall},
		{"ROBOTSTXT_STATUS_PANIC", C.ROBOTSTXT_STATUS_PANIC, statusPanic},
		{"ROBOTSTXT_MIN_PARSE_LIMIT", C.ROBOTSTXT_MIN_PARSE_LIMIT, MinParseLimit},
		{"ROBOTSTXT_MAX_PARSE_LIMIT", C.ROBOTSTXT_MAX_PARSE_LIMIT, MaxParseLimit},
		{"ROBOTSTXT_PROFILE_RFC", C.ROBOTSTXT_PROFILE_RFC, uint64(RFC9309)},
		{"ROBOTSTXT_PROFILE_GOOGLE", C.ROBOTSTXT_PROFILE_GOOGLE, uint64(Google)},
		{"ROBOTSTXT_DECISION_NONE", C.ROBOTSTXT_DECISION_NONE, uint64(NoRule)},
		{"ROBOTSTXT_DECISION_ALLOW", C.ROBOTSTXT_DECISION_ALLOW, uint64(AllowRule)},
		{"ROBOTSTXT_DECISION_DISALLOW", C.ROBOTSTXT_DECISION_DISALLOW, uint64(DisallowRule)},
		{"ROBOTSTXT_DECISION_ALLOW_ALL", C.ROBOTSTXT_DECISION_ALLOW_ALL, uint64(DecisionAllowAll)},
		{"ROBOTSTXT_DECISION_DISALLOW_ALL", C.ROBOTSTXT_DECISION_DISALLOW_ALL, uint64(DecisionDisallowAll)},
		{"ROBOTSTXT_CAUSE_NONE", C.ROBOTSTXT_CAUSE_NONE, causeNone},
		{"ROBOTSTXT_CAUSE_STATUS", C.ROBOTSTXT_CAUSE_STATUS, uint64(CauseStatus)},
		{"ROBOTSTXT_CAUSE_NO_RESPONSE", C.ROBOTSTXT_CAUSE_NO_RESPONSE, uint64(CauseNoResponse)},
		{"ROBOTSTXT_CAUSE_NOT_FETCHED", C.ROBOTSTXT_CAUSE_NOT_FETCHED, uint64(CauseNotFetched)},
		{"ROBOTSTXT_CAUSE_UNREACHABLE_LIMIT", C.ROBOTSTXT_CAUSE_UNREACHABLE_LIMIT, uint64(CauseUnreachableLimit)},
		{"ROBOTSTXT_CAUSE_CALLER", C.ROBOTSTXT_CAUSE_CALLER, uint64(CauseCaller)},
		{"ROBOTSTXT_USAGE_UNKNOWN", C.ROBOTSTXT_USAGE_UNKNOWN, usageUnknown},
		{"ROBOTSTXT_USAGE_YES", C.ROBOTSTXT_USAGE_YES, usageYes},
		{"ROBOTSTXT_USAGE_NO", C.ROBOTSTXT_USAGE_NO, usageNo},
		{"ROBOTSTXT_LINE_USER_AGENT", C.ROBOTSTXT_LINE_USER_AGENT, uint64(LineUserAgent)},
		{"ROBOTSTXT_LINE_ALLOW", C.ROBOTSTXT_LINE_ALLOW, uint64(LineAllow)},
		{"ROBOTSTXT_LINE_DISALLOW", C.ROBOTSTXT_LINE_DISALLOW, uint64(LineDisallow)},
		{"ROBOTSTXT_LINE_SITEMAP", C.ROBOTSTXT_LINE_SITEMAP, uint64(LineSitemap)},
		{"ROBOTSTXT_LINE_CRAWL_DELAY", C.ROBOTSTXT_LINE_CRAWL_DELAY, uint64(LineCrawlDelay)},
		{"ROBOTSTXT_LINE_REQUEST_RATE", C.ROBOTSTXT_LINE_REQUEST_RATE, uint64(LineRequestRate)},
		{"ROBOTSTXT_LINE_HOST", C.ROBOTSTXT_LINE_HOST, uint64(LineHost)},
		{"ROBOTSTXT_LINE_UNKNOWN", C.ROBOTSTXT_LINE_UNKNOWN, uint64(LineUnknown)},
		{"ROBOTSTXT_LINE_INVALID", C.ROBOTSTXT_LINE_INVALID, uint64(LineInvalid)},
		{"ROBOTSTXT_LINE_CONTENT_USAGE", C.ROBOTSTXT_LINE_CONTENT_USAGE, uint64(LineContentUsage)},
		{"ROBOTSTXT_LINE_CONTENT_SIGNAL", C.ROBOTSTXT_LINE_CONTENT_SIGNAL, uint64(LineContentSignal)},
		{"ROBOTSTXT_FLAG_TYPO", C.ROBOTSTXT_FLAG_TYPO, uint64(FlagTypo)},
		{"ROBOTSTXT_FLAG_MISSING_COLON", C.ROBOTSTXT_FLAG_MISSING_COLON, uint64(FlagMissingColon)},
		{"ROBOTSTXT_FLAG_TOO_LONG", C.ROBOTSTXT_FLAG_TOO_LONG, uint64(FlagTooLong)},
		{"ROBOTSTXT_FLAG_OUTSIDE_GROUP", C.ROBOTSTXT_FLAG_OUTSIDE_GROUP, uint64(FlagOutsideGroup)},
		{"ROBOTSTXT_FLAG_INVALID_VALUE", C.ROBOTSTXT_FLAG_INVALID_VALUE, uint64(FlagInvalidValue)},
		{"ROBOTSTXT_FLAG_UNKNOWN_KEY", C.ROBOTSTXT_FLAG_UNKNOWN_KEY, uint64(FlagUnknownKey)},
		{"ROBOTSTXT_FLAG_INVALID_STATEMENT", C.ROBOTSTXT_FLAG_INVALID_STATEMENT, uint64(FlagInvalidStatement)},
		{"ROBOTSTXT_FLAG_EMPTY_STATEMENT", C.ROBOTSTXT_FLAG_EMPTY_STATEMENT, uint64(FlagEmptyStatement)},
		{"ROBOTSTXT_FLAG_UNKNOWN_PREFERENCE", C.ROBOTSTXT_FLAG_UNKNOWN_PREFERENCE, uint64(FlagUnknownPreference)},
		{"ROBOTSTXT_ACCESS_CAREFUL", C.ROBOTSTXT_ACCESS_CAREFUL, uint64(Careful)},
		{"ROBOTSTXT_ACCESS_STRICT_RFC", C.ROBOTSTXT_ACCESS_STRICT_RFC, uint64(StrictRFC)},
		{"ROBOTSTXT_DISPOSITION_FOLLOW_RULES", C.ROBOTSTXT_DISPOSITION_FOLLOW_RULES, uint64(FollowRules)},
		{"ROBOTSTXT_DISPOSITION_ALLOW_ALL", C.ROBOTSTXT_DISPOSITION_ALLOW_ALL, uint64(AllowAll)},
		{"ROBOTSTXT_DISPOSITION_DISALLOW_ALL", C.ROBOTSTXT_DISPOSITION_DISALLOW_ALL, uint64(DisallowAll)},
		{"ROBOTSTXT_DISPOSITION_NOT_MODIFIED", C.ROBOTSTXT_DISPOSITION_NOT_MODIFIED, uint64(NotModified)},
		{"ROBOTSTXT_AFTER_LIMIT_KEEP_COPY", C.ROBOTSTXT_AFTER_LIMIT_KEEP_COPY, uint64(KeepCopy)},
		{"ROBOTSTXT_AFTER_LIMIT_ALLOW_ALL", C.ROBOTSTXT_AFTER_LIMIT_ALLOW_ALL, uint64(AllowAllAfterLimit)},
		{"ROBOTSTXT_ANSWER_RULES", C.ROBOTSTXT_ANSWER_RULES, uint64(AnswerRules)},
		{"ROBOTSTXT_ANSWER_ALLOW_ALL", C.ROBOTSTXT_ANSWER_ALLOW_ALL, uint64(AnswerAllowAll)},
		{"ROBOTSTXT_ANSWER_DISALLOW_ALL", C.ROBOTSTXT_ANSWER_DISALLOW_ALL, uint64(AnswerDisallowAll)},
		{"ROBOTSTXT_WHEN_FETCHING_WAIT", C.ROBOTSTXT_WHEN_FETCHING_WAIT, uint64(WaitForFetch)},
		{"ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL", C.ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL, uint64(DisallowWhileFetching)},
		{"ROBOTSTXT_LOOKUP_READY", C.ROBOTSTXT_LOOKUP_READY, uint64(LookupReady)},
		{"ROBOTSTXT_LOOKUP_FETCH", C.ROBOTSTXT_LOOKUP_FETCH, uint64(LookupFetch)},
		{"ROBOTSTXT_LOOKUP_WAIT", C.ROBOTSTXT_LOOKUP_WAIT, uint64(LookupWait)},
		{"ROBOTSTXT_CONFIRM_GO", C.ROBOTSTXT_CONFIRM_GO, uint64(ConfirmGo)},
		{"ROBOTSTXT_CONFIRM_WAIT", C.ROBOTSTXT_CONFIRM_WAIT, uint64(ConfirmWait)},
		{"ROBOTSTXT_CONFIRM_DISABLED", C.ROBOTSTXT_CONFIRM_DISABLED, uint64(ConfirmDisabled)},
	}, fleetHeaderValues()...)
}

// --- a fleet's protocol, sans I/O ---

func fleetCacheC(h *handle) *C.robotstxt_fleet_cache {
	return (*C.robotstxt_fleet_cache)(unsafe.Pointer(h))
}
func fleetPacerC(h *handle) *C.robotstxt_fleet_pacer {
	return (*C.robotstxt_fleet_pacer)(unsafe.Pointer(h))
}
func fleetStepC(h *handle) *C.robotstxt_fleet_step {
	return (*C.robotstxt_fleet_step)(unsafe.Pointer(h))
}
func fleetLeaseC(h *handle) *C.robotstxt_fleet_lease {
	return (*C.robotstxt_fleet_lease)(unsafe.Pointer(h))
}
func fleetTicketC(h *handle) *C.robotstxt_fleet_ticket {
	return (*C.robotstxt_fleet_ticket)(unsafe.Pointer(h))
}

func coreFleetStepFree(h *handle)   { C.robotstxt_fleet_step_free(fleetStepC(h)) }
func coreFleetLeaseFree(h *handle)  { C.robotstxt_fleet_lease_free(fleetLeaseC(h)) }
func coreFleetTicketFree(h *handle) { C.robotstxt_fleet_ticket_free(fleetTicketC(h)) }
func coreFleetCacheFree(h *handle)  { C.robotstxt_fleet_cache_free(fleetCacheC(h)) }
func coreFleetPacerFree(h *handle)  { C.robotstxt_fleet_pacer_free(fleetPacerC(h)) }

// fleetStep copies a step's call out.
func fleetStep(r C.go_fleet_step) (*handle, coreFleetCall, fault) {
	if r.status != C.ROBOTSTXT_STATUS_OK || r.step == nil {
		return nil, coreFleetCall{}, faultOf(r.status, r.err)
	}
	return hp(unsafe.Pointer(r.step)), fleetCall(r.step, r.script, r.keys, r.args), fault{}
}

func fleetCall(step *C.robotstxt_fleet_step, script C.robotstxt_str, keys, args C.size_t) coreFleetCall {
	c := coreFleetCall{script: gostr(script), keys: make([]string, int(keys)), args: make([]string, int(args))}
	for i := range c.keys {
		c.keys[i] = gostr(C.go_fleet_step_text(step, false, C.size_t(i)))
	}
	for i := range c.args {
		c.args[i] = gostr(C.go_fleet_step_text(step, true, C.size_t(i)))
	}
	return c
}

// replyC passes a reply's items, their text pinned where it lies (the
// core reads it during the call only).
func replyC(reply []FleetReply, pinner *runtime.Pinner) (*C.robotstxt_fleet_reply_item, C.size_t) {
	if len(reply) == 0 {
		return nil, 0
	}
	items := make([]C.robotstxt_fleet_reply_item, len(reply))
	for i, r := range reply {
		items[i].kind = C.robotstxt_fleet_reply_kind(r.Kind)
		items[i].integer = C.int64_t(r.Int)
		if len(r.Bytes) > 0 {
			p := unsafe.StringData(r.Bytes)
			pinner.Pin(p)
			items[i].bytes, items[i].len = (*C.uint8_t)(unsafe.Pointer(p)), C.size_t(len(r.Bytes))
		}
	}
	return unsafe.SliceData(items), C.size_t(len(items))
}

func atC(at FleetAt) (C.bool, C.uint64_t) { return C.bool(at.Given), C.uint64_t(at.MS) }

func fleetLookupOf(r C.go_fleet_lookup) (coreFleetLookup, fault) {
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return coreFleetLookup{}, faultOf(r.status, r.err)
	}
	l := r.lookup
	out := coreFleetLookup{
		kind: uint32(l.kind), answer: uint32(l.answer), stale: bool(l.stale),
		rules: hp(unsafe.Pointer(l.rules)), lease: hp(unsafe.Pointer(l.lease)), step: hp(unsafe.Pointer(l.step)),
		untilMS: uint64(l.until_ms), hasRetryAt: bool(l.has_retry_at), retryAtMS: uint64(l.retry_at_ms),
	}
	out.blanket, out.isBlanket = blanketOfC(l.blanket)
	if l.step != nil {
		var script C.robotstxt_str
		var keys, args C.size_t
		C.robotstxt_fleet_step_script(l.step, &script)
		C.robotstxt_fleet_step_counts(l.step, &keys, &args)
		out.call = fleetCall(l.step, script, keys, args)
	}
	if l.lease != nil {
		out.origin, out.robotsURL = gostr(r.lease.origin), gostr(r.lease.robots_url)
		out.validators = validatorsOf(r.lease.validators)
	}
	return out, fault{}
}

func coreFleetCacheNew(o coreFleetCacheOptions) (*handle, fault) {
	opts := C.robotstxt_fleet_cache_options{
		prefix:   C.robotstxt_str{ptr: cstr(o.prefix), len: C.size_t(len(o.prefix))},
		lease_ms: C.uint64_t(o.leaseMS), keep_ms: C.uint64_t(o.keepMS), capacity: csize(o.capacity),
		policy: policyC(o.policy),
	}
	r := C.go_fleet_cache_new(opts)
	runtime.KeepAlive(o.prefix)
	return hp(r.handle), faultOf(r.status, r.err)
}

func coreFleetCacheLookup(h *handle, url, token string, at FleetAt, when uint32, failSafe bool) (coreFleetLookup, fault) {
	given, ms := atC(at)
	r := C.go_fleet_cache_lookup(fleetCacheC(h), cstr(url), C.size_t(len(url)), cstr(token), C.size_t(len(token)),
		given, ms, C.robotstxt_when_fetching(when), C.bool(failSafe))
	runtime.KeepAlive(url)
	runtime.KeepAlive(token)
	return fleetLookupOf(r)
}

func coreFleetCacheLookupReply(h, step *handle, reply []FleetReply) (coreFleetLookup, fault) {
	var pinner runtime.Pinner
	defer pinner.Unpin()
	items, n := replyC(reply, &pinner)
	return fleetLookupOf(C.go_fleet_cache_lookup_reply(fleetCacheC(h), fleetStepC(step), items, n))
}

func coreFleetCacheLeaseStep(h, lease *handle, kind int, at FleetAt) (*handle, coreFleetCall, fault) {
	given, ms := atC(at)
	return fleetStep(C.go_fleet_cache_lease_step(fleetCacheC(h), fleetLeaseC(lease), C.int(kind), given, ms))
}

func coreFleetCacheRenewReply(h, step *handle, reply []FleetReply) (bool, fault) {
	var pinner runtime.Pinner
	defer pinner.Unpin()
	items, n := replyC(reply, &pinner)
	r := C.go_fleet_cache_renew_reply(fleetCacheC(h), fleetStepC(step), items, n)
	return bool(r.value), faultOf(r.status, r.err)
}

func coreFleetCacheStore(h, lease *handle, resp *Response, token string, at FleetAt) (*handle, coreFleetCall, fault) {
	given, ms := atC(at)
	r := C.go_fleet_cache_store(fleetCacheC(h), fleetLeaseC(lease), fetchC(resp), cstr(token), C.size_t(len(token)),
		given, ms)
	runtime.KeepAlive(resp)
	runtime.KeepAlive(token)
	return fleetStep(r)
}

func coreFleetCacheStoreReply(h, step *handle, reply []FleetReply, failed bool) (coreFleetStored, fault) {
	var pinner runtime.Pinner
	defer pinner.Unpin()
	items, n := replyC(reply, &pinner)
	r := C.go_fleet_cache_store_reply(fleetCacheC(h), fleetStepC(step), items, n, C.bool(failed))
	return coreFleetStored{disposition: uint32(r.stored.disposition), stored: bool(r.stored.stored),
		failed: bool(r.stored.failed), rules: hp(unsafe.Pointer(r.stored.rules))}, faultOf(r.status, r.err)
}

func coreFleetCacheRedisFailed(h *handle) {
	r := C.go_fleet_cache_redis_failed(fleetCacheC(h))
	must("FleetCache.RedisFailed", faultOf(r.status, r.err))
}

func coreFleetCacheRemove(h *handle, url string) (bool, fault) {
	r := C.go_fleet_cache_remove(fleetCacheC(h), cstr(url), C.size_t(len(url)))
	runtime.KeepAlive(url)
	return bool(r.value), faultOf(r.status, r.err)
}

func coreFleetCacheStats(h *handle) (FleetCacheStats, int, fault) {
	r := C.go_fleet_cache_stats(fleetCacheC(h))
	s := r.counters
	return FleetCacheStats{Hits: uint64(s.hits), Misses: uint64(s.misses), Fetches: uint64(s.fetches),
		Stale: uint64(s.stale), Evictions: uint64(s.evictions), Unreadable: uint64(s.unreadable),
		RedisErrors: uint64(s.redis_errors), Entries: uint64(s.entries)}, int(r.len), faultOf(r.status, r.err)
}

func coreFleetCacheTimes(h *handle, untilMS uint64, at FleetAt) (left, renewEvery uint64) {
	given, ms := atC(at)
	r := C.go_fleet_cache_times(fleetCacheC(h), C.uint64_t(untilMS), given, ms)
	return uint64(r.ms_until), uint64(r.renew_every_ms)
}

func coreFleetPacerNew(o coreFleetPacerOptions) (*handle, fault) {
	opts := C.robotstxt_fleet_pacer_options{
		prefix:   C.robotstxt_str{ptr: cstr(o.prefix), len: C.size_t(len(o.prefix))},
		floor_ms: C.uint64_t(o.floorMS), backoff_cap_ms: C.uint64_t(o.backoffCapMS),
		max_in_flight: C.uint32_t(o.maxInFlight), in_flight_timeout_ms: C.uint64_t(o.inFlightTimeoutMS),
		retain_ms: C.uint64_t(o.retainMS), known_capacity: csize(o.knownCapacity),
		worker: C.robotstxt_str{ptr: cstr(o.worker), len: C.size_t(len(o.worker))},
	}
	r := C.go_fleet_pacer_new(opts)
	runtime.KeepAlive(o.prefix)
	runtime.KeepAlive(o.worker)
	return hp(r.handle), faultOf(r.status, r.err)
}

func coreFleetPacerHostStep(h *handle, kind int, host string, at FleetAt, status uint16, flag bool,
	n uint64) (*handle, coreFleetCall, fault) {
	given, ms := atC(at)
	r := C.go_fleet_pacer_host_step(fleetPacerC(h), C.int(kind), cstr(host), C.size_t(len(host)), given, ms,
		C.uint16_t(status), C.bool(flag), C.uint64_t(n))
	runtime.KeepAlive(host)
	return fleetStep(r)
}

func coreFleetPacerReserveReply(h, step *handle, reply []FleetReply) (*handle, fault) {
	var pinner runtime.Pinner
	defer pinner.Unpin()
	items, n := replyC(reply, &pinner)
	r := C.go_fleet_pacer_reserve_reply(fleetPacerC(h), fleetStepC(step), items, n)
	return hp(r.handle), faultOf(r.status, r.err)
}

func coreFleetTicketRead(h *handle) (host string, startMS, generation uint64) {
	info := C.go_fleet_ticket_read(fleetTicketC(h))
	return gostr(info.host), uint64(info.start_ms), uint64(info.generation)
}

func coreFleetPacerTicketStep(h, ticket *handle, cancel bool, at FleetAt) (*handle, coreFleetCall, fault) {
	given, ms := atC(at)
	return fleetStep(C.go_fleet_pacer_confirm(fleetPacerC(h), fleetTicketC(ticket), C.bool(cancel), given, ms))
}

func coreFleetPacerConfirmReply(h, ticket, step *handle, reply []FleetReply) (coreFleetConfirm, fault) {
	var pinner runtime.Pinner
	defer pinner.Unpin()
	items, n := replyC(reply, &pinner)
	r := C.go_fleet_pacer_confirm_reply(fleetPacerC(h), fleetTicketC(ticket), fleetStepC(step), items, n)
	c := r.confirm
	return coreFleetConfirm{kind: uint32(c.kind), untilMS: uint64(c.until_ms), atMS: uint64(c.at_ms),
		busy: bool(c.busy)}, faultOf(r.status, r.err)
}

func coreFleetPacerStepReply(h, step *handle, reply []FleetReply, state bool) (uint64, uint64, fault) {
	var pinner runtime.Pinner
	defer pinner.Unpin()
	items, n := replyC(reply, &pinner)
	r := C.go_fleet_pacer_step_reply(fleetPacerC(h), fleetStepC(step), items, n, C.bool(state))
	return uint64(r.value), uint64(r.second), faultOf(r.status, r.err)
}

func coreFleetPacerMSUntil(h *handle, untilMS uint64, at FleetAt) uint64 {
	given, ms := atC(at)
	return uint64(C.go_fleet_pacer_ms_until(fleetPacerC(h), C.uint64_t(untilMS), given, ms))
}

func corePaceDelayMS(hasDelay bool, delayS float64, hasRate bool, rate RequestRate) (uint64, fault) {
	r := C.go_pace_delay_ms(C.bool(hasDelay), C.double(delayS), C.bool(hasRate), C.uint32_t(rate.Requests),
		C.uint32_t(rate.Seconds))
	return uint64(r.value), faultOf(r.status, r.err)
}

// fleetHeaderValues are the fleet's constants, for core_cgo_test.go.
func fleetHeaderValues() []headerValue {
	return []headerValue{
		{"ROBOTSTXT_STATUS_BAD_REPLY", C.ROBOTSTXT_STATUS_BAD_REPLY, statusBadReply},
		{"ROBOTSTXT_STATUS_INVALID_STEP", C.ROBOTSTXT_STATUS_INVALID_STEP, statusInvalidStep},
		{"ROBOTSTXT_LOOKUP_RUN", C.ROBOTSTXT_LOOKUP_RUN, uint64(LookupRun)},
		{"ROBOTSTXT_FLEET_REPLY_NIL", C.ROBOTSTXT_FLEET_REPLY_NIL, uint64(FleetReplyNil)},
		{"ROBOTSTXT_FLEET_REPLY_INT", C.ROBOTSTXT_FLEET_REPLY_INT, uint64(FleetReplyInt)},
		{"ROBOTSTXT_FLEET_REPLY_BYTES", C.ROBOTSTXT_FLEET_REPLY_BYTES, uint64(FleetReplyBytes)},
		{"ROBOTSTXT_FLEET_REPLY_ERROR", C.ROBOTSTXT_FLEET_REPLY_ERROR, uint64(FleetReplyError)},
	}
}

// --- HTTP facts (behaviour §11) ---

// coreHTTPRead reads a response's header values. The request struct holds
// pointers to the values, so it and they are copied into C memory: cgo
// passes no Go memory that holds pointers. It runs once per fetch of a
// robots.txt, where the copies cost nothing that matters.
func coreHTTPRead(h coreHTTP, nowMS, minMaxAgeMS uint64) (coreHTTPFacts, fault) {
	r := (*C.robotstxt_http_response)(C.calloc(1, C.size_t(unsafe.Sizeof(C.robotstxt_http_response{}))))
	f := (*C.robotstxt_fetch)(C.calloc(1, C.size_t(unsafe.Sizeof(C.robotstxt_fetch{}))))
	ignored := (*C.robotstxt_http_ignored)(C.calloc(1, C.size_t(unsafe.Sizeof(C.robotstxt_http_ignored(0)))))
	var copies []unsafe.Pointer
	defer func() {
		for _, p := range copies {
			C.free(p)
		}
		C.free(unsafe.Pointer(r))
		C.free(unsafe.Pointer(f))
		C.free(unsafe.Pointer(ignored))
	}()
	put := func(s string) C.robotstxt_str {
		if s == "" {
			return C.robotstxt_str{}
		}
		p := C.CBytes(unsafe.Slice(unsafe.StringData(s), len(s)))
		copies = append(copies, p)
		return C.robotstxt_str{ptr: (*C.uint8_t)(p), len: C.size_t(len(s))}
	}
	r.has_retry_after, r.retry_after = C.bool(h.hasRetryAfter), put(h.retryAfter)
	r.has_cache_control, r.cache_control = C.bool(h.hasCacheControl), put(h.cacheControl)
	r.has_etag, r.etag = C.bool(h.hasETag), put(h.etag)
	r.has_last_modified, r.last_modified = C.bool(h.hasLastModified), put(h.lastModified)
	st := C.robotstxt_http_read(r, C.uint64_t(nowMS), C.uint64_t(minMaxAgeMS), f, ignored)
	if st != C.ROBOTSTXT_STATUS_OK {
		return coreHTTPFacts{}, fault{status: uint32(st)} // only NULLs fail, and none is passed
	}
	return coreHTTPFacts{
		maxAgeMS: uint64(f.max_age_ms), hasMaxAge: bool(f.has_max_age),
		retryAfterMS: uint64(f.retry_after_ms), hasRetryAfter: bool(f.has_retry_after),
		etag: gostr(f.etag), lastModified: gostr(f.last_modified),
		ignored: uint32(*ignored),
	}, fault{}
}
