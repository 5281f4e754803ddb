/* The cache, lease and pacer handles: results, every error path (NULL
 * handles and pointers, invalid URLs and hosts, invalid tokens, leases
 * stored twice or with another cache), outputs untouched on failure, and
 * 16 threads sharing one cache and one pacer. A lease used after it is
 * freed is the caller's bug and is not exercised. */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char BODY[] = "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n";

static robotstxt_cache *new_cache(void) {
    robotstxt_cache_options options = robotstxt_cache_options_default();
    robotstxt_cache *cache = NULL;
    if (!OK(robotstxt_cache_new(&options, &cache))) {
        return NULL;
    }
    return cache;
}

/* can_fetch on a handle; a failed call counts as disallowed. */
static bool can_fetch_rules(const robotstxt_rules *rules, const char *url) {
    bool allowed = false;
    if (!OK(robotstxt_rules_can_fetch(rules, TEXT(url), &allowed))) {
        return false;
    }
    return allowed;
}

static robotstxt_fetch fetch_of(uint16_t status, const char *body) {
    robotstxt_fetch f = {0};
    f.http_status = status;
    f.body.ptr = (const uint8_t *)body;
    f.body.len = body ? strlen(body) : 0;
    return f;
}

/* Looks up `url` for ExampleBot; false unless it succeeds with `kind`. */
static bool lookup_is(const robotstxt_cache *cache, const char *url, uint64_t now,
                      robotstxt_when_fetching when, robotstxt_lookup_kind kind,
                      robotstxt_lookup *out) {
    bool ok = OK(robotstxt_cache_lookup(cache, TEXT(url), TEXT("ExampleBot"), now, when, out));
    return ok && check_at(out->kind == kind, __FILE__, __LINE__, "%s: lookup kind %u, want %u",
                          url, (unsigned)out->kind, (unsigned)kind);
}

