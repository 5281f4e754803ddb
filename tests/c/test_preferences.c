/* Usage preferences through the C ABI (behaviour §10): answers, borrowed
 * text, handles that outlive their rules, the HTTP field and its errors,
 * Content-Signal, other records, and every bad argument (NULL handles and
 * outputs, (NULL, n) text, indexes out of range) with outputs untouched. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static const char BODY[] = "Clean-param: ref /a/\n"                           /* 1 */
                           "User-agent: *\n"                                  /* 2 */
                           "Content-Usage: train-ai=n\n"                      /* 3 */
                           "Content-Usage: /blog/ train-ai=y;v=2, search, x=n\n" /* 4 */
                           "Content-Signal: search=yes, ai-train=no\n"        /* 5 */
                           "Disallow: /private/\n"                            /* 6 */
                           "LLM-Policy: https://a.test/llm.txt\n"             /* 7 */
                           "\n"                                               /* 8 */
                           "User-agent: OtherBot\n"                           /* 9 */
                           "Visit-time: 0600-0845\n";                         /* 10 */

/* A pointer value no call may write: outputs must stay untouched. */
static int sentinel_target;
#define SENTINEL ((void *)&sentinel_target)

static robotstxt_robots *parse(const char *body) {
    robotstxt_robots *robots = NULL;
    return OK(robotstxt_robots_parse(TEXT(body), &robots)) ? robots : NULL;
}

static robotstxt_rules *rules_for(const robotstxt_robots *robots, const char *token) {
    robotstxt_rules *rules = NULL;
    return OK(robotstxt_robots_rules_for(robots, TEXT(token), &rules)) ? rules : NULL;
}

static robotstxt_preferences *preferences(const robotstxt_rules *rules, const char *url) {
    robotstxt_preferences *p = NULL;
    return OK(robotstxt_rules_preferences(rules, TEXT(url), &p)) ? p : NULL;
}

/* The `index`-th label is `name` with `value` and exactly `count` lines. */
static bool label_is(const robotstxt_preferences *p, size_t index, const char *name,
                     robotstxt_usage value, size_t count, const uint32_t *lines) {
    robotstxt_label_preference l;
    size_t i;
    bool ok = OK(robotstxt_preferences_label(p, index, &l));
    ok = ok && CHECK(text_is(l.label.ptr, l.label.len, name) && l.value == value &&
                     l.line_count == count && (count == 0) == (l.lines == NULL));
    for (i = 0; ok && i < count; i++) {
        ok &= CHECK(l.lines[i] == lines[i]);
    }
    return ok;
}

static robotstxt_usage get(const robotstxt_preferences *p, const char *label) {
    robotstxt_usage usage = 99;
    return OK(robotstxt_preferences_get(p, TEXT(label), &usage)) ? usage : 99;
}

