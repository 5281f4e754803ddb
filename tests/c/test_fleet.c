/* The fleet protocol through the C ABI, without Redis: each step's call as
 * the library writes it (script, keys, arguments), and replies built by
 * hand as a Redis client hands them over (a lookup's fetch, fresh, wait and
 * unreadable answers; a renewal; a store; a reservation and a confirmation
 * with the host's state; the other pace steps), read back into answers,
 * leases and tickets. Then every misuse: NULLs, a step read by the wrong
 * function, twice or by another cache, a lease ended twice or of another
 * cache, a spent ticket, replies that do not read. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char BODY[] = "User-agent: *\nDisallow: /private\n";
static const char URL[] = "https://Shop.test/page";

#define NOW 5000000u

static robotstxt_fleet_at mono(uint64_t ms) {
    robotstxt_fleet_at at = {false, ms};
    return at;
}

static robotstxt_fleet_at given(uint64_t ms) {
    robotstxt_fleet_at at = {true, ms};
    return at;
}

static robotstxt_fleet_reply_item text_item(const char *s) {
    robotstxt_fleet_reply_item item;
    memset(&item, 0, sizeof item);
    item.kind = ROBOTSTXT_FLEET_REPLY_BYTES;
    item.bytes = (const uint8_t *)s;
    item.len = strlen(s);
    return item;
}

static robotstxt_fleet_reply_item bytes_item(const uint8_t *p, size_t n) {
    robotstxt_fleet_reply_item item;
    memset(&item, 0, sizeof item);
    item.kind = ROBOTSTXT_FLEET_REPLY_BYTES;
    item.bytes = p;
    item.len = n;
    return item;
}

static robotstxt_fleet_reply_item int_item(int64_t n) {
    robotstxt_fleet_reply_item item;
    memset(&item, 0, sizeof item);
    item.kind = ROBOTSTXT_FLEET_REPLY_INT;
    item.integer = n;
    return item;
}

static robotstxt_fleet_cache *new_fleet_cache(const char *prefix) {
    robotstxt_fleet_cache_options o = robotstxt_fleet_cache_options_default();
    robotstxt_fleet_cache *cache = NULL;
    o.prefix.ptr = (const uint8_t *)prefix;
    o.prefix.len = strlen(prefix);
    if (!OK(robotstxt_fleet_cache_new(&o, &cache))) {
        return NULL;
    }
    return cache;
}

static robotstxt_fleet_pacer *new_fleet_pacer(void) {
    robotstxt_fleet_pacer_options o = robotstxt_fleet_pacer_options_default();
    robotstxt_fleet_pacer *pacer = NULL;
    o.prefix.ptr = (const uint8_t *)"p:";
    o.prefix.len = 2;
    o.worker.ptr = (const uint8_t *)"w1";
    o.worker.len = 2;
    if (!OK(robotstxt_fleet_pacer_new(&o, &pacer))) {
        return NULL;
    }
    return pacer;
}

/* Whether the step's script, keys and arguments are `script`, then the
 * keys, then "|", then the arguments (NULL-terminated). */
static bool call_is(const robotstxt_fleet_step *step, const char *script, ...) {
    va_list list;
    robotstxt_str s = {NULL, 0};
    size_t keys = 0, args = 0, i = 0, seen_keys = 0;
    bool in_args = false;
    const char *want;
    bool ok = OK(robotstxt_fleet_step_script(step, &s)) && CHECK(text_is(s.ptr, s.len, script));
    ok &= OK(robotstxt_fleet_step_counts(step, &keys, &args));
    va_start(list, script);
    while ((want = va_arg(list, const char *)) != NULL) {
        if (!in_args && strcmp(want, "|") == 0) {
            in_args = true;
            seen_keys = i;
            i = 0;
            continue;
        }
        ok &= in_args ? OK(robotstxt_fleet_step_arg(step, i, &s))
                      : OK(robotstxt_fleet_step_key(step, i, &s));
        ok &= check_at(text_is(s.ptr, s.len, want), __FILE__, __LINE__,
                       "%s %s %zu is %.*s, want %s", script, in_args ? "arg" : "key", i,
                       (int)s.len, s.ptr ? (const char *)s.ptr : "", want);
        i++;
    }
    va_end(list);
    ok &= check_at(seen_keys == keys && i == args, __FILE__, __LINE__,
                   "%s: %zu keys and %zu args, want %zu and %zu", script, keys, args, seen_keys, i);
    return ok;
}

/* Whether argument `index` of a step is `want`. */
static bool arg_is(const robotstxt_fleet_step *step, size_t index, const char *want) {
    robotstxt_str s = {NULL, 0};
    return OK(robotstxt_fleet_step_arg(step, index, &s)) &&
           check_at(text_is(s.ptr, s.len, want), __FILE__, __LINE__, "arg %zu is %.*s, want %s",
                    index, (int)s.len, s.ptr ? (const char *)s.ptr : "", want);
}

/* Copies argument `index` of a step into a malloc'd buffer (freed by the
 * caller); NULL on failure. */
static uint8_t *arg_copy(const robotstxt_fleet_step *step, size_t index, size_t *len) {
    robotstxt_str s = {NULL, 0};
    uint8_t *copy;
    if (!OK(robotstxt_fleet_step_arg(step, index, &s))) {
        return NULL;
    }
    copy = malloc(s.len ? s.len : 1);
    if (copy != NULL && s.len > 0) {
        memcpy(copy, s.ptr, s.len);
    }
    *len = s.len;
    return copy;
}

static bool allowed(const robotstxt_rules *rules, const char *url) {
    bool yes = false;
    return OK(robotstxt_rules_can_fetch(rules, TEXT(url), &yes)) && yes;
}

/* A lookup's reply: {kind, now, version, due, token or ms left, data}. */
static robotstxt_status lookup_reply(robotstxt_fleet_cache *cache, robotstxt_fleet_step *step,
                                     const char *kind, int64_t now, const char *version,
                                     int64_t due, const char *token, const uint8_t *data,
                                     size_t data_len, robotstxt_fleet_lookup *out) {
    robotstxt_fleet_reply_item items[6];
    items[0] = text_item(kind);
    items[1] = int_item(now);
    items[2] = text_item(version);
    items[3] = int_item(due);
    items[4] = text_item(token);
    items[5] = bytes_item(data, data_len);
    return robotstxt_fleet_cache_lookup_reply(cache, step, items, 6, out);
}

/* A lookup that must come to a RUN; its step, or NULL. */
static robotstxt_fleet_step *run_step(robotstxt_fleet_cache *cache, robotstxt_fleet_at at,
                                      robotstxt_when_fetching when) {
    robotstxt_fleet_lookup l;
    if (!OK(robotstxt_fleet_cache_lookup(cache, TEXT(URL), TEXT("ExampleBot"), &at, when, &l)) ||
        !CHECK(l.kind == ROBOTSTXT_LOOKUP_RUN && l.step != NULL && l.rules == NULL &&
               l.lease == NULL)) {
        return NULL;
    }
    return l.step;
}

