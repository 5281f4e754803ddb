/* The shape of the table that gen_vectors.py writes from
 * the JSON files of tests/vectors/ (format: tests/vectors/README.md). */
#ifndef ROBOTSTXT_TEST_VECTOR_TYPES_H
#define ROBOTSTXT_TEST_VECTOR_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "robotstxt.h"

/* `times` copies of `len` bytes; a vt_bytes is the concatenation of its
 * parts (long bodies stay small in the source). */
typedef struct vt_part {
    const char *bytes;
    size_t len;
    size_t times;
} vt_part;

typedef struct vt_bytes {
    const vt_part *parts;
    size_t count;
} vt_bytes;

/* A field that may be left out, or given as null, or given a value. */
enum { VT_UNCHECKED, VT_ABSENT, VT_PRESENT };

enum { VT_SELECT_NONE, VT_SELECT_ONE, VT_SELECT_ANY, VT_SELECT_STRICTEST };

typedef struct vt_check {
    vt_bytes url;
    bool allowed;
    bool has_line;
    uint32_t line;
    const char *kind; /* NULL: not checked */
    bool has_pattern;
    vt_bytes pattern;
} vt_check;

typedef struct vt_diag {
    uint32_t line;
    const char *kind;
    const char *const *flags;
    size_t flag_count;
} vt_diag;

/* One label of a usage-preferences answer (behaviour §10.4). */
typedef struct vt_label {
    vt_bytes label;
    robotstxt_usage value;
    const uint32_t *lines;
    size_t line_count;
} vt_label;

/* `preferences`: the whole answer for one URL. */
typedef struct vt_preference_check {
    vt_bytes url;
    bool crawlable;
    uint32_t line;
    const vt_label *labels;
    size_t label_count;
    const uint32_t *statements;
    size_t statement_count;
} vt_preference_check;

enum { VT_SIGNAL_UNSET, VT_SIGNAL_YES, VT_SIGNAL_NO };

typedef struct vt_signal {
    vt_bytes key;
    int value; /* VT_SIGNAL_* */
} vt_signal;

typedef struct vt_other_record {
    vt_bytes key, key_lower, value;
    uint32_t line;
    bool in_group;
    uint32_t group;
} vt_other_record;

enum { VT_FIELD_OK, VT_FIELD_SYNTAX, VT_FIELD_EMPTY };

/* `header`: preferences combined with an HTTP field, or its error. */
typedef struct vt_header_check {
    vt_bytes url;
    vt_bytes field;
    int error; /* VT_FIELD_* */
    const vt_label *labels;
    size_t label_count;
} vt_header_check;

typedef struct vt_parse_case {
    const char *where;
    bool rfc, google;
    bool has_parse_limit;
    size_t parse_limit;
    bool has_typos, typos;
    vt_bytes body;
    int select;
    const vt_bytes *tokens;
    size_t token_count;
    bool expect_invalid_token;
    const vt_check *checks;
    size_t check_count;
    int crawl_delay_state;
    double crawl_delay;
    int request_rate_state;
    uint32_t rate_requests, rate_seconds;
    bool check_sitemaps;
    const vt_bytes *sitemaps;
    size_t sitemap_count;
    int host_state;
    vt_bytes host;
    bool check_diagnostics;
    const vt_diag *diagnostics;
    size_t diagnostic_count;
    /* usage preferences (behaviour §10) */
    const vt_preference_check *preferences;
    size_t preference_count;
    int content_signal_state;
    const vt_signal *signals;
    size_t signal_count;
    const uint32_t *signal_lines;
    size_t signal_line_count;
    bool check_other_records;
    const vt_other_record *other_records;
    size_t other_record_count;
    bool check_other_records_for;
    const uint32_t *other_records_for;
    size_t other_record_for_count;
    const vt_header_check *headers;
    size_t header_count;
} vt_parse_case;

