/*
 * shim.h: small C helpers between cgo and include/robotstxt.h.
 *
 * Two reasons for them, both about cgo rather than about robots.txt:
 *
 * - The last-error message is per OS thread, and a goroutine may move to
 *   another thread between two cgo calls. Each helper makes the call and,
 *   when it fails, copies robotstxt_last_error() into malloc'd memory in
 *   the same C function, on the same thread. Go frees the copy.
 * - Out-parameters that point into Go memory escape to the heap (cgo keeps
 *   every pointer argument alive), which would cost an allocation per
 *   question. The helpers keep the out-parameters on the C stack and return
 *   results by value.
 *
 * Nothing here decides anything about robots.txt: every helper calls one
 * library function and passes its answer through.
 */

#ifndef ROBOTSTXT_GO_SHIM_H
#define ROBOTSTXT_GO_SHIM_H

#include <stdlib.h>
#include <string.h>

#include "robotstxt.h"

/* The copied message of a failed call; (NULL, 0) on success. */
typedef struct go_err {
    char *ptr;
    size_t len;
} go_err;

static inline go_err go_take_error(robotstxt_status status) {
    go_err e = {NULL, 0};
    const uint8_t *msg = NULL;
    size_t len = 0;
    if (status == ROBOTSTXT_STATUS_OK) return e;
    if (robotstxt_last_error(&msg, &len) != ROBOTSTXT_STATUS_OK || len == 0) return e;
    e.ptr = (char *)malloc(len);
    if (e.ptr == NULL) return e;
    memcpy(e.ptr, msg, len);
    e.len = len;
    return e;
}

/* A call that makes a handle. */
typedef struct go_handle {
    robotstxt_status status;
    void *handle;
    go_err err;
} go_handle;

/* A call with no result but its status. */
typedef struct go_unit {
    robotstxt_status status;
    go_err err;
} go_unit;

static inline go_unit go_unit_of(robotstxt_status status) {
    go_unit r;
    r.status = status;
    r.err = go_take_error(status);
    return r;
}

/* --- parsing and selecting --- */

static inline go_handle go_parse(const uint8_t *body, size_t len, bool with_options,
                                 robotstxt_options options) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_robots *robots = NULL;
    r.status = with_options ? robotstxt_robots_parse_with(body, len, &options, &robots)
                            : robotstxt_robots_parse(body, len, &robots);
    r.handle = robots;
    r.err = go_take_error(r.status);
    return r;
}

/* mode: 0 one token (tokens[0]), 1 any of them, 2 strictest-of. */
static inline go_handle go_rules_for(const robotstxt_robots *robots, int mode,
                                     const uint8_t *token, size_t token_len,
                                     const robotstxt_str *tokens, size_t count) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_rules *rules = NULL;
    switch (mode) {
    case 0: r.status = robotstxt_robots_rules_for(robots, token, token_len, &rules); break;
    case 1: r.status = robotstxt_robots_rules_for_any(robots, tokens, count, &rules); break;
    default: r.status = robotstxt_robots_rules_for_strictest(robots, tokens, count, &rules); break;
    }
    r.handle = rules;
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_u32 {
    robotstxt_status status;
    uint32_t value;
    go_err err;
} go_u32;

static inline go_u32 go_robots_profile(const robotstxt_robots *robots) {
    go_u32 r;
    robotstxt_profile p = 0;
    r.status = robotstxt_robots_profile(robots, &p);
    r.value = p;
    r.err = go_take_error(r.status);
    return r;
}

/* --- asking --- */

typedef struct go_bool {
    robotstxt_status status;
    bool value;
    go_err err;
} go_bool;