/* A fetch handed out by a 'fetch' reply to a first lookup. */
static robotstxt_fleet_lease *fetch_lease(robotstxt_fleet_cache *cache, const char *token) {
    robotstxt_fleet_step *step = run_step(cache, mono(1000), ROBOTSTXT_WHEN_FETCHING_WAIT);
    robotstxt_fleet_lookup l;
    bool ok = step != NULL &&
              OK(lookup_reply(cache, step, "fetch", NOW, "", 0, token, NULL, 0, &l)) &&
              CHECK(l.kind == ROBOTSTXT_LOOKUP_FETCH && l.lease != NULL);
    robotstxt_fleet_step_free(step);
    return ok ? l.lease : NULL;
}

/* A stored copy of BODY, as the store step carries it (malloc'd). */
static uint8_t *encoded_copy(size_t *len) {
    robotstxt_freshness_policy policy = robotstxt_freshness_policy_default();
    robotstxt_entry *entry = NULL;
    robotstxt_fetch f;
    robotstxt_disposition d;
    uint8_t *out = NULL;
    memset(&f, 0, sizeof f);
    f.http_status = 200;
    f.body.ptr = (const uint8_t *)BODY;
    f.body.len = strlen(BODY);
    if (!OK(robotstxt_entry_new(&policy, &entry)) || !OK(robotstxt_entry_record(entry, 0, &f, &d))) {
        robotstxt_entry_free(entry);
        return NULL;
    }
    if (robotstxt_entry_encode(entry, TEXT(BODY), NULL, 0, len) ==
        ROBOTSTXT_STATUS_BUFFER_TOO_SMALL) {
        out = malloc(*len);
        if (out != NULL && !OK(robotstxt_entry_encode(entry, TEXT(BODY), out, *len, len))) {
            free(out);
            out = NULL;
        }
    }
    robotstxt_entry_free(entry);
    return out;
}

/* Lookup, fetch, renew, store, then answers from the copy held, with no
 * step; a second worker reads the fleet's copy, and refreshes it with its
 * validators. */