typedef struct vt_access_case {
    const char *where;
    uint16_t http_status; /* 0: no response */
    uint32_t redirects;
    robotstxt_access_policy policy;
    robotstxt_disposition access;
    bool has_retry_later, retry_later;
} vt_access_case;

typedef struct vt_fcheck {
    vt_bytes url;
    bool allowed;
} vt_fcheck;

/* One step of a timeline: a fetch (is_fetch) or a question. */
typedef struct vt_step {
    uint64_t at_ms;
    bool is_fetch;
    /* fetch */
    uint16_t http_status;
    uint32_t redirects;
    vt_bytes body;
    bool has_max_age;
    uint64_t max_age_ms;
    bool has_retry_after;
    uint64_t retry_after_ms;
    bool has_etag;
    vt_bytes etag;
    bool has_last_modified;
    vt_bytes last_modified;
    /* question */
    int due_state;
    bool due;
    int answer_state;
    robotstxt_answer answer;
    vt_bytes token;
    const vt_fcheck *checks;
    size_t check_count;
    bool has_next_try;
    uint64_t next_try_ms;
    bool check_validators;
    int etag_state;
    vt_bytes etag_want;
    int last_modified_state;
    vt_bytes last_modified_want;
} vt_step;

typedef struct vt_timeline {
    const char *where;
    bool has_fresh_for;
    uint64_t fresh_for_ms;
    bool has_retry;
    uint64_t retry_ms;
    bool has_unreachable_limit;
    uint64_t unreachable_limit_ms;
    bool has_after_limit;
    robotstxt_after_limit after_limit;
    bool has_access;
    robotstxt_access_policy access;
    const vt_step *steps;
    size_t step_count;
} vt_timeline;

/* What a fetch returned (cache.json `store` steps). */
typedef struct vt_fetch {
    uint16_t http_status; /* 0: no response */
    uint32_t redirects;
    vt_bytes body;
    bool has_max_age;
    uint64_t max_age_ms;
    bool has_retry_after;
    uint64_t retry_after_ms;
    bool has_etag;
    vt_bytes etag;
    bool has_last_modified;
    vt_bytes last_modified;
} vt_fetch;

/* The freshness policy fields a case sets. */
typedef struct vt_policy {
    bool has_fresh_for;
    uint64_t fresh_for_ms;
    bool has_retry;
    uint64_t retry_ms;
    bool has_unreachable_limit;
    uint64_t unreachable_limit_ms;
    bool has_after_limit;
    robotstxt_after_limit after_limit;
    bool has_access;
    robotstxt_access_policy access;
} vt_policy;

enum { VT_CACHE_LOOKUP, VT_CACHE_STORE, VT_CACHE_ABANDON, VT_CACHE_STATS };

/* Counters in robotstxt_cache_counters order; bit k of stats_mask checks
 * counter k. */
enum { VT_STAT_COUNT = 6 };

typedef struct vt_cache_step {
    int op;
    uint64_t at_ms;
    /* lookup */
    vt_bytes url;
    vt_bytes token;
    robotstxt_when_fetching when_fetching;
    bool expect_invalid_url;
    robotstxt_lookup_kind expect;
    bool has_stale, stale;
    bool has_answer;
    robotstxt_answer answer;
    const vt_fcheck *checks;
    size_t check_count;
    bool has_origin;
    vt_bytes origin;
    bool check_validators;
    int etag_state;
    vt_bytes etag_want;
    int last_modified_state;
    vt_bytes last_modified_want;
    bool has_until;
    uint64_t until_ms;
    /* lookup (a fetch names it), store and abandon: the lease's index */
    size_t lease;
    /* lookup, ready: the blanket answer's cause (VT_ABSENT: a parsed
     * copy) and when a retry is due (VT_ABSENT: none pending) */
    int cause_state;
    const char *cause; /* as robotstxt_cause_name spells it */
    uint16_t cause_status;
    int retry_at_state;
    uint64_t retry_at_ms;
    /* store */
    vt_fetch fetch;
    bool expect_invalid_lease;
    /* stats */
    unsigned stats_mask;
    uint64_t stats[VT_STAT_COUNT];
} vt_cache_step;

