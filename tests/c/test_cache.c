/* The cache, lease, pacer and ticket handles: results, every error path
 * (NULL handles and pointers, invalid URLs and hosts, invalid tokens,
 * leases stored twice, with another cache or after a newer copy, tickets
 * spent or of another pacer, a full pacer), outputs untouched on failure,
 * blanket answers and their causes, the pacer's hold on tickets already
 * handed out (backoff, Retry-After, kill switch, in-flight limit) with an
 * injected clock, and 16 threads sharing one cache and one pacer. A handle
 * used after it is freed is the caller's bug and is not exercised. */
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
    robotstxt_ticket *ticket = NULL, *const unset_ticket = (robotstxt_ticket *)&o;
    robotstxt_robots *robots = NULL;
    robotstxt_rules *rules = NULL;
    robotstxt_confirm c, untouched;
    uint64_t gap = 7;
    size_t count = 7;
    bool ok;
    char long_host[400];
    memset(long_host, 'a', sizeof long_host - 1);
    long_host[sizeof long_host - 1] = '\0';
    memset(&c, 0x5A, sizeof c);
    untouched = c;
    ok = CHECK(o.floor_ms == 1000 && o.backoff_cap_ms == 600000 && o.capacity == 100000 &&
               o.max_in_flight == 1 && o.in_flight_timeout_ms == 120000);
    ok &= CHECK(ROBOTSTXT_STATUS_INVALID_TICKET == 11 && ROBOTSTXT_STATUS_PACER_FULL == 12);
    ok &= CHECK(strcmp(robotstxt_status_message(ROBOTSTXT_STATUS_INVALID_TICKET),
                       "unknown status") != 0 &&
                strcmp(robotstxt_status_message(ROBOTSTXT_STATUS_PACER_FULL), "unknown status") !=
                    0);
    pacer = unset;
    ok &= CHECK_STATUS(robotstxt_pacer_new(NULL, &pacer), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_new(&o, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(pacer == unset);
    ok &= OK(robotstxt_pacer_new(&o, &pacer));

    ticket = unset_ticket;
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(NULL, TEXT("a.test"), 0, &ticket),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, NULL, 4, 0, &ticket),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, TEXT("a.test"), 0, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, NULL, 0, 0, &ticket),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, TEXT(long_host), 0, &ticket),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK(strstr(last_error(), "too long") != NULL);
    ok &= CHECK(ticket == unset_ticket);
    ok &= CHECK(robotstxt_ticket_start(NULL) == 0);
    robotstxt_ticket_free(NULL);

    /* Confirm, cancel and in_flight: NULL handles and outputs. */
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("n.test"), 0, &ticket));
    ok &= CHECK(ticket != NULL && ticket != unset_ticket && robotstxt_ticket_start(ticket) == 0);
    ok &= CHECK_STATUS(robotstxt_pacer_confirm(NULL, ticket, 0, &c),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_confirm(pacer, NULL, 0, &c),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_confirm(pacer, ticket, 0, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(memcmp(&c, &untouched, sizeof c) == 0);
    ok &= CHECK_STATUS(robotstxt_pacer_cancel(NULL, ticket), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_cancel(pacer, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_in_flight(NULL, TEXT("n.test"), 0, &count),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_in_flight(pacer, TEXT("n.test"), 0, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_in_flight(pacer, TEXT(""), 0, &count),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK(count == 7);
    /* The ticket is still good after all that: none of it spent it. */
    ok &= OK(robotstxt_pacer_confirm(pacer, ticket, 0, &c));
    ok &= CHECK(c.kind == ROBOTSTXT_CONFIRM_GO && c.until_ms == 0 && !c.busy);
    ok &= OK(robotstxt_pacer_in_flight(pacer, TEXT("N.TEST"), 0, &count));
    ok &= CHECK(count == 1);
    /* Spent: confirming again is refused, cancelling does nothing. */
    c = untouched;
    ok &= CHECK_STATUS(robotstxt_pacer_confirm(pacer, ticket, 1, &c),
                       ROBOTSTXT_STATUS_INVALID_TICKET);
    ok &= CHECK(strstr(last_error(), "already") != NULL);
    ok &= CHECK(memcmp(&c, &untouched, sizeof c) == 0);
    ok &= OK(robotstxt_pacer_cancel(pacer, ticket));
    robotstxt_ticket_free(ticket);
    ticket = NULL;

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

    /* The kill switch: no ticket. */
    ok &= OK(robotstxt_pacer_set_enabled(pacer, TEXT("a.test"), false));
    ticket = unset_ticket;
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("a.test"), 5, &ticket));
    ok &= CHECK(ticket == NULL);
    ok &= OK(robotstxt_pacer_set_enabled(pacer, TEXT("a.test"), true));
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("a.test"), 5, &ticket));
    ok &= CHECK(ticket != NULL && robotstxt_ticket_start(ticket) == 5);
    ok = ok && OK(robotstxt_pacer_confirm(pacer, ticket, 5, &c));
    ok &= CHECK(c.kind == ROBOTSTXT_CONFIRM_GO);
    robotstxt_ticket_free(ticket);
    /* A 503 with Retry-After, and a network error (status 0). */
    ok &= OK(robotstxt_pacer_record(pacer, TEXT("a.test"), 6, 503, true, 60000));
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("a.test"), 7, &ticket));
    ok &= CHECK(ticket != NULL && robotstxt_ticket_start(ticket) == 60006);
    robotstxt_ticket_free(ticket); /* unconfirmed: its slot stays used */
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