static bool test_fleet_cache_round_trip(void) {
    robotstxt_fleet_cache *cache = new_fleet_cache("t:"), *reader = new_fleet_cache("t:");
    robotstxt_fleet_step *step = NULL, *renew = NULL, *store = NULL;
    robotstxt_fleet_lookup l;
    robotstxt_fleet_lease_info info;
    robotstxt_fleet_stored stored;
    robotstxt_fleet_cache_counters stats;
    robotstxt_fetch f;
    robotstxt_fleet_at at = mono(1000), later = mono(1500);
    uint8_t *copy = NULL;
    size_t copy_len = 0, len = 0;
    uint64_t ms = 0, now = 0, due = 0;
    bool ok = cache != NULL && reader != NULL, held = false, known = false;
    robotstxt_str source;
    robotstxt_str script;
    char due_text[32];
    robotstxt_fleet_reply_item reply;
    if (!ok) {
        goto done;
    }
    step = run_step(cache, at, ROBOTSTXT_WHEN_FETCHING_WAIT);
    ok &= step != NULL;
    if (!ok) {
        goto done;
    }
    ok &= call_is(step, "lookup", "t:copy:{https://shop.test}", "t:lease:{https://shop.test}", "|",
                  "60000", "", "", NULL);
    ok &= OK(robotstxt_fleet_step_source(step, &source));
    ok &= OK(robotstxt_fleet_script(TEXT("lookup"), &script));
    ok &= CHECK(source.len > 100 && source.len == script.len &&
                memcmp(source.ptr, script.ptr, source.len) == 0);
    /* Before Redis answered, the fleet's time is not known. */
    ok &= OK(robotstxt_fleet_cache_now(cache, &at, &known, &now));
    ok &= CHECK(!known && now == 0);
    ok &= OK(lookup_reply(cache, step, "fetch", NOW, "", 0, "1-5000000", NULL, 0, &l));
    ok &= CHECK(l.kind == ROBOTSTXT_LOOKUP_FETCH && l.lease != NULL && l.step == NULL &&
                l.rules == NULL);
    robotstxt_fleet_step_free(step);
    step = NULL;
    if (!ok) {
        goto done;
    }
    ok &= OK(robotstxt_fleet_lease_read(l.lease, &info));
    ok &= CHECK(text_is(info.origin.ptr, info.origin.len, "https://shop.test"));
    ok &= CHECK(text_is(info.robots_url.ptr, info.robots_url.len, "https://shop.test/robots.txt"));
    ok &= CHECK(!info.validators.has_etag && !info.validators.has_last_modified);
    /* The fleet's time runs on from Redis's, by the monotonic clock. */
    ok &= OK(robotstxt_fleet_cache_now(cache, &later, &known, &now));
    ok &= CHECK(known && now == NOW + 500);
    ok &= OK(robotstxt_fleet_cache_ms_until(cache, NOW + 1000, &later, &ms));
    ok &= CHECK(ms == 500);
    ok &= OK(robotstxt_fleet_cache_ms_until(cache, NOW, &later, &ms));
    ok &= CHECK(ms == 0);
    ok &= OK(robotstxt_fleet_cache_renew_every_ms(cache, &ms));
    ok &= CHECK(ms == 20000);

    /* The lease is renewed while the fetch goes on. */
    ok &= OK(robotstxt_fleet_cache_renew(cache, l.lease, &later, &renew));
    ok &= call_is(renew, "renew", "t:copy:{https://shop.test}", "t:lease:{https://shop.test}", "|",
                  "1-5000000", "60000", "", NULL);
    reply = int_item(NOW + 60500);
    ok &= OK(robotstxt_fleet_cache_renew_reply(cache, renew, &reply, 1, &held));
    ok &= CHECK(held);
    robotstxt_fleet_step_free(renew);
    renew = NULL;
    ok &= OK(robotstxt_fleet_cache_renew(cache, l.lease, &later, &renew));
    reply = int_item(0);
    ok &= OK(robotstxt_fleet_cache_renew_reply(cache, renew, &reply, 1, &held));
    ok &= CHECK(!held);

    /* The store carries the copy, fenced by the lease's token. */
    memset(&f, 0, sizeof f);
    f.http_status = 200;
    f.body.ptr = (const uint8_t *)BODY;
    f.body.len = strlen(BODY);
    f.has_etag = true;
    f.etag.ptr = (const uint8_t *)"\"v1\"";
    f.etag.len = 4;
    ok &= OK(robotstxt_fleet_cache_store(cache, l.lease, &f, TEXT("ExampleBot"), &later, &store));
    ok &= CHECK(store != NULL);
    if (!ok) {
        goto done;
    }
    copy = arg_copy(store, 1, &copy_len);
    ok &= CHECK(copy != NULL && copy_len > strlen(BODY));
    due = NOW + 500 + 24u * 3600 * 1000;
    snprintf(due_text, sizeof due_text, "%llu", (unsigned long long)due);
    {
        robotstxt_str key;
        size_t keys = 0, args = 0;
        ok &= OK(robotstxt_fleet_step_script(store, &key)) && CHECK(text_is(key.ptr, key.len, "store"));
        ok &= OK(robotstxt_fleet_step_key(store, 1, &key)) &&
              CHECK(text_is(key.ptr, key.len, "t:lease:{https://shop.test}"));
        ok &= OK(robotstxt_fleet_step_counts(store, &keys, &args)) && CHECK(keys == 2 && args == 5);
        ok &= arg_is(store, 0, "1-5000000") && arg_is(store, 2, due_text) &&
              arg_is(store, 3, "2678400000") && arg_is(store, 4, "");
    }
    /* A lease ends once. */
    ok &= CHECK_STATUS(robotstxt_fleet_cache_store(cache, l.lease, &f, TEXT("ExampleBot"), &later,
                                                   &step),
                       ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_renew(cache, l.lease, &later, &step),
                       ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK(step == NULL);
    reply = text_item("1-5000000");
    ok &= OK(robotstxt_fleet_cache_store_reply(cache, store, &reply, 1, &stored));
    ok &= CHECK(stored.stored && !stored.failed &&
                stored.disposition == ROBOTSTXT_DISPOSITION_FOLLOW_RULES &&
                stored.answer == ROBOTSTXT_ANSWER_RULES && !stored.blanket.is_blanket);
    ok &= CHECK(stored.rules != NULL && !allowed(stored.rules, "/private") &&
                allowed(stored.rules, "/public"));
    robotstxt_rules_free(stored.rules);
    robotstxt_fleet_lease_free(l.lease);

    /* Held and fresh: answered with no step. */
    ok &= OK(robotstxt_fleet_cache_lookup(cache, TEXT("https://shop.test/private/x"),
                                          TEXT("ExampleBot"), &later, ROBOTSTXT_WHEN_FETCHING_WAIT,
                                          &l));
    ok &= CHECK(l.kind == ROBOTSTXT_LOOKUP_READY && l.step == NULL && l.rules != NULL &&
                !l.stale && !l.has_retry_at && !allowed(l.rules, "/private/x"));
    robotstxt_rules_free(l.rules);
    ok &= OK(robotstxt_fleet_cache_stats(cache, &stats));
    ok &= CHECK(stats.fetches == 1 && stats.misses == 1 && stats.hits == 1 && stats.entries == 1 &&
                stats.unreadable == 0 && stats.redis_errors == 0);
    ok &= OK(robotstxt_fleet_cache_len(cache, &len));
    ok &= CHECK(len == 1);

    /* Another worker reads the fleet's copy... */
    step = run_step(reader, given(NOW + 600), ROBOTSTXT_WHEN_FETCHING_WAIT);
    ok &= step != NULL && call_is(step, "lookup", "t:copy:{https://shop.test}",
                                  "t:lease:{https://shop.test}", "|", "60000", "5000600", "", NULL);
    ok &= step != NULL && OK(lookup_reply(reader, step, "fresh", NOW + 600, "1-5000000",
                                          (int64_t)due, "", copy, copy_len, &l));
    ok &= CHECK(l.kind == ROBOTSTXT_LOOKUP_READY && l.rules != NULL && !l.stale &&
                !allowed(l.rules, "/private"));
    robotstxt_rules_free(l.rules);
    robotstxt_fleet_step_free(step);
    /* ...and once it is due, asks by its version, and refreshes it with
     * the copy's validators. */
    step = run_step(reader, given(due + 1), ROBOTSTXT_WHEN_FETCHING_WAIT);
    snprintf(due_text, sizeof due_text, "%llu", (unsigned long long)due + 1);
    ok &= step != NULL && call_is(step, "lookup", "t:copy:{https://shop.test}",
                                  "t:lease:{https://shop.test}", "|", "60000", due_text,
                                  "1-5000000", NULL);
    ok &= step != NULL && OK(lookup_reply(reader, step, "fetch", (int64_t)due + 1, "1-5000000",
                                          (int64_t)due, "2-x", NULL, 0, &l));
    ok &= CHECK(l.kind == ROBOTSTXT_LOOKUP_FETCH && l.lease != NULL);
    ok &= l.lease != NULL && OK(robotstxt_fleet_lease_read(l.lease, &info));
    ok &= CHECK(info.validators.has_etag &&
                text_is(info.validators.etag.ptr, info.validators.etag.len, "\"v1\""));
    robotstxt_fleet_lease_free(l.lease);
    robotstxt_fleet_step_free(step);
    step = NULL;
done:
    free(copy);
    robotstxt_fleet_step_free(renew);
    robotstxt_fleet_step_free(store);
    robotstxt_fleet_step_free(step);
    robotstxt_fleet_cache_free(cache);
    robotstxt_fleet_cache_free(reader);
    return ok;
}

/* A copy that does not decode (damaged, or of a newer format) is no copy:
 * its reader's next step takes the lease to fetch over it. */
static bool test_fleet_unreadable_copy(void) {
    size_t len = 0, i;
    uint8_t *good = encoded_copy(&len);
    bool ok = CHECK(good != NULL && len > 8);
    for (i = 0; ok && i < 3; i++) {
        robotstxt_fleet_cache *cache = new_fleet_cache("u:");
        robotstxt_fleet_step *step = NULL, *abandon = NULL;
        robotstxt_fleet_lookup l, again;
        robotstxt_fleet_lease_info info;
        robotstxt_fleet_cache_counters stats;
        uint8_t *bad = malloc(len);
        size_t bad_len = len;
        if (cache == NULL || bad == NULL) {
            robotstxt_fleet_cache_free(cache);
            free(bad);
            ok = false;
            break;
        }
        memcpy(bad, good, len);
        if (i == 0) {
            bad[4]++; /* the format version */
        } else if (i == 1) {
            bad[len / 2] ^= 0xff;
        } else {
            bad_len = len / 2;
        }
        step = run_step(cache, mono(0), ROBOTSTXT_WHEN_FETCHING_WAIT);
        ok &= step != NULL &&
              OK(lookup_reply(cache, step, "fresh", NOW, "1-1", NOW + 1000, "", bad, bad_len, &l));
        ok &= check_at(l.kind == ROBOTSTXT_LOOKUP_RUN && l.step != NULL, __FILE__, __LINE__,
                       "copy %zu: kind %u", i, (unsigned)l.kind);
        robotstxt_fleet_step_free(step);
        step = l.step;
        /* The second step names the version it cannot read. */
        ok &= step != NULL && call_is(step, "lookup", "u:copy:{https://shop.test}",
                                      "u:lease:{https://shop.test}", "|", "60000", "", "1-1", "1",
                                      NULL);
        ok &= step != NULL &&
              OK(lookup_reply(cache, step, "fetch", NOW, "1-1", NOW + 1000, "2-5", NULL, 0, &again));
        ok &= CHECK(again.kind == ROBOTSTXT_LOOKUP_FETCH && again.lease != NULL);
        ok &= again.lease != NULL && OK(robotstxt_fleet_lease_read(again.lease, &info));
        ok &= CHECK(!info.validators.has_etag);
        ok &= OK(robotstxt_fleet_cache_stats(cache, &stats));
        ok &= CHECK(stats.unreadable == 1 && stats.fetches == 1 && stats.misses == 1 &&
                    stats.entries == 0);
        /* Given back, unstored. */
        ok &= again.lease != NULL && OK(robotstxt_fleet_cache_abandon(cache, again.lease, &abandon));
        ok &= abandon != NULL && call_is(abandon, "abandon", "u:lease:{https://shop.test}", "|",
                                         "2-5", NULL);
        robotstxt_fleet_step_free(abandon);
        robotstxt_fleet_lease_free(again.lease);
        robotstxt_fleet_step_free(step);
        robotstxt_fleet_cache_free(cache);
        free(bad);
    }
    free(good);
    return ok;
}

/* Another worker fetches and no copy is held: a wait, or disallow-all until
 * its lease runs out. */
static bool test_fleet_wait_or_disallow(void) {
    robotstxt_fleet_cache *cache = new_fleet_cache("w:");
    robotstxt_fleet_step *step = NULL;
    robotstxt_fleet_lookup l;
    robotstxt_fleet_cache_counters stats;
    bool ok = cache != NULL;
    step = ok ? run_step(cache, mono(0), ROBOTSTXT_WHEN_FETCHING_WAIT) : NULL;
    ok &= step != NULL && OK(lookup_reply(cache, step, "wait", NOW, "", 0, "30000", NULL, 0, &l));
    ok &= CHECK(l.kind == ROBOTSTXT_LOOKUP_WAIT && l.until_ms == NOW + 30000 && l.rules == NULL &&
                l.lease == NULL && l.step == NULL);
    robotstxt_fleet_step_free(step);
    step = ok ? run_step(cache, mono(0), ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL) : NULL;
    ok &= step != NULL && OK(lookup_reply(cache, step, "wait", NOW, "", 0, "30000", NULL, 0, &l));
    ok &= CHECK(l.kind == ROBOTSTXT_LOOKUP_READY && l.rules != NULL &&
                l.answer == ROBOTSTXT_ANSWER_DISALLOW_ALL && l.blanket.is_blanket &&
                !l.blanket.allowed && l.blanket.cause == ROBOTSTXT_CAUSE_NOT_FETCHED &&
                l.has_retry_at && l.retry_at_ms == NOW + 30000);
    ok &= l.rules != NULL && CHECK(!allowed(l.rules, "/"));
    robotstxt_rules_free(l.rules);
    robotstxt_fleet_step_free(step);
    ok &= cache != NULL && OK(robotstxt_fleet_cache_stats(cache, &stats));
    ok &= CHECK(stats.misses == 2 && stats.fetches == 0);
    robotstxt_fleet_cache_free(cache);
    return ok;
}

/* Redis down: nothing allowed without a copy; a store Redis failed to take
 * is held by this worker alone, and answers. */
static bool test_fleet_fail_safe(void) {
    robotstxt_fleet_cache *cache = new_fleet_cache("f:");
    robotstxt_fleet_lease *lease = NULL;
    robotstxt_fleet_step *store = NULL;
    robotstxt_fleet_lookup l;
    robotstxt_fleet_stored stored;
    robotstxt_fleet_cache_counters stats;
    robotstxt_fleet_at at = mono(1000);
    robotstxt_fetch f;
    bool ok = cache != NULL;
    if (!ok) {
        return false;
    }
    ok &= OK(robotstxt_fleet_cache_redis_failed(cache));
    ok &= OK(robotstxt_fleet_cache_fail_safe(cache, TEXT(URL), TEXT("ExampleBot"), &at, &l));
    ok &= CHECK(l.kind == ROBOTSTXT_LOOKUP_READY && l.answer == ROBOTSTXT_ANSWER_DISALLOW_ALL &&
                l.blanket.cause == ROBOTSTXT_CAUSE_NOT_FETCHED);
    ok &= l.rules != NULL && CHECK(!allowed(l.rules, "/public"));
    robotstxt_rules_free(l.rules);
    lease = fetch_lease(cache, "1-1");
    memset(&f, 0, sizeof f);
    f.http_status = 200;
    f.body.ptr = (const uint8_t *)BODY;
    f.body.len = strlen(BODY);
    ok &= lease != NULL &&
          OK(robotstxt_fleet_cache_store(cache, lease, &f, TEXT("ExampleBot"), &at, &store));
    ok &= store != NULL && OK(robotstxt_fleet_cache_store_failed(cache, store, &stored));
    ok &= CHECK(!stored.stored && stored.failed && stored.rules != NULL &&
                !allowed(stored.rules, "/private"));
    robotstxt_rules_free(stored.rules);
    /* Read once: a reply after the failure is refused. */
    ok &= store != NULL && CHECK_STATUS(robotstxt_fleet_cache_store_failed(cache, store, &stored),
                                        ROBOTSTXT_STATUS_INVALID_STEP);
    ok &= OK(robotstxt_fleet_cache_fail_safe(cache, TEXT(URL), TEXT("ExampleBot"), &at, &l));
    ok &= CHECK(l.answer == ROBOTSTXT_ANSWER_RULES && l.rules != NULL &&
                !allowed(l.rules, "/private") && allowed(l.rules, "/public"));
    robotstxt_rules_free(l.rules);
    ok &= OK(robotstxt_fleet_cache_lookup(cache, TEXT(URL), TEXT("ExampleBot"), &at,
                                          ROBOTSTXT_WHEN_FETCHING_WAIT, &l));
    ok &= CHECK(l.kind == ROBOTSTXT_LOOKUP_READY && l.rules != NULL);
    robotstxt_rules_free(l.rules);
    ok &= OK(robotstxt_fleet_cache_stats(cache, &stats));
    ok &= CHECK(stats.redis_errors == 2 && stats.entries == 1);
    robotstxt_fleet_step_free(store);
    robotstxt_fleet_lease_free(lease);
    /* An error reply to a store is Redis failing; a reply of another shape
     * (an empty array) does not read. Either way the copy is held, and
     * counted. */
    {
        robotstxt_fleet_reply_item refused = text_item("READONLY You can't write against a replica.");
        robotstxt_fleet_at later = mono(1000);
        refused.kind = ROBOTSTXT_FLEET_REPLY_ERROR;
        ok &= OK(robotstxt_fleet_cache_remove(cache, TEXT(URL), NULL));
        lease = fetch_lease(cache, "2-2");
        store = NULL;
        ok &= lease != NULL &&
              OK(robotstxt_fleet_cache_store(cache, lease, &f, TEXT("ExampleBot"), &later, &store));
        ok &= store != NULL &&
              OK(robotstxt_fleet_cache_store_reply(cache, store, &refused, 1, &stored));
        ok &= CHECK(!stored.stored && stored.failed && stored.rules != NULL);
        robotstxt_rules_free(stored.rules);
        robotstxt_fleet_step_free(store);
        robotstxt_fleet_lease_free(lease);
        ok &= OK(robotstxt_fleet_cache_remove(cache, TEXT(URL), NULL));
        lease = fetch_lease(cache, "3-3");
        store = NULL;
        ok &= lease != NULL &&
              OK(robotstxt_fleet_cache_store(cache, lease, &f, TEXT("ExampleBot"), &later, &store));
        ok &= store != NULL &&
              CHECK_STATUS(robotstxt_fleet_cache_store_reply(cache, store, NULL, 0, &stored),
                           ROBOTSTXT_STATUS_BAD_REPLY);
        ok &= OK(robotstxt_fleet_cache_stats(cache, &stats));
        ok &= CHECK(stats.redis_errors == 4 && stats.entries == 1);
        robotstxt_fleet_step_free(store);
        robotstxt_fleet_lease_free(lease);
    }
    robotstxt_fleet_cache_free(cache);
    return ok;
}

/* A pace script's reply: its own items, then the host's state (epoch,
 * next, last, not before, delay, factor, off, generation), next given. */
static void pace_state_items(robotstxt_fleet_reply_item *items, const int64_t *own, size_t n,
                             int64_t next) {
    const int64_t state[] = {next, 1000, 0, 0, 1, 0, 0};
    size_t i;
    for (i = 0; i < n; i++) {
        items[i] = int_item(own[i]);
    }
    items[n] = text_item("ep1");
    for (i = 0; i < 7; i++) {
        items[n + 1 + i] = int_item(state[i]);
    }
}

static void pace_items(robotstxt_fleet_reply_item *items, const int64_t *own, size_t n) {
    pace_state_items(items, own, n, 2000);
}

/* A step's reply read as its value, the host's next slot given. */
static robotstxt_status pace_reply(robotstxt_fleet_pacer *pacer, robotstxt_fleet_step *step,
                                   const int64_t *own, size_t n, int64_t next, uint64_t *value) {
    robotstxt_fleet_reply_item items[24];
    pace_state_items(items, own, n, next);
    return robotstxt_fleet_pacer_step_reply(pacer, step, items, n + 8, value);
}

/* A reservation and its confirmations, each answer read back; the state a
 * reply ends with goes back to Redis with the next step. */
static bool test_fleet_pacer_round_trip(void) {
    robotstxt_fleet_pacer *pacer = new_fleet_pacer();
    robotstxt_fleet_step *step = NULL;
    robotstxt_fleet_ticket *ticket = NULL, *none = (robotstxt_fleet_ticket *)&pacer;
    robotstxt_fleet_ticket_info info;
    robotstxt_fleet_confirm c;
    robotstxt_fleet_pace_state state;
    robotstxt_fleet_reply_item items[24];
    robotstxt_fleet_at at = given(1000);
    uint64_t value = 0, ms = 0, now = 0;
    bool ok = pacer != NULL, known = false;
    const int64_t reserved[] = {1000, 0, 1000}, off[] = {-1, 3, 1000};
    const int64_t wait[] = {1, 1500, 0, 1500, 1000}, busy[] = {2, 1500, 0, 1700, 1600},
                  go[] = {0, 1500, 0, 1800, 1800}, disabled[] = {3, 1500, 4, 1900, 1900};
    if (!ok) {
        return false;
    }
    ok &= OK(robotstxt_fleet_pacer_reserve(pacer, TEXT("Example.TEST"), &at, &step));
    ok &= call_is(step, "reserve", "p:pace:{example.test}", "p:flight:{example.test}", "|", "1000",
                  "600000", "1", "120000", "86400000", "1000", "-", NULL);
    pace_items(items, reserved, 3);
    ok &= OK(robotstxt_fleet_pacer_reserve_reply(pacer, step, items, 11, &ticket));
    robotstxt_fleet_step_free(step);
    step = NULL;
    ok &= CHECK(ticket != NULL);
    if (!ok) {
        robotstxt_fleet_pacer_free(pacer);
        return false;
    }
    ok &= OK(robotstxt_fleet_ticket_read(ticket, &info));
    ok &= CHECK(text_is(info.host.ptr, info.host.len, "example.test") && info.start_ms == 1000 &&
                info.generation == 0);
    ok &= OK(robotstxt_fleet_pacer_now(pacer, &at, &known, &now));
    ok &= CHECK(known && now == 1000);
    ok &= OK(robotstxt_fleet_pacer_ms_until(pacer, 1400, &at, &ms));
    ok &= CHECK(ms == 400);

    /* Not yet: the ticket's slot moves to the one the fleet says. */
    ok &= OK(robotstxt_fleet_pacer_confirm(pacer, ticket, &at, &step));
    ok &= call_is(step, "confirm", "p:pace:{example.test}", "p:flight:{example.test}", "|", "1000",
                  "600000", "1", "120000", "86400000", "1000", "1000", "0", "w1-1",
                  "ep1 2000 1000 0 0 1 0 0", NULL);
    pace_items(items, wait, 5);
    ok &= OK(robotstxt_fleet_pacer_confirm_reply(pacer, ticket, step, items, 13, &c));
    ok &= CHECK(c.kind == ROBOTSTXT_CONFIRM_WAIT && c.until_ms == 1500 && !c.busy);
    ok &= OK(robotstxt_fleet_ticket_read(ticket, &info));
    ok &= CHECK(info.start_ms == 1500);
    robotstxt_fleet_step_free(step);
    ok &= OK(robotstxt_fleet_pacer_confirm(pacer, ticket, &at, &step));
    pace_items(items, busy, 5);
    ok &= OK(robotstxt_fleet_pacer_confirm_reply(pacer, ticket, step, items, 13, &c));
    ok &= CHECK(c.kind == ROBOTSTXT_CONFIRM_WAIT && c.until_ms == 1700 && c.busy);
    robotstxt_fleet_step_free(step);
    ok &= OK(robotstxt_fleet_pacer_confirm(pacer, ticket, &at, &step));
    pace_items(items, go, 5);
    ok &= OK(robotstxt_fleet_pacer_confirm_reply(pacer, ticket, step, items, 13, &c));
    ok &= CHECK(c.kind == ROBOTSTXT_CONFIRM_GO && c.at_ms == 1800);
    robotstxt_fleet_step_free(step);
    step = NULL;
    /* Spent: no second go, and nothing to give back. */
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_confirm(pacer, ticket, &at, &step),
                       ROBOTSTXT_STATUS_INVALID_TICKET);
    ok &= OK(robotstxt_fleet_pacer_cancel(pacer, ticket, &at, &step));
    ok &= CHECK(step == NULL);
    robotstxt_fleet_ticket_free(ticket);
    ticket = NULL;

    /* Switched off: no ticket; a ticket out confirms DISABLED. */
    ok &= OK(robotstxt_fleet_pacer_reserve(pacer, TEXT("example.test"), &at, &step));
    pace_items(items, off, 3);
    ok &= OK(robotstxt_fleet_pacer_reserve_reply(pacer, step, items, 11, &none));
    ok &= CHECK(none == NULL);
    robotstxt_fleet_step_free(step);
    ok &= OK(robotstxt_fleet_pacer_reserve(pacer, TEXT("example.test"), &at, &step));
    pace_items(items, reserved, 3);
    ok &= OK(robotstxt_fleet_pacer_reserve_reply(pacer, step, items, 11, &ticket));
    robotstxt_fleet_step_free(step);
    ok &= ticket != NULL && OK(robotstxt_fleet_pacer_confirm(pacer, ticket, &at, &step));
    pace_items(items, disabled, 5);
    ok &= ticket != NULL &&
          OK(robotstxt_fleet_pacer_confirm_reply(pacer, ticket, step, items, 13, &c));
    ok &= CHECK(c.kind == ROBOTSTXT_CONFIRM_DISABLED);
    ok &= ticket != NULL && OK(robotstxt_fleet_ticket_read(ticket, &info));
    ok &= CHECK(info.generation == 4);
    robotstxt_fleet_step_free(step);
    robotstxt_fleet_ticket_free(ticket);

    /* An unsent ticket is given back. */
    ok &= OK(robotstxt_fleet_pacer_reserve(pacer, TEXT("example.test"), &at, &step));
    pace_items(items, reserved, 3);
    ok &= OK(robotstxt_fleet_pacer_reserve_reply(pacer, step, items, 11, &ticket));
    robotstxt_fleet_step_free(step);
    ok &= ticket != NULL && OK(robotstxt_fleet_pacer_cancel(pacer, ticket, &at, &step));
    ok &= step != NULL && call_is(step, "cancel", "p:pace:{example.test}",
                                  "p:flight:{example.test}", "|", "1000", "600000", "1", "120000",
                                  "86400000", "1000", "1000", "0", "ep1 2000 1000 0 0 1 0 0", NULL);
    {
        const int64_t given_back[] = {1};
        ok &= step != NULL && OK(pace_reply(pacer, step, given_back, 1, 1000, &value));
        ok &= CHECK(value == 1);
    }
    robotstxt_fleet_step_free(step);
    ok &= ticket != NULL && CHECK_STATUS(robotstxt_fleet_pacer_confirm(pacer, ticket, &at, &step),
                                         ROBOTSTXT_STATUS_INVALID_TICKET);
    robotstxt_fleet_ticket_free(ticket);

    /* The other steps: their arguments, and the gap their reply gives. */
    ok &= OK(robotstxt_fleet_pacer_record(pacer, TEXT("example.test"), 429, true, 30000, &at, &step));
    ok &= call_is(step, "record", "p:pace:{example.test}", "p:flight:{example.test}", "|", "1000",
                  "600000", "1", "120000", "86400000", "1000", "429", "30000",
                  "ep1 1000 1000 0 0 1 0 0", NULL);
    {
        const int64_t gap[] = {2000};
        ok &= OK(pace_reply(pacer, step, gap, 1, 1000, &value));
        ok &= CHECK(value == 2000);
    }
    robotstxt_fleet_step_free(step);
    ok &= OK(robotstxt_fleet_pacer_record(pacer, TEXT("example.test"), 0, false, 0, &at, &step));
    ok &= arg_is(step, 6, "-1") && arg_is(step, 7, "-1");
    robotstxt_fleet_step_free(step);
    ok &= OK(robotstxt_fleet_pacer_set_delay(pacer, TEXT("example.test"), 2500, &at, &step));
    ok &= arg_is(step, 6, "2500");
    robotstxt_fleet_step_free(step);
    ok &= OK(robotstxt_fleet_pacer_set_enabled(pacer, TEXT("example.test"), false, &at, &step));
    ok &= arg_is(step, 6, "0");
    robotstxt_fleet_step_free(step);
    ok &= OK(robotstxt_fleet_pacer_pace_state(pacer, TEXT("example.test"), &at, &step));
    ok &= call_is(step, "pace_state", "p:pace:{example.test}", "p:flight:{example.test}", "|",
                  "1000", "600000", "1", "120000", "86400000", "1000", "ep1 1000 1000 0 0 1 0 0",
                  NULL);
    {
        const int64_t as_is[] = {1500, 1, 3000, 1000, 0, 0, 1, 0, 0};
        pace_items(items, as_is, 9);
        ok &= OK(robotstxt_fleet_pacer_pace_state_reply(pacer, step, items, 17, &state));
        ok &= CHECK(state.gap_ms == 1500 && state.in_flight == 1);
    }
    robotstxt_fleet_step_free(step);
    robotstxt_fleet_pacer_free(pacer);
    return ok;
}

