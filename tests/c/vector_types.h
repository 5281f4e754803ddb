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

#endif