static bool test_answer_for_a_url(void) {
    static const uint32_t line3[] = {3}, line4[] = {4};
    robotstxt_robots *robots = parse(BODY);
    robotstxt_rules *rules = rules_for(robots, "ExampleBot");
    robotstxt_preferences *p = preferences(rules, "https://a.test/blog/post");
    robotstxt_usage_statement st;
    robotstxt_member m;
    robotstxt_decision d;
    size_t count = 0;
    bool crawlable = false;
    bool ok = CHECK(robots && rules && p);
    if (!ok) {
        goto done;
    }
    /* An answer of its own: it outlives the rules and the file. */
    robotstxt_rules_free(rules);
    rules = NULL;
    robotstxt_robots_free(robots);
    robots = NULL;
    ok &= OK(robotstxt_preferences_crawlable(p, &crawlable, &d));
    ok &= CHECK(crawlable && d.allowed && d.line == 0 && d.kind == ROBOTSTXT_DECISION_NONE);
    ok &= OK(robotstxt_preferences_crawlable(p, &crawlable, NULL)); /* decision optional */
    ok &= OK(robotstxt_preferences_label_count(p, &count));
    /* train-ai and search first, then labels a statement gives y or n. */
    ok &= CHECK(count == 3);
    ok &= label_is(p, 0, "train-ai", ROBOTSTXT_USAGE_YES, 1, line4);
    ok &= label_is(p, 1, "search", ROBOTSTXT_USAGE_UNKNOWN, 1, line4); /* a bare key is ?1 */
    ok &= label_is(p, 2, "x", ROBOTSTXT_USAGE_NO, 1, line4);
    ok &= CHECK(get(p, "train-ai") == ROBOTSTXT_USAGE_YES && get(p, "x") == ROBOTSTXT_USAGE_NO);
    ok &= CHECK(get(p, "not-stated") == ROBOTSTXT_USAGE_UNKNOWN && get(p, "") == ROBOTSTXT_USAGE_UNKNOWN);
    ok &= OK(robotstxt_preferences_statement_count(p, &count));
    ok &= CHECK(count == 1);
    ok &= OK(robotstxt_preferences_statement(p, 0, &st));
    ok &= CHECK(st.line == 4 && text_is(st.path.ptr, st.path.len, "/blog/") && st.member_count == 3);
    /* Members as written, parameters kept. */
    ok &= OK(robotstxt_preferences_member(p, 0, 0, &m));
    ok &= CHECK(text_is(m.key.ptr, m.key.len, "train-ai") && text_is(m.value.ptr, m.value.len, "y;v=2"));
    ok &= OK(robotstxt_preferences_member(p, 0, 1, &m));
    ok &= CHECK(text_is(m.key.ptr, m.key.len, "search") && text_is(m.value.ptr, m.value.len, "?1"));
    ok &= OK(robotstxt_preferences_member(p, 0, 2, &m));
    ok &= CHECK(text_is(m.key.ptr, m.key.len, "x") && text_is(m.value.ptr, m.value.len, "n"));
    robotstxt_preferences_free(p);
    p = NULL;

    /* Another path: the path-less rule, written as `/`. */
    robots = parse(BODY);
    rules = rules_for(robots, "ExampleBot");
    p = preferences(rules, "/shop");
    ok &= CHECK(p != NULL);
    if (p != NULL) {
        ok &= OK(robotstxt_preferences_label_count(p, &count));
        ok &= CHECK(count == 2);
        ok &= label_is(p, 0, "train-ai", ROBOTSTXT_USAGE_NO, 1, line3);
        ok &= label_is(p, 1, "search", ROBOTSTXT_USAGE_UNKNOWN, 0, NULL);
        ok &= OK(robotstxt_preferences_statement(p, 0, &st));
        ok &= CHECK(st.line == 3 && text_is(st.path.ptr, st.path.len, "/") && st.member_count == 1);
    }
done:
    robotstxt_preferences_free(p);
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_not_crawlable_states_nothing(void) {
    robotstxt_robots *robots = parse(BODY);
    robotstxt_rules *rules = rules_for(robots, "ExampleBot");
    robotstxt_preferences *p = preferences(rules, "/private/x");
    robotstxt_preferences *combined = NULL;
    robotstxt_decision d;
    size_t count = 9;
    bool crawlable = true;
    bool ok = CHECK(p != NULL);
    if (ok) {
        ok &= OK(robotstxt_preferences_crawlable(p, &crawlable, &d));
        ok &= CHECK(!crawlable && !d.allowed && d.line == 6 && d.kind == ROBOTSTXT_DECISION_DISALLOW);
        ok &= CHECK(text_is(d.pattern.ptr, d.pattern.len, "/private/"));
        ok &= OK(robotstxt_preferences_statement_count(p, &count));
        ok &= CHECK(count == 0);
        ok &= CHECK(get(p, "train-ai") == ROBOTSTXT_USAGE_UNKNOWN);
        /* The field does not apply either, and the pattern is kept. */
        ok &= OK(robotstxt_preferences_with_header(p, TEXT("train-ai=n"), &combined));
        ok &= CHECK(combined != NULL && combined != p && get(combined, "train-ai") == ROBOTSTXT_USAGE_UNKNOWN);
        robotstxt_preferences_free(p);
        p = NULL;
        ok &= OK(robotstxt_preferences_crawlable(combined, &crawlable, &d));
        ok &= CHECK(!crawlable && d.line == 6 && text_is(d.pattern.ptr, d.pattern.len, "/private/"));
    }
    robotstxt_preferences_free(combined);
    robotstxt_preferences_free(p);
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_http_field(void) {
    static const uint32_t line3[] = {3};
    robotstxt_robots *robots = parse(BODY);
    robotstxt_rules *rules = rules_for(robots, "ExampleBot");
    robotstxt_preferences *p = preferences(rules, "/shop");
    robotstxt_preferences *combined = NULL;
    robotstxt_preferences *untouched = SENTINEL;
    size_t count = 0, i;
    static const char *const bad[] = {"Train-AI=n", "train-ai=n,", "a=b c", "train-ai="};
    bool ok = CHECK(p != NULL);
    if (!ok) {
        goto done;
    }
    ok &= OK(robotstxt_preferences_with_header(p, TEXT("search=y, train-ai=y, foo=n"), &combined));
    if (ok) {
        /* n from the file beats y from the field; the field's lines are none. */
        ok &= label_is(combined, 0, "train-ai", ROBOTSTXT_USAGE_NO, 1, line3);
        ok &= label_is(combined, 1, "search", ROBOTSTXT_USAGE_YES, 0, NULL);
        ok &= CHECK(get(combined, "foo") == ROBOTSTXT_USAGE_NO);
        /* The statements that applied are those of the file. */
        ok &= OK(robotstxt_preferences_statement_count(combined, &count));
        ok &= CHECK(count == 1);
    }
    robotstxt_preferences_free(combined);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ok &= CHECK_STATUS(robotstxt_preferences_with_header(p, TEXT(bad[i]), &untouched),
                           ROBOTSTXT_STATUS_INVALID_FIELD);
        ok &= CHECK(untouched == SENTINEL);
        ok &= CHECK(strstr(last_error(), "not an RFC 9651 Dictionary") != NULL);
    }
    ok &= CHECK_STATUS(robotstxt_preferences_with_header(p, NULL, 0, &untouched),
                       ROBOTSTXT_STATUS_INVALID_FIELD);
    ok &= CHECK(untouched == SENTINEL && strstr(last_error(), "is empty") != NULL);
    ok &= CHECK_STATUS(robotstxt_preferences_with_header(p, TEXT("  "), &untouched),
                       ROBOTSTXT_STATUS_INVALID_FIELD);
    ok &= CHECK(untouched == SENTINEL);
    ok &= CHECK(ROBOTSTXT_STATUS_INVALID_FIELD == 13);
    ok &= CHECK(strcmp(robotstxt_status_message(ROBOTSTXT_STATUS_INVALID_FIELD),
                       "the HTTP field cannot be read") == 0);
done:
    robotstxt_preferences_free(p);
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

static bool signal_is(const robotstxt_content_signal *s, size_t index, const char *key, bool is_set,
                      bool yes) {
    robotstxt_signal e;
    bool ok = OK(robotstxt_content_signal_entry(s, index, &e));
    return ok && CHECK(text_is(e.key.ptr, e.key.len, key) && e.is_set == is_set && e.yes == yes);
}

static bool test_content_signal(void) {
    robotstxt_robots *robots = parse(BODY);
    robotstxt_rules *rules = rules_for(robots, "ExampleBot");
    robotstxt_rules *other = rules_for(robots, "OtherBot");
    robotstxt_content_signal *s = NULL, *none = SENTINEL;
    const uint32_t *lines = NULL;
    size_t count = 0;
    bool ok = CHECK(rules && other);
    if (!ok) {
        goto done;
    }
    ok &= OK(robotstxt_rules_content_signal(rules, &s));
    ok &= CHECK(s != NULL);
    /* The named group has no content-signal line, and * does not apply. */
    ok &= OK(robotstxt_rules_content_signal(other, &none));
    ok &= CHECK(none == NULL);
    if (s == NULL) {
        goto done;
    }
    robotstxt_rules_free(rules); /* the handle is an answer of its own */
    rules = NULL;
    ok &= OK(robotstxt_content_signal_count(s, &count));
    ok &= CHECK(count == 3);
    ok &= signal_is(s, 0, "search", true, true);
    ok &= signal_is(s, 1, "ai-input", false, false);
    ok &= signal_is(s, 2, "ai-train", true, false);
    ok &= OK(robotstxt_content_signal_lines(s, &lines, &count));
    ok &= CHECK(count == 1 && lines != NULL && lines[0] == 5);
done:
    robotstxt_content_signal_free(s);
    robotstxt_rules_free(other);
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

static bool record_is(robotstxt_other_record r, const char *key, const char *value, uint32_t line,
                      bool in_group, uint32_t group) {
    return CHECK(text_is(r.key.ptr, r.key.len, key) && text_is(r.value.ptr, r.value.len, value) &&
                 r.line == line && r.in_group == in_group && r.group == group);
}

static bool test_other_records(void) {
    robotstxt_robots *robots = parse(BODY);
    robotstxt_rules *rules = rules_for(robots, "ExampleBot");
    robotstxt_rules *other = rules_for(robots, "OtherBot");
    robotstxt_other_record r;
    size_t count = 0;
    bool ok = CHECK(robots && rules && other);
    if (!ok) {
        goto done;
    }
    ok &= OK(robotstxt_robots_other_record_count(robots, &count));
    ok &= CHECK(count == 3);
    ok &= OK(robotstxt_robots_other_record(robots, 0, &r));
    ok &= record_is(r, "Clean-param", "ref /a/", 1, false, 0);
    ok &= OK(robotstxt_robots_other_record(robots, 1, &r));
    ok &= record_is(r, "LLM-Policy", "https://a.test/llm.txt", 7, true, 0);
    ok &= OK(robotstxt_robots_other_record(robots, 2, &r));
    ok &= record_is(r, "Visit-time", "0600-0845", 10, true, 1);
    /* Rules: their groups' records and the global ones; text borrows from
     * the rules, so it outlives the file. */
    robotstxt_robots_free(robots);
    robots = NULL;
    ok &= OK(robotstxt_rules_other_record_count(rules, &count));
    ok &= CHECK(count == 2);
    ok &= OK(robotstxt_rules_other_record(rules, 1, &r));
    ok &= record_is(r, "LLM-Policy", "https://a.test/llm.txt", 7, true, 0);
    ok &= OK(robotstxt_rules_other_record_count(other, &count));
    ok &= CHECK(count == 2);
    ok &= OK(robotstxt_rules_other_record(other, 0, &r));
    ok &= record_is(r, "Clean-param", "ref /a/", 1, false, 0);
    ok &= OK(robotstxt_rules_other_record(other, 1, &r));
    ok &= record_is(r, "Visit-time", "0600-0845", 10, true, 1);
done:
    robotstxt_rules_free(other);
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_diagnostics_and_names(void) {
    robotstxt_robots *robots = parse("Content-Usage: train-ai=n\n" /* 1: outside-group */
                                     "User-agent: *\n"
                                     "Content-Usage: Train-AI=n\n"  /* 3: invalid-statement */
                                     "Content-Usage: /a\n"          /* 4: empty-statement */
                                     "Content-Usage: train-ai=yes\n" /* 5: unknown-preference */
                                     "Content-Signal: search=y\n"); /* 6: unknown-preference */
    robotstxt_diagnostic d;
    size_t count = 0;
    bool ok = CHECK(robots != NULL);
    if (!ok) {
        return false;
    }
    ok &= OK(robotstxt_robots_diagnostic_count(robots, &count));
    ok &= CHECK(count == 5);
    ok &= OK(robotstxt_robots_diagnostic(robots, 0, &d));
    ok &= CHECK(d.line == 1 && d.kind == ROBOTSTXT_LINE_CONTENT_USAGE &&
                d.flags == ROBOTSTXT_FLAG_OUTSIDE_GROUP);
    ok &= OK(robotstxt_robots_diagnostic(robots, 1, &d));
    ok &= CHECK(d.line == 3 && d.flags == ROBOTSTXT_FLAG_INVALID_STATEMENT);
    ok &= OK(robotstxt_robots_diagnostic(robots, 2, &d));
    ok &= CHECK(d.line == 4 && d.flags == ROBOTSTXT_FLAG_EMPTY_STATEMENT);
    ok &= OK(robotstxt_robots_diagnostic(robots, 3, &d));
    ok &= CHECK(d.line == 5 && d.flags == ROBOTSTXT_FLAG_UNKNOWN_PREFERENCE);
    ok &= OK(robotstxt_robots_diagnostic(robots, 4, &d));
    ok &= CHECK(d.line == 6 && d.kind == ROBOTSTXT_LINE_CONTENT_SIGNAL &&
                d.flags == ROBOTSTXT_FLAG_UNKNOWN_PREFERENCE);
    ok &= CHECK(strcmp(robotstxt_line_kind_name(ROBOTSTXT_LINE_CONTENT_USAGE), "content-usage") == 0);
    ok &= CHECK(strcmp(robotstxt_line_kind_name(ROBOTSTXT_LINE_CONTENT_SIGNAL), "content-signal") == 0);
    ok &= CHECK(strcmp(robotstxt_diagnostic_flag_name(ROBOTSTXT_FLAG_INVALID_STATEMENT),
                       "invalid-statement") == 0);
    ok &= CHECK(strcmp(robotstxt_diagnostic_flag_name(ROBOTSTXT_FLAG_EMPTY_STATEMENT),
                       "empty-statement") == 0);
    ok &= CHECK(strcmp(robotstxt_diagnostic_flag_name(ROBOTSTXT_FLAG_UNKNOWN_PREFERENCE),
                       "unknown-preference") == 0);
    ok &= CHECK(robotstxt_diagnostic_flag_name(ROBOTSTXT_FLAG_UNKNOWN_PREFERENCE << 1) == NULL);
    ok &= CHECK(strcmp(robotstxt_usage_name(ROBOTSTXT_USAGE_YES), "y") == 0);
    ok &= CHECK(strcmp(robotstxt_usage_name(ROBOTSTXT_USAGE_NO), "n") == 0);
    ok &= CHECK(strcmp(robotstxt_usage_name(ROBOTSTXT_USAGE_UNKNOWN), "unknown") == 0);
    ok &= CHECK(robotstxt_usage_name(3) == NULL && robotstxt_usage_name(UINT32_MAX) == NULL);
    robotstxt_robots_free(robots);
    return ok;
}

/* NULL handles and outputs, (NULL, n) text: NULL_ARGUMENT, outputs as
 * they were. */
static bool test_null_arguments(void) {
    robotstxt_robots *robots = parse(BODY);
    robotstxt_rules *rules = rules_for(robots, "ExampleBot");
    robotstxt_preferences *p = preferences(rules, "/blog/x");
    robotstxt_preferences *out = SENTINEL;
    robotstxt_content_signal *signal = NULL, *sig_out = SENTINEL;
    robotstxt_label_preference label;
    robotstxt_usage_statement st;
    robotstxt_member member;
    robotstxt_signal entry;
    robotstxt_other_record record;
    robotstxt_decision d;
    robotstxt_usage usage = 77;
    const uint32_t *lines = SENTINEL;
    size_t count = 77;
    bool crawlable = false;
    bool ok = CHECK(p != NULL) && OK(robotstxt_rules_content_signal(rules, &signal));
    ok = ok && CHECK(signal != NULL);
    if (!ok) {
        goto done;
    }
    memset(&d, 0x5a, sizeof d);
    ok &= CHECK_STATUS(robotstxt_rules_preferences(NULL, TEXT("/"), &out), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "robotstxt_rules_preferences") != NULL);
    ok &= CHECK_STATUS(robotstxt_rules_preferences(rules, NULL, 3, &out), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "`url` is NULL but its length is 3") != NULL);
    ok &= CHECK_STATUS(robotstxt_rules_preferences(rules, TEXT("/"), NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_with_header(NULL, TEXT("a=n"), &out),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_with_header(p, NULL, 1, &out), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "`field` is NULL but its length is 1") != NULL);
    ok &= CHECK_STATUS(robotstxt_preferences_with_header(p, TEXT("a=n"), NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(out == SENTINEL);
    ok &= CHECK_STATUS(robotstxt_preferences_crawlable(NULL, &crawlable, &d), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_crawlable(p, NULL, &d), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(d.line == 0x5a5a5a5a && !crawlable);
    ok &= CHECK_STATUS(robotstxt_preferences_label_count(NULL, &count), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_label_count(p, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_label(NULL, 0, &label), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_label(p, 0, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_get(NULL, TEXT("x"), &usage), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_get(p, NULL, 2, &usage), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "`label` is NULL but its length is 2") != NULL);
    ok &= CHECK_STATUS(robotstxt_preferences_get(p, TEXT("x"), NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_statement_count(NULL, &count), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_statement_count(p, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_statement(NULL, 0, &st), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_statement(p, 0, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_member(NULL, 0, 0, &member), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_preferences_member(p, 0, 0, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(usage == 77 && count == 77);
    ok &= CHECK_STATUS(robotstxt_rules_content_signal(NULL, &sig_out), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_content_signal(rules, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(sig_out == SENTINEL);
    ok &= CHECK_STATUS(robotstxt_content_signal_count(NULL, &count), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_content_signal_count(signal, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_content_signal_entry(NULL, 0, &entry), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_content_signal_entry(signal, 0, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_content_signal_lines(NULL, &lines, &count), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_content_signal_lines(signal, NULL, &count), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_content_signal_lines(signal, &lines, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(lines == SENTINEL && count == 77);
    ok &= CHECK_STATUS(robotstxt_robots_other_record_count(NULL, &count), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_other_record_count(robots, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_other_record(NULL, 0, &record), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_other_record(robots, 0, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_other_record_count(NULL, &count), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_other_record_count(rules, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_other_record(NULL, 0, &record), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_other_record(rules, 0, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(count == 77);
    /* (NULL, 0) is the empty URL: an answer for `/`. */
    ok &= OK(robotstxt_rules_preferences(rules, NULL, 0, &out));
    ok &= CHECK(out != SENTINEL && get(out, "train-ai") == ROBOTSTXT_USAGE_NO);
    robotstxt_preferences_free(out);
    /* Frees of NULL do nothing. */
    robotstxt_preferences_free(NULL);
    robotstxt_content_signal_free(NULL);
done:
    robotstxt_content_signal_free(signal);
    robotstxt_preferences_free(p);
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

/* Indexes at or past the count: INDEX_OUT_OF_RANGE, the count in the
 * message, outputs as they were. */
static bool test_indexes_out_of_range(void) {
    robotstxt_robots *robots = parse(BODY);
    robotstxt_rules *rules = rules_for(robots, "ExampleBot");
    robotstxt_preferences *p = preferences(rules, "/blog/x");
    robotstxt_content_signal *signal = NULL;
    robotstxt_label_preference label, label0;
    robotstxt_usage_statement st, st0;
    robotstxt_member member, member0;
    robotstxt_signal entry, entry0;
    robotstxt_other_record record, record0;
    bool ok = CHECK(p != NULL) && OK(robotstxt_rules_content_signal(rules, &signal));
    ok = ok && CHECK(signal != NULL);
    if (!ok) {
        goto done;
    }
    memset(&label, 0x33, sizeof label);
    memset(&st, 0x33, sizeof st);
    memset(&member, 0x33, sizeof member);
    memset(&entry, 0x33, sizeof entry);
    memset(&record, 0x33, sizeof record);
    label0 = label;
    st0 = st;
    member0 = member;
    entry0 = entry;
    record0 = record;
    ok &= CHECK_STATUS(robotstxt_preferences_label(p, 3, &label), ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK(strstr(last_error(), "label index 3 is out of range: there are 3") != NULL);
    ok &= CHECK_STATUS(robotstxt_preferences_label(p, SIZE_MAX, &label), ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK_STATUS(robotstxt_preferences_statement(p, 1, &st), ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK(strstr(last_error(), "statement index 1 is out of range: there are 1") != NULL);
    ok &= CHECK_STATUS(robotstxt_preferences_member(p, 1, 0, &member), ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK(strstr(last_error(), "statement index 1") != NULL);
    ok &= CHECK_STATUS(robotstxt_preferences_member(p, 0, 3, &member), ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK(strstr(last_error(), "member index 3 is out of range: there are 3") != NULL);
    ok &= CHECK_STATUS(robotstxt_content_signal_entry(signal, 3, &entry), ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK(strstr(last_error(), "signal index 3 is out of range: there are 3") != NULL);
    ok &= CHECK_STATUS(robotstxt_robots_other_record(robots, 3, &record), ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK(strstr(last_error(), "other record index 3 is out of range: there are 3") != NULL);
    ok &= CHECK_STATUS(robotstxt_rules_other_record(rules, 2, &record), ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK(strstr(last_error(), "other record index 2 is out of range: there are 2") != NULL);
    ok &= CHECK_STATUS(robotstxt_rules_other_record(rules, SIZE_MAX, &record),
                       ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK(memcmp(&label, &label0, sizeof label) == 0 && memcmp(&st, &st0, sizeof st) == 0 &&
                memcmp(&member, &member0, sizeof member) == 0 &&
                memcmp(&entry, &entry0, sizeof entry) == 0 &&
                memcmp(&record, &record0, sizeof record) == 0);
done:
    robotstxt_content_signal_free(signal);
    robotstxt_preferences_free(p);
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

struct thread_job {
    const robotstxt_rules *rules;
    bool ok;
};

/* Rules are shared: each thread asks and fails on its own, and reads back
 * its own message. */
static void *thread_main(void *arg) {
    struct thread_job *job = arg;
    static const char want[] = "not an RFC 9651 Dictionary";
    const uint8_t *msg = NULL;
    size_t len = 0, k;
    bool ok = true, found;
    int i;
    for (i = 0; i < 200; i++) {
        robotstxt_preferences *p = NULL, *out = NULL;
        robotstxt_usage usage = 0;
        ok &= robotstxt_rules_preferences(job->rules, TEXT("/blog/x"), &p) == ROBOTSTXT_STATUS_OK;
        ok &= robotstxt_preferences_get(p, TEXT("train-ai"), &usage) == ROBOTSTXT_STATUS_OK &&
              usage == ROBOTSTXT_USAGE_YES;
        ok &= robotstxt_preferences_with_header(p, TEXT("a=b c"), &out) == ROBOTSTXT_STATUS_INVALID_FIELD;
        robotstxt_preferences_free(p);
    }
    /* Not last_error(): its buffer is shared between threads. */
    ok &= robotstxt_last_error(&msg, &len) == ROBOTSTXT_STATUS_OK;
    ok &= len > strlen(want);
    for (found = false, k = 0; ok && !found && k + strlen(want) <= len; k++) {
        found = memcmp(msg + k, want, strlen(want)) == 0;
    }
    job->ok = ok && found;
    return NULL;
}

static bool test_threads(void) {
    robotstxt_robots *robots = parse(BODY);
    robotstxt_rules *rules = rules_for(robots, "ExampleBot");
    pthread_t threads[4];
    struct thread_job jobs[4];
    size_t i;
    bool ok = CHECK(rules != NULL);
    for (i = 0; ok && i < 4; i++) {
        jobs[i].rules = rules;
        jobs[i].ok = false;
        ok &= CHECK(pthread_create(&threads[i], NULL, thread_main, &jobs[i]) == 0);
        if (!ok) {
            break;
        }
    }
    while (i-- > 0) {
        pthread_join(threads[i], NULL);
        ok &= CHECK(jobs[i].ok);
    }
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

struct preference_test {
    const char *name;
    bool (*run)(void);
};

static const struct preference_test TESTS[] = {
    {"answer_for_a_url", test_answer_for_a_url},
    {"not_crawlable_states_nothing", test_not_crawlable_states_nothing},
    {"http_field", test_http_field},
    {"content_signal", test_content_signal},
    {"other_records", test_other_records},
    {"diagnostics_and_names", test_diagnostics_and_names},
    {"null_arguments", test_null_arguments},
    {"indexes_out_of_range", test_indexes_out_of_range},
    {"threads", test_threads},
};

void run_preference_tests(size_t *passed, size_t *failed) {
    size_t i;
    for (i = 0; i < sizeof TESTS / sizeof TESTS[0]; i++) {
        bool ok = TESTS[i].run();
        if (!ok) {
            fprintf(stderr, "FAIL preferences: %s\n", TESTS[i].name);
        }
        *(ok ? passed : failed) += 1;
    }
    printf("preferences: %zu cases\n", sizeof TESTS / sizeof TESTS[0]);
}