typedef struct vt_cache_case {
    const char *where;
    bool has_capacity;
    size_t capacity;
    bool has_lease;
    uint64_t lease_ms;
    vt_policy policy;
    size_t lease_count;
    const vt_cache_step *steps;
    size_t step_count;
} vt_cache_case;

enum {
    VT_PACE_RESERVE,
    VT_PACE_CONFIRM,
    VT_PACE_CANCEL,
    VT_PACE_IN_FLIGHT,
    VT_PACE_SET_RULES,
    VT_PACE_SET_DELAY,
    VT_PACE_RECORD,
    VT_PACE_ENABLED,
    VT_PACE_GAP
};

typedef struct vt_pace_step {
    int op;
    uint64_t at_ms;
    vt_bytes host;
    /* reserve */
    bool expect_invalid_host;
    bool expect_pacer_full;
    bool has_start;
    uint64_t start_ms;
    bool keep_ticket;
    /* reserve (keep_ticket), confirm and cancel: the ticket's index */
    size_t ticket;
    /* confirm */
    bool expect_invalid_ticket;
    robotstxt_confirm_kind expect;
    bool has_until;
    uint64_t until_ms;
    bool has_busy, busy;
    /* in_flight */
    size_t count;
    /* set_rules */
    vt_bytes body;
    vt_bytes token;
    /* set_delay */
    bool has_crawl_delay;
    double crawl_delay_s;
    bool has_rate;
    uint32_t rate_requests, rate_seconds;
    /* record */
    uint16_t http_status; /* 0: no response */
    bool has_retry_after;
    uint64_t retry_after_ms;
    /* enabled */
    bool on;
    /* gap */
    uint64_t gap_ms;
} vt_pace_step;

typedef struct vt_pacing {
    const char *where;
    bool has_floor;
    uint64_t floor_ms;
    bool has_backoff_cap;
    uint64_t backoff_cap_ms;
    bool has_capacity;
    size_t capacity;
    bool has_max_in_flight;
    uint32_t max_in_flight;
    bool has_in_flight_timeout;
    uint64_t in_flight_timeout_ms;
    size_t ticket_count;
    const vt_pace_step *steps;
    size_t step_count;
} vt_pacing;

/* origins.json: the origin a URL is keyed by, or its refusal. */
typedef struct vt_origin_case {
    const char *where;
    vt_bytes url;
    bool expect_invalid_url;
    vt_bytes origin;
} vt_origin_case;

/* http.json: one header value read (Retry-After, Cache-Control), or a
 * whole response read into a robotstxt_fetch. */
enum { VT_HTTP_RETRY_AFTER, VT_HTTP_CACHE_CONTROL, VT_HTTP_RESPONSE };

typedef struct vt_http_header {
    bool present;
    vt_bytes value;
} vt_http_header;

typedef struct vt_http_case {
    const char *where;
    int kind;
    uint64_t now_ms;
    /* VT_HTTP_RETRY_AFTER and VT_HTTP_CACHE_CONTROL */
    vt_bytes value;
    const char *error; /* the reason given, or NULL when the value is read */
    bool has_ms;       /* a wait or a max-age (false: no max-age) */
    uint64_t ms;
    /* VT_HTTP_RESPONSE */
    uint16_t status;
    uint32_t redirects;
    vt_http_header retry_after, cache_control, etag, last_modified;
    uint64_t min_max_age_ms;
    bool has_max_age;
    uint64_t max_age_ms;
    bool has_retry_after;
    uint64_t retry_after_ms;
    vt_http_header want_etag, want_last_modified;
    robotstxt_http_ignored ignored;
} vt_http_case;

#endif