/* --- leases: stored or abandoned once, with their own cache --- */

static robotstxt_cache *new_cache_with_lease(uint64_t lease_ms) {
    robotstxt_cache_options options = robotstxt_cache_options_default();
    robotstxt_cache *cache = NULL;
    options.lease_ms = lease_ms;
    if (!OK(robotstxt_cache_new(&options, &cache))) {
        return NULL;
    }
    return cache;
}

static bool stats_are(const robotstxt_cache *cache, uint64_t fetches, uint64_t entries) {
    robotstxt_cache_counters stats;
    return OK(robotstxt_cache_stats(cache, &stats)) &&
           check_at(stats.fetches == fetches && stats.entries == entries, __FILE__, __LINE__,
                    "fetches %llu entries %llu, want %llu and %llu",
                    (unsigned long long)stats.fetches, (unsigned long long)stats.entries,
                    (unsigned long long)fetches, (unsigned long long)entries);
}

/* A lease given to another cache is refused there, changes nothing there
 * or in its own cache, and is then stored with its own cache. */
static bool test_lease_of_another_cache(void) {
    robotstxt_cache *mine = new_cache(), *other = new_cache();
    robotstxt_lookup l, m;
    robotstxt_fetch f = fetch_of(200, BODY), gone = fetch_of(404, NULL);
    robotstxt_disposition d = 99;
    bool ok = mine != NULL && other != NULL;
    ok = ok && lookup_is(mine, "https://a.test/private/x", 0, ROBOTSTXT_WHEN_FETCHING_WAIT,
                         ROBOTSTXT_LOOKUP_FETCH, &l);
    if (!ok) {
        robotstxt_cache_free(mine);
        robotstxt_cache_free(other);
        return false;
    }
    ok &= CHECK_STATUS(robotstxt_cache_store(other, l.lease, 1, &gone, &d),
                       ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK(d == 99 && strstr(last_error(), "another cache") != NULL);
    ok &= CHECK_STATUS(robotstxt_cache_abandon(other, l.lease), ROBOTSTXT_STATUS_INVALID_LEASE);
    /* Nothing landed in the other cache: it hands out its own fetch. */
    ok &= stats_are(other, 0, 0);
    ok &= lookup_is(other, "https://a.test/private/x", 2, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_FETCH, &m);
    robotstxt_lease_free(m.lease);
    /* Its own cache still waits on it, then takes it. */
    ok &= lookup_is(mine, "https://a.test/", 3, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_WAIT, &m);
    ok &= CHECK(m.until_ms == 60000);
    ok &= OK(robotstxt_cache_store(mine, l.lease, 4, &f, &d));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_FOLLOW_RULES);
    robotstxt_lease_free(l.lease);
    ok &= lookup_is(mine, "https://a.test/private/x", 5, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_READY, &m);
    ok &= CHECK(m.answer == ROBOTSTXT_ANSWER_RULES && !can_fetch_rules(m.rules, "/private/x"));
    robotstxt_rules_free(m.rules);
    ok &= stats_are(mine, 1, 1);
    robotstxt_cache_free(mine);
    robotstxt_cache_free(other);
    return ok;
}

/* A lease that ran out, once a newer lease of its origin stored a copy,
 * is refused: the late 404 must not replace the newer rules. A lease that
 * ran out with no newer copy is still stored. */