static bool test_cache_options_and_new(void) {
    robotstxt_cache_options o = robotstxt_cache_options_default();
    robotstxt_freshness_policy p = robotstxt_freshness_policy_default();
    robotstxt_cache *cache = (robotstxt_cache *)&o; /* a pointer no call may write */
    robotstxt_cache *const before = cache;
    bool ok = CHECK(o.capacity == 10000 && o.lease_ms == 60000);
    ok &= CHECK(o.policy.fresh_for_ms == p.fresh_for_ms && o.policy.retry_ms == p.retry_ms &&
                o.policy.after_limit == p.after_limit && o.policy.access == p.access &&
                o.policy.options.parse_limit == p.options.parse_limit);
    ok &= CHECK(ROBOTSTXT_STATUS_INVALID_URL == 8 && ROBOTSTXT_STATUS_INVALID_HOST == 9 &&
                ROBOTSTXT_STATUS_INVALID_LEASE == 10);
    ok &= CHECK(strcmp(robotstxt_status_message(ROBOTSTXT_STATUS_INVALID_LEASE),
                       "unknown status") != 0);
    ok &= CHECK_STATUS(robotstxt_cache_new(NULL, &cache), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_new(&o, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    o.policy.after_limit = 2;
    ok &= CHECK_STATUS(robotstxt_cache_new(&o, &cache), ROBOTSTXT_STATUS_INVALID_OPTION);
    o.policy.after_limit = ROBOTSTXT_AFTER_LIMIT_KEEP_COPY;
    o.policy.access = 7;
    ok &= CHECK_STATUS(robotstxt_cache_new(&o, &cache), ROBOTSTXT_STATUS_INVALID_OPTION);
    o.policy.access = ROBOTSTXT_ACCESS_CAREFUL;
    o.policy.options.parse_limit = 0;
    ok &= CHECK_STATUS(robotstxt_cache_new(&o, &cache), ROBOTSTXT_STATUS_PARSE_LIMIT);
    ok &= CHECK(cache == before);
    /* A capacity of 0 is taken as 1. */
    o = robotstxt_cache_options_default();
    o.capacity = 0;
    ok &= OK(robotstxt_cache_new(&o, &cache));
    robotstxt_cache_free(cache);
    return ok;
}

static bool test_cache_lookup_errors(void) {
    robotstxt_cache *cache = new_cache();
    robotstxt_lookup l, untouched;
    robotstxt_cache_counters stats;
    size_t len = 99;
    bool ok = cache != NULL;
    const char *bad_urls[] = {"/relative", "ftp://a.test/", "https:///x", "http://a.test:8a/",
                              "a.test/x"};
    size_t i;
    memset(&l, 0x5A, sizeof l);
    untouched = l;
    ok &= CHECK_STATUS(robotstxt_cache_lookup(NULL, TEXT("https://a.test/"), TEXT("ExampleBot"),
                                              0, ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, TEXT("https://a.test/"), TEXT("ExampleBot"),
                                              0, ROBOTSTXT_WHEN_FETCHING_WAIT, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, NULL, 5, TEXT("ExampleBot"), 0,
                                              ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, TEXT("https://a.test/"), NULL, 3, 0,
                                              ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, NULL, 0, TEXT("ExampleBot"), 0,
                                              ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                       ROBOTSTXT_STATUS_INVALID_URL);
    for (i = 0; i < sizeof bad_urls / sizeof bad_urls[0]; i++) {
        ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, TEXT(bad_urls[i]), TEXT("ExampleBot"), 0,
                                                  ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                           ROBOTSTXT_STATUS_INVALID_URL);
        ok &= check_at(strstr(last_error(), bad_urls[i]) != NULL, __FILE__, __LINE__,
                       "the message names the URL: %s", last_error());
    }
    /* A bad token or enumeration hands out nothing: no lease is taken. */
    ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, TEXT("https://a.test/"),
                                              TEXT("ExampleBot/1.0"), 0,
                                              ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK(strstr(last_error(), "ExampleBot/1.0") != NULL);
    ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, TEXT("https://a.test/"), NULL, 0, 0,
                                              ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, TEXT("https://a.test/"), TEXT("ExampleBot"),
                                              0, 2, &l),
                       ROBOTSTXT_STATUS_INVALID_OPTION);
    ok &= CHECK(memcmp(&l, &untouched, sizeof l) == 0);
    ok &= OK(robotstxt_cache_stats(cache, &stats));
    ok &= OK(robotstxt_cache_len(cache, &len));
    ok &= CHECK(stats.fetches == 0 && stats.misses == 0 && len == 0);
    /* The others' NULL checks, and their outputs. */
    ok &= CHECK_STATUS(robotstxt_cache_stats(NULL, &stats), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_stats(cache, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_len(NULL, &len), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_len(cache, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_remove(NULL, TEXT("https://a.test/"), NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_remove(cache, TEXT("/relative"), NULL),
                       ROBOTSTXT_STATUS_INVALID_URL);
    robotstxt_cache_free(cache);
    return ok;
}

/* One lease from lookup to free: accessors, store, and every misuse. */
static bool test_lease_lifecycle(void) {
    robotstxt_cache *cache = new_cache(), *other = new_cache();
    robotstxt_lookup l, again;
    robotstxt_fetch f = fetch_of(200, BODY), broken = fetch_of(200, NULL);
    robotstxt_disposition d = 99;
    robotstxt_validators v;
    const uint8_t *text = NULL;
    size_t len = 0;
    bool ok = cache != NULL && other != NULL, removed = false, allowed = true;
    ok = ok && lookup_is(cache, "HTTPS://User@A.Test:443/private/x?q", 0,
                         ROBOTSTXT_WHEN_FETCHING_WAIT, ROBOTSTXT_LOOKUP_FETCH, &l);
    if (!ok) {
        robotstxt_cache_free(cache);
        robotstxt_cache_free(other);
        return false;
    }
    ok &= CHECK(l.rules == NULL && l.lease != NULL && l.until_ms == 0);
    ok &= OK(robotstxt_lease_origin(l.lease, &text, &len));
    ok &= CHECK(text_is(text, len, "https://a.test"));
    ok &= OK(robotstxt_lease_robots_url(l.lease, &text, &len));
    ok &= CHECK(text_is(text, len, "https://a.test/robots.txt"));
    ok &= OK(robotstxt_lease_validators(l.lease, &v));
    ok &= CHECK(!v.has_etag && v.etag.ptr == NULL && !v.has_last_modified &&
                v.last_modified.len == 0);
    ok &= CHECK_STATUS(robotstxt_lease_origin(NULL, &text, &len), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_lease_origin(l.lease, NULL, &len),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_lease_robots_url(l.lease, &text, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_lease_validators(NULL, &v), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_lease_validators(l.lease, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);

    /* Mistakes that do not end the lease. */
    broken.body.len = 5;
    ok &= CHECK_STATUS(robotstxt_cache_store(NULL, l.lease, 0, &f, &d),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_store(cache, NULL, 0, &f, &d),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_store(cache, l.lease, 0, NULL, &d),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_store(cache, l.lease, 0, &broken, &d),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_store(other, l.lease, 0, &f, &d),
                       ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK(strstr(last_error(), "another cache") != NULL);
    ok &= CHECK_STATUS(robotstxt_cache_abandon(other, l.lease), ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK_STATUS(robotstxt_cache_abandon(NULL, l.lease), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_cache_abandon(cache, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(d == 99);
    /* Meanwhile the fetch is still out: others wait. */
    ok &= lookup_is(cache, "https://a.test/", 1, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_WAIT, &again);
    ok &= CHECK(again.until_ms == 60000 && again.rules == NULL && again.lease == NULL);

    /* The store, then a second one and an abandon: both refused. */
    ok &= OK(robotstxt_cache_store(cache, l.lease, 2, &f, &d));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_FOLLOW_RULES);
    d = 99;
    ok &= CHECK_STATUS(robotstxt_cache_store(cache, l.lease, 3, &f, &d),
                       ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK(d == 99 && strstr(last_error(), "already stored or abandoned") != NULL);
    ok &= CHECK_STATUS(robotstxt_cache_abandon(cache, l.lease), ROBOTSTXT_STATUS_INVALID_LEASE);
    /* The accessors still work until the lease is freed. */
    ok &= OK(robotstxt_lease_origin(l.lease, &text, &len));
    ok &= CHECK(text_is(text, len, "https://a.test"));
    robotstxt_lease_free(l.lease);

    ok &= lookup_is(cache, "https://a.test/private/x", 4, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_READY, &l);
    ok &= CHECK(l.answer == ROBOTSTXT_ANSWER_RULES && !l.stale && l.lease == NULL);
    ok &= OK(robotstxt_rules_can_fetch(l.rules, TEXT("https://a.test/private/x"), &allowed));
    ok &= CHECK(!allowed);
    robotstxt_rules_free(l.rules);

    ok &= OK(robotstxt_cache_remove(cache, TEXT("https://A.TEST/other"), &removed));
    ok &= CHECK(removed);
    ok &= OK(robotstxt_cache_remove(cache, TEXT("https://a.test/"), &removed));
    ok &= CHECK(!removed);
    ok &= OK(robotstxt_cache_remove(cache, TEXT("https://a.test/"), NULL));
    robotstxt_cache_free(cache);
    robotstxt_cache_free(other);
    return ok;
}

/* Freeing a lease without an outcome abandons it; a lease may outlive its
 * cache; abandon hands the fetch on. */
static bool test_lease_free_and_abandon(void) {
    robotstxt_cache *cache = new_cache();
    robotstxt_lookup l, m;
    robotstxt_fetch f = fetch_of(200, BODY);
    robotstxt_cache_counters stats;
    bool ok = cache != NULL;
    ok = ok && lookup_is(cache, "https://a.test/", 0, ROBOTSTXT_WHEN_FETCHING_WAIT,
                         ROBOTSTXT_LOOKUP_FETCH, &l);
    if (!ok) {
        robotstxt_cache_free(cache);
        return false;
    }
    robotstxt_lease_free(l.lease); /* neither stored nor abandoned */
    ok &= lookup_is(cache, "https://a.test/", 1, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_FETCH, &l);
    ok &= OK(robotstxt_cache_abandon(cache, l.lease));
    ok &= CHECK_STATUS(robotstxt_cache_abandon(cache, l.lease), ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK_STATUS(robotstxt_cache_store(cache, l.lease, 2, &f, NULL),
                       ROBOTSTXT_STATUS_INVALID_LEASE);
    robotstxt_lease_free(l.lease);
    ok &= lookup_is(cache, "https://a.test/", 2, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_FETCH, &l);
    /* While it is out: disallow-all on request, instead of a wait. */
    ok &= lookup_is(cache, "https://a.test/", 3, ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL,
                    ROBOTSTXT_LOOKUP_READY, &m);
    ok &= CHECK(m.answer == ROBOTSTXT_ANSWER_DISALLOW_ALL && !m.stale && m.rules != NULL);
    ok &= CHECK(!can_fetch_rules(m.rules, "/"));
    robotstxt_rules_free(m.rules);
    ok &= OK(robotstxt_cache_stats(cache, &stats));
    ok &= CHECK(stats.fetches == 3 && stats.misses == 4 && stats.entries == 1);
    /* The cache goes first: the lease stays usable for reading and freeing. */
    robotstxt_cache_free(cache);
    ok &= OK(robotstxt_lease_validators(l.lease, &(robotstxt_validators){0}));
    robotstxt_lease_free(l.lease);
    return ok;
}

/* Blanket answers become rules; validators come back with the lease. */
static bool test_cache_blanket_answers_and_validators(void) {
    robotstxt_cache_options o = robotstxt_cache_options_default();
    robotstxt_cache *cache = NULL;
    robotstxt_lookup l;
    robotstxt_fetch gone = fetch_of(404, NULL), tagged = fetch_of(200, BODY);
    robotstxt_validators v;
    bool ok;
    o.policy.options.profile = ROBOTSTXT_PROFILE_GOOGLE; /* any crawler name */
    ok = OK(robotstxt_cache_new(&o, &cache));
    ok = ok && OK(robotstxt_cache_lookup(cache, TEXT("http://b.test/x"),
                                         TEXT("Mozilla/5.0 (compatible; B/1)"), 0,
                                         ROBOTSTXT_WHEN_FETCHING_WAIT, &l));
    ok = ok && CHECK(l.kind == ROBOTSTXT_LOOKUP_FETCH);
    if (!ok) {
        robotstxt_cache_free(cache);
        return false;
    }
    ok &= OK(robotstxt_cache_store(cache, l.lease, 0, &gone, NULL));
    robotstxt_lease_free(l.lease);
    ok &= lookup_is(cache, "http://b.test/y", 1, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_READY, &l);
    ok &= CHECK(l.answer == ROBOTSTXT_ANSWER_ALLOW_ALL && can_fetch_rules(l.rules, "/private/"));
    robotstxt_rules_free(l.rules);

    tagged.has_etag = true;
    tagged.etag.ptr = (const uint8_t *)"\"v1\"";
    tagged.etag.len = 4;
    ok &= lookup_is(cache, "http://c.test/", 0, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_FETCH, &l);
    ok &= OK(robotstxt_cache_store(cache, l.lease, 0, &tagged, NULL));
    robotstxt_lease_free(l.lease);
    ok &= lookup_is(cache, "http://c.test/", 86400000, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_FETCH, &l);
    ok &= OK(robotstxt_lease_validators(l.lease, &v));
    ok &= CHECK(v.has_etag && text_is(v.etag.ptr, v.etag.len, "\"v1\"") && !v.has_last_modified);
    robotstxt_lease_free(l.lease);
    robotstxt_cache_free(cache);
    return ok;
}

static bool test_pacer_errors(void) {
    robotstxt_pacer_options o = robotstxt_pacer_options_default();
    robotstxt_pacer *pacer = NULL, *const unset = (robotstxt_pacer *)&o;
    robotstxt_robots *robots = NULL;
    robotstxt_rules *rules = NULL;
    uint64_t start = 7, gap = 7;
    bool has = true, ok;
    char long_host[400];
    memset(long_host, 'a', sizeof long_host - 1);
    long_host[sizeof long_host - 1] = '\0';
    ok = CHECK(o.floor_ms == 1000 && o.backoff_cap_ms == 600000 && o.capacity == 100000);
    pacer = unset;
    ok &= CHECK_STATUS(robotstxt_pacer_new(NULL, &pacer), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_new(&o, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(pacer == unset);
    ok &= OK(robotstxt_pacer_new(&o, &pacer));

    ok &= CHECK_STATUS(robotstxt_pacer_reserve(NULL, TEXT("a.test"), 0, &start, &has),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, NULL, 4, 0, &start, &has),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, TEXT("a.test"), 0, NULL, &has),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, TEXT("a.test"), 0, &start, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, NULL, 0, 0, &start, &has),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, TEXT(long_host), 0, &start, &has),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK(strstr(last_error(), "too long") != NULL);
    ok &= CHECK(start == 7 && has);
    ok &= CHECK_STATUS(robotstxt_pacer_set_enabled(pacer, TEXT(""), false),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK_STATUS(robotstxt_pacer_gap_ms(pacer, TEXT(""), &gap),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK_STATUS(robotstxt_pacer_gap_ms(pacer, TEXT("a.test"), NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_gap_ms(NULL, TEXT("a.test"), &gap),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(gap == 7);
    ok &= CHECK_STATUS(robotstxt_pacer_record(pacer, TEXT(""), 0, 503, false, 0),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK_STATUS(robotstxt_pacer_record(NULL, TEXT("a.test"), 0, 503, false, 0),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_set_enabled(NULL, TEXT("a.test"), true),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);

    /* Delays and rates out of range. */
    ok &= CHECK_STATUS(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), true, -1.0, false, 0, 0),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "crawl_delay_s") != NULL);
    ok &= CHECK_STATUS(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), true, NAN, false, 0,
                                                 0),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), true, INFINITY, false, 0,
                                                 0),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), false, 0, true, 0, 10),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), false, 0, true, 1, 0),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_set_delay(pacer, TEXT(""), false, 0, false, 0, 0),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK_STATUS(robotstxt_pacer_set_delay(NULL, TEXT("a.test"), false, 0, false, 0, 0),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    /* A flag off means the value is not read: NaN is fine there. */
    ok &= OK(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), false, NAN, false, 0, 0));
    ok &= OK(robotstxt_pacer_gap_ms(pacer, TEXT("a.test"), &gap));
    ok &= CHECK(gap == 1000);
    /* Longer than a year is kept as a year. */
    ok &= OK(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), true, 1e300, false, 0, 0));
    ok &= OK(robotstxt_pacer_gap_ms(pacer, TEXT("a.test"), &gap));
    ok &= CHECK(gap == 365ull * 24 * 3600 * 1000);
    ok &= OK(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), true, 0.25, true, 1, 2));
    ok &= OK(robotstxt_pacer_gap_ms(pacer, TEXT("A.TEST"), &gap));
    ok &= CHECK(gap == 2000);

    ok &= OK(robotstxt_robots_parse(TEXT("User-agent: *\nCrawl-delay: 3\n"), &robots));
    ok &= OK(robotstxt_robots_rules_for(robots, TEXT("ExampleBot"), &rules));
    ok &= CHECK_STATUS(robotstxt_pacer_set_rules(pacer, TEXT("a.test"), NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_set_rules(NULL, TEXT("a.test"), rules),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_set_rules(pacer, TEXT(""), rules),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= OK(robotstxt_pacer_set_rules(pacer, TEXT("a.test"), rules));
    robotstxt_rules_free(rules); /* the pacer keeps no reference */
    robotstxt_robots_free(robots);
    ok &= OK(robotstxt_pacer_gap_ms(pacer, TEXT("a.test"), &gap));
    ok &= CHECK(gap == 3000);

    /* The kill switch: no slot, start 0. */
    ok &= OK(robotstxt_pacer_set_enabled(pacer, TEXT("a.test"), false));
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("a.test"), 5, &start, &has));
    ok &= CHECK(!has && start == 0);
    ok &= OK(robotstxt_pacer_set_enabled(pacer, TEXT("a.test"), true));
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("a.test"), 5, &start, &has));
    ok &= CHECK(has && start == 5);
    /* A 503 with Retry-After, and a network error (status 0). */
    ok &= OK(robotstxt_pacer_record(pacer, TEXT("a.test"), 6, 503, true, 60000));
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("a.test"), 7, &start, &has));
    ok &= CHECK(has && start == 60006);
    ok &= OK(robotstxt_pacer_record(pacer, TEXT("a.test"), 8, 0, false, 0));
    ok &= OK(robotstxt_pacer_gap_ms(pacer, TEXT("a.test"), &gap));
    ok &= CHECK(gap == 6000);
    robotstxt_pacer_free(pacer);
    return ok;
}