static inline go_bool go_can_fetch(const robotstxt_rules *rules, const uint8_t *url, size_t len) {
    go_bool r;
    bool ok = false;
    r.status = robotstxt_rules_can_fetch(rules, url, len, &ok);
    r.value = ok;
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_decision {
    robotstxt_status status;
    robotstxt_decision decision;
    go_err err;
} go_decision;

static inline go_decision go_decide(const robotstxt_rules *rules, const uint8_t *url, size_t len) {
    go_decision r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_rules_decide(rules, url, len, &r.decision);
    r.err = go_take_error(r.status);
    return r;
}

/* Whether rules are a blanket answer, why, and when a retry is due. */
typedef struct go_blanket {
    robotstxt_status status;
    robotstxt_blanket blanket;
    uint64_t retry_at_ms;
    bool has_retry_at;
    go_err err;
} go_blanket;

static inline go_blanket go_rules_blanket(const robotstxt_rules *rules) {
    go_blanket r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_rules_blanket(rules, &r.blanket);
    if (r.status == ROBOTSTXT_STATUS_OK)
        r.status = robotstxt_rules_retry_at(rules, &r.retry_at_ms, &r.has_retry_at);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_delay {
    robotstxt_status status;
    double seconds;
    bool has_value;
    go_err err;
} go_delay;

static inline go_unit go_rules_compile(const robotstxt_rules *rules) {
    return go_unit_of(robotstxt_rules_compile(rules));
}

static inline go_delay go_crawl_delay(const robotstxt_rules *rules) {
    go_delay r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_rules_crawl_delay(rules, &r.seconds, &r.has_value);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_rate {
    robotstxt_status status;
    uint32_t requests;
    uint32_t seconds;
    bool has_value;
    go_err err;
} go_rate;

static inline go_rate go_request_rate(const robotstxt_rules *rules) {
    go_rate r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_rules_request_rate(rules, &r.requests, &r.seconds, &r.has_value);
    r.err = go_take_error(r.status);
    return r;
}

/* --- file records and diagnostics --- */

typedef struct go_count {
    robotstxt_status status;
    size_t count;
    go_err err;
} go_count;

static inline go_count go_sitemap_count(const robotstxt_robots *robots) {
    go_count r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_robots_sitemap_count(robots, &r.count);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_text {
    robotstxt_status status;
    robotstxt_str text;
    bool found;
    go_err err;
} go_text;

static inline go_text go_sitemap(const robotstxt_robots *robots, size_t index) {
    go_text r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_robots_sitemap(robots, index, &r.text.ptr, &r.text.len);
    r.found = r.status == ROBOTSTXT_STATUS_OK;
    r.err = go_take_error(r.status);
    return r;
}

static inline go_text go_host(const robotstxt_robots *robots) {
    go_text r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_robots_host(robots, &r.text.ptr, &r.text.len, &r.found);
    r.err = go_take_error(r.status);
    return r;
}

/* The product token in a User-Agent header, as an offset into it: the
 * token borrows from the header, which is Go memory, and Go slices it. */
typedef struct go_token {
    robotstxt_status status;
    size_t offset;
    size_t len;
    go_err err;
} go_token;

static inline go_token go_product_token(const uint8_t *user_agent, size_t len) {
    go_token r;
    const uint8_t *token = NULL;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_product_token(user_agent, len, &token, &r.len);
    if (r.status == ROBOTSTXT_STATUS_OK && r.len > 0) r.offset = (size_t)(token - user_agent);
    r.err = go_take_error(r.status);
    return r;
}

static inline go_count go_diagnostic_count(const robotstxt_robots *robots) {
    go_count r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_robots_diagnostic_count(robots, &r.count);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_diagnostic {
    robotstxt_status status;
    robotstxt_diagnostic diagnostic;
    go_err err;
} go_diagnostic;

static inline go_diagnostic go_diagnostic_at(const robotstxt_robots *robots, size_t index) {
    go_diagnostic r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_robots_diagnostic(robots, index, &r.diagnostic);
    r.err = go_take_error(r.status);
    return r;
}

/* --- usage preferences (behaviour §10) --- */

static inline go_handle go_preferences(const robotstxt_rules *rules, const uint8_t *url,
                                       size_t len) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_preferences *p = NULL;
    r.status = robotstxt_rules_preferences(rules, url, len, &p);
    r.handle = p;
    r.err = go_take_error(r.status);
    return r;
}

static inline go_handle go_with_header(const robotstxt_preferences *p, const uint8_t *field,
                                       size_t len) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_preferences *combined = NULL;
    r.status = robotstxt_preferences_with_header(p, field, len, &combined);
    r.handle = combined;
    r.err = go_take_error(r.status);
    return r;
}

/* Whether the URL is crawlable, its decision, and how many labels and
 * statements the answer has: one call for the fixed part. */
typedef struct go_pref_head {
    robotstxt_status status;
    bool crawlable;
    robotstxt_decision decision;
    size_t labels;
    size_t statements;
    go_err err;
} go_pref_head;

static inline go_pref_head go_preferences_head(const robotstxt_preferences *p) {
    go_pref_head r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_preferences_crawlable(p, &r.crawlable, &r.decision);
    if (r.status == ROBOTSTXT_STATUS_OK) r.status = robotstxt_preferences_label_count(p, &r.labels);
    if (r.status == ROBOTSTXT_STATUS_OK)
        r.status = robotstxt_preferences_statement_count(p, &r.statements);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_label {
    robotstxt_status status;
    robotstxt_label_preference label;
    go_err err;
} go_label;

static inline go_label go_preferences_label(const robotstxt_preferences *p, size_t index) {
    go_label r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_preferences_label(p, index, &r.label);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_statement {
    robotstxt_status status;
    robotstxt_usage_statement statement;
    go_err err;
} go_statement;

static inline go_statement go_preferences_statement(const robotstxt_preferences *p, size_t index) {
    go_statement r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_preferences_statement(p, index, &r.statement);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_member {
    robotstxt_status status;
    robotstxt_member member;
    go_err err;
} go_member;

static inline go_member go_preferences_member(const robotstxt_preferences *p, size_t statement,
                                              size_t member) {
    go_member r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_preferences_member(p, statement, member, &r.member);
    r.err = go_take_error(r.status);
    return r;
}

static inline go_handle go_content_signal(const robotstxt_rules *rules) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_content_signal *s = NULL;
    r.status = robotstxt_rules_content_signal(rules, &s);
    r.handle = s;
    r.err = go_take_error(r.status);
    return r;
}

/* How many keys a content signal has, and its lines. */
typedef struct go_signal_head {
    robotstxt_status status;
    size_t count;
    const uint32_t *lines;
    size_t line_count;
    go_err err;
} go_signal_head;

static inline go_signal_head go_content_signal_head(const robotstxt_content_signal *s) {
    go_signal_head r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_content_signal_count(s, &r.count);
    if (r.status == ROBOTSTXT_STATUS_OK)
        r.status = robotstxt_content_signal_lines(s, &r.lines, &r.line_count);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_signal {
    robotstxt_status status;
    robotstxt_signal entry;
    go_err err;
} go_signal;

static inline go_signal go_content_signal_entry(const robotstxt_content_signal *s, size_t index) {
    go_signal r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_content_signal_entry(s, index, &r.entry);
    r.err = go_take_error(r.status);
    return r;
}

/* Other records of a file (rules == NULL) or of a crawler's rules. */
static inline go_count go_other_record_count(const robotstxt_robots *robots,
                                             const robotstxt_rules *rules) {
    go_count r;
    memset(&r, 0, sizeof r);
    r.status = rules != NULL ? robotstxt_rules_other_record_count(rules, &r.count)
                             : robotstxt_robots_other_record_count(robots, &r.count);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_other_record {
    robotstxt_status status;
    robotstxt_other_record record;
    go_err err;
} go_other_record;

static inline go_other_record go_other_record_at(const robotstxt_robots *robots,
                                                 const robotstxt_rules *rules, size_t index) {
    go_other_record r;
    memset(&r, 0, sizeof r);
    r.status = rules != NULL ? robotstxt_rules_other_record(rules, index, &r.record)
                             : robotstxt_robots_other_record(robots, index, &r.record);
    r.err = go_take_error(r.status);
    return r;
}

/* --- fetch outcome (behaviour §6) --- */

static inline go_u32 go_classify(uint16_t http_status, uint32_t redirects,
                                 robotstxt_access_policy policy) {
    go_u32 r;
    robotstxt_disposition d = 0;
    r.status = robotstxt_access_classify(http_status, redirects, policy, &d);
    r.value = d;
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_outcome {
    robotstxt_status status;
    robotstxt_disposition disposition;
    robotstxt_robots *robots;
    go_err err;
} go_outcome;

static inline go_outcome go_from_outcome(robotstxt_fetch fetch, robotstxt_access_policy policy,
                                         robotstxt_options options) {
    go_outcome r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_access_from_outcome(&fetch, policy, &options, &r.disposition, &r.robots);
    r.err = go_take_error(r.status);
    return r;
}

/* --- freshness (behaviour §7) --- */

static inline go_handle go_entry_new(robotstxt_freshness_policy policy) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_entry *entry = NULL;
    r.status = robotstxt_entry_new(&policy, &entry);
    r.handle = entry;
    r.err = go_take_error(r.status);
    return r;
}

static inline go_u32 go_entry_record(robotstxt_entry *entry, uint64_t now_ms,
                                     robotstxt_fetch fetch) {
    go_u32 r;
    robotstxt_disposition d = 0;
    r.status = robotstxt_entry_record(entry, now_ms, &fetch, &d);
    r.value = d;
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_entry_state {
    robotstxt_status status;
    bool due;
    uint64_t due_at_ms;
    uint64_t fetched_at_ms;
    bool has_fetched_at;
    uint32_t failures;
    bool has_copy;
    robotstxt_validators validators;
    go_err err;
} go_entry_state;

/* Everything an entry can say at `now_ms`, in one call. */
static inline go_entry_state go_entry_read(const robotstxt_entry *entry, uint64_t now_ms) {
    go_entry_state r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_entry_is_due(entry, now_ms, &r.due);
    if (r.status == ROBOTSTXT_STATUS_OK) r.status = robotstxt_entry_due_at(entry, &r.due_at_ms);
    if (r.status == ROBOTSTXT_STATUS_OK)
        r.status = robotstxt_entry_fetched_at(entry, &r.fetched_at_ms, &r.has_fetched_at);
    if (r.status == ROBOTSTXT_STATUS_OK) r.status = robotstxt_entry_failures(entry, &r.failures);
    if (r.status == ROBOTSTXT_STATUS_OK) r.status = robotstxt_entry_has_copy(entry, &r.has_copy);
    if (r.status == ROBOTSTXT_STATUS_OK)
        r.status = robotstxt_entry_validators(entry, &r.validators);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_answer {
    robotstxt_status status;
    robotstxt_answer answer;
    robotstxt_robots *robots;
    go_err err;
} go_answer;

static inline go_answer go_entry_answer(const robotstxt_entry *entry, uint64_t now_ms) {
    go_answer r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_entry_answer(entry, now_ms, &r.answer, &r.robots);
    r.err = go_take_error(r.status);
    return r;
}

/* --- the cache (behaviour §6–§7) --- */

static inline go_handle go_cache_new(robotstxt_cache_options options) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_cache *cache = NULL;
    r.status = robotstxt_cache_new(&options, &cache);
    r.handle = cache;
    r.err = go_take_error(r.status);
    return r;
}

/* A lookup, and for a FETCH the lease's origin, URL and validators (which
 * borrow from the lease: Go copies them before freeing it). */
typedef struct go_lookup {
    robotstxt_status status;
    robotstxt_lookup lookup;
    robotstxt_str origin;
    robotstxt_str robots_url;
    robotstxt_validators validators;
    go_err err;
} go_lookup;

static inline go_lookup go_cache_lookup(const robotstxt_cache *cache, const uint8_t *url,
                                        size_t url_len, const uint8_t *token, size_t token_len,
                                        uint64_t now_ms, robotstxt_when_fetching when) {
    go_lookup r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_cache_lookup(cache, url, url_len, token, token_len, now_ms, when,
                                      &r.lookup);
    if (r.status == ROBOTSTXT_STATUS_OK && r.lookup.lease != NULL) {
        r.status = robotstxt_lease_origin(r.lookup.lease, &r.origin.ptr, &r.origin.len);
        if (r.status == ROBOTSTXT_STATUS_OK)
            r.status = robotstxt_lease_robots_url(r.lookup.lease, &r.robots_url.ptr,
                                                  &r.robots_url.len);
        if (r.status == ROBOTSTXT_STATUS_OK)
            r.status = robotstxt_lease_validators(r.lookup.lease, &r.validators);
        if (r.status != ROBOTSTXT_STATUS_OK) {
            r.err = go_take_error(r.status);
            robotstxt_lease_free(r.lookup.lease);
            r.lookup.lease = NULL;
            return r;
        }
    }
    r.err = go_take_error(r.status);
    return r;
}

static inline go_u32 go_cache_store(const robotstxt_cache *cache, robotstxt_lease *lease,
                                    uint64_t now_ms, robotstxt_fetch fetch) {
    go_u32 r;
    robotstxt_disposition d = 0;
    r.status = robotstxt_cache_store(cache, lease, now_ms, &fetch, &d);
    r.value = d;
    r.err = go_take_error(r.status);
    return r;
}

static inline go_unit go_cache_abandon(const robotstxt_cache *cache, robotstxt_lease *lease) {
    return go_unit_of(robotstxt_cache_abandon(cache, lease));
}

static inline go_bool go_cache_remove(const robotstxt_cache *cache, const uint8_t *url,
                                      size_t len) {
    go_bool r;
    bool removed = false;
    r.status = robotstxt_cache_remove(cache, url, len, &removed);
    r.value = removed;
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_counters {
    robotstxt_status status;
    robotstxt_cache_counters counters;
    size_t len;
    go_err err;
} go_counters;

static inline go_counters go_cache_stats(const robotstxt_cache *cache) {
    go_counters r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_cache_stats(cache, &r.counters);
    if (r.status == ROBOTSTXT_STATUS_OK) r.status = robotstxt_cache_len(cache, &r.len);
    r.err = go_take_error(r.status);
    return r;
}

/* --- the pacer (behaviour §8) --- */

static inline go_handle go_pacer_new(robotstxt_pacer_options options) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_pacer *pacer = NULL;
    r.status = robotstxt_pacer_new(&options, &pacer);
    r.handle = pacer;
    r.err = go_take_error(r.status);
    return r;
}

/* A reservation: the ticket (NULL while the host is switched off) and its
 * start. */
typedef struct go_ticket {
    robotstxt_status status;
    robotstxt_ticket *ticket;
    uint64_t start_ms;
    go_err err;
} go_ticket;

static inline go_ticket go_pacer_reserve(const robotstxt_pacer *pacer, const uint8_t *host,
                                         size_t len, uint64_t now_ms) {
    go_ticket r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_pacer_reserve(pacer, host, len, now_ms, &r.ticket);
    r.start_ms = robotstxt_ticket_start(r.ticket);
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_confirm {
    robotstxt_status status;
    robotstxt_confirm confirm;
    go_err err;
} go_confirm;

static inline go_confirm go_pacer_confirm(const robotstxt_pacer *pacer,
                                          const robotstxt_ticket *ticket, uint64_t now_ms) {
    go_confirm r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_pacer_confirm(pacer, ticket, now_ms, &r.confirm);
    r.err = go_take_error(r.status);
    return r;
}

static inline go_unit go_pacer_cancel(const robotstxt_pacer *pacer,
                                      const robotstxt_ticket *ticket) {
    return go_unit_of(robotstxt_pacer_cancel(pacer, ticket));
}

static inline go_count go_pacer_in_flight(const robotstxt_pacer *pacer, const uint8_t *host,
                                          size_t len, uint64_t now_ms) {
    go_count r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_pacer_in_flight(pacer, host, len, now_ms, &r.count);
    r.err = go_take_error(r.status);
    return r;
}

static inline go_unit go_pacer_set_delay(const robotstxt_pacer *pacer, const uint8_t *host,
                                         size_t len, bool has_delay, double delay_s,
                                         bool has_rate, uint32_t requests, uint32_t seconds) {
    return go_unit_of(robotstxt_pacer_set_delay(pacer, host, len, has_delay, delay_s, has_rate,
                                                requests, seconds));
}

static inline go_unit go_pacer_set_rules(const robotstxt_pacer *pacer, const uint8_t *host,
                                         size_t len, const robotstxt_rules *rules) {
    return go_unit_of(robotstxt_pacer_set_rules(pacer, host, len, rules));
}

static inline go_unit go_pacer_record(const robotstxt_pacer *pacer, const uint8_t *host,
                                      size_t len, uint64_t now_ms, uint16_t status,
                                      bool has_retry_after, uint64_t retry_after_ms) {
    return go_unit_of(robotstxt_pacer_record(pacer, host, len, now_ms, status, has_retry_after,
                                             retry_after_ms));
}

static inline go_unit go_pacer_set_enabled(const robotstxt_pacer *pacer, const uint8_t *host,
                                           size_t len, bool enabled) {
    return go_unit_of(robotstxt_pacer_set_enabled(pacer, host, len, enabled));
}

typedef struct go_u64 {
    robotstxt_status status;
    uint64_t value;
    go_err err;
} go_u64;

static inline go_u64 go_pacer_gap(const robotstxt_pacer *pacer, const uint8_t *host, size_t len) {
    go_u64 r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_pacer_gap_ms(pacer, host, len, &r.value);
    r.err = go_take_error(r.status);
    return r;
}

/* --- stored copies and fleet keys --- */

/* A length written by a call with an output buffer. */
typedef struct go_len {
    robotstxt_status status;
    size_t len;
    go_err err;
} go_len;

static inline go_len go_len_of(robotstxt_status status, size_t len) {
    go_len r;
    r.status = status;
    r.len = len;
    /* Too small a buffer is no failure: the caller asks again. */
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

/* The stored body as an offset into the bytes: it borrows from them, which
 * are Go memory, and Go slices them. */
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

/* --- a fleet's protocol, sans I/O (core_cgo.go's fleet block) --- */

static inline robotstxt_fleet_at go_fleet_at(bool given, uint64_t ms) {
    robotstxt_fleet_at at;
    at.given = given;
    at.ms = ms;
    return at;
}

/* A lookup, with its lease's origin, URL and validators when it has one. */
typedef struct go_fleet_lookup {
    robotstxt_status status;
    robotstxt_fleet_lookup lookup;
    robotstxt_fleet_lease_info lease;
    go_err err;
} go_fleet_lookup;

static inline go_fleet_lookup go_fleet_lookup_of(robotstxt_status status, go_fleet_lookup r) {
    r.status = status;
    if (status == ROBOTSTXT_STATUS_OK && r.lookup.lease != NULL) {
        r.status = robotstxt_fleet_lease_read(r.lookup.lease, &r.lease);
        if (r.status != ROBOTSTXT_STATUS_OK) {
            robotstxt_fleet_lease_free(r.lookup.lease);
        }
    }
    r.err = go_take_error(r.status);
    return r;
}

static inline go_fleet_lookup go_fleet_cache_lookup(const robotstxt_fleet_cache *cache,
                                                    const uint8_t *url, size_t url_len,
                                                    const uint8_t *token, size_t token_len,
                                                    bool given, uint64_t ms,
                                                    robotstxt_when_fetching when, bool fail_safe) {
    go_fleet_lookup r;
    robotstxt_fleet_at at = go_fleet_at(given, ms);
    robotstxt_status status;
    memset(&r, 0, sizeof r);
    status = fail_safe ? robotstxt_fleet_cache_fail_safe(cache, url, url_len, token, token_len,
                                                         &at, &r.lookup)
                       : robotstxt_fleet_cache_lookup(cache, url, url_len, token, token_len, &at,
                                                      when, &r.lookup);
    return go_fleet_lookup_of(status, r);
}

static inline go_fleet_lookup go_fleet_cache_lookup_reply(const robotstxt_fleet_cache *cache,
                                                          const robotstxt_fleet_step *step,
                                                          const robotstxt_fleet_reply_item *items,
                                                          size_t count) {
    go_fleet_lookup r;
    robotstxt_status status;
    memset(&r, 0, sizeof r);
    status = robotstxt_fleet_cache_lookup_reply(cache, step, items, count, &r.lookup);
    return go_fleet_lookup_of(status, r);
}

/* A step made, with its script's name and its numbers of keys and args. */
typedef struct go_fleet_step {
    robotstxt_status status;
    robotstxt_fleet_step *step;
    robotstxt_str script;
    size_t keys, args;
    go_err err;
} go_fleet_step;

static inline go_fleet_step go_fleet_step_of(robotstxt_status status, robotstxt_fleet_step *step) {
    go_fleet_step r;
    memset(&r, 0, sizeof r);
    r.status = status;
    r.step = step;
    if (status == ROBOTSTXT_STATUS_OK && step != NULL) {
        robotstxt_fleet_step_script(step, &r.script);
        robotstxt_fleet_step_counts(step, &r.keys, &r.args);
    }
    r.err = go_take_error(status);
    return r;
}

/* Key or argument i of a step (i in range: the counts said so). */
static inline robotstxt_str go_fleet_step_text(const robotstxt_fleet_step *step, bool arg,
                                               size_t i) {
    robotstxt_str s = {NULL, 0};
    if (arg) {
        robotstxt_fleet_step_arg(step, i, &s);
    } else {
        robotstxt_fleet_step_key(step, i, &s);
    }
    return s;
}

/* kind: 0 renew, 1 abandon. */
static inline go_fleet_step go_fleet_cache_lease_step(const robotstxt_fleet_cache *cache,
                                                      const robotstxt_fleet_lease *lease, int kind,
                                                      bool given, uint64_t ms) {
    robotstxt_fleet_step *step = NULL;
    robotstxt_fleet_at at = go_fleet_at(given, ms);
    robotstxt_status status = kind == 0 ? robotstxt_fleet_cache_renew(cache, lease, &at, &step)
                                        : robotstxt_fleet_cache_abandon(cache, lease, &step);
    return go_fleet_step_of(status, step);
}

static inline go_fleet_step go_fleet_cache_store(const robotstxt_fleet_cache *cache,
                                                 const robotstxt_fleet_lease *lease,
                                                 robotstxt_fetch fetch, const uint8_t *token,
                                                 size_t token_len, bool given, uint64_t ms) {
    robotstxt_fleet_step *step = NULL;
    robotstxt_fleet_at at = go_fleet_at(given, ms);
    robotstxt_status status =
        robotstxt_fleet_cache_store(cache, lease, &fetch, token, token_len, &at, &step);
    return go_fleet_step_of(status, step);
}

static inline go_bool go_fleet_cache_renew_reply(const robotstxt_fleet_cache *cache,
                                                 const robotstxt_fleet_step *step,
                                                 const robotstxt_fleet_reply_item *items,
                                                 size_t count) {
    go_bool r;
    bool held = false;
    r.status = robotstxt_fleet_cache_renew_reply(cache, step, items, count, &held);
    r.value = held;
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_fleet_stored {
    robotstxt_status status;
    robotstxt_fleet_stored stored;
    go_err err;
} go_fleet_stored;

/* The store's reply, or with failed, Redis failed to take it. */
static inline go_fleet_stored go_fleet_cache_store_reply(const robotstxt_fleet_cache *cache,
                                                         const robotstxt_fleet_step *step,
                                                         const robotstxt_fleet_reply_item *items,
                                                         size_t count, bool failed) {
    go_fleet_stored r;
    memset(&r, 0, sizeof r);
    r.status = failed ? robotstxt_fleet_cache_store_failed(cache, step, &r.stored)
                      : robotstxt_fleet_cache_store_reply(cache, step, items, count, &r.stored);
    r.err = go_take_error(r.status);
    return r;
}

static inline go_handle go_fleet_cache_new(robotstxt_fleet_cache_options options) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_fleet_cache *cache = NULL;
    r.status = robotstxt_fleet_cache_new(&options, &cache);
    r.handle = cache;
    r.err = go_take_error(r.status);
    return r;
}

static inline go_unit go_fleet_cache_redis_failed(const robotstxt_fleet_cache *cache) {
    return go_unit_of(robotstxt_fleet_cache_redis_failed(cache));
}

static inline go_bool go_fleet_cache_remove(const robotstxt_fleet_cache *cache, const uint8_t *url,
                                            size_t len) {
    go_bool r;
    bool removed = false;
    r.status = robotstxt_fleet_cache_remove(cache, url, len, &removed);
    r.value = removed;
    r.err = go_take_error(r.status);
    return r;
}

typedef struct go_fleet_counters {
    robotstxt_status status;
    robotstxt_fleet_cache_counters counters;
    size_t len;
    go_err err;
} go_fleet_counters;

static inline go_fleet_counters go_fleet_cache_stats(const robotstxt_fleet_cache *cache) {
    go_fleet_counters r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_fleet_cache_stats(cache, &r.counters);
    if (r.status == ROBOTSTXT_STATUS_OK) {
        r.status = robotstxt_fleet_cache_len(cache, &r.len);
    }
    r.err = go_take_error(r.status);
    return r;
}

/* The ms from at until until_ms, and how often a lease is renewed. */
typedef struct go_fleet_times {
    uint64_t ms_until, renew_every_ms;
} go_fleet_times;

static inline go_fleet_times go_fleet_cache_times(const robotstxt_fleet_cache *cache,
                                                  uint64_t until_ms, bool given, uint64_t ms) {
    go_fleet_times r = {0, 0};
    robotstxt_fleet_at at = go_fleet_at(given, ms);
    robotstxt_fleet_cache_ms_until(cache, until_ms, &at, &r.ms_until);
    robotstxt_fleet_cache_renew_every_ms(cache, &r.renew_every_ms);
    return r;
}

static inline go_handle go_fleet_pacer_new(robotstxt_fleet_pacer_options options) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_fleet_pacer *pacer = NULL;
    r.status = robotstxt_fleet_pacer_new(&options, &pacer);
    r.handle = pacer;
    r.err = go_take_error(r.status);
    return r;
}

/* kind: 0 reserve, 1 record (status, flag: has Retry-After, n: its ms),
 * 2 set_delay (n: the gap), 3 set_enabled (flag), 4 pace_state. */
static inline go_fleet_step go_fleet_pacer_host_step(const robotstxt_fleet_pacer *pacer, int kind,
                                                     const uint8_t *host, size_t len, bool given,
                                                     uint64_t ms, uint16_t status, bool flag,
                                                     uint64_t n) {
    robotstxt_fleet_step *step = NULL;
    robotstxt_fleet_at at = go_fleet_at(given, ms);
    robotstxt_status st;
    switch (kind) {
    case 0: st = robotstxt_fleet_pacer_reserve(pacer, host, len, &at, &step); break;
    case 1: st = robotstxt_fleet_pacer_record(pacer, host, len, status, flag, n, &at, &step); break;
    case 2: st = robotstxt_fleet_pacer_set_delay(pacer, host, len, n, &at, &step); break;
    case 3: st = robotstxt_fleet_pacer_set_enabled(pacer, host, len, flag, &at, &step); break;
    default: st = robotstxt_fleet_pacer_pace_state(pacer, host, len, &at, &step); break;
    }
    return go_fleet_step_of(st, step);
}

static inline go_handle go_fleet_pacer_reserve_reply(const robotstxt_fleet_pacer *pacer,
                                                     const robotstxt_fleet_step *step,
                                                     const robotstxt_fleet_reply_item *items,
                                                     size_t count) {
    go_handle r = {0, NULL, {NULL, 0}};
    robotstxt_fleet_ticket *ticket = NULL;
    r.status = robotstxt_fleet_pacer_reserve_reply(pacer, step, items, count, &ticket);
    r.handle = ticket;
    r.err = go_take_error(r.status);
    return r;
}

static inline robotstxt_fleet_ticket_info go_fleet_ticket_read(const robotstxt_fleet_ticket *ticket) {
    robotstxt_fleet_ticket_info info;
    memset(&info, 0, sizeof info);
    robotstxt_fleet_ticket_read(ticket, &info);
    return info;
}

/* A confirmation's step, or with cancel, the step that gives the slot
 * back (NULL: nothing to give back). */
static inline go_fleet_step go_fleet_pacer_confirm(const robotstxt_fleet_pacer *pacer,
                                                   const robotstxt_fleet_ticket *ticket,
                                                   bool cancel, bool given, uint64_t ms) {
    robotstxt_fleet_step *step = NULL;
    robotstxt_fleet_at at = go_fleet_at(given, ms);
    robotstxt_status status = cancel ? robotstxt_fleet_pacer_cancel(pacer, ticket, &at, &step)
                                     : robotstxt_fleet_pacer_confirm(pacer, ticket, &at, &step);
    return go_fleet_step_of(status, step);
}

typedef struct go_fleet_confirm {
    robotstxt_status status;
    robotstxt_fleet_confirm confirm;
    go_err err;
} go_fleet_confirm;

static inline go_fleet_confirm go_fleet_pacer_confirm_reply(const robotstxt_fleet_pacer *pacer,
                                                            const robotstxt_fleet_ticket *ticket,
                                                            const robotstxt_fleet_step *step,
                                                            const robotstxt_fleet_reply_item *items,
                                                            size_t count) {
    go_fleet_confirm r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_fleet_pacer_confirm_reply(pacer, ticket, step, items, count, &r.confirm);
    r.err = go_take_error(r.status);
    return r;
}

/* A step's reply read as a value (cancel, record, set_delay, set_enabled),
 * or with state, as a pace state: gap in value, in flight in second. */
typedef struct go_fleet_pair {
    robotstxt_status status;
    uint64_t value, second;
    go_err err;
} go_fleet_pair;

static inline go_fleet_pair go_fleet_pacer_step_reply(const robotstxt_fleet_pacer *pacer,
                                                      const robotstxt_fleet_step *step,
                                                      const robotstxt_fleet_reply_item *items,
                                                      size_t count, bool state) {
    go_fleet_pair r;
    robotstxt_fleet_pace_state s = {0, 0};
    memset(&r, 0, sizeof r);
    if (state) {
        r.status = robotstxt_fleet_pacer_pace_state_reply(pacer, step, items, count, &s);
        r.value = s.gap_ms;
        r.second = s.in_flight;
    } else {
        r.status = robotstxt_fleet_pacer_step_reply(pacer, step, items, count, &r.value);
    }
    r.err = go_take_error(r.status);
    return r;
}

static inline uint64_t go_fleet_pacer_ms_until(const robotstxt_fleet_pacer *pacer,
                                               uint64_t until_ms, bool given, uint64_t ms) {
    uint64_t left = 0;
    robotstxt_fleet_at at = go_fleet_at(given, ms);
    robotstxt_fleet_pacer_ms_until(pacer, until_ms, &at, &left);
    return left;
}

static inline go_u64 go_pace_delay_ms(bool has_delay, double delay_s, bool has_rate,
                                      uint32_t requests, uint32_t seconds) {
    go_u64 r;
    memset(&r, 0, sizeof r);
    r.status = robotstxt_pace_delay_ms(has_delay, delay_s, has_rate, requests, seconds, &r.value);
    r.err = go_take_error(r.status);
    return r;
}

#endif /* ROBOTSTXT_GO_SHIM_H */