static bool test_stale_lease_never_overwrites(void) {
    robotstxt_cache *cache = new_cache_with_lease(10000);
    robotstxt_lookup l1, l2, m;
    robotstxt_fetch rules = fetch_of(200, BODY), gone = fetch_of(404, NULL);
    robotstxt_disposition d = 99;
    bool ok = cache != NULL;
    ok = ok && lookup_is(cache, "https://a.test/private/x", 0, ROBOTSTXT_WHEN_FETCHING_WAIT,
                         ROBOTSTXT_LOOKUP_FETCH, &l1);
    if (!ok) {
        robotstxt_cache_free(cache);
        return false;
    }
    ok &= lookup_is(cache, "https://a.test/private/x", 11000, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_FETCH, &l2);
    if (ok) {
        ok &= OK(robotstxt_cache_store(cache, l2.lease, 12000, &rules, NULL));
        robotstxt_lease_free(l2.lease);
    }
    ok &= CHECK_STATUS(robotstxt_cache_store(cache, l1.lease, 13000, &gone, &d),
                       ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK(d == 99 && strstr(last_error(), "newer") != NULL);
    /* Refused for good: it is no lease any more. */
    ok &= CHECK_STATUS(robotstxt_cache_abandon(cache, l1.lease), ROBOTSTXT_STATUS_INVALID_LEASE);
    robotstxt_lease_free(l1.lease);
    ok &= lookup_is(cache, "https://a.test/private/x", 14000, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_READY, &m);
    ok &= CHECK(m.answer == ROBOTSTXT_ANSWER_RULES && !m.stale && !m.blanket.is_blanket &&
                !can_fetch_rules(m.rules, "/private/x"));
    robotstxt_rules_free(m.rules);
    ok &= stats_are(cache, 2, 1);

    /* Ran out, and nobody fetched since: the late answer is still news. */
    ok &= lookup_is(cache, "https://b.test/", 0, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_FETCH, &l1);
    ok &= OK(robotstxt_cache_store(cache, l1.lease, 50000, &gone, &d));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_ALLOW_ALL);
    robotstxt_lease_free(l1.lease);
    ok &= lookup_is(cache, "https://b.test/private/x", 50001, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_READY, &m);
    ok &= CHECK(m.answer == ROBOTSTXT_ANSWER_ALLOW_ALL);
    robotstxt_rules_free(m.rules);
    robotstxt_cache_free(cache);
    return ok;
}

/* A lease freed unfinished gives the fetch back at once, whether it was
 * never used, offered to another cache first, or read from; the lease
 * time need not pass. */