/* Every misuse gets its status, and leaves outputs and steps as they were. */
static bool test_fleet_misuse(void) {
    robotstxt_fleet_cache *cache = new_fleet_cache("m:"), *other = new_fleet_cache("m:");
    robotstxt_fleet_pacer *pacer = new_fleet_pacer();
    robotstxt_fleet_cache_options co = robotstxt_fleet_cache_options_default();
    robotstxt_fleet_pacer_options po = robotstxt_fleet_pacer_options_default();
    robotstxt_fleet_cache *no_cache = NULL;
    robotstxt_fleet_pacer *no_pacer = NULL;
    robotstxt_fleet_step *step = NULL, *pace = NULL, *untouched_step = (robotstxt_fleet_step *)&co;
    robotstxt_fleet_lease *lease = NULL;
    robotstxt_fleet_ticket *ticket = NULL, *ticket2 = NULL;
    robotstxt_fleet_lookup l, untouched;
    robotstxt_fleet_stored stored;
    robotstxt_fleet_confirm c;
    robotstxt_fleet_reply_item items[24], odd;
    robotstxt_fleet_at at = mono(0);
    robotstxt_str s;
    robotstxt_fetch f;
    uint64_t value = 0, ms = 0;
    size_t n = 0;
    bool ok = cache != NULL && other != NULL && pacer != NULL, held = false;
    const int64_t reserved[] = {1000, 0, 1000};
    const uint8_t not_utf8[] = {0xff, 0xfe};
    if (!ok) {
        goto done;
    }
    ok &= CHECK(ROBOTSTXT_STATUS_BAD_REPLY == 18 && ROBOTSTXT_STATUS_INVALID_STEP == 19 &&
                ROBOTSTXT_LOOKUP_RUN == 3);
    /* Options out of range. */
    co.lease_ms = 0;
    ok &= CHECK_STATUS(robotstxt_fleet_cache_new(&co, &no_cache), ROBOTSTXT_STATUS_INVALID_OPTION);
    co = robotstxt_fleet_cache_options_default();
    co.capacity = 0;
    ok &= CHECK_STATUS(robotstxt_fleet_cache_new(&co, &no_cache), ROBOTSTXT_STATUS_INVALID_OPTION);
    co = robotstxt_fleet_cache_options_default();
    co.prefix.ptr = not_utf8;
    co.prefix.len = 2;
    ok &= CHECK_STATUS(robotstxt_fleet_cache_new(&co, &no_cache), ROBOTSTXT_STATUS_INVALID_OPTION);
    co.prefix.ptr = NULL;
    ok &= CHECK_STATUS(robotstxt_fleet_cache_new(&co, &no_cache), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_new(NULL, &no_cache), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    po.retain_ms = 0;
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_new(&po, &no_pacer), ROBOTSTXT_STATUS_INVALID_OPTION);
    po = robotstxt_fleet_pacer_options_default();
    po.known_capacity = 0;
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_new(&po, &no_pacer), ROBOTSTXT_STATUS_INVALID_OPTION);
    ok &= CHECK(no_cache == NULL && no_pacer == NULL);

    /* Lookups the cache refuses hand out nothing. */
    memset(&l, 0x5A, sizeof l);
    untouched = l;
    ok &= CHECK_STATUS(robotstxt_fleet_cache_lookup(NULL, TEXT(URL), TEXT("ExampleBot"), &at,
                                                    ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_lookup(cache, TEXT(URL), TEXT("ExampleBot"), NULL,
                                                    ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_lookup(cache, TEXT(URL), TEXT("ExampleBot"), &at,
                                                    ROBOTSTXT_WHEN_FETCHING_WAIT, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_lookup(cache, TEXT("ftp://a.test/"),
                                                    TEXT("ExampleBot"), &at,
                                                    ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                       ROBOTSTXT_STATUS_INVALID_URL);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_lookup(cache, TEXT(URL), TEXT("Example Bot"), &at,
                                                    ROBOTSTXT_WHEN_FETCHING_WAIT, &l),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_lookup(cache, TEXT(URL), TEXT("ExampleBot"), &at, 7,
                                                    &l),
                       ROBOTSTXT_STATUS_INVALID_OPTION);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_fail_safe(cache, TEXT(URL), TEXT("Example Bot"), &at,
                                                       &l),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK(memcmp(&l, &untouched, sizeof l) == 0);
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_reserve(pacer, TEXT(""), &at, &step),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_reserve(pacer, TEXT("a.test"), &at, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(step == NULL);

    /* A step is read by its own function, once, with its own cache. */
    step = run_step(cache, at, ROBOTSTXT_WHEN_FETCHING_WAIT);
    ok &= step != NULL;
    if (!ok) {
        goto done;
    }
    ok &= CHECK_STATUS(robotstxt_fleet_step_key(step, 2, &s), ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK_STATUS(robotstxt_fleet_step_arg(step, 3, &s), ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK_STATUS(robotstxt_fleet_step_arg(NULL, 0, &s), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_fleet_step_arg(step, 0, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_fleet_step_counts(step, &n, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    items[0] = text_item("1-1");
    ok &= CHECK_STATUS(robotstxt_fleet_cache_store_reply(cache, step, items, 1, &stored),
                       ROBOTSTXT_STATUS_INVALID_STEP);
    ok &= CHECK(strstr(last_error(), "lookup") != NULL);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_renew_reply(cache, step, items, 1, &held),
                       ROBOTSTXT_STATUS_INVALID_STEP);
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_step_reply(pacer, step, items, 1, &value),
                       ROBOTSTXT_STATUS_INVALID_STEP);
    ok &= CHECK_STATUS(lookup_reply(other, step, "fetch", NOW, "", 0, "1-1", NULL, 0, &l),
                       ROBOTSTXT_STATUS_INVALID_STEP);
    ok &= CHECK(strstr(last_error(), "another") != NULL);
    /* Items that are not a reply leave the step unread. */
    ok &= CHECK_STATUS(robotstxt_fleet_cache_lookup_reply(cache, step, NULL, 3, &l),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    memset(&odd, 0, sizeof odd);
    odd.kind = 9;
    ok &= CHECK_STATUS(robotstxt_fleet_cache_lookup_reply(cache, step, &odd, 1, &l),
                       ROBOTSTXT_STATUS_INVALID_OPTION);
    ok &= CHECK(memcmp(&l, &untouched, sizeof l) == 0);
    /* A reply of another shape is a bad reply, and the step is read. */
    items[0] = text_item("fresh");
    items[1] = int_item(NOW);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_lookup_reply(cache, step, items, 2, &l),
                       ROBOTSTXT_STATUS_BAD_REPLY);
    ok &= CHECK(strstr(last_error(), "lookup") != NULL);
    ok &= CHECK_STATUS(lookup_reply(cache, step, "fetch", NOW, "", 0, "1-1", NULL, 0, &l),
                       ROBOTSTXT_STATUS_INVALID_STEP);
    ok &= CHECK(strstr(last_error(), "already read") != NULL);
    robotstxt_fleet_step_free(step);
    step = run_step(cache, at, ROBOTSTXT_WHEN_FETCHING_WAIT);
    memset(&odd, 0, sizeof odd);
    odd.kind = ROBOTSTXT_FLEET_REPLY_ERROR;
    odd.bytes = (const uint8_t *)"ERR Error running script";
    odd.len = strlen("ERR Error running script");
    ok &= step != NULL && CHECK_STATUS(robotstxt_fleet_cache_lookup_reply(cache, step, &odd, 1, &l),
                                       ROBOTSTXT_STATUS_BAD_REPLY);
    ok &= CHECK(strstr(last_error(), "Error running script") != NULL);
    robotstxt_fleet_step_free(step);
    step = run_step(cache, at, ROBOTSTXT_WHEN_FETCHING_WAIT);
    ok &= step != NULL && CHECK_STATUS(lookup_reply(cache, step, "maybe", NOW, "", 0, "", NULL, 0,
                                                    &l),
                                       ROBOTSTXT_STATUS_BAD_REPLY);
    ok &= CHECK(memcmp(&l, &untouched, sizeof l) == 0);
    robotstxt_fleet_step_free(step);
    step = NULL;

    /* A lease ends once, with its own cache. */
    lease = fetch_lease(cache, "1-1");
    ok &= lease != NULL;
    memset(&f, 0, sizeof f);
    f.http_status = 404;
    ok &= lease != NULL && CHECK_STATUS(robotstxt_fleet_cache_abandon(other, lease, &step),
                                        ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK(strstr(last_error(), "another cache") != NULL);
    ok &= lease != NULL && CHECK_STATUS(robotstxt_fleet_cache_renew(other, lease, &at, &step),
                                        ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= lease != NULL &&
          CHECK_STATUS(robotstxt_fleet_cache_store(cache, lease, &f, TEXT("Example Bot"), &at, &step),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= lease != NULL && CHECK_STATUS(robotstxt_fleet_cache_store(cache, lease, NULL,
                                                                    TEXT("ExampleBot"), &at, &step),
                                        ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(step == NULL);
    ok &= lease != NULL && OK(robotstxt_fleet_cache_abandon(cache, lease, &step));
    ok &= lease != NULL && CHECK_STATUS(robotstxt_fleet_cache_abandon(cache, lease, &untouched_step),
                                        ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK(strstr(last_error(), "already stored or abandoned") != NULL);
    ok &= lease != NULL && CHECK_STATUS(robotstxt_fleet_cache_store(cache, lease, &f,
                                                                    TEXT("ExampleBot"), &at,
                                                                    &untouched_step),
                                        ROBOTSTXT_STATUS_INVALID_LEASE);
    ok &= CHECK(untouched_step == (robotstxt_fleet_step *)&co);
    /* An abandon's step has no reply to read. */
    items[0] = int_item(1);
    ok &= step != NULL && CHECK_STATUS(robotstxt_fleet_cache_renew_reply(cache, step, items, 1,
                                                                         &held),
                                       ROBOTSTXT_STATUS_INVALID_STEP);
    robotstxt_fleet_step_free(step);
    step = NULL;
    robotstxt_fleet_lease_free(lease);
    lease = NULL;

    /* Pace steps: each reply function reads its own kind, with its ticket. */
    ok &= OK(robotstxt_fleet_pacer_reserve(pacer, TEXT("a.test"), &at, &pace));
    pace_items(items, reserved, 3);
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_step_reply(pacer, pace, items, 11, &value),
                       ROBOTSTXT_STATUS_INVALID_STEP);
    ok &= CHECK_STATUS(robotstxt_fleet_cache_lookup_reply(cache, pace, items, 11, &l),
                       ROBOTSTXT_STATUS_INVALID_STEP);
    /* The state must follow the reserve's own items. */
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_reserve_reply(pacer, pace, items, 3, &ticket),
                       ROBOTSTXT_STATUS_BAD_REPLY);
    ok &= CHECK(ticket == NULL);
    robotstxt_fleet_step_free(pace);
    ok &= OK(robotstxt_fleet_pacer_reserve(pacer, TEXT("a.test"), &at, &pace));
    ok &= OK(robotstxt_fleet_pacer_reserve_reply(pacer, pace, items, 11, &ticket));
    robotstxt_fleet_step_free(pace);
    ok &= OK(robotstxt_fleet_pacer_reserve(pacer, TEXT("a.test"), &at, &pace));
    ok &= OK(robotstxt_fleet_pacer_reserve_reply(pacer, pace, items, 11, &ticket2));
    robotstxt_fleet_step_free(pace);
    pace = NULL;
    ok &= ticket != NULL && ticket2 != NULL &&
          OK(robotstxt_fleet_pacer_confirm(pacer, ticket, &at, &pace));
    {
        const int64_t go[] = {0, 1000, 0, 1000, 1000};
        pace_items(items, go, 5);
    }
    ok &= pace != NULL &&
          CHECK_STATUS(robotstxt_fleet_pacer_confirm_reply(pacer, ticket2, pace, items, 13, &c),
                       ROBOTSTXT_STATUS_INVALID_STEP);
    ok &= pace != NULL && CHECK_STATUS(robotstxt_fleet_pacer_pace_state_reply(
                                           pacer, pace, items, 13,
                                           (robotstxt_fleet_pace_state *)&value),
                                       ROBOTSTXT_STATUS_INVALID_STEP);
    ok &= pace != NULL &&
          OK(robotstxt_fleet_pacer_confirm_reply(pacer, ticket, pace, items, 13, &c));
    ok &= CHECK(c.kind == ROBOTSTXT_CONFIRM_GO);
    robotstxt_fleet_step_free(pace);
    pace = NULL;
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_confirm(NULL, ticket2, &at, &pace),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_cancel(pacer, NULL, &at, &pace),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_fleet_ticket_read(ticket2, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_fleet_pacer_ms_until(pacer, 0, NULL, &ms),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(pace == NULL);
    robotstxt_fleet_ticket_free(ticket);
    robotstxt_fleet_ticket_free(ticket2);
    ticket = ticket2 = NULL;

    /* A crawl delay and a request rate as a gap. */
    ok &= OK(robotstxt_pace_delay_ms(true, 0.25, true, 1, 3, &value)) && CHECK(value == 3000);
    ok &= OK(robotstxt_pace_delay_ms(true, 0.0001, false, 0, 0, &value)) && CHECK(value == 1);
    ok &= OK(robotstxt_pace_delay_ms(false, -1, false, 0, 0, &value)) && CHECK(value == 0);
    ok &= CHECK_STATUS(robotstxt_pace_delay_ms(true, -1, false, 0, 0, &value),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pace_delay_ms(false, 0, true, 1, 0, &value),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pace_delay_ms(false, 0, false, 0, 0, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);

    /* Freeing NULL does nothing. */
    robotstxt_fleet_step_free(NULL);
    robotstxt_fleet_lease_free(NULL);
    robotstxt_fleet_ticket_free(NULL);
    robotstxt_fleet_cache_free(NULL);
    robotstxt_fleet_pacer_free(NULL);
done:
    robotstxt_fleet_step_free(step);
    robotstxt_fleet_lease_free(lease);
    robotstxt_fleet_cache_free(cache);
    robotstxt_fleet_cache_free(other);
    robotstxt_fleet_pacer_free(pacer);
    return ok;
}

struct fleet_test {
    const char *name;
    bool (*run)(void);
};

static const struct fleet_test TESTS[] = {
    {"fleet_cache_round_trip", test_fleet_cache_round_trip},
    {"fleet_unreadable_copy", test_fleet_unreadable_copy},
    {"fleet_wait_or_disallow", test_fleet_wait_or_disallow},
    {"fleet_fail_safe", test_fleet_fail_safe},
    {"fleet_pacer_round_trip", test_fleet_pacer_round_trip},
    {"fleet_misuse", test_fleet_misuse},
};

void run_fleet_tests(size_t *passed, size_t *failed) {
    size_t i;
    for (i = 0; i < sizeof TESTS / sizeof TESTS[0]; i++) {
        bool ok = TESTS[i].run();
        if (!ok) {
            fprintf(stderr, "FAIL fleet: %s\n", TESTS[i].name);
        }
        *(ok ? passed : failed) += 1;
    }
    printf("fleet protocol: %zu cases\n", sizeof TESTS / sizeof TESTS[0]);
}