static bool test_free_null_handles(void) {
    robotstxt_cache_free(NULL);
    robotstxt_lease_free(NULL);
    robotstxt_pacer_free(NULL);
    return true;
}

/* --- 16 threads, one cache, one pacer --- */

enum { THREADS = 16, ORIGINS = 20, ROUNDS = 3, PATHS = 3 };
static const uint64_t NOW = 1000;
static const char *const PATH[PATHS] = {"/", "/private/x", "/public"};

/* Origin i answers, by i % 4: rules with a crawl delay; rules that shut
 * ExampleBot out; 404 (allow all); 503 (disallow all, retry later). Every
 * fifth origin's first lease is abandoned, so the fetch passes on. */
static robotstxt_fetch origin_fetch(int i) {
    static const char *const bodies[] = {
        "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n",
        "User-agent: ExampleBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    };
    switch (i % 4) {
    case 0:
    case 1:
        return fetch_of(200, bodies[i % 4]);
    case 2:
        return fetch_of(404, NULL);
    default:
        return fetch_of(503, NULL);
    }
}

static void origin_url(int i, const char *path, char *out, size_t size) {
    snprintf(out, size, "http://o%d.test:8080%s", i, path);
}

static void origin_host(int i, char *out, size_t size) {
    snprintf(out, size, "o%d.test", i);
}

struct shared {
    robotstxt_cache *cache;
    robotstxt_pacer *pacer;
    pthread_mutex_t lock;
    bool abandoned[ORIGINS];
    uint64_t starts[ORIGINS][THREADS * ROUNDS];
    size_t start_count[ORIGINS];
    /* The single-threaded answers. */
    bool want[ORIGINS][PATHS];
    robotstxt_answer want_answer[ORIGINS];
};

struct worker {
    struct shared *shared;
    int id;
    bool ok;
};

/* Asks for origin i until the answer is a stored copy, doing the fetch
 * when handed one. Writes the rules (the caller frees them). */
static bool ask(struct shared *sh, int i, robotstxt_when_fetching when,
                robotstxt_lookup *answer) {
    char url[64];
    origin_url(i, PATH[1], url, sizeof url);
    for (;;) {
        robotstxt_lookup l;
        robotstxt_fetch f = origin_fetch(i);
        bool give_up = false;
        if (!OK(robotstxt_cache_lookup(sh->cache, TEXT(url), TEXT("ExampleBot"), NOW, when, &l))) {
            return false;
        }
        switch (l.kind) {
        case ROBOTSTXT_LOOKUP_READY:
            if (l.answer == ROBOTSTXT_ANSWER_DISALLOW_ALL && !l.stale) {
                /* Disallow-all while another thread fetches: nothing may
                 * be allowed, then ask again. */
                size_t p;
                bool ok = true;
                for (p = 0; p < PATHS; p++) {
                    ok &= CHECK(!can_fetch_rules(l.rules, PATH[p]));
                }
                robotstxt_rules_free(l.rules);
                if (!ok) {
                    return false;
                }
                sched_yield();
                continue;
            }
            *answer = l;
            return true;
        case ROBOTSTXT_LOOKUP_FETCH:
            pthread_mutex_lock(&sh->lock);
            if (i % 5 == 0 && !sh->abandoned[i]) {
                sh->abandoned[i] = give_up = true;
            }
            pthread_mutex_unlock(&sh->lock);
            if (give_up) {
                /* Half of them abandon outright, half just free the lease. */
                bool ok = (i / 5) % 2 == 1 || OK(robotstxt_cache_abandon(sh->cache, l.lease));
                robotstxt_lease_free(l.lease);
                if (!ok) {
                    return false;
                }
                continue;
            }
            if (!OK(robotstxt_cache_store(sh->cache, l.lease, NOW, &f, NULL))) {
                robotstxt_lease_free(l.lease);
                return false;
            }
            robotstxt_lease_free(l.lease);
            continue;
        default:
            sched_yield();
            continue;
        }
    }
}

/* Asks, checks the answer against the single-threaded one, then paces. */
static bool visit(struct shared *sh, int i, robotstxt_when_fetching when) {
    robotstxt_lookup l;
    char host[32];
    uint64_t start = 0;
    bool has = false, ok;
    size_t p;
    if (!ask(sh, i, when, &l)) {
        return false;
    }
    ok = check_at(l.answer == sh->want_answer[i], __FILE__, __LINE__,
                  "origin %d: answer %u, want %u", i, (unsigned)l.answer,
                  (unsigned)sh->want_answer[i]);
    for (p = 0; p < PATHS; p++) {
        bool allowed = can_fetch_rules(l.rules, PATH[p]);
        ok &= check_at(allowed == sh->want[i][p], __FILE__, __LINE__,
                       "origin %d %s: allowed %d, want %d", i, PATH[p], allowed, sh->want[i][p]);
    }
    origin_host(i, host, sizeof host);
    ok &= OK(robotstxt_pacer_set_rules(sh->pacer, TEXT(host), l.rules));
    ok &= OK(robotstxt_pacer_reserve(sh->pacer, TEXT(host), NOW, &start, &has));
    ok &= CHECK(has);
    pthread_mutex_lock(&sh->lock);
    sh->starts[i][sh->start_count[i]++] = start;
    pthread_mutex_unlock(&sh->lock);
    robotstxt_rules_free(l.rules);
    return ok;
}

static void *worker_main(void *arg) {
    struct worker *w = arg;
    int round, k;
    robotstxt_when_fetching when =
        w->id % 2 ? ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL : ROBOTSTXT_WHEN_FETCHING_WAIT;
    w->ok = true;
    for (round = 0; round < ROUNDS; round++) {
        for (k = 0; k < ORIGINS; k++) {
            /* Each thread walks the origins from its own place. */
            w->ok &= visit(w->shared, (k + w->id * 7) % ORIGINS, when);
        }
    }
    return NULL;
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static bool test_threads_share_cache_and_pacer(void) {
    static struct shared sh;
    struct worker workers[THREADS];
    pthread_t threads[THREADS];
    robotstxt_cache_counters stats;
    robotstxt_pacer_options po = robotstxt_pacer_options_default();
    robotstxt_pacer *alone = NULL;
    bool ok = true;
    int i, t, abandoned = 0;
    size_t k, p;
    memset(&sh, 0, sizeof sh);
    memset(workers, 0, sizeof workers);
    pthread_mutex_init(&sh.lock, NULL);

    /* Single-threaded first: the answers and the pace each origin gets. */
    sh.cache = new_cache();
    ok &= OK(robotstxt_pacer_new(&po, &alone));
    for (i = 0; ok && i < ORIGINS; i++) {
        robotstxt_lookup l;
        char host[32];
        ok &= ask(&sh, i, ROBOTSTXT_WHEN_FETCHING_WAIT, &l);
        if (!ok) {
            break;
        }
        sh.want_answer[i] = l.answer;
        for (p = 0; p < PATHS; p++) {
            sh.want[i][p] = can_fetch_rules(l.rules, PATH[p]);
        }
        origin_host(i, host, sizeof host);
        ok &= OK(robotstxt_pacer_set_rules(alone, TEXT(host), l.rules));
        for (k = 0; k < THREADS * ROUNDS; k++) {
            bool has;
            ok &= OK(robotstxt_pacer_reserve(alone, TEXT(host), NOW, &sh.starts[i][k], &has));
        }
        robotstxt_rules_free(l.rules);
    }
    /* The answers are the ones each outcome should give. */
    ok &= CHECK(!sh.want[0][1] && sh.want[0][2] && !sh.want[1][0] && sh.want[2][1] &&
                !sh.want[3][0] && sh.want_answer[2] == ROBOTSTXT_ANSWER_ALLOW_ALL &&
                sh.want_answer[3] == ROBOTSTXT_ANSWER_DISALLOW_ALL);
    robotstxt_cache_free(sh.cache);
    robotstxt_pacer_free(alone);
    if (!ok) {
        pthread_mutex_destroy(&sh.lock);
        return false;
    }
    {
        /* Keep the single-threaded starts to compare with. */
        static uint64_t alone_starts[ORIGINS][THREADS * ROUNDS];
        memcpy(alone_starts, sh.starts, sizeof alone_starts);
        memset(sh.starts, 0, sizeof sh.starts);
        memset(sh.abandoned, 0, sizeof sh.abandoned);

        sh.cache = new_cache();
        ok &= OK(robotstxt_pacer_new(&po, &sh.pacer));
        for (t = 0; ok && t < THREADS; t++) {
            workers[t].shared = &sh;
            workers[t].id = t;
            workers[t].ok = false;
            ok &= CHECK(pthread_create(&threads[t], NULL, worker_main, &workers[t]) == 0);
        }
        for (t = 0; t < THREADS && workers[t].shared == &sh; t++) {
            ok &= CHECK(pthread_join(threads[t], NULL) == 0);
            ok &= check_at(workers[t].ok, __FILE__, __LINE__, "thread %d failed", t);
        }
        /* Each origin fetched once (plus the abandoned first tries), and
         * every host's slots are the single-threaded ones: in order, one
         * gap apart, none shared. */
        for (i = 0; i < ORIGINS; i++) {
            abandoned += i % 5 == 0;
            ok &= check_at(sh.start_count[i] == THREADS * ROUNDS, __FILE__, __LINE__,
                           "origin %d: %zu starts", i, sh.start_count[i]);
            qsort(sh.starts[i], sh.start_count[i], sizeof sh.starts[i][0], compare_u64);
            ok &= check_at(memcmp(sh.starts[i], alone_starts[i], sizeof alone_starts[i]) == 0,
                           __FILE__, __LINE__, "origin %d: the slots differ from one thread's",
                           i);
        }
        ok &= OK(robotstxt_cache_stats(sh.cache, &stats));
        ok &= check_at(stats.fetches == (uint64_t)(ORIGINS + abandoned) &&
                           stats.entries == ORIGINS && stats.evictions == 0,
                       __FILE__, __LINE__, "fetches %llu, want %d; entries %llu",
                       (unsigned long long)stats.fetches, ORIGINS + abandoned,
                       (unsigned long long)stats.entries);
        robotstxt_cache_free(sh.cache);
        robotstxt_pacer_free(sh.pacer);
    }
    pthread_mutex_destroy(&sh.lock);
    return ok;
}

struct cache_test {
    const char *name;
    bool (*run)(void);
};

static const struct cache_test TESTS[] = {
    {"cache_options_and_new", test_cache_options_and_new},
    {"cache_lookup_errors", test_cache_lookup_errors},
    {"lease_lifecycle", test_lease_lifecycle},
    {"lease_free_and_abandon", test_lease_free_and_abandon},
    {"cache_blanket_answers_and_validators", test_cache_blanket_answers_and_validators},
    {"pacer_errors", test_pacer_errors},
    {"free_null_handles", test_free_null_handles},
    {"threads_share_cache_and_pacer", test_threads_share_cache_and_pacer},
};

void run_cache_tests(size_t *passed, size_t *failed) {
    size_t i;
    for (i = 0; i < sizeof TESTS / sizeof TESTS[0]; i++) {
        bool ok = TESTS[i].run();
        if (!ok) {
            fprintf(stderr, "FAIL cache: %s\n", TESTS[i].name);
        }
        *(ok ? passed : failed) += 1;
    }
    printf("cache and pacer: %zu cases\n", sizeof TESTS / sizeof TESTS[0]);
}