static bool test_freed_lease_frees_its_origin(void) {
    robotstxt_cache *cache = new_cache(), *other = new_cache();
    robotstxt_lookup l;
    robotstxt_fetch f = fetch_of(200, BODY);
    const uint8_t *text = NULL;
    size_t len = 0;
    bool ok = cache != NULL && other != NULL;
    ok = ok && lookup_is(cache, "https://a.test/", 0, ROBOTSTXT_WHEN_FETCHING_WAIT,
                         ROBOTSTXT_LOOKUP_FETCH, &l);
    if (!ok) {
        robotstxt_cache_free(cache);
        robotstxt_cache_free(other);
        return false;
    }
    robotstxt_lease_free(l.lease);
    ok &= lookup_is(cache, "https://a.test/", 0, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_FETCH, &l);
    ok &= CHECK_STATUS(robotstxt_cache_store(other, l.lease, 0, &f, NULL),
                       ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= OK(robotstxt_lease_robots_url(l.lease, &text, &len));
    robotstxt_lease_free(l.lease);
    ok &= lookup_is(cache, "https://a.test/", 1, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_FETCH, &l);
    /* A stored lease freed afterwards gives nothing back: the copy stays. */
    ok &= OK(robotstxt_cache_store(cache, l.lease, 2, &f, NULL));
    robotstxt_lease_free(l.lease);
    ok &= lookup_is(cache, "https://a.test/", 3, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_READY, &l);
    robotstxt_rules_free(l.rules);
    ok &= stats_are(cache, 3, 1);
    robotstxt_cache_free(cache);
    robotstxt_cache_free(other);
    return ok;
}

/* --- blanket answers: their decisions, cause and retry time --- */

static bool blanket_is(const robotstxt_rules *rules, bool allowed, robotstxt_cause cause,
                       uint16_t status, uint32_t redirects) {
    robotstxt_blanket b;
    return OK(robotstxt_rules_blanket(rules, &b)) &&
           check_at(b.is_blanket && b.allowed == allowed && b.cause == cause &&
                        b.http_status == status && b.redirects == redirects,
                    __FILE__, __LINE__,
                    "blanket %d allowed %d cause %u status %u redirects %u, want 1 %d %u %u %u",
                    b.is_blanket, b.allowed, (unsigned)b.cause, b.http_status, b.redirects,
                    allowed, (unsigned)cause, status, redirects);
}

static bool retry_at_is(const robotstxt_rules *rules, bool has, uint64_t at) {
    uint64_t got = 12345;
    bool got_has = !has;
    return OK(robotstxt_rules_retry_at(rules, &got, &got_has)) &&
           check_at(got_has == has && got == at, __FILE__, __LINE__,
                    "retry at %d %llu, want %d %llu", got_has, (unsigned long long)got, has,
                    (unsigned long long)at);
}

static bool decides(const robotstxt_rules *rules, const char *url, bool allowed,
                    robotstxt_decision_kind kind) {
    robotstxt_decision d;
    return OK(robotstxt_rules_decide(rules, TEXT(url), &d)) &&
           check_at(d.allowed == allowed && d.kind == kind && d.line == 0 && d.pattern.len == 0,
                    __FILE__, __LINE__, "%s: allowed %d kind %u line %u, want %d %u line 0", url,
                    d.allowed, (unsigned)d.kind, d.line, allowed, (unsigned)kind);
}

/* Looks `url` up at `now`, fetches it when told to with `f`, and looks
 * again: the READY answer. */
static bool answer_after(robotstxt_cache *cache, const char *url, uint64_t now,
                         const robotstxt_fetch *f, robotstxt_lookup *out) {
    robotstxt_lookup l;
    bool ok = lookup_is(cache, url, now, ROBOTSTXT_WHEN_FETCHING_WAIT, ROBOTSTXT_LOOKUP_FETCH, &l);
    if (!ok) {
        return false;
    }
    ok &= OK(robotstxt_cache_store(cache, l.lease, now, f, NULL));
    robotstxt_lease_free(l.lease);
    return ok && lookup_is(cache, url, now + 1, ROBOTSTXT_WHEN_FETCHING_WAIT,
                           ROBOTSTXT_LOOKUP_READY, out);
}

static bool test_blanket_decisions_and_causes(void) {
    robotstxt_cache *cache = new_cache();
    robotstxt_freshness_policy p = robotstxt_freshness_policy_default();
    robotstxt_lookup l, m;
    robotstxt_fetch down = fetch_of(503, NULL), gone = fetch_of(404, NULL),
                    silent = fetch_of(0, NULL), rules = fetch_of(200, BODY);
    robotstxt_blanket b;
    bool ok = cache != NULL;
    if (!ok) {
        return false;
    }
    gone.redirects = 2;
    ok &= CHECK(ROBOTSTXT_DECISION_ALLOW_ALL == 3 && ROBOTSTXT_DECISION_DISALLOW_ALL == 4 &&
                ROBOTSTXT_CAUSE_NONE == 0 && ROBOTSTXT_CAUSE_STATUS == 1 &&
                ROBOTSTXT_CAUSE_NO_RESPONSE == 2 && ROBOTSTXT_CAUSE_NOT_FETCHED == 3 &&
                ROBOTSTXT_CAUSE_UNREACHABLE_LIMIT == 4 && ROBOTSTXT_CAUSE_CALLER == 5);
    /* Named as the other bindings name them. */
    ok &= CHECK(strcmp(robotstxt_decision_kind_name(ROBOTSTXT_DECISION_ALLOW_ALL), "allow-all") ==
                    0 &&
                strcmp(robotstxt_decision_kind_name(ROBOTSTXT_DECISION_DISALLOW_ALL),
                       "disallow-all") == 0 &&
                strcmp(robotstxt_cause_name(ROBOTSTXT_CAUSE_NO_RESPONSE), "no-response") == 0 &&
                robotstxt_cause_name(6) == NULL);

    /* 503: disallow-all until the retry, an hour on by default. */
    if (answer_after(cache, "https://down.test/x", 0, &down, &l)) {
        ok &= CHECK(l.answer == ROBOTSTXT_ANSWER_DISALLOW_ALL && l.blanket.is_blanket &&
                    !l.blanket.allowed && l.blanket.cause == ROBOTSTXT_CAUSE_STATUS &&
                    l.blanket.http_status == 503 && l.has_retry_at &&
                    l.retry_at_ms == p.retry_ms);
        ok &= blanket_is(l.rules, false, ROBOTSTXT_CAUSE_STATUS, 503, 0);
        ok &= retry_at_is(l.rules, true, p.retry_ms);
        ok &= decides(l.rules, "https://down.test/x", false, ROBOTSTXT_DECISION_DISALLOW_ALL);
        ok &= decides(l.rules, "/", false, ROBOTSTXT_DECISION_DISALLOW_ALL);
        /* RFC 9309: /robots.txt itself stays allowed, by no rule. */
        ok &= decides(l.rules, "/robots.txt", true, ROBOTSTXT_DECISION_NONE);
        robotstxt_rules_free(l.rules);
    } else {
        ok = false;
    }

    /* 404 after two redirects: allow-all, nothing to retry. */
    if (answer_after(cache, "https://gone.test/x", 0, &gone, &l)) {
        ok &= CHECK(l.answer == ROBOTSTXT_ANSWER_ALLOW_ALL && !l.has_retry_at &&
                    l.retry_at_ms == 0);
        ok &= blanket_is(l.rules, true, ROBOTSTXT_CAUSE_STATUS, 404, 2);
        ok &= retry_at_is(l.rules, false, 0);
        ok &= decides(l.rules, "/private/x", true, ROBOTSTXT_DECISION_ALLOW_ALL);
        ok &= decides(l.rules, "/robots.txt", true, ROBOTSTXT_DECISION_ALLOW_ALL);
        robotstxt_rules_free(l.rules);
    } else {
        ok = false;
    }

    /* No response at all. */
    if (answer_after(cache, "https://silent.test/x", 0, &silent, &l)) {
        ok &= blanket_is(l.rules, false, ROBOTSTXT_CAUSE_NO_RESPONSE, 0, 0);
        ok &= decides(l.rules, "/x", false, ROBOTSTXT_DECISION_DISALLOW_ALL);
        robotstxt_rules_free(l.rules);
    } else {
        ok = false;
    }

    /* Not fetched yet: disallow-all while another caller fetches, until
     * its lease runs out. */
    ok &= lookup_is(cache, "https://new.test/x", 100, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_FETCH, &l);
    ok &= lookup_is(cache, "https://new.test/x", 200, ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL,
                    ROBOTSTXT_LOOKUP_READY, &m);
    ok &= CHECK(m.answer == ROBOTSTXT_ANSWER_DISALLOW_ALL && m.has_retry_at &&
                m.retry_at_ms == 60100 && m.blanket.cause == ROBOTSTXT_CAUSE_NOT_FETCHED);
    ok &= blanket_is(m.rules, false, ROBOTSTXT_CAUSE_NOT_FETCHED, 0, 0);
    ok &= retry_at_is(m.rules, true, 60100);
    ok &= decides(m.rules, "/x", false, ROBOTSTXT_DECISION_DISALLOW_ALL);
    robotstxt_rules_free(m.rules);

    /* A file's rules: no blanket, kinds as before. */
    ok &= OK(robotstxt_cache_store(cache, l.lease, 300, &rules, NULL));
    robotstxt_lease_free(l.lease);
    ok &= lookup_is(cache, "https://new.test/x", 400, ROBOTSTXT_WHEN_FETCHING_WAIT,
                    ROBOTSTXT_LOOKUP_READY, &m);
    ok &= CHECK(m.answer == ROBOTSTXT_ANSWER_RULES && !m.blanket.is_blanket &&
                m.blanket.cause == ROBOTSTXT_CAUSE_NONE && !m.has_retry_at);
    ok &= OK(robotstxt_rules_blanket(m.rules, &b));
    ok &= CHECK(!b.is_blanket && !b.allowed && b.cause == ROBOTSTXT_CAUSE_NONE &&
                b.http_status == 0 && b.redirects == 0);
    ok &= retry_at_is(m.rules, false, 0);
    robotstxt_rules_free(m.rules);

    ok &= CHECK_STATUS(robotstxt_rules_blanket(NULL, &b), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    robotstxt_cache_free(cache);
    return ok;
}

/* --- the pacer: tickets confirmed just before sending --- */

static robotstxt_pacer *new_pacer(uint64_t floor_ms, size_t capacity) {
    robotstxt_pacer_options o = robotstxt_pacer_options_default();
    robotstxt_pacer *pacer = NULL;
    o.floor_ms = floor_ms;
    o.capacity = capacity;
    if (!OK(robotstxt_pacer_new(&o, &pacer))) {
        return NULL;
    }
    return pacer;
}

/* Confirms `ticket` at `now`; false unless it succeeds with `kind`. */
static bool confirm_is(const robotstxt_pacer *pacer, const robotstxt_ticket *ticket, uint64_t now,
                       robotstxt_confirm_kind kind, robotstxt_confirm *out) {
    bool ok = OK(robotstxt_pacer_confirm(pacer, ticket, now, out));
    return ok && check_at(out->kind == kind, __FILE__, __LINE__, "at %llu: confirm %u, want %u",
                          (unsigned long long)now, (unsigned)out->kind, (unsigned)kind);
}

enum { TICKETS = 20 };

/* Twenty tickets out at once; the first goes and gets a 429 with a
 * Retry-After of 1 s. No other ticket may go before that second has
 * passed, and they go one (widened) gap apart, one request at a time:
 * each confirms at its start, sleeps as told, and reports 20 ms later. */
static bool test_pacer_429_holds_back_tickets_out(void) {
    robotstxt_pacer *pacer = new_pacer(100, 100000);
    robotstxt_ticket *tickets[TICKETS] = {NULL};
    uint64_t at[TICKETS], go[TICKETS] = {0}, ends = UINT64_MAX, gap = 0;
    bool done[TICKETS] = {false};
    size_t i, n = 0, steps = 0;
    robotstxt_confirm c;
    bool ok = pacer != NULL;
    for (i = 0; ok && i < TICKETS; i++) {
        ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("h.test"), 0, &tickets[i]));
        ok &= CHECK(tickets[i] != NULL && robotstxt_ticket_start(tickets[i]) == 100 * i);
        at[i] = robotstxt_ticket_start(tickets[i]);
    }
    ok = ok && confirm_is(pacer, tickets[0], 0, ROBOTSTXT_CONFIRM_GO, &c);
    ok = ok && OK(robotstxt_pacer_record(pacer, TEXT("h.test"), 50, 429, true, 1000));
    ok &= OK(robotstxt_pacer_gap_ms(pacer, TEXT("h.test"), &gap));
    ok &= CHECK(gap == 200);
    done[0] = true;
    go[n++] = 0;
    /* An event loop over simulated time: the earliest of the pending
     * report and the tickets' next confirmations goes first. */
    while (ok && n < TICKETS && steps++ < 10 * TICKETS) {
        size_t k = TICKETS;
        for (i = 0; i < TICKETS; i++) {
            if (!done[i] && (k == TICKETS || at[i] < at[k])) {
                k = i;
            }
        }
        if (ends <= at[k]) {
            ok &= OK(robotstxt_pacer_record(pacer, TEXT("h.test"), ends, 200, false, 0));
            ends = UINT64_MAX;
            continue;
        }
        ok &= OK(robotstxt_pacer_confirm(pacer, tickets[k], at[k], &c));
        if (!ok) {
            break;
        }
        if (c.kind == ROBOTSTXT_CONFIRM_GO) {
            ok &= check_at(ends == UINT64_MAX, __FILE__, __LINE__,
                           "ticket %zu went at %llu with a request in flight", k,
                           (unsigned long long)at[k]);
            go[n++] = at[k];
            done[k] = true;
            ends = at[k] + 20;
        } else if (c.kind == ROBOTSTXT_CONFIRM_WAIT && c.busy) {
            ok &= check_at(ends != UINT64_MAX, __FILE__, __LINE__, "busy with nothing in flight");
            at[k] = ends; /* a request ending frees the place */
        } else {
            ok &= check_at(c.kind == ROBOTSTXT_CONFIRM_WAIT && c.until_ms > at[k], __FILE__,
                           __LINE__, "ticket %zu at %llu: kind %u until %llu", k,
                           (unsigned long long)at[k], (unsigned)c.kind,
                           (unsigned long long)c.until_ms);
            at[k] = c.until_ms;
        }
    }
    ok &= check_at(n == TICKETS, __FILE__, __LINE__, "%zu of %d tickets went", n, TICKETS);
    ok &= check_at(n < 2 || go[1] >= 1050, __FILE__, __LINE__,
                   "a ticket went at %llu, inside the Retry-After (until 1050)",
                   (unsigned long long)go[1]);
    for (i = 1; i < n; i++) {
        /* At least the floor apart: the 200s after the 429 halve the
         * backoff back. */
        ok &= check_at(go[i] >= go[i - 1] + 100, __FILE__, __LINE__,
                       "requests %zu and %zu started %llu ms apart", i - 1, i,
                       (unsigned long long)(go[i] - go[i - 1]));
    }
    for (i = 0; i < TICKETS; i++) {
        robotstxt_ticket_free(tickets[i]);
    }
    robotstxt_pacer_free(pacer);
    return ok;
}

