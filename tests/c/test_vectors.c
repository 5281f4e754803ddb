/* Runs every case of the JSON files of tests/vectors/ through the C ABI, as the Rust,
 * Node and Go runners do, so the bindings cannot drift. The table comes
 * from gen_vectors.py; every answer here comes from the library. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vectors.h"
#include "../../examples/utf8.h"

/* The concatenation of `b` in a new buffer (never NULL); free() it. */
static uint8_t *join(vt_bytes b, size_t *len_out) {
    size_t len = 0, i, k;
    uint8_t *out, *at;
    for (i = 0; i < b.count; i++) {
        len += b.parts[i].len * b.parts[i].times;
    }
    out = malloc(len + 1);
    if (out == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    at = out;
    for (i = 0; i < b.count; i++) {
        for (k = 0; k < b.parts[i].times; k++) {
            memcpy(at, b.parts[i].bytes, b.parts[i].len);
            at += b.parts[i].len;
        }
    }
    *len_out = len;
    return out;
}

static bool same_bytes(const uint8_t *ptr, size_t len, vt_bytes want) {
    size_t want_len;
    uint8_t *w = join(want, &want_len);
    bool same = len == want_len && (len == 0 || memcmp(ptr, w, len) == 0);
    free(w);
    return same;
}

static const char *profile_name(robotstxt_profile p) {
    return p == ROBOTSTXT_PROFILE_GOOGLE ? "google" : "rfc";
}

static bool check_sitemaps(const vt_parse_case *c, const robotstxt_robots *robots,
                           const char *at) {
    size_t count = 0, i;
    bool ok = OK(robotstxt_robots_sitemap_count(robots, &count));
    ok &= check_at(count == c->sitemap_count, __FILE__, __LINE__, "%s: %zu sitemaps, want %zu",
                   at, count, c->sitemap_count);
    for (i = 0; ok && i < count; i++) {
        const uint8_t *url = NULL;
        size_t len = 0;
        ok &= OK(robotstxt_robots_sitemap(robots, i, &url, &len));
        ok &= check_at(same_bytes(url, len, c->sitemaps[i]), __FILE__, __LINE__,
                       "%s: sitemap %zu", at, i);
    }
    return ok;
}

static bool check_host(const vt_parse_case *c, const robotstxt_robots *robots, const char *at) {
    const uint8_t *host = NULL;
    size_t len = 0;
    bool found = false;
    bool ok = OK(robotstxt_robots_host(robots, &host, &len, &found));
    if (c->host_state == VT_ABSENT) {
        ok &= check_at(!found && host == NULL && len == 0, __FILE__, __LINE__,
                       "%s: host should be absent", at);
    } else {
        ok &= check_at(found && same_bytes(host, len, c->host), __FILE__, __LINE__,
                       "%s: host '%.*s'", at, (int)len, host ? (const char *)host : "");
    }
    return ok;
}

static bool check_diagnostics(const vt_parse_case *c, const robotstxt_robots *robots,
                              const char *at) {
    size_t count = 0, i, f;
    bool ok = OK(robotstxt_robots_diagnostic_count(robots, &count));
    ok &= check_at(count == c->diagnostic_count, __FILE__, __LINE__,
                   "%s: %zu diagnostics, want %zu", at, count, c->diagnostic_count);
    for (i = 0; ok && i < count; i++) {
        const vt_diag *want = &c->diagnostics[i];
        robotstxt_diagnostic d;
        const char *kind;
        uint32_t bit;
        ok &= OK(robotstxt_robots_diagnostic(robots, i, &d));
        kind = robotstxt_line_kind_name(d.kind);
        ok &= check_at(d.line == want->line && kind != NULL && strcmp(kind, want->kind) == 0,
                       __FILE__, __LINE__, "%s: diagnostic %zu is line %u %s, want line %u %s",
                       at, i, d.line, kind ? kind : "?", want->line, want->kind);
        /* Flags in bit order are the names in the vectors' order. */
        f = 0;
        for (bit = 1; bit != 0; bit <<= 1) {
            const char *name;
            if ((d.flags & bit) == 0) {
                continue;
            }
            name = robotstxt_diagnostic_flag_name(bit);
            ok &= check_at(name != NULL && f < want->flag_count &&
                               strcmp(name, want->flags[f]) == 0,
                           __FILE__, __LINE__, "%s: line %u flag %zu is %s", at, d.line, f,
                           name ? name : "(unnamed bit)");
            f++;
        }
        ok &= check_at(f == want->flag_count, __FILE__, __LINE__, "%s: line %u has %zu flags, want %zu",
                       at, d.line, f, want->flag_count);
    }
    return ok;
}

static bool check_decisions(const vt_parse_case *c, const robotstxt_rules *rules,
                            const char *at) {
    bool ok = true;
    size_t i;
    for (i = 0; i < c->check_count; i++) {
        const vt_check *want = &c->checks[i];
        size_t len;
        uint8_t *url = join(want->url, &len);
        bool allowed = !want->allowed;
        robotstxt_decision d;
        const char *kind;
        int shown = len > 80 ? 80 : (int)len;
        ok &= OK(robotstxt_rules_can_fetch(rules, url, len, &allowed));
        ok &= OK(robotstxt_rules_decide(rules, url, len, &d));
        kind = robotstxt_decision_kind_name(d.kind);
        ok &= check_at(allowed == want->allowed && d.allowed == allowed, __FILE__, __LINE__,
                       "%s %.*s: allowed %d, decide %d, want %d", at, shown, (const char *)url,
                       allowed, d.allowed, want->allowed);
        if (want->has_line) {
            ok &= check_at(d.line == want->line, __FILE__, __LINE__, "%s %.*s: line %u, want %u",
                           at, shown, (const char *)url, d.line, want->line);
        }
        if (want->kind != NULL) {
            ok &= check_at(kind != NULL && strcmp(kind, want->kind) == 0, __FILE__, __LINE__,
                           "%s %.*s: kind %s, want %s", at, shown, (const char *)url,
                           kind ? kind : "?", want->kind);
        }
        if (want->has_pattern) {
            ok &= check_at(same_bytes(d.pattern.ptr, d.pattern.len, want->pattern), __FILE__,
                           __LINE__, "%s %.*s: pattern '%.*s'", at, shown, (const char *)url,
                           (int)d.pattern.len, d.pattern.ptr ? (const char *)d.pattern.ptr : "");
        }
        free(url);
    }
    return ok;
}

static bool check_rates(const vt_parse_case *c, const robotstxt_rules *rules, const char *at) {
    bool ok = true;
    if (c->crawl_delay_state != VT_UNCHECKED) {
        double seconds = -1;
        bool has = false;
        ok &= OK(robotstxt_rules_crawl_delay(rules, &seconds, &has));
        if (c->crawl_delay_state == VT_ABSENT) {
            ok &= check_at(!has && seconds == 0, __FILE__, __LINE__, "%s: crawl delay %g, want none",
                           at, seconds);
        } else {
            ok &= check_at(has && fabs(seconds - c->crawl_delay) <= 1e-9 * fmax(1, c->crawl_delay),
                           __FILE__, __LINE__, "%s: crawl delay %g (set %d), want %g", at, seconds,
                           has, c->crawl_delay);
        }
    }
    if (c->request_rate_state != VT_UNCHECKED) {
        uint32_t requests = 99, seconds = 99;
        bool has = false;
        ok &= OK(robotstxt_rules_request_rate(rules, &requests, &seconds, &has));
        if (c->request_rate_state == VT_ABSENT) {
            ok &= check_at(!has && requests == 0 && seconds == 0, __FILE__, __LINE__,
                           "%s: request rate %u/%u, want none", at, requests, seconds);
        } else {
            ok &= check_at(has && requests == c->rate_requests && seconds == c->rate_seconds,
                           __FILE__, __LINE__, "%s: request rate %u/%u, want %u/%u", at, requests,
                           seconds, c->rate_requests, c->rate_seconds);
        }
    }
    return ok;
}


/* Whether `got`, read as the reference runner reads keys and values
 * (String::from_utf8_lossy), is the text `want`. */
static bool lossy_is(const uint8_t *got, size_t len, vt_bytes want) {
    uint8_t *text = malloc(3 * len + 1);
    size_t n = 0, i = 0;
    bool same;
    if (text == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    while (i < len) {
        bool valid;
        size_t k = utf8_sequence(got + i, len - i, &valid);
        if (valid) {
            memcpy(text + n, got + i, k);
            n += k;
        } else {
            memcpy(text + n, "\xEF\xBF\xBD", 3);
            n += 3;
        }
        i += k;
    }
    same = same_bytes(text, n, want);
    free(text);
    return same;
}

static bool lines_are(const uint32_t *got, size_t count, const uint32_t *want, size_t want_count) {
    size_t i;
    if (count != want_count) {
        return false;
    }
    for (i = 0; i < count; i++) {
        if (got[i] != want[i]) {
            return false;
        }
    }
    return true;
}

/* The labels of an answer are exactly `want`: as many, none twice, each
 * with its value and lines; robotstxt_preferences_get agrees. */
static bool check_labels(const robotstxt_preferences *p, const vt_label *want, size_t want_count,
                         const char *at) {
    size_t count = 0, i, k;
    bool ok = OK(robotstxt_preferences_label_count(p, &count));
    ok &= check_at(count == want_count && count >= 2, __FILE__, __LINE__,
                   "%s: %zu labels, want %zu", at, count, want_count);
    for (i = 0; ok && i < count; i++) {
        robotstxt_label_preference got, before;
        const vt_label *w = NULL;
        robotstxt_usage usage = 99;
        const char *name;
        ok &= OK(robotstxt_preferences_label(p, i, &got));
        if (!ok) {
            break;
        }
        for (k = 0; k < i; k++) {
            ok &= OK(robotstxt_preferences_label(p, k, &before));
            ok &= check_at(!(before.label.len == got.label.len &&
                             memcmp(before.label.ptr, got.label.ptr, got.label.len) == 0),
                           __FILE__, __LINE__, "%s: label '%.*s' twice", at, (int)got.label.len,
                           (const char *)got.label.ptr);
        }
        for (k = 0; k < want_count && w == NULL; k++) {
            if (same_bytes(got.label.ptr, got.label.len, want[k].label)) {
                w = &want[k];
            }
        }
        name = robotstxt_usage_name(got.value);
        ok &= check_at(w != NULL && got.value == w->value, __FILE__, __LINE__,
                       "%s: label '%.*s' is %s, %s", at, (int)got.label.len,
                       (const char *)got.label.ptr, name ? name : "?",
                       w ? "want another value" : "not wanted");
        ok &= check_at(w != NULL && lines_are(got.lines, got.line_count, w->lines, w->line_count) &&
                           (got.line_count > 0) == (got.lines != NULL),
                       __FILE__, __LINE__, "%s: label '%.*s' has %zu lines, not those wanted", at,
                       (int)got.label.len, (const char *)got.label.ptr, got.line_count);
        ok &= OK(robotstxt_preferences_get(p, got.label.ptr, got.label.len, &usage));
        ok &= check_at(usage == got.value, __FILE__, __LINE__, "%s: get '%.*s' is %u", at,
                       (int)got.label.len, (const char *)got.label.ptr, (unsigned)usage);
    }
    return ok;
}

/* `preferences`: the whole answer for each URL, as the reference runner
 * compares it (crawlable, the access line, labels, statement lines). */
static bool check_preferences(const vt_parse_case *c, const robotstxt_rules *rules,
                              const char *at) {
    bool ok = true;
    size_t i, k, m;
    for (i = 0; ok && i < c->preference_count; i++) {
        const vt_preference_check *want = &c->preferences[i];
        robotstxt_preferences *p = NULL;
        robotstxt_decision d;
        bool crawlable = !want->crawlable;
        size_t len, count = 0;
        uint8_t *url = join(want->url, &len);
        char where[800];
        snprintf(where, sizeof where, "%s %.*s", at, len > 80 ? 80 : (int)len, (const char *)url);
        ok &= OK(robotstxt_rules_preferences(rules, url, len, &p));
        free(url);
        if (!ok) {
            break;
        }
        ok &= OK(robotstxt_preferences_crawlable(p, &crawlable, &d));
        ok &= check_at(crawlable == want->crawlable && d.allowed == crawlable, __FILE__, __LINE__,
                       "%s: crawlable %d, want %d", where, crawlable, want->crawlable);
        ok &= check_at(d.line == want->line, __FILE__, __LINE__, "%s: line %u, want %u", where,
                       d.line, want->line);
        ok &= check_labels(p, want->labels, want->label_count, where);
        ok &= OK(robotstxt_preferences_statement_count(p, &count));
        ok &= check_at(count == want->statement_count, __FILE__, __LINE__,
                       "%s: %zu statements, want %zu", where, count, want->statement_count);
        for (k = 0; ok && k < count; k++) {
            robotstxt_usage_statement st;
            ok &= OK(robotstxt_preferences_statement(p, k, &st));
            ok &= check_at(st.line == want->statements[k], __FILE__, __LINE__,
                           "%s: statement %zu at line %u, want %u", where, k, st.line,
                           want->statements[k]);
            ok &= check_at(st.path.len > 0 && st.path.ptr[0] == '/', __FILE__, __LINE__,
                           "%s: statement %zu path", where, k);
            for (m = 0; ok && m < st.member_count; m++) {
                robotstxt_member member;
                ok &= OK(robotstxt_preferences_member(p, k, m, &member));
                ok &= check_at(member.key.len > 0, __FILE__, __LINE__, "%s: member %zu.%zu", where,
                               k, m);
            }
        }
        robotstxt_preferences_free(p);
    }
    return ok;
}

static bool check_content_signal(const vt_parse_case *c, const robotstxt_rules *rules,
                                 const char *at) {
    robotstxt_content_signal *s = (robotstxt_content_signal *)(uintptr_t)c; /* never a handle */
    const uint32_t *lines = NULL;
    size_t count = 0, line_count = 0, i, k;
    bool ok = OK(robotstxt_rules_content_signal(rules, &s));
    if (!ok) {
        return false;
    }
    if (c->content_signal_state == VT_ABSENT) {
        ok &= check_at(s == NULL, __FILE__, __LINE__, "%s: a content signal, want none", at);
        robotstxt_content_signal_free(s);
        return ok;
    }
    if (!check_at(s != NULL, __FILE__, __LINE__, "%s: no content signal", at)) {
        return false;
    }
    ok &= OK(robotstxt_content_signal_count(s, &count));
    ok &= check_at(count == c->signal_count, __FILE__, __LINE__, "%s: %zu signals, want %zu", at,
                   count, c->signal_count);
    for (i = 0; ok && i < count; i++) {
        robotstxt_signal got, before;
        const vt_signal *w = NULL;
        int value;
        ok &= OK(robotstxt_content_signal_entry(s, i, &got));
        for (k = 0; ok && k < i; k++) {
            ok &= OK(robotstxt_content_signal_entry(s, k, &before));
            ok &= check_at(!(before.key.len == got.key.len &&
                             memcmp(before.key.ptr, got.key.ptr, got.key.len) == 0),
                           __FILE__, __LINE__, "%s: signal '%.*s' twice", at, (int)got.key.len,
                           (const char *)got.key.ptr);
        }
        for (k = 0; k < c->signal_count && w == NULL; k++) {
            if (lossy_is(got.key.ptr, got.key.len, c->signals[k].key)) {
                w = &c->signals[k];
            }
        }
        value = !got.is_set ? VT_SIGNAL_UNSET : got.yes ? VT_SIGNAL_YES : VT_SIGNAL_NO;
        ok &= check_at(w != NULL && w->value == value && (got.is_set || !got.yes), __FILE__,
                       __LINE__, "%s: signal '%.*s' is %s, %s", at, (int)got.key.len,
                       (const char *)got.key.ptr,
                       value == VT_SIGNAL_UNSET ? "unset" : value == VT_SIGNAL_YES ? "yes" : "no",
                       w ? "want another value" : "not wanted");
    }
    ok &= OK(robotstxt_content_signal_lines(s, &lines, &line_count));
    ok &= check_at(lines_are(lines, line_count, c->signal_lines, c->signal_line_count), __FILE__,
                   __LINE__, "%s: %zu content-signal lines, not those wanted", at, line_count);
    robotstxt_content_signal_free(s);
    return ok;
}

/* `other_records`: every record of the file, key and value read as the
 * reference runner reads them; key_lower is the key in ASCII lower case. */
static bool check_other_records(const vt_parse_case *c, const robotstxt_robots *robots,
                                const char *at) {
    size_t count = 0, i, k;
    bool ok = OK(robotstxt_robots_other_record_count(robots, &count));
    ok &= check_at(count == c->other_record_count, __FILE__, __LINE__,
                   "%s: %zu other records, want %zu", at, count, c->other_record_count);
    for (i = 0; ok && i < count; i++) {
        const vt_other_record *w = &c->other_records[i];
        robotstxt_other_record r;
        uint8_t *lower;
        ok &= OK(robotstxt_robots_other_record(robots, i, &r));
        if (!ok) {
            break;
        }
        lower = malloc(r.key.len + 1);
        if (lower == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        for (k = 0; k < r.key.len; k++) {
            uint8_t b = r.key.ptr[k];
            lower[k] = b >= 'A' && b <= 'Z' ? (uint8_t)(b + 32) : b;
        }
        ok &= check_at(lossy_is(r.key.ptr, r.key.len, w->key) &&
                           lossy_is(lower, r.key.len, w->key_lower) &&
                           lossy_is(r.value.ptr, r.value.len, w->value),
                       __FILE__, __LINE__, "%s: other record %zu is '%.*s: %.*s'", at, i,
                       (int)r.key.len, (const char *)r.key.ptr, (int)r.value.len,
                       (const char *)r.value.ptr);
        ok &= check_at(r.line == w->line && r.in_group == w->in_group &&
                           r.group == (w->in_group ? w->group : 0),
                       __FILE__, __LINE__, "%s: other record %zu at line %u, group %d/%u", at, i,
                       r.line, r.in_group, r.group);
        free(lower);
    }
    return ok;
}

static bool check_other_records_for(const vt_parse_case *c, const robotstxt_rules *rules,
                                    const char *at) {
    size_t count = 0, i;
    bool ok = OK(robotstxt_rules_other_record_count(rules, &count));
    ok &= check_at(count == c->other_record_for_count, __FILE__, __LINE__,
                   "%s: %zu other records apply, want %zu", at, count, c->other_record_for_count);
    for (i = 0; ok && i < count; i++) {
        robotstxt_other_record r;
        ok &= OK(robotstxt_rules_other_record(rules, i, &r));
        ok &= check_at(r.line == c->other_records_for[i], __FILE__, __LINE__,
                       "%s: other record %zu at line %u, want %u", at, i, r.line,
                       c->other_records_for[i]);
    }
    return ok;
}

/* `header`: the answer for the URL combined with an HTTP field. The C ABI
 * has one status for both errors; the core's message tells them apart. */
static bool check_headers(const vt_parse_case *c, const robotstxt_rules *rules, const char *at) {
    bool ok = true;
    size_t i;
    for (i = 0; ok && i < c->header_count; i++) {
        const vt_header_check *want = &c->headers[i];
        robotstxt_preferences *p = NULL;
        robotstxt_preferences *combined = (robotstxt_preferences *)(uintptr_t)want;
        size_t url_len, field_len;
        uint8_t *url = join(want->url, &url_len);
        uint8_t *field = join(want->field, &field_len);
        char where[800];
        snprintf(where, sizeof where, "%s field '%.*s'", at, (int)field_len, (const char *)field);
        ok &= OK(robotstxt_rules_preferences(rules, url, url_len, &p));
        if (ok && want->error == VT_FIELD_OK) {
            ok &= OK(robotstxt_preferences_with_header(p, field, field_len, &combined));
            if (ok) {
                ok &= check_labels(combined, want->labels, want->label_count, where);
                robotstxt_preferences_free(combined);
            }
        } else if (ok) {
            const char *marker = want->error == VT_FIELD_EMPTY ? "is empty" : "RFC 9651 Dictionary";
            ok &= CHECK_STATUS(robotstxt_preferences_with_header(p, field, field_len, &combined),
                               ROBOTSTXT_STATUS_INVALID_FIELD);
            ok &= check_at(combined == (robotstxt_preferences *)(uintptr_t)want, __FILE__, __LINE__,
                           "%s: output written on failure", where);
            ok &= check_at(strstr(last_error(), marker) != NULL, __FILE__, __LINE__,
                           "%s: message '%s' lacks '%s'", where, last_error(), marker);
        }
        robotstxt_preferences_free(p);
        free(url);
        free(field);
    }
    return ok;
}

/* Whether a token can be found verbatim in a message that quotes it (no
 * byte that the core would escape). */
static bool plainly_quotable(const uint8_t *t, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        if (t[i] < 0x20 || t[i] >= 0x7F || t[i] == '"' || t[i] == '\\') {
            return false;
        }
    }
    return true;
}

static bool check_selection(const vt_parse_case *c, const robotstxt_robots *robots,
                            const char *at) {
    robotstxt_str tokens[16];
    uint8_t *owned[16];
    robotstxt_rules *rules = NULL;
    robotstxt_status got;
    size_t i;
    bool ok = true;
    if (!check_at(c->token_count <= 16, __FILE__, __LINE__, "%s: too many tokens", at)) {
        return false;
    }
    for (i = 0; i < c->token_count; i++) {
        owned[i] = join(c->tokens[i], &tokens[i].len);
        tokens[i].ptr = owned[i];
    }
    switch (c->select) {
    case VT_SELECT_ONE:
        got = robotstxt_robots_rules_for(robots, tokens[0].ptr, tokens[0].len, &rules);
        break;
    case VT_SELECT_ANY:
        got = robotstxt_robots_rules_for_any(robots, tokens, c->token_count, &rules);
        break;
    default:
        got = robotstxt_robots_rules_for_strictest(robots, tokens, c->token_count, &rules);
        break;
    }
    if (c->expect_invalid_token) {
        ok &= check_at(got == ROBOTSTXT_STATUS_INVALID_TOKEN && rules == NULL, __FILE__, __LINE__,
                       "%s: want an invalid-token error, got status %u", at, (unsigned)got);
        if (ok && c->select == VT_SELECT_ONE && plainly_quotable(tokens[0].ptr, tokens[0].len)) {
            char quoted[600];
            snprintf(quoted, sizeof quoted, "\"%.*s\"", (int)tokens[0].len,
                     tokens[0].ptr ? (const char *)tokens[0].ptr : "");
            ok &= check_at(strstr(last_error(), quoted) != NULL, __FILE__, __LINE__,
                           "%s: message '%s' does not quote %s", at, last_error(), quoted);
        }
    } else if (CHECK_STATUS(got, ROBOTSTXT_STATUS_OK)) {
        ok &= check_decisions(c, rules, at);
        ok &= check_rates(c, rules, at);
        ok &= check_preferences(c, rules, at);
        if (c->content_signal_state != VT_UNCHECKED) {
            ok &= check_content_signal(c, rules, at);
        }
        if (c->check_other_records_for) {
            ok &= check_other_records_for(c, rules, at);
        }
        ok &= check_headers(c, rules, at);
    } else {
        check_at(false, __FILE__, __LINE__, "%s: selection failed", at);
        ok = false;
    }
    robotstxt_rules_free(rules);
    for (i = 0; i < c->token_count; i++) {
        free(owned[i]);
    }
    return ok;
}

static bool run_parse_case(const vt_parse_case *c, robotstxt_profile profile) {
    char at[700];
    robotstxt_options options = robotstxt_options_default();
    robotstxt_robots *robots = NULL;
    size_t len;
    uint8_t *body = join(c->body, &len);
    bool ok;
    snprintf(at, sizeof at, "%s [%s]", c->where, profile_name(profile));
    options.profile = profile;
    if (c->has_parse_limit) {
        options.parse_limit = c->parse_limit;
    }
    if (c->has_typos) {
        options.typos = c->typos;
    }
    ok = OK(robotstxt_robots_parse_with(body, len, &options, &robots));
    free(body); /* The handle keeps nothing of the body. */
    if (!ok) {
        return false;
    }
    if (c->check_sitemaps) {
        ok &= check_sitemaps(c, robots, at);
    }
    if (c->host_state != VT_UNCHECKED) {
        ok &= check_host(c, robots, at);
    }
    if (c->check_diagnostics) {
        ok &= check_diagnostics(c, robots, at);
    }
    if (c->check_other_records) {
        ok &= check_other_records(c, robots, at);
    }
    if (c->select != VT_SELECT_NONE) {
        ok &= check_selection(c, robots, at);
    }
    robotstxt_robots_free(robots);
    return ok;
}

static bool run_access_case(const vt_access_case *c) {
    robotstxt_disposition d = 99;
    robotstxt_fetch fetch = {0};
    robotstxt_options options = robotstxt_options_default();
    robotstxt_robots *robots = NULL;
    robotstxt_disposition d2 = 99;
    bool ok = OK(robotstxt_access_classify(c->http_status, c->redirects, c->policy, &d));
    ok &= check_at(d == c->access, __FILE__, __LINE__, "%s: disposition %u, want %u", c->where,
                   (unsigned)d, (unsigned)c->access);
    if (c->has_retry_later) {
        ok &= check_at(robotstxt_disposition_retry_later(d) == c->retry_later, __FILE__, __LINE__,
                       "%s: retry_later", c->where);
    }
    /* The same outcome through from_outcome: rules only for FOLLOW_RULES. */
    fetch.http_status = c->http_status;
    fetch.redirects = c->redirects;
    fetch.body.ptr = (const uint8_t *)"User-agent: *\nDisallow: /\n";
    fetch.body.len = strlen((const char *)fetch.body.ptr);
    ok &= OK(robotstxt_access_from_outcome(&fetch, c->policy, &options, &d2, &robots));
    ok &= check_at(d2 == d && (robots != NULL) == (d == ROBOTSTXT_DISPOSITION_FOLLOW_RULES),
                   __FILE__, __LINE__, "%s: from_outcome", c->where);
    robotstxt_robots_free(robots);
    return ok;
}

static bool step_checks(const vt_step *s, robotstxt_answer answer, const robotstxt_robots *robots,
                        const char *at) {
    bool ok = true;
    size_t i;
    robotstxt_rules *rules = NULL;
    size_t token_len;
    uint8_t *token = join(s->token, &token_len);
    if (answer == ROBOTSTXT_ANSWER_RULES) {
        ok &= check_at(robots != NULL, __FILE__, __LINE__, "%s: rules answer without robots", at);
        ok = ok && OK(robotstxt_robots_rules_for(robots, token, token_len, &rules));
    }
    for (i = 0; ok && i < s->check_count; i++) {
        size_t len;
        uint8_t *url = join(s->checks[i].url, &len);
        bool allowed = answer == ROBOTSTXT_ANSWER_ALLOW_ALL;
        if (rules != NULL) {
            ok &= OK(robotstxt_rules_can_fetch(rules, url, len, &allowed));
        }
        ok &= check_at(allowed == s->checks[i].allowed, __FILE__, __LINE__,
                       "%s: %.*s allowed %d, want %d", at, (int)len, (const char *)url, allowed,
                       s->checks[i].allowed);
        free(url);
    }
    robotstxt_rules_free(rules);
    free(token);
    return ok;
}

static bool optional_text_is(bool has, robotstxt_str got, int state, vt_bytes want) {
    if (state == VT_ABSENT) {
        return !has && got.ptr == NULL && got.len == 0;
    }
    return has && same_bytes(got.ptr, got.len, want);
}

static bool run_question(robotstxt_entry *entry, const vt_step *s, const char *at) {
    bool ok = true;
    robotstxt_answer answer = 99;
    robotstxt_robots *robots = NULL;
    if (s->due_state == VT_PRESENT) {
        bool due = !s->due;
        ok &= OK(robotstxt_entry_is_due(entry, s->at_ms, &due));
        ok &= check_at(due == s->due, __FILE__, __LINE__, "%s: due %d, want %d", at, due, s->due);
    }
    if (s->has_next_try) {
        uint64_t next = 0;
        ok &= OK(robotstxt_entry_due_at(entry, &next));
        ok &= check_at(next == s->next_try_ms, __FILE__, __LINE__,
                       "%s: next try at %llu ms, want %llu", at, (unsigned long long)next,
                       (unsigned long long)s->next_try_ms);
    }
    if (s->check_validators) {
        robotstxt_validators v;
        ok &= OK(robotstxt_entry_validators(entry, &v));
        ok &= check_at(optional_text_is(v.has_etag, v.etag, s->etag_state, s->etag_want),
                       __FILE__, __LINE__, "%s: etag", at);
        ok &= check_at(optional_text_is(v.has_last_modified, v.last_modified,
                                        s->last_modified_state, s->last_modified_want),
                       __FILE__, __LINE__, "%s: last_modified", at);
    }
    ok &= OK(robotstxt_entry_answer(entry, s->at_ms, &answer, &robots));
    if (s->answer_state == VT_PRESENT) {
        ok &= check_at(answer == s->answer, __FILE__, __LINE__, "%s: answer %u, want %u", at,
                       (unsigned)answer, (unsigned)s->answer);
    }
    ok &= check_at((robots != NULL) == (answer == ROBOTSTXT_ANSWER_RULES), __FILE__, __LINE__,
                   "%s: robots handle iff the answer is rules", at);
    ok &= step_checks(s, answer, robots, at);
    robotstxt_robots_free(robots);
    return ok;
}

static bool run_timeline(const vt_timeline *t) {
    robotstxt_freshness_policy policy = robotstxt_freshness_policy_default();
    robotstxt_entry *entry = NULL;
    bool ok = true;
    size_t i;
    if (t->has_fresh_for) {
        policy.fresh_for_ms = t->fresh_for_ms;
    }
    if (t->has_retry) {
        policy.retry_ms = t->retry_ms;
    }
    if (t->has_unreachable_limit) {
        policy.unreachable_limit_ms = t->unreachable_limit_ms;
    }
    if (t->has_after_limit) {
        policy.after_limit = t->after_limit;
    }
    if (t->has_access) {
        policy.access = t->access;
    }
    if (!OK(robotstxt_entry_new(&policy, &entry))) {
        return false;
    }
    for (i = 0; ok && i < t->step_count; i++) {
        const vt_step *s = &t->steps[i];
        char at[700];
        snprintf(at, sizeof at, "%s step %zu", t->where, i);
        if (s->is_fetch) {
            robotstxt_fetch f = {0};
            size_t body_len, etag_len, lm_len;
            uint8_t *body = join(s->body, &body_len);
            uint8_t *etag = join(s->etag, &etag_len);
            uint8_t *lm = join(s->last_modified, &lm_len);
            f.http_status = s->http_status;
            f.redirects = s->redirects;
            f.body.ptr = body;
            f.body.len = body_len;
            f.has_max_age = s->has_max_age;
            f.max_age_ms = s->max_age_ms;
            f.has_retry_after = s->has_retry_after;
            f.retry_after_ms = s->retry_after_ms;
            f.has_etag = s->has_etag;
            f.etag.ptr = etag;
            f.etag.len = etag_len;
            f.has_last_modified = s->has_last_modified;
            f.last_modified.ptr = lm;
            f.last_modified.len = lm_len;
            ok &= OK(robotstxt_entry_record(entry, s->at_ms, &f, NULL));
            /* The entry copies what it keeps: scribble over the buffers. */
            memset(body, '#', body_len);
            memset(etag, '#', etag_len);
            memset(lm, '#', lm_len);
            free(body);
            free(etag);
            free(lm);
        } else {
            ok &= run_question(entry, s, at);
        }
    }
    robotstxt_entry_free(entry);
    return ok;
}

/* A robotstxt_fetch over new copies of `f`'s buffers; free them with
 * free_fetch (which scribbles over them first: the library must have
 * copied what it keeps). */
static robotstxt_fetch make_fetch(const vt_fetch *f) {
    robotstxt_fetch out = {0};
    size_t len;
    out.http_status = f->http_status;
    out.redirects = f->redirects;
    out.body.ptr = join(f->body, &len);
    out.body.len = len;
    out.has_max_age = f->has_max_age;
    out.max_age_ms = f->max_age_ms;
    out.has_retry_after = f->has_retry_after;
    out.retry_after_ms = f->retry_after_ms;
    out.has_etag = f->has_etag;
    out.etag.ptr = join(f->etag, &len);
    out.etag.len = len;
    out.has_last_modified = f->has_last_modified;
    out.last_modified.ptr = join(f->last_modified, &len);
    out.last_modified.len = len;
    return out;
}

static void free_fetch(robotstxt_fetch *f) {
    robotstxt_str *texts[3];
    size_t i;
    texts[0] = &f->body;
    texts[1] = &f->etag;
    texts[2] = &f->last_modified;
    for (i = 0; i < 3; i++) {
        uint8_t *buf = (uint8_t *)(uintptr_t)texts[i]->ptr;
        memset(buf, '#', texts[i]->len);
        free(buf);
    }
}

static robotstxt_freshness_policy freshness_policy(const vt_policy *p) {
    robotstxt_freshness_policy policy = robotstxt_freshness_policy_default();
    if (p->has_fresh_for) {
        policy.fresh_for_ms = p->fresh_for_ms;
    }
    if (p->has_retry) {
        policy.retry_ms = p->retry_ms;
    }
    if (p->has_unreachable_limit) {
        policy.unreachable_limit_ms = p->unreachable_limit_ms;
    }
    if (p->has_after_limit) {
        policy.after_limit = p->after_limit;
    }
    if (p->has_access) {
        policy.access = p->access;
    }
    return policy;
}

static const char *lookup_kind_name(robotstxt_lookup_kind kind) {
    switch (kind) {
    case ROBOTSTXT_LOOKUP_READY:
        return "ready";
    case ROBOTSTXT_LOOKUP_FETCH:
        return "fetch";
    case ROBOTSTXT_LOOKUP_WAIT:
        return "wait";
    default:
        return "?";
    }
}

/* The library's name for a cause; "?" for one it does not name. */
static const char *cause_name(robotstxt_cause cause) {
    const char *name = robotstxt_cause_name(cause);
    return name != NULL ? name : "?";
}

static bool same_blanket(const robotstxt_blanket *a, const robotstxt_blanket *b) {
    return a->is_blanket == b->is_blanket && a->allowed == b->allowed && a->cause == b->cause &&
           a->http_status == b->http_status && a->redirects == b->redirects;
}

/* A ready lookup's blanket answer and retry time: the lookup and its rules
 * say the same, they match the answer kind, and the step's `cause` and
 * `retry_at_s`. */
static bool check_blanket(const vt_cache_step *s, const robotstxt_lookup *l, const char *at) {
    robotstxt_blanket b;
    uint64_t retry_at = 12345;
    bool has_retry_at = !l->has_retry_at;
    const robotstxt_blanket *lb = &l->blanket;
    bool ok = OK(robotstxt_rules_blanket(l->rules, &b));
    ok &= OK(robotstxt_rules_retry_at(l->rules, &retry_at, &has_retry_at));
    if (!ok) {
        return false;
    }
    ok &= check_at(same_blanket(&b, lb), __FILE__, __LINE__,
                   "%s: the rules' blanket (%d %s %u) differs from the lookup's (%d %s %u)", at,
                   b.is_blanket, cause_name(b.cause), b.http_status, lb->is_blanket,
                   cause_name(lb->cause), lb->http_status);
    ok &= check_at(has_retry_at == l->has_retry_at && retry_at == l->retry_at_ms &&
                       (l->has_retry_at || l->retry_at_ms == 0),
                   __FILE__, __LINE__,
                   "%s: the rules' retry_at (%d %llu) differs from the lookup's (%d %llu)", at,
                   has_retry_at, (unsigned long long)retry_at, l->has_retry_at,
                   (unsigned long long)l->retry_at_ms);
    /* Blanket exactly for a blanket answer, with a cause, and a status
     * only for a status cause. */
    ok &= check_at(lb->is_blanket == (l->answer != ROBOTSTXT_ANSWER_RULES) &&
                       (!lb->is_blanket ||
                        lb->allowed == (l->answer == ROBOTSTXT_ANSWER_ALLOW_ALL)) &&
                       lb->is_blanket == (lb->cause != ROBOTSTXT_CAUSE_NONE) &&
                       (lb->cause == ROBOTSTXT_CAUSE_STATUS ||
                        (lb->http_status == 0 && lb->redirects == 0)),
                   __FILE__, __LINE__,
                   "%s: blanket %d allowed %d cause %s (status %u) for answer %u", at,
                   lb->is_blanket, lb->allowed, cause_name(lb->cause), lb->http_status,
                   (unsigned)l->answer);
    if (s->cause_state == VT_ABSENT) {
        ok &= check_at(!lb->is_blanket, __FILE__, __LINE__, "%s: cause %s, want none", at,
                       cause_name(lb->cause));
    } else if (s->cause_state == VT_PRESENT) {
        ok &= check_at(lb->is_blanket && strcmp(cause_name(lb->cause), s->cause) == 0 &&
                           lb->http_status == s->cause_status,
                       __FILE__, __LINE__, "%s: cause %s (status %u), want %s (status %u)", at,
                       cause_name(lb->cause), lb->http_status, s->cause, s->cause_status);
    }
    if (s->retry_at_state != VT_UNCHECKED) {
        bool want_has = s->retry_at_state == VT_PRESENT;
        ok &= check_at(l->has_retry_at == want_has && l->retry_at_ms == s->retry_at_ms,
                       __FILE__, __LINE__, "%s: retry at %s%llu ms, want %s%llu", at,
                       l->has_retry_at ? "" : "(none) ", (unsigned long long)l->retry_at_ms,
                       want_has ? "" : "(none) ", (unsigned long long)s->retry_at_ms);
    }
    return ok;
}

/* The READY half of a lookup step: answer, staleness, cause, retry time,
 * and the checks asked of the rules handed out. */
static bool check_ready(const vt_cache_step *s, const robotstxt_lookup *l, const char *at) {
    bool ok = check_at(l->rules != NULL && l->lease == NULL, __FILE__, __LINE__,
                       "%s: a ready lookup hands out rules and no lease", at);
    size_t i;
    if (s->has_stale) {
        ok &= check_at(l->stale == s->stale, __FILE__, __LINE__, "%s: stale %d, want %d", at,
                       l->stale, s->stale);
    }
    if (s->has_answer) {
        ok &= check_at(l->answer == s->answer, __FILE__, __LINE__, "%s: answer %u, want %u", at,
                       (unsigned)l->answer, (unsigned)s->answer);
    }
    ok = ok && check_blanket(s, l, at);
    for (i = 0; ok && i < s->check_count; i++) {
        size_t len;
        uint8_t *url = join(s->checks[i].url, &len);
        bool allowed = !s->checks[i].allowed;
        robotstxt_decision d;
        ok &= OK(robotstxt_rules_can_fetch(l->rules, url, len, &allowed));
        ok &= OK(robotstxt_rules_decide(l->rules, url, len, &d));
        ok &= check_at(allowed == s->checks[i].allowed && d.allowed == allowed, __FILE__,
                       __LINE__, "%s: %.*s allowed %d, want %d", at, (int)len, (const char *)url,
                       allowed, s->checks[i].allowed);
        /* A blanket answer decides as such, at line 0 (the RFC profile
         * still exempts /robots.txt from a disallow-all: no rule). */
        if (l->blanket.is_blanket) {
            robotstxt_decision_kind want =
                l->blanket.allowed ? ROBOTSTXT_DECISION_ALLOW_ALL
                                   : (d.allowed ? ROBOTSTXT_DECISION_NONE
                                                : ROBOTSTXT_DECISION_DISALLOW_ALL);
            ok &= check_at(d.kind == want && d.line == 0 && d.pattern.len == 0, __FILE__,
                           __LINE__, "%s: %.*s decided by kind %u line %u, want kind %u line 0",
                           at, (int)len, (const char *)url, (unsigned)d.kind, d.line,
                           (unsigned)want);
        } else {
            ok &= check_at(d.kind <= ROBOTSTXT_DECISION_DISALLOW, __FILE__, __LINE__,
                           "%s: %.*s: a file's rule decided with kind %u", at, (int)len,
                           (const char *)url, (unsigned)d.kind);
        }
        free(url);
    }
    return ok;
}

/* The FETCH half: the lease's origin, URL and validators. */
static bool check_fetch(const vt_cache_step *s, const robotstxt_lookup *l, const char *at) {
    const uint8_t *origin = NULL, *url = NULL;
    size_t origin_len = 0, url_len = 0;
    robotstxt_validators v;
    bool ok = check_at(l->lease != NULL && l->rules == NULL, __FILE__, __LINE__,
                       "%s: a fetch hands out a lease and no rules", at);
    if (!ok) {
        return false;
    }
    ok &= OK(robotstxt_lease_origin(l->lease, &origin, &origin_len));
    ok &= OK(robotstxt_lease_robots_url(l->lease, &url, &url_len));
    ok &= check_at(url_len == origin_len + 11 && memcmp(url, origin, origin_len) == 0 &&
                       memcmp(url + origin_len, "/robots.txt", 11) == 0,
                   __FILE__, __LINE__, "%s: robots URL %.*s for origin %.*s", at, (int)url_len,
                   (const char *)url, (int)origin_len, (const char *)origin);
    if (s->has_origin) {
        ok &= check_at(same_bytes(origin, origin_len, s->origin), __FILE__, __LINE__,
                       "%s: origin %.*s", at, (int)origin_len, (const char *)origin);
    }
    if (s->check_validators) {
        ok &= OK(robotstxt_lease_validators(l->lease, &v));
        ok &= check_at(optional_text_is(v.has_etag, v.etag, s->etag_state, s->etag_want),
                       __FILE__, __LINE__, "%s: etag", at);
        ok &= check_at(optional_text_is(v.has_last_modified, v.last_modified,
                                        s->last_modified_state, s->last_modified_want),
                       __FILE__, __LINE__, "%s: last_modified", at);
    }
    return ok;
}

static bool run_lookup(const robotstxt_cache *cache, const vt_cache_step *s,
                       robotstxt_lease **leases, const char *at) {
    robotstxt_lookup l, untouched;
    size_t url_len, token_len;
    uint8_t *url = join(s->url, &url_len);
    uint8_t *token = join(s->token, &token_len);
    robotstxt_status status;
    bool ok = true;
    memset(&l, 0xA5, sizeof l);
    untouched = l;
    status = robotstxt_cache_lookup(cache, url, url_len, token, token_len, s->at_ms,
                                    s->when_fetching, &l);
    free(url);
    free(token);
    if (s->expect_invalid_url) {
        ok &= CHECK_STATUS(status, ROBOTSTXT_STATUS_INVALID_URL);
        return ok && check_at(memcmp(&l, &untouched, sizeof l) == 0, __FILE__, __LINE__,
                              "%s: the lookup was written on failure", at);
    }
    if (!CHECK_STATUS(status, ROBOTSTXT_STATUS_OK)) {
        return false;
    }
    ok &= check_at(l.kind == s->expect, __FILE__, __LINE__, "%s: %s, want %s", at,
                   lookup_kind_name(l.kind), lookup_kind_name(s->expect));
    if (ok && l.kind == ROBOTSTXT_LOOKUP_READY) {
        ok &= check_ready(s, &l, at);
    } else if (ok && l.kind == ROBOTSTXT_LOOKUP_FETCH) {
        ok &= check_fetch(s, &l, at);
        leases[s->lease] = l.lease;
        l.lease = NULL;
    } else if (ok && l.kind == ROBOTSTXT_LOOKUP_WAIT) {
        ok &= check_at(l.rules == NULL && l.lease == NULL, __FILE__, __LINE__,
                       "%s: a wait hands out nothing", at);
        if (s->has_until) {
            ok &= check_at(l.until_ms == s->until_ms, __FILE__, __LINE__,
                           "%s: until %llu ms, want %llu", at, (unsigned long long)l.until_ms,
                           (unsigned long long)s->until_ms);
        }
    }
    if (l.kind <= ROBOTSTXT_LOOKUP_WAIT) {
        robotstxt_rules_free(l.rules);
        robotstxt_lease_free(l.lease);
    }
    return ok;
}

static bool run_cache_case(const vt_cache_case *c) {
    robotstxt_cache_options options = robotstxt_cache_options_default();
    robotstxt_cache *cache = NULL;
    robotstxt_lease **leases = calloc(c->lease_count + 1, sizeof *leases);
    bool ok = leases != NULL;
    size_t i;
    if (c->has_capacity) {
        options.capacity = c->capacity;
    }
    if (c->has_lease) {
        options.lease_ms = c->lease_ms;
    }
    options.policy = freshness_policy(&c->policy);
    ok = ok && OK(robotstxt_cache_new(&options, &cache));
    for (i = 0; ok && i < c->step_count; i++) {
        const vt_cache_step *s = &c->steps[i];
        char at[700];
        snprintf(at, sizeof at, "%s step %zu", c->where, i);
        if (s->op == VT_CACHE_LOOKUP) {
            ok &= run_lookup(cache, s, leases, at);
        } else if (s->op == VT_CACHE_STORE) {
            robotstxt_fetch f = make_fetch(&s->fetch);
            robotstxt_disposition d = 99;
            ok &= check_at(leases[s->lease] != NULL, __FILE__, __LINE__, "%s: no lease", at);
            if (ok && s->expect_invalid_lease) {
                /* Stored or abandoned before, or overtaken by a newer
                 * copy: refused, and the disposition is not written. */
                ok &= CHECK_STATUS(robotstxt_cache_store(cache, leases[s->lease], s->at_ms, &f, &d),
                                   ROBOTSTXT_STATUS_INVALID_LEASE);
                ok &= check_at(d == 99, __FILE__, __LINE__, "%s: disposition written", at);
            } else if (ok) {
                ok &= OK(robotstxt_cache_store(cache, leases[s->lease], s->at_ms, &f, &d));
                ok &= check_at(d <= ROBOTSTXT_DISPOSITION_NOT_MODIFIED, __FILE__, __LINE__,
                               "%s: disposition %u", at, (unsigned)d);
            }
            free_fetch(&f);
        } else if (s->op == VT_CACHE_ABANDON) {
            ok &= check_at(leases[s->lease] != NULL, __FILE__, __LINE__, "%s: no lease", at);
            ok = ok && OK(robotstxt_cache_abandon(cache, leases[s->lease]));
        } else {
            robotstxt_cache_counters got;
            uint64_t values[VT_STAT_COUNT];
            static const char *const names[VT_STAT_COUNT] = {"hits",  "misses",    "fetches",
                                                             "stale", "evictions", "entries"};
            size_t k, len = 0;
            ok &= OK(robotstxt_cache_stats(cache, &got));
            ok &= OK(robotstxt_cache_len(cache, &len));
            values[0] = got.hits;
            values[1] = got.misses;
            values[2] = got.fetches;
            values[3] = got.stale;
            values[4] = got.evictions;
            values[5] = got.entries;
            ok &= check_at(len == got.entries, __FILE__, __LINE__, "%s: len %zu, entries %llu", at,
                           len, (unsigned long long)got.entries);
            for (k = 0; k < VT_STAT_COUNT; k++) {
                if (s->stats_mask & (1u << k)) {
                    ok &= check_at(values[k] == s->stats[k], __FILE__, __LINE__,
                                   "%s: stats.%s %llu, want %llu", at, names[k],
                                   (unsigned long long)values[k], (unsigned long long)s->stats[k]);
                }
            }
        }
    }
    for (i = 0; leases != NULL && i < c->lease_count; i++) {
        robotstxt_lease_free(leases[i]);
    }
    free(leases);
    robotstxt_cache_free(cache);
    return ok;
}

static const char *confirm_name(robotstxt_confirm_kind kind) {
    switch (kind) {
    case ROBOTSTXT_CONFIRM_GO:
        return "go";
    case ROBOTSTXT_CONFIRM_WAIT:
        return "wait";
    case ROBOTSTXT_CONFIRM_DISABLED:
        return "disabled";
    default:
        return "?";
    }
}

static bool run_reserve(const robotstxt_pacer *pacer, const vt_pace_step *s, const uint8_t *host,
                        size_t host_len, robotstxt_ticket **tickets, const char *at) {
    robotstxt_ticket *const unset = (robotstxt_ticket *)(uintptr_t)s; /* never written */
    robotstxt_ticket *ticket = unset;
    robotstxt_status status = robotstxt_pacer_reserve(pacer, host, host_len, s->at_ms, &ticket);
    uint64_t start;
    bool ok = true;
    if (s->expect_invalid_host || s->expect_pacer_full) {
        ok &= CHECK_STATUS(status, s->expect_invalid_host ? ROBOTSTXT_STATUS_INVALID_HOST
                                                          : ROBOTSTXT_STATUS_PACER_FULL);
        return ok && check_at(ticket == unset, __FILE__, __LINE__,
                              "%s: ticket written on failure", at);
    }
    if (!CHECK_STATUS(status, ROBOTSTXT_STATUS_OK)) {
        return false;
    }
    start = robotstxt_ticket_start(ticket);
    ok &= check_at((ticket != NULL) == s->has_start && start == (s->has_start ? s->start_ms : 0),
                   __FILE__, __LINE__, "%s: start %s%llu ms, want %s%llu", at,
                   ticket ? "" : "(none) ", (unsigned long long)start,
                   s->has_start ? "" : "(none) ", (unsigned long long)s->start_ms);
    if (s->keep_ticket) {
        tickets[s->ticket] = ticket;
    } else {
        /* Freed unconfirmed: its slot stays used, as in the other runners
         * that drop a ticket. */
        robotstxt_ticket_free(ticket);
    }
    return ok;
}

static bool run_confirm(const robotstxt_pacer *pacer, const vt_pace_step *s,
                        const robotstxt_ticket *ticket, const char *at) {
    robotstxt_confirm c, untouched;
    robotstxt_status status;
    bool ok = true;
    memset(&c, 0xA5, sizeof c);
    untouched = c;
    status = robotstxt_pacer_confirm(pacer, ticket, s->at_ms, &c);
    if (s->expect_invalid_ticket) {
        ok &= CHECK_STATUS(status, ROBOTSTXT_STATUS_INVALID_TICKET);
        return ok && check_at(memcmp(&c, &untouched, sizeof c) == 0, __FILE__, __LINE__,
                              "%s: confirm written on failure", at);
    }
    if (!CHECK_STATUS(status, ROBOTSTXT_STATUS_OK)) {
        return false;
    }
    ok &= check_at(c.kind == s->expect, __FILE__, __LINE__, "%s: %s, want %s", at,
                   confirm_name(c.kind), confirm_name(s->expect));
    if (ok && c.kind == ROBOTSTXT_CONFIRM_WAIT) {
        ok &= check_at(c.until_ms > s->at_ms, __FILE__, __LINE__, "%s: wait until %llu, now %llu",
                       at, (unsigned long long)c.until_ms, (unsigned long long)s->at_ms);
        if (s->has_until) {
            ok &= check_at(c.until_ms == s->until_ms, __FILE__, __LINE__,
                           "%s: until %llu ms, want %llu", at, (unsigned long long)c.until_ms,
                           (unsigned long long)s->until_ms);
        }
        if (s->has_busy) {
            ok &= check_at(c.busy == s->busy, __FILE__, __LINE__, "%s: busy %d, want %d", at,
                           c.busy, s->busy);
        }
    } else if (ok) {
        ok &= check_at(c.until_ms == 0 && !c.busy, __FILE__, __LINE__,
                       "%s: %s with until %llu busy %d", at, confirm_name(c.kind),
                       (unsigned long long)c.until_ms, c.busy);
    }
    return ok;
}

static bool run_pace_step(const robotstxt_pacer *pacer, const vt_pace_step *s,
                          robotstxt_ticket **tickets, const char *at) {
    size_t host_len;
    uint8_t *host = join(s->host, &host_len);
    bool ok = true;
    if (s->op == VT_PACE_RESERVE) {
        ok &= run_reserve(pacer, s, host, host_len, tickets, at);
    } else if (s->op == VT_PACE_CONFIRM || s->op == VT_PACE_CANCEL) {
        ok &= check_at(tickets[s->ticket] != NULL, __FILE__, __LINE__, "%s: no ticket", at);
        if (ok && s->op == VT_PACE_CONFIRM) {
            ok &= run_confirm(pacer, s, tickets[s->ticket], at);
        } else if (ok) {
            ok &= OK(robotstxt_pacer_cancel(pacer, tickets[s->ticket]));
        }
    } else if (s->op == VT_PACE_IN_FLIGHT) {
        size_t count = 12345;
        ok &= OK(robotstxt_pacer_in_flight(pacer, host, host_len, s->at_ms, &count));
        ok &= check_at(count == s->count, __FILE__, __LINE__, "%s: %zu in flight, want %zu", at,
                       count, s->count);
    } else if (s->op == VT_PACE_SET_RULES) {
        size_t body_len, token_len;
        uint8_t *body = join(s->body, &body_len);
        uint8_t *token = join(s->token, &token_len);
        robotstxt_robots *robots = NULL;
        robotstxt_rules *rules = NULL;
        ok &= OK(robotstxt_robots_parse(body, body_len, &robots));
        ok = ok && OK(robotstxt_robots_rules_for(robots, token, token_len, &rules));
        ok = ok && OK(robotstxt_pacer_set_rules(pacer, host, host_len, rules));
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
        free(body);
        free(token);
    } else if (s->op == VT_PACE_SET_DELAY) {
        ok &= OK(robotstxt_pacer_set_delay(pacer, host, host_len, s->has_crawl_delay,
                                           s->crawl_delay_s, s->has_rate, s->rate_requests,
                                           s->rate_seconds));
    } else if (s->op == VT_PACE_RECORD) {
        ok &= OK(robotstxt_pacer_record(pacer, host, host_len, s->at_ms, s->http_status,
                                        s->has_retry_after, s->retry_after_ms));
    } else if (s->op == VT_PACE_ENABLED) {
        ok &= OK(robotstxt_pacer_set_enabled(pacer, host, host_len, s->on));
    } else {
        uint64_t gap = 0;
        ok &= OK(robotstxt_pacer_gap_ms(pacer, host, host_len, &gap));
        ok &= check_at(gap == s->gap_ms, __FILE__, __LINE__, "%s: gap %llu ms, want %llu", at,
                       (unsigned long long)gap, (unsigned long long)s->gap_ms);
    }
    free(host);
    return ok;
}

static bool run_pacing(const vt_pacing *p) {
    robotstxt_pacer_options options = robotstxt_pacer_options_default();
    robotstxt_pacer *pacer = NULL;
    robotstxt_ticket **tickets = calloc(p->ticket_count + 1, sizeof *tickets);
    bool ok = tickets != NULL;
    size_t i;
    if (p->has_floor) {
        options.floor_ms = p->floor_ms;
    }
    if (p->has_backoff_cap) {
        options.backoff_cap_ms = p->backoff_cap_ms;
    }
    if (p->has_capacity) {
        options.capacity = p->capacity;
    }
    if (p->has_max_in_flight) {
        options.max_in_flight = p->max_in_flight;
    }
    if (p->has_in_flight_timeout) {
        options.in_flight_timeout_ms = p->in_flight_timeout_ms;
    }
    ok = ok && OK(robotstxt_pacer_new(&options, &pacer));
    for (i = 0; ok && i < p->step_count; i++) {
        char at[700];
        snprintf(at, sizeof at, "%s step %zu", p->where, i);
        ok &= run_pace_step(pacer, &p->steps[i], tickets, at);
    }
    /* Tickets may outlive their pacer. */
    robotstxt_pacer_free(pacer);
    for (i = 0; tickets != NULL && i < p->ticket_count; i++) {
        robotstxt_ticket_free(tickets[i]);
    }
    free(tickets);
    return ok;
}

/* Looks the URL up in a new cache at time 0: a lease for the expected
 * origin and its /robots.txt, or the invalid-URL error that names it. */
static bool run_origin_case(const vt_origin_case *c) {
    robotstxt_cache_options options = robotstxt_cache_options_default();
    robotstxt_cache *cache = NULL;
    robotstxt_lookup l;
    const uint8_t *origin = NULL, *robots_url = NULL;
    size_t url_len, origin_len = 0, robots_url_len = 0;
    uint8_t *url = join(c->url, &url_len);
    robotstxt_status status;
    bool ok = OK(robotstxt_cache_new(&options, &cache));
    if (!ok) {
        free(url);
        return false;
    }
    memset(&l, 0, sizeof l);
    status = robotstxt_cache_lookup(cache, url, url_len, TEXT("ExampleBot"), 0,
                                    ROBOTSTXT_WHEN_FETCHING_WAIT, &l);
    if (c->expect_invalid_url) {
        ok &= check_at(status == ROBOTSTXT_STATUS_INVALID_URL, __FILE__, __LINE__,
                       "%s: status %u (%s), want the invalid-URL error", c->where,
                       (unsigned)status, last_error());
        if (ok && plainly_quotable(url, url_len)) {
            char quoted[600];
            snprintf(quoted, sizeof quoted, "\"%.*s\"", (int)url_len, (const char *)url);
            ok &= check_at(strstr(last_error(), quoted) != NULL, __FILE__, __LINE__,
                           "%s: message '%s' does not quote %s", c->where, last_error(), quoted);
        }
    } else if (check_at(status == ROBOTSTXT_STATUS_OK && l.kind == ROBOTSTXT_LOOKUP_FETCH,
                        __FILE__, __LINE__, "%s: status %u (%s), kind %u, want a fetch",
                        c->where, (unsigned)status, last_error(), (unsigned)l.kind)) {
        ok &= OK(robotstxt_lease_origin(l.lease, &origin, &origin_len));
        ok &= OK(robotstxt_lease_robots_url(l.lease, &robots_url, &robots_url_len));
        ok &= check_at(same_bytes(origin, origin_len, c->origin), __FILE__, __LINE__,
                       "%s: origin %.*s", c->where, (int)origin_len, (const char *)origin);
        ok &= check_at(robots_url_len == origin_len + 11 &&
                           memcmp(robots_url, origin, origin_len) == 0 &&
                           memcmp(robots_url + origin_len, "/robots.txt", 11) == 0,
                       __FILE__, __LINE__, "%s: robots URL %.*s", c->where, (int)robots_url_len,
                       (const char *)robots_url);
        robotstxt_lease_free(l.lease);
    } else {
        ok = false;
        if (status == ROBOTSTXT_STATUS_OK) {
            robotstxt_rules_free(l.rules);
            robotstxt_lease_free(l.lease);
        }
    }
    robotstxt_cache_free(cache);
    free(url);
    return ok;
}

/* http.json: the text of `h` joined into `*buf` (free() it), as a
 * robotstxt_str, and whether it is there. */
static bool http_text(vt_http_header h, uint8_t **buf, robotstxt_str *out) {
    size_t len = 0;
    *buf = join(h.value, &len);
    out->ptr = *buf;
    out->len = len;
    return h.present;
}

/* The answer matches the expected header value (or its absence). */
static bool http_same(bool has, robotstxt_str got, vt_http_header want, const char *what,
                      const char *at) {
    return check_at(has == want.present && (!has || same_bytes(got.ptr, got.len, want.value)),
                    __FILE__, __LINE__, "%s: %s %s '%.*s'", at, what,
                    has ? "is" : "is absent, not", (int)got.len, (const char *)got.ptr);
}

/* One value through robotstxt_retry_after_ms or robotstxt_max_age_ms, or a
 * whole response through robotstxt_http_read. */
static bool run_http_case(const vt_http_case *c) {
    bool ok = true;
    if (c->kind == VT_HTTP_RESPONSE) {
        robotstxt_http_response r;
        robotstxt_fetch f;
        robotstxt_http_ignored ignored = 99;
        uint8_t *bufs[5];
        size_t i, len = 0;
        memset(&r, 0, sizeof r);
        r.http_status = c->status;
        r.redirects = c->redirects;
        bufs[0] = join((vt_bytes){NULL, 0}, &len);
        r.has_retry_after = http_text(c->retry_after, &bufs[1], &r.retry_after);
        r.has_cache_control = http_text(c->cache_control, &bufs[2], &r.cache_control);
        r.has_etag = http_text(c->etag, &bufs[3], &r.etag);
        r.has_last_modified = http_text(c->last_modified, &bufs[4], &r.last_modified);
        ok &= OK(robotstxt_http_read(&r, c->now_ms, c->min_max_age_ms, &f, &ignored));
        if (ok) {
            ok &= check_at(f.http_status == c->status && f.redirects == c->redirects, __FILE__,
                           __LINE__, "%s: status %u after %u redirects", c->where,
                           (unsigned)f.http_status, (unsigned)f.redirects);
            ok &= check_at(f.has_max_age == c->has_max_age &&
                               (!f.has_max_age || f.max_age_ms == c->max_age_ms),
                           __FILE__, __LINE__, "%s: max-age %d %llu ms", c->where,
                           (int)f.has_max_age, (unsigned long long)f.max_age_ms);
            ok &= check_at(f.has_retry_after == c->has_retry_after &&
                               (!f.has_retry_after || f.retry_after_ms == c->retry_after_ms),
                           __FILE__, __LINE__, "%s: retry-after %d %llu ms", c->where,
                           (int)f.has_retry_after, (unsigned long long)f.retry_after_ms);
            ok &= http_same(f.has_etag, f.etag, c->want_etag, "etag", c->where);
            ok &= http_same(f.has_last_modified, f.last_modified, c->want_last_modified,
                            "last-modified", c->where);
            ok &= check_at(ignored == c->ignored, __FILE__, __LINE__, "%s: ignored %u, want %u",
                           c->where, (unsigned)ignored, (unsigned)c->ignored);
        }
        for (i = 0; i < 5; i++) {
            free(bufs[i]);
        }
        return ok;
    }
    {
        size_t len = 0;
        uint8_t *value = join(c->value, &len);
        uint64_t ms = 12345;
        bool has = false;
        robotstxt_status st =
            c->kind == VT_HTTP_RETRY_AFTER
                ? robotstxt_retry_after_ms(value, len, c->now_ms, &ms)
                : robotstxt_max_age_ms(value, len, &ms, &has);
        if (c->kind == VT_HTTP_RETRY_AFTER) {
            has = true;
        }
        if (c->error != NULL) {
            ok &= check_at(st == ROBOTSTXT_STATUS_INVALID_FIELD, __FILE__, __LINE__,
                           "%s: status %u, want ROBOTSTXT_STATUS_INVALID_FIELD", c->where,
                           (unsigned)st);
            ok &= check_at(strstr(last_error(), c->error) != NULL, __FILE__, __LINE__,
                           "%s: message '%s' does not say '%s'", c->where, last_error(), c->error);
            ok &= check_at(ms == 12345, __FILE__, __LINE__, "%s: output written on failure",
                           c->where);
        } else {
            ok &= check_at(st == ROBOTSTXT_STATUS_OK, __FILE__, __LINE__, "%s: status %u (%s)",
                           c->where, (unsigned)st, last_error());
            ok &= check_at(has == c->has_ms && ms == (c->has_ms ? c->ms : 0), __FILE__, __LINE__,
                           "%s: %d %llu ms, want %d %llu", c->where, (int)has,
                           (unsigned long long)ms, (int)c->has_ms, (unsigned long long)c->ms);
        }
        free(value);
    }
    return ok;
}

/* The HTTP calls' contract beyond the vectors: NULLs, a NULL with a length,
 * outputs untouched on failure, the optional ignored_out, and text that
 * borrows from the caller's buffers. */
static bool http_contract(void) {
    const uint8_t date[] = "Sun Nov  6 08:51:37 1994";
    const uint64_t now = 784111777000u;
    robotstxt_http_response r;
    robotstxt_fetch f;
    robotstxt_http_ignored ignored = 7;
    uint64_t ms = 5;
    bool has = true, ok = true;
    ok &= CHECK_STATUS(robotstxt_retry_after_ms(NULL, 3, now, &ms),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "robotstxt_retry_after_ms") != NULL);
    ok &= CHECK_STATUS(robotstxt_retry_after_ms(date, sizeof date - 1, now, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_retry_after_ms(NULL, 0, now, &ms),
                       ROBOTSTXT_STATUS_INVALID_FIELD);
    ok &= CHECK(ms == 5);
    ok &= OK(robotstxt_retry_after_ms(date, sizeof date - 1, now, &ms));
    ok &= CHECK(ms == 120000);
    ok &= CHECK_STATUS(robotstxt_max_age_ms(NULL, 1, &ms, &has), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_max_age_ms(TEXT("max-age=1"), NULL, &has),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_max_age_ms(TEXT("max-age=1"), &ms, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(ms == 120000 && has);
    ok &= OK(robotstxt_max_age_ms(NULL, 0, &ms, &has));
    ok &= CHECK(ms == 0 && !has);
    ok &= CHECK(strcmp(robotstxt_status_message(ROBOTSTXT_STATUS_INVALID_FIELD),
                       "unknown status") != 0);

    memset(&r, 0, sizeof r);
    ok &= CHECK_STATUS(robotstxt_http_read(NULL, now, 0, &f, &ignored),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_http_read(&r, now, 0, NULL, &ignored),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(ignored == 7);
    /* A zeroed response: no response at all, nothing to read. */
    ok &= OK(robotstxt_http_read(&r, now, 0, &f, NULL));
    ok &= CHECK(f.http_status == 0 && !f.has_max_age && !f.has_retry_after && !f.has_etag &&
                !f.has_last_modified && f.body.len == 0);
    /* A set field with NULL and a length is refused; an unset one is not read. */
    r.etag.len = 4;
    ok &= OK(robotstxt_http_read(&r, now, 0, &f, &ignored));
    r.has_etag = true;
    ok &= CHECK_STATUS(robotstxt_http_read(&r, now, 0, &f, &ignored),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "response->etag") != NULL);
    /* The fetch borrows the caller's bytes: its ETag points inside them. */
    r.etag.ptr = (const uint8_t *)" \"v1\"";
    r.etag.len = 5;
    r.http_status = 200;
    r.body.ptr = (const uint8_t *)"User-agent: *\nDisallow: /x\n";
    r.body.len = 27;
    r.has_retry_after = true;
    r.retry_after.ptr = date;
    r.retry_after.len = sizeof date - 1;
    ok &= OK(robotstxt_http_read(&r, now, 0, &f, &ignored));
    ok &= CHECK(f.etag.ptr == r.etag.ptr + 1 && f.etag.len == 4 && f.body.ptr == r.body.ptr);
    ok &= CHECK(f.has_retry_after && f.retry_after_ms == 120000 && ignored == 0);
    /* The fetch goes straight into an entry: due in 24 h, the copy's ETag kept. */
    {
        robotstxt_freshness_policy policy = robotstxt_freshness_policy_default();
        robotstxt_entry *entry = NULL;
        robotstxt_disposition d = 99;
        bool due = true;
        if (OK(robotstxt_entry_new(&policy, &entry))) {
            ok &= OK(robotstxt_entry_record(entry, now, &f, &d));
            ok &= CHECK(d == ROBOTSTXT_DISPOSITION_FOLLOW_RULES);
            ok &= OK(robotstxt_entry_is_due(entry, now + 1000, &due));
            ok &= CHECK(!due);
            robotstxt_entry_free(entry);
        } else {
            ok = false;
        }
    }
    return ok;
}

void run_vector_tests(size_t *passed, size_t *failed) {
    size_t i, ran = 0, before = *passed;
    for (i = 0; i < vt_parse_case_count; i++) {
        const vt_parse_case *c = &vt_parse_cases[i];
        if (c->rfc) {
            *(run_parse_case(c, ROBOTSTXT_PROFILE_RFC) ? passed : failed) += 1;
            ran++;
        }
        if (c->google) {
            *(run_parse_case(c, ROBOTSTXT_PROFILE_GOOGLE) ? passed : failed) += 1;
            ran++;
        }
    }
    for (i = 0; i < vt_access_case_count; i++) {
        *(run_access_case(&vt_access_cases[i]) ? passed : failed) += 1;
        ran++;
    }
    for (i = 0; i < vt_timeline_count; i++) {
        *(run_timeline(&vt_timelines[i]) ? passed : failed) += 1;
        ran++;
    }
    for (i = 0; i < vt_cache_case_count; i++) {
        *(run_cache_case(&vt_cache_cases[i]) ? passed : failed) += 1;
        ran++;
    }
    for (i = 0; i < vt_pacing_count; i++) {
        *(run_pacing(&vt_pacings[i]) ? passed : failed) += 1;
        ran++;
    }
    for (i = 0; i < vt_origin_case_count; i++) {
        *(run_origin_case(&vt_origin_cases[i]) ? passed : failed) += 1;
        ran++;
    }
    for (i = 0; i < vt_http_case_count; i++) {
        *(run_http_case(&vt_http_cases[i]) ? passed : failed) += 1;
        ran++;
    }
    *(http_contract() ? passed : failed) += 1;
    ran++;
    printf("vectors: %zu files, %zu cases, %zu runs (%zu passed)\n", vt_file_count,
           vt_parse_case_count + vt_access_case_count + vt_timeline_count + vt_cache_case_count +
               vt_pacing_count + vt_origin_case_count + vt_http_case_count,
           ran, *passed - before);
    if (vt_skipped[0] != '\0') {
        printf("vectors: not in the C ABI yet, skipped: %s\n", vt_skipped);
    }
}