/* One request in flight per host by default: the second ticket waits,
 * busy, until the first is reported (or its place times out). */
static bool test_pacer_in_flight_limit(void) {
    robotstxt_pacer *pacer = new_pacer(0, 100000);
    robotstxt_ticket *t1 = NULL, *t2 = NULL, *t3 = NULL;
    robotstxt_confirm c;
    size_t count = 99;
    bool ok = pacer != NULL;
    ok = ok && OK(robotstxt_pacer_reserve(pacer, TEXT("h.test"), 0, &t1));
    ok = ok && OK(robotstxt_pacer_reserve(pacer, TEXT("h.test"), 0, &t2));
    ok = ok && OK(robotstxt_pacer_reserve(pacer, TEXT("h.test"), 0, &t3));
    ok = ok && CHECK(robotstxt_ticket_start(t2) == 0 && robotstxt_ticket_start(t3) == 0);
    ok = ok && confirm_is(pacer, t1, 0, ROBOTSTXT_CONFIRM_GO, &c);
    ok = ok && confirm_is(pacer, t2, 0, ROBOTSTXT_CONFIRM_WAIT, &c);
    ok &= CHECK(c.busy && c.until_ms == 120000);
    ok &= OK(robotstxt_pacer_in_flight(pacer, TEXT("h.test"), 0, &count));
    ok &= CHECK(count == 1);
    ok &= confirm_is(pacer, t2, 400, ROBOTSTXT_CONFIRM_WAIT, &c);
    ok &= CHECK(c.busy);
    ok &= OK(robotstxt_pacer_record(pacer, TEXT("h.test"), 500, 200, false, 0));
    ok &= OK(robotstxt_pacer_in_flight(pacer, TEXT("h.test"), 500, &count));
    ok &= CHECK(count == 0);
    ok &= confirm_is(pacer, t2, 500, ROBOTSTXT_CONFIRM_GO, &c);
    /* Never reported: its place frees itself after in_flight_timeout. */
    ok &= confirm_is(pacer, t3, 1000, ROBOTSTXT_CONFIRM_WAIT, &c);
    ok &= CHECK(c.busy && c.until_ms == 120500);
    ok &= confirm_is(pacer, t3, 120500, ROBOTSTXT_CONFIRM_GO, &c);
    robotstxt_ticket_free(t1);
    robotstxt_ticket_free(t2);
    robotstxt_ticket_free(t3);
    robotstxt_pacer_free(pacer);
    return ok;
}

/* The kill switch voids tickets already out: DISABLED once, then the
 * ticket is spent. Switched back on, a ticket not yet confirmed goes. */
static bool test_pacer_kill_switch_voids_tickets(void) {
    robotstxt_pacer *pacer = new_pacer(1000, 100000);
    robotstxt_ticket *t1 = NULL, *t2 = NULL, *none = NULL;
    robotstxt_confirm c, untouched;
    bool ok = pacer != NULL;
    ok = ok && OK(robotstxt_pacer_reserve(pacer, TEXT("h.test"), 0, &t1));
    ok = ok && OK(robotstxt_pacer_reserve(pacer, TEXT("h.test"), 0, &t2));
    ok = ok && OK(robotstxt_pacer_set_enabled(pacer, TEXT("H.test"), false));
    ok = ok && confirm_is(pacer, t1, 0, ROBOTSTXT_CONFIRM_DISABLED, &c);
    ok &= CHECK(c.until_ms == 0 && !c.busy);
    memset(&c, 0x5A, sizeof c);
    untouched = c;
    ok &= CHECK_STATUS(robotstxt_pacer_confirm(pacer, t1, 1, &c), ROBOTSTXT_STATUS_INVALID_TICKET);
    ok &= CHECK(memcmp(&c, &untouched, sizeof c) == 0);
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("h.test"), 2, &none));
    ok &= CHECK(none == NULL);
    ok &= confirm_is(pacer, t2, 1000, ROBOTSTXT_CONFIRM_DISABLED, &c);
    ok &= CHECK_STATUS(robotstxt_pacer_confirm(pacer, t2, 1000, &c),
                       ROBOTSTXT_STATUS_INVALID_TICKET);
    /* Back on: new tickets go; the voided ones stay spent. */
    ok &= OK(robotstxt_pacer_set_enabled(pacer, TEXT("h.test"), true));
    ok &= CHECK_STATUS(robotstxt_pacer_confirm(pacer, t1, 2000, &c),
                       ROBOTSTXT_STATUS_INVALID_TICKET);
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("h.test"), 2000, &none));
    ok &= CHECK(none != NULL);
    ok = ok && confirm_is(pacer, none, robotstxt_ticket_start(none), ROBOTSTXT_CONFIRM_GO, &c);
    robotstxt_ticket_free(t1);
    robotstxt_ticket_free(t2);
    robotstxt_ticket_free(none);
    robotstxt_pacer_free(pacer);
    return ok;
}

/* A ticket belongs to the pacer that handed it out: another pacer refuses
 * it (and its hosts are untouched), its own still takes it. */
static bool test_pacer_ticket_of_another_pacer(void) {
    robotstxt_pacer *mine = new_pacer(1000, 100000), *other = new_pacer(1000, 100000);
    robotstxt_ticket *ticket = NULL;
    robotstxt_confirm c, untouched;
    size_t count = 99;
    bool ok = mine != NULL && other != NULL;
    ok = ok && OK(robotstxt_pacer_reserve(mine, TEXT("h.test"), 0, &ticket));
    memset(&c, 0x5A, sizeof c);
    untouched = c;
    ok = ok && CHECK_STATUS(robotstxt_pacer_confirm(other, ticket, 0, &c),
                            ROBOTSTXT_STATUS_INVALID_TICKET);
    ok &= CHECK(memcmp(&c, &untouched, sizeof c) == 0 &&
                strstr(last_error(), "another pacer") != NULL);
    ok &= OK(robotstxt_pacer_in_flight(other, TEXT("h.test"), 0, &count));
    ok &= CHECK(count == 0);
    ok = ok && confirm_is(mine, ticket, 0, ROBOTSTXT_CONFIRM_GO, &c);
    ok &= OK(robotstxt_pacer_in_flight(mine, TEXT("h.test"), 0, &count));
    ok &= CHECK(count == 1);
    robotstxt_ticket_free(ticket);
    robotstxt_pacer_free(mine);
    robotstxt_pacer_free(other);
    return ok;
}

/* A full pacer forgets an idle host, never a switched-off one: the kill
 * switch holds however many hosts come by. */
static bool test_pacer_full_keeps_switched_off_host(void) {
    robotstxt_pacer *pacer = new_pacer(1000, 2);
    robotstxt_ticket *ticket = NULL;
    bool ok = pacer != NULL;
    ok = ok && OK(robotstxt_pacer_set_enabled(pacer, TEXT("off.test"), false));
    ok = ok && OK(robotstxt_pacer_reserve(pacer, TEXT("idle.test"), 0, &ticket));
    robotstxt_ticket_free(ticket);
    /* idle.test's gap has passed: it is the one forgotten. */
    ok = ok && OK(robotstxt_pacer_reserve(pacer, TEXT("new.test"), 10000, &ticket));
    ok &= CHECK(ticket != NULL && robotstxt_ticket_start(ticket) == 10000);
    robotstxt_ticket_free(ticket);
    /* new.test holds a slot ahead, off.test is off: nobody can go. */
    ticket = (robotstxt_ticket *)&ok;
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, TEXT("newer.test"), 10000, &ticket),
                       ROBOTSTXT_STATUS_PACER_FULL);
    ok &= CHECK(ticket == (robotstxt_ticket *)&ok && strstr(last_error(), "2 hosts") != NULL);
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("off.test"), 10000, &ticket));
    ok &= CHECK(ticket == NULL);
    /* Later, new.test is idle and goes; off.test stays off. */
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("newer.test"), 20000, &ticket));
    ok &= CHECK(ticket != NULL);
    robotstxt_ticket_free(ticket);
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("off.test"), 20000, &ticket));
    ok &= CHECK(ticket == NULL);
    robotstxt_pacer_free(pacer);
    return ok;
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
    robotstxt_ticket *ticket = NULL;
    char host[32];
    uint64_t start = 0;
    bool ok;
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
    ok &= OK(robotstxt_pacer_reserve(sh->pacer, TEXT(host), NOW, &ticket));
    ok &= CHECK(ticket != NULL);
    start = robotstxt_ticket_start(ticket);
    robotstxt_ticket_free(ticket); /* unconfirmed: the slot stays taken */
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
            robotstxt_ticket *ticket = NULL;
            ok &= OK(robotstxt_pacer_reserve(alone, TEXT(host), NOW, &ticket));
            sh.starts[i][k] = robotstxt_ticket_start(ticket);
            robotstxt_ticket_free(ticket);
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
    {"lease_of_another_cache", test_lease_of_another_cache},
    {"stale_lease_never_overwrites", test_stale_lease_never_overwrites},
    {"freed_lease_frees_its_origin", test_freed_lease_frees_its_origin},
    {"blanket_decisions_and_causes", test_blanket_decisions_and_causes},
    {"pacer_errors", test_pacer_errors},
    {"pacer_429_holds_back_tickets_out", test_pacer_429_holds_back_tickets_out},
    {"pacer_in_flight_limit", test_pacer_in_flight_limit},
    {"pacer_kill_switch_voids_tickets", test_pacer_kill_switch_voids_tickets},
    {"pacer_ticket_of_another_pacer", test_pacer_ticket_of_another_pacer},
    {"pacer_full_keeps_switched_off_host", test_pacer_full_keeps_switched_off_host},
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
