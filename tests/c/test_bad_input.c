/* The bad-input matrix through the C ABI (SECURITY.md), the same
 * list as tests/bad_input.rs, bindings/node/__test__/bad-input.test.mjs and
 * bindings/go/badinput_test.go. Each input gets a defined answer or a clear
 * status, never a crash, a hang or a leak (this suite runs under ASan +
 * UBSan and under valgrind).
 *
 * Already covered elsewhere and not repeated here: NULL handles, NULL
 * out-pointers and (NULL, n) text for every export, (NULL, 0) as the empty
 * body, token and URL (test_api.c, test_cache.c); the parse limit and
 * unknown profiles (test_options); NaN and infinite pacer delays
 * (test_pacer_errors); leases stored twice or into another cache.
 *
 * Not testable, by design: use after free and double free. A handle is a
 * plain pointer; after robotstxt_*_free it is dangling and any use, a
 * second free included, is undefined behaviour that the library cannot
 * detect (as with free(3)). Freeing NULL does nothing. The bindings turn
 * these into defined behaviour: Go panics with "used after Close" and
 * Close is idempotent; Node has no free at all (the GC owns handles). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A pointer value no call may write: outputs must stay untouched. */
static int sentinel_target;
#define SENTINEL_RULES ((robotstxt_rules *)(void *)&sentinel_target)
#define SENTINEL_TICKET ((robotstxt_ticket *)(void *)&sentinel_target)

/* A growable byte buffer for building bodies and URLs. */
struct buf {
    uint8_t *data;
    size_t len, cap;
};

static void put(struct buf *b, const void *bytes, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n) {
            cap *= 2;
        }
        b->data = realloc(b->data, cap);
        if (b->data == NULL) {
            abort();
        }
        b->cap = cap;
    }
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

static void puts_(struct buf *b, const char *s) { put(b, s, strlen(s)); }

static void repeat(struct buf *b, const char *s, size_t times) {
    size_t i;
    for (i = 0; i < times; i++) {
        puts_(b, s);
    }
}

static robotstxt_options opts(robotstxt_profile profile, size_t limit) {
    robotstxt_options o = robotstxt_options_default();
    o.profile = profile;
    o.parse_limit = limit;
    return o;
}

static robotstxt_robots *parse_bytes(const uint8_t *body, size_t len, robotstxt_profile profile,
                                     size_t limit) {
    robotstxt_options o = opts(profile, limit);
    robotstxt_robots *robots = NULL;
    if (!OK(robotstxt_robots_parse_with(body, len, &o, &robots))) {
        return NULL;
    }
    return robots;
}

static robotstxt_rules *select_(const robotstxt_robots *robots, const uint8_t *token, size_t len) {
    robotstxt_rules *rules = NULL;
    if (!OK(robotstxt_robots_rules_for(robots, token, len, &rules))) {
        return NULL;
    }
    return rules;
}

/* The answer for (url, len); `decide` and `can_fetch` must agree. Sets
 * *ok to false on any failure. */
static bool answer(const robotstxt_rules *rules, const uint8_t *url, size_t len, uint32_t *line,
                   bool *ok) {
    bool allowed = false;
    robotstxt_decision d;
    *ok &= OK(robotstxt_rules_can_fetch(rules, url, len, &allowed));
    *ok &= OK(robotstxt_rules_decide(rules, url, len, &d));
    *ok &= CHECK(d.allowed == allowed);
    *ok &= CHECK((d.line == 0) == (d.pattern.len == 0));
    if (line != NULL) {
        *line = d.line;
    }
    return allowed;
}

#define ANSWER(rules, s, ok) answer((rules), (const uint8_t *)(s), strlen(s), NULL, (ok))

static size_t rule_count_for(const robotstxt_rules *rules, const char *url, bool *ok) {
    uint32_t line = 0;
    answer(rules, (const uint8_t *)url, strlen(url), &line, ok);
    return line;
}

static const robotstxt_profile PROFILES[2] = {ROBOTSTXT_PROFILE_RFC, ROBOTSTXT_PROFILE_GOOGLE};

/* Reads the largest `robots` file of parse_files.tsv into *body: from the
 * full shared data when ROBOTSTXT_SHARED (default ../shared) holds it, else
 * from the committed sample, found from the repository root that make runs
 * this suite in. The Makefile exports ROBOTSTXT_SHARED even when it does
 * not exist, hence the check. Says which it read. */
static bool read_largest_corpus_file(struct buf *body) {
    const char *shared = getenv("ROBOTSTXT_SHARED");
    const char *root;
    char path[4200], line[1024], name[256] = "", largest[256] = "";
    size_t files = 0, bytes = 0, most = 0;
    uint8_t chunk[65536];
    size_t n;
    FILE *f;
    if (shared == NULL || *shared == '\0') {
        shared = "../shared";
    }
    snprintf(path, sizeof path, "%s/bench/parse_files.tsv", shared);
    f = fopen(path, "r");
    root = f != NULL ? shared : "tests/corpus-sample";
    if (f == NULL) {
        snprintf(path, sizeof path, "%s/bench/parse_files.tsv", root);
        f = fopen(path, "r");
    }
    if (!CHECK(f != NULL)) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        char kind[32];
        if (sscanf(line, "%255[^\t]\t%zu\t%*u\t%31s", name, &bytes, kind) != 3) {
            continue; /* the header */
        }
        files++;
        if (strcmp(kind, "robots") == 0 && bytes > most) {
            most = bytes;
            memcpy(largest, name, sizeof largest);
        }
    }
    fclose(f);
    if (root == shared) {
        printf("corpus: full shared corpus (%zu files) at %s; largest: %s, %zu bytes\n", files,
               root, largest, most);
    } else {
        printf("corpus: committed sample %s (%zu files); the full corpus is in ../shared (none at "
               "%s); largest: %s, %zu bytes\n",
               root, files, shared, largest, most);
    }
    snprintf(path, sizeof path, "%s/corpus/%s", root, largest);
    f = fopen(path, "rb");
    if (!CHECK(f != NULL)) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        put(body, chunk, n);
    }
    fclose(f);
    return CHECK(body->len == most);
}

/* A body past the limit parses up to it, or whole with a raised limit. */
static bool big_body(const struct buf *body) {
    bool ok = true;
    int p;
    for (p = 0; p < 2; p++) {
        robotstxt_robots *limited = parse_bytes(body->data, body->len, PROFILES[p], 512000);
        robotstxt_robots *whole = parse_bytes(body->data, body->len, PROFILES[p], 4 << 20);
        robotstxt_rules *a = select_(limited, TEXT("ExampleBot"));
        robotstxt_rules *b = select_(whole, TEXT("Googlebot"));
        size_t n1 = 0, n2 = 0;
        ok &= OK(robotstxt_robots_diagnostic_count(limited, &n1));
        ok &= OK(robotstxt_robots_diagnostic_count(whole, &n2));
        ok &= CHECK(n1 <= n2);
        ANSWER(a, "/", &ok);
        ANSWER(b, "/search?q=x", &ok);
        ANSWER(a, "https://x.test/a/b", &ok);
        robotstxt_rules_free(a);
        robotstxt_rules_free(b);
        robotstxt_robots_free(limited);
        robotstxt_robots_free(whole);
    }
    return ok;
}

/* 3.7 MB: the largest file of the shared corpus. The sample's largest is
 * 514 KB: past the limit too, and a generated 3.7 MB body besides. */
static bool test_a_3_7_mb_body(void) {
    struct buf real = {0}, made = {0};
    bool ok = read_largest_corpus_file(&real);
    ok &= CHECK(real.len > 512000);
    ok &= big_body(&real);
    if (real.len < 3700000) {
        puts_(&made, "User-agent: *\n");
        while (made.len < 3718003) {
            puts_(&made, "Disallow: /generated/path/for/a/big/body/\n");
        }
        ok &= big_body(&made);
    }
    free(real.data);
    free(made.data);
    return ok;
}

static bool test_invalid_utf8_everywhere(void) {
    static const char body[] = "User-agent: *\nDisallow: /\xff\xfe\nSitemap: https://s.test/\xff.xml\n"
                               "Host: h\xe9\n";
    static const uint8_t token[] = {'B', 'o', 't', 0xff};
    static const uint8_t url[] = {'/', 0xff, 0xfe, '/', 'x'};
    bool ok = true;
    int p;
    for (p = 0; p < 2; p++) {
        robotstxt_robots *robots = parse_bytes(TEXT(body), PROFILES[p], 512000);
        robotstxt_rules *rules = select_(robots, TEXT("ExampleBot"));
        robotstxt_rules *odd = SENTINEL_RULES;
        const uint8_t *s = NULL;
        size_t len = 0;
        bool found = false;
        robotstxt_status st;
        /* RFC: a raw byte is encoded like the pattern and matches; Google
         * compares the path as given. */
        bool allowed = answer(rules, url, sizeof url, NULL, &ok);
        ok &= CHECK(allowed == (PROFILES[p] == ROBOTSTXT_PROFILE_GOOGLE));
        ok &= CHECK(!ANSWER(rules, "/%FF%FE", &ok));
        ok &= OK(robotstxt_robots_sitemap(robots, 0, &s, &len));
        ok &= CHECK(len == 20 && memcmp(s, "https://s.test/\xff.xml", 20) == 0);
        ok &= OK(robotstxt_robots_host(robots, &s, &len, &found));
        ok &= CHECK(found && len == 2 && s[1] == 0xe9);
        st = robotstxt_robots_rules_for(robots, token, sizeof token, &odd);
        if (PROFILES[p] == ROBOTSTXT_PROFILE_RFC) {
            ok &= CHECK_STATUS(st, ROBOTSTXT_STATUS_INVALID_TOKEN);
            ok &= CHECK(odd == SENTINEL_RULES);
            /* The message shows the token, lossily. */
            ok &= CHECK(strstr(last_error(), "Bot\xef\xbf\xbd") != NULL);
        } else {
            ok &= OK(st);
            robotstxt_rules_free(odd);
        }
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
    }
    return ok;
}

static bool test_nul_bytes(void) {
    static const uint8_t body[] = "User-agent: *\nDisallow: /a\0b\n";
    static const uint8_t token[] = {'E', 'x', 0, 'B', 'o', 't'};
    static const uint8_t url_ab[] = {'/', 'a', 0, 'b'};
    bool ok = true;
    robotstxt_robots *rfc = parse_bytes(body, sizeof body - 1, ROBOTSTXT_PROFILE_RFC, 512000);
    robotstxt_robots *google = parse_bytes(body, sizeof body - 1, ROBOTSTXT_PROFILE_GOOGLE, 512000);
    robotstxt_rules *r = select_(rfc, TEXT("ExampleBot"));
    robotstxt_rules *g = select_(google, TEXT("ExampleBot"));
    robotstxt_rules *odd = SENTINEL_RULES;
    /* RFC keeps NUL as a byte; Google ends the line at it (`/a`). */
    ok &= CHECK(ANSWER(r, "/a", &ok));
    ok &= CHECK(!answer(r, url_ab, sizeof url_ab, NULL, &ok));
    ok &= CHECK(!ANSWER(g, "/a", &ok));
    ok &= CHECK_STATUS(robotstxt_robots_rules_for(rfc, token, sizeof token, &odd),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK(odd == SENTINEL_RULES);
    ok &= OK(robotstxt_robots_rules_for(google, token, sizeof token, &odd));
    robotstxt_rules_free(odd);
    robotstxt_rules_free(r);
    robotstxt_rules_free(g);
    robotstxt_robots_free(rfc);
    robotstxt_robots_free(google);
    return ok;
}

static bool test_only_carriage_returns(void) {
    struct buf body = {0};
    bool ok = true;
    int p;
    repeat(&body, "\r", 600000);
    for (p = 0; p < 2; p++) {
        robotstxt_robots *robots = parse_bytes(body.data, body.len, PROFILES[p], 512000);
        robotstxt_rules *rules = select_(robots, TEXT("ExampleBot"));
        size_t n = 99;
        ok &= OK(robotstxt_robots_diagnostic_count(robots, &n));
        ok &= CHECK(n == 0);
        ok &= CHECK(ANSWER(rules, "/", &ok));
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
    }
    free(body.data);
    return ok;
}

static bool test_a_600_kib_line(void) {
    struct buf body = {0}, url = {0};
    bool ok = true;
    int p;
    puts_(&body, "User-agent: *\nDisallow: /");
    repeat(&body, "a", 600 * 1024);
    puts_(&url, "/");
    repeat(&url, "a", 20000);
    for (p = 0; p < 2; p++) {
        /* The limit cuts the line, and a cut line is dropped. */
        robotstxt_robots *robots = parse_bytes(body.data, body.len, PROFILES[p], 512000);
        robotstxt_rules *rules = select_(robots, TEXT("ExampleBot"));
        ok &= CHECK(answer(rules, url.data, url.len, NULL, &ok));
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
        /* Raised: RFC reads it whole; Google cuts it to 16,663 bytes. */
        robots = parse_bytes(body.data, body.len, PROFILES[p], 1 << 20);
        rules = select_(robots, TEXT("ExampleBot"));
        ok &= CHECK(answer(rules, url.data, url.len, NULL, &ok) ==
                    (PROFILES[p] == ROBOTSTXT_PROFILE_RFC));
        ok &= CHECK(!answer(rules, body.data + 24, body.len - 24, NULL, &ok));
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
    }
    free(body.data);
    free(url.data);
    return ok;
}

static bool test_a_hundred_thousand_rules(void) {
    struct buf body = {0};
    char line[64];
    bool ok = true;
    int i, p;
    puts_(&body, "User-agent: *\n");
    for (i = 0; i < 100000; i++) {
        snprintf(line, sizeof line, "Disallow: /p%05d/\n", i);
        puts_(&body, line);
    }
    for (p = 0; p < 2; p++) {
        robotstxt_robots *robots = parse_bytes(body.data, body.len, PROFILES[p], 4 << 20);
        robotstxt_rules *rules = select_(robots, TEXT("ExampleBot"));
        ok &= CHECK(!ANSWER(rules, "/p99999/x", &ok));
        ok &= CHECK(ANSWER(rules, "/p100000/", &ok));
        ok &= CHECK(rule_count_for(rules, "/p54321/", &ok) == 54323);
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
    }
    free(body.data);
    return ok;
}

/* `n` in the letters a-j, so that it is part of a product token. */
static void letters(char *out, int n) {
    char digits[16];
    int i;
    snprintf(digits, sizeof digits, "%d", n);
    for (i = 0; digits[i]; i++) {
        out[i] = (char)('a' + (digits[i] - '0'));
    }
    out[i] = '\0';
}

static bool test_ten_thousand_user_agents(void) {
    struct buf one = {0}, many = {0};
    char line[96], name[16], token[32];
    bool ok = true;
    int i, p;
    for (i = 0; i < 10000; i++) {
        letters(name, i);
        snprintf(line, sizeof line, "User-agent: bot%s\n", name);
        puts_(&one, line);
        snprintf(line, sizeof line, "User-agent: bot%s\nDisallow: /%d/\n", name, i);
        puts_(&many, line);
    }
    puts_(&one, "Disallow: /x\n");
    for (p = 0; p < 2; p++) {
        robotstxt_robots *robots = parse_bytes(one.data, one.len, PROFILES[p], 512000);
        robotstxt_rules *rules;
        letters(name, 9999);
        snprintf(token, sizeof token, "BOT%s", name);
        rules = select_(robots, TEXT(token));
        ok &= CHECK(!ANSWER(rules, "/x", &ok));
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
        robots = parse_bytes(many.data, many.len, PROFILES[p], 512000);
        letters(name, 4321);
        snprintf(token, sizeof token, "bot%s", name);
        rules = select_(robots, TEXT(token));
        ok &= CHECK(!ANSWER(rules, "/4321/", &ok));
        ok &= CHECK(ANSWER(rules, "/4322/", &ok));
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
    }
    free(one.data);
    free(many.data);
    return ok;
}

/* 5,000 `*` and a 1 MB URL: answers, and finishes (SECURITY.md gives the
 * measured cost; nothing here is timed). */
static bool test_5000_stars_and_a_1_mb_url(void) {
    struct buf body = {0}, url = {0}, few = {0}, raw = {0};
    bool ok = true;
    int p;
    puts_(&body, "User-agent: *\nDisallow: /");
    repeat(&body, "*a", 5000);
    puts_(&body, "\nAllow: /");
    repeat(&body, "*", 5000);
    repeat(&body, "a", 5001);
    puts_(&body, "x$\n");
    puts_(&url, "/");
    repeat(&url, "a", 1000000);
    puts_(&few, "/");
    repeat(&few, "ba", 4999);
    /* 5,000 `a`s, then a megabyte of bytes >= 0x80 (tripled by the RFC
     * profile's percent-encoding). */
    puts_(&raw, "/");
    repeat(&raw, "a", 5000);
    repeat(&raw, "\xff", 1000000);
    for (p = 0; p < 2; p++) {
        robotstxt_robots *robots = parse_bytes(body.data, body.len, PROFILES[p], 1 << 20);
        robotstxt_rules *rules = select_(robots, TEXT("ExampleBot"));
        uint32_t line = 0;
        ok &= CHECK(!answer(rules, url.data, url.len, &line, &ok) && line == 2);
        ok &= CHECK(answer(rules, few.data, few.len, NULL, &ok));
        puts_(&url, "x");
        ok &= CHECK(answer(rules, url.data, url.len, &line, &ok) && line == 3);
        url.len--;
        ok &= CHECK(!answer(rules, raw.data, raw.len, NULL, &ok));
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
    }
    free(body.data);
    free(url.data);
    free(few.data);
    free(raw.data);
    return ok;
}

/* Enumerations out of range and extreme numbers: an error that names the
 * option, or a saturated answer; never a wrap-around. */
static bool test_options_out_of_range(void) {
    robotstxt_freshness_policy policy = robotstxt_freshness_policy_default();
    robotstxt_cache_options co = robotstxt_cache_options_default();
    robotstxt_pacer_options po = robotstxt_pacer_options_default();
    robotstxt_entry *entry = (robotstxt_entry *)SENTINEL_RULES;
    robotstxt_cache *cache = (robotstxt_cache *)SENTINEL_RULES;
    robotstxt_pacer *pacer = NULL;
    robotstxt_lookup lookup;
    robotstxt_fetch fetch = {0};
    robotstxt_disposition d = 99;
    robotstxt_ticket *ticket = NULL;
    robotstxt_confirm confirm;
    uint64_t gap = 0, due = 0;
    bool ok = true;
    policy.after_limit = 7;
    ok &= CHECK_STATUS(robotstxt_entry_new(&policy, &entry), ROBOTSTXT_STATUS_INVALID_OPTION);
    ok &= CHECK(strstr(last_error(), "after_limit") != NULL);
    policy = robotstxt_freshness_policy_default();
    policy.access = 0xffffffffu;
    ok &= CHECK_STATUS(robotstxt_entry_new(&policy, &entry), ROBOTSTXT_STATUS_INVALID_OPTION);
    policy = robotstxt_freshness_policy_default();
    policy.options.parse_limit = 1;
    ok &= CHECK_STATUS(robotstxt_entry_new(&policy, &entry), ROBOTSTXT_STATUS_PARSE_LIMIT);
    co.policy.options.profile = 5;
    ok &= CHECK_STATUS(robotstxt_cache_new(&co, &cache), ROBOTSTXT_STATUS_INVALID_OPTION);
    ok &= CHECK(entry == (robotstxt_entry *)SENTINEL_RULES);
    ok &= CHECK(cache == (robotstxt_cache *)SENTINEL_RULES);
    /* Capacity 0 is taken as 1; times at the end of u64 saturate. */
    co = robotstxt_cache_options_default();
    co.capacity = 0;
    co.lease_ms = UINT64_MAX;
    co.policy.fresh_for_ms = UINT64_MAX;
    co.policy.retry_ms = UINT64_MAX;
    ok &= OK(robotstxt_cache_new(&co, &cache));
    ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, TEXT("https://a.test/"), TEXT("ExampleBot"),
                                              UINT64_MAX, 2, &lookup),
                       ROBOTSTXT_STATUS_INVALID_OPTION);
    ok &= CHECK(strstr(last_error(), "when_fetching") != NULL);
    ok &= OK(robotstxt_cache_lookup(cache, TEXT("https://a.test/"), TEXT("ExampleBot"),
                                    UINT64_MAX - 1, ROBOTSTXT_WHEN_FETCHING_WAIT, &lookup));
    ok &= CHECK(lookup.kind == ROBOTSTXT_LOOKUP_FETCH);
    if (lookup.kind == ROBOTSTXT_LOOKUP_FETCH) {
        fetch.http_status = 200;
        fetch.has_max_age = true;
        fetch.max_age_ms = UINT64_MAX;
        ok &= OK(robotstxt_cache_store(cache, lookup.lease, UINT64_MAX - 2, &fetch, &d));
        ok &= CHECK(d == ROBOTSTXT_DISPOSITION_FOLLOW_RULES);
        robotstxt_lease_free(lookup.lease);
    }
    /* Fresh until the end of time (due_at saturates at UINT64_MAX). */
    ok &= OK(robotstxt_cache_lookup(cache, TEXT("https://a.test/"), TEXT("ExampleBot"),
                                    UINT64_MAX - 1, ROBOTSTXT_WHEN_FETCHING_WAIT, &lookup));
    ok &= CHECK(lookup.kind == ROBOTSTXT_LOOKUP_READY && !lookup.stale);
    if (lookup.kind == ROBOTSTXT_LOOKUP_READY) {
        robotstxt_rules_free(lookup.rules);
    }
    robotstxt_cache_free(cache);
    ok &= OK(robotstxt_entry_new(&co.policy, &entry));
    ok &= OK(robotstxt_entry_record(entry, UINT64_MAX, &fetch, &d));
    ok &= OK(robotstxt_entry_due_at(entry, &due));
    ok &= CHECK(due == UINT64_MAX);
    robotstxt_entry_free(entry);
    /* A pacer at the end of time: floors, backoff and Retry-After saturate. */
    po.floor_ms = UINT64_MAX;
    po.backoff_cap_ms = UINT64_MAX;
    po.capacity = 0;
    ok &= OK(robotstxt_pacer_new(&po, &pacer));
    ok &= OK(robotstxt_pacer_reserve(pacer, TEXT("a.test"), UINT64_MAX, &ticket));
    ok &= CHECK(ticket != NULL && robotstxt_ticket_start(ticket) == UINT64_MAX);
    ok &= OK(robotstxt_pacer_confirm(pacer, ticket, UINT64_MAX, &confirm));
    ok &= CHECK(confirm.kind == ROBOTSTXT_CONFIRM_GO);
    robotstxt_ticket_free(ticket);
    ok &= OK(robotstxt_pacer_record(pacer, TEXT("a.test"), UINT64_MAX, 503, true, UINT64_MAX));
    ok &= OK(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), true, 1e300, true, UINT32_MAX, 1));
    ok &= OK(robotstxt_pacer_gap_ms(pacer, TEXT("a.test"), &gap));
    ok &= CHECK(gap == UINT64_MAX);
    ok &= CHECK_STATUS(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), true, -1.0, false, 0, 0),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_pacer_set_delay(pacer, TEXT("a.test"), false, 0, true, 0, 10),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    robotstxt_pacer_free(pacer);
    return ok;
}

/* A 1 MB host, a 1 MB origin, URLs that are no URL: clear errors. */
static bool test_odd_urls_and_hosts(void) {
    robotstxt_cache_options co = robotstxt_cache_options_default();
    robotstxt_pacer_options po = robotstxt_pacer_options_default();
    robotstxt_cache *cache = NULL;
    robotstxt_pacer *pacer = NULL;
    robotstxt_lookup lookup;
    struct buf big = {0};
    static const char *const bad[] = {"/x", "example.com/x", "ftp://a/", "https://", "https://a:port/",
                                      "\xff://a/"};
    robotstxt_ticket *ticket = SENTINEL_TICKET;
    bool ok = OK(robotstxt_cache_new(&co, &cache));
    size_t i, len = 9;
    ok &= OK(robotstxt_pacer_new(&po, &pacer));
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lookup.kind = 77;
        ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, TEXT(bad[i]), TEXT("ExampleBot"), 0,
                                                  ROBOTSTXT_WHEN_FETCHING_WAIT, &lookup),
                           ROBOTSTXT_STATUS_INVALID_URL);
        ok &= CHECK(lookup.kind == 77);
    }
    puts_(&big, "https://");
    repeat(&big, "h", 1000000);
    puts_(&big, "/");
    ok &= CHECK_STATUS(robotstxt_cache_lookup(cache, big.data, big.len, TEXT("ExampleBot"), 0,
                                              ROBOTSTXT_WHEN_FETCHING_WAIT, &lookup),
                       ROBOTSTXT_STATUS_INVALID_URL);
    ok &= CHECK(strlen(last_error()) < 1000); /* the message quotes a prefix */
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, big.data + 8, 1000000, 0, &ticket),
                       ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK_STATUS(robotstxt_pacer_reserve(pacer, NULL, 0, 0, &ticket), ROBOTSTXT_STATUS_INVALID_HOST);
    ok &= CHECK(ticket == SENTINEL_TICKET); /* untouched on failure */
    ok &= OK(robotstxt_cache_len(cache, &len));
    ok &= CHECK(len == 0);
    robotstxt_pacer_free(pacer);
    robotstxt_cache_free(cache);
    free(big.data);
    return ok;
}

/* NULL options mean the defaults, as the header says: the RFC profile,
 * typos accepted, the 512,000-byte limit. */
static bool test_parse_with_null_options(void) {
    struct buf body = {0};
    robotstxt_robots *robots = NULL;
    robotstxt_rules *rules = NULL;
    robotstxt_profile profile = 99;
    bool ok = true;
    puts_(&body, "User-agent: *\nDissallow: /typo\n");
    repeat(&body, "#", 600000);
    puts_(&body, "\nDisallow: /late\n");
    if (!OK(robotstxt_robots_parse_with(body.data, body.len, NULL, &robots))) {
        free(body.data);
        return false;
    }
    ok &= OK(robotstxt_robots_profile(robots, &profile));
    ok &= CHECK(profile == ROBOTSTXT_PROFILE_RFC);
    rules = select_(robots, TEXT("ExampleBot"));
    ok &= CHECK(!ANSWER(rules, "/typo", &ok));
    ok &= CHECK(ANSWER(rules, "/late", &ok));
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    robots = (robotstxt_robots *)SENTINEL_RULES;
    ok &= CHECK_STATUS(robotstxt_robots_parse_with(NULL, 3, NULL, &robots),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_parse_with(body.data, body.len, NULL, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(robots == (robotstxt_robots *)SENTINEL_RULES);
    free(body.data);
    return ok;
}

/* robotstxt_access_from_outcome reads only the status, redirects and body:
 * validators it does not use cannot make it fail. */
static bool test_access_from_outcome_ignores_validators(void) {
    static const char body[] = "User-agent: *\nDisallow: /x\n";
    robotstxt_options options = robotstxt_options_default();
    robotstxt_fetch fetch = {0};
    robotstxt_disposition d = 99;
    robotstxt_robots *robots = NULL;
    robotstxt_rules *rules = NULL;
    bool ok = true;
    fetch.http_status = 200;
    fetch.body.ptr = (const uint8_t *)body;
    fetch.body.len = strlen(body);
    fetch.has_etag = true;
    fetch.etag.ptr = NULL;
    fetch.etag.len = 5;
    fetch.has_last_modified = true;
    fetch.last_modified.ptr = (const uint8_t *)"x";
    fetch.last_modified.len = SIZE_MAX;
    if (!OK(robotstxt_access_from_outcome(&fetch, ROBOTSTXT_ACCESS_CAREFUL, &options, &d,
                                          &robots))) {
        return false;
    }
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_FOLLOW_RULES && robots != NULL);
    rules = select_(robots, TEXT("ExampleBot"));
    ok &= CHECK(!ANSWER(rules, "/x", &ok));
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    /* The body is read: (NULL, n) there is still refused. */
    fetch.body.ptr = NULL;
    robots = (robotstxt_robots *)SENTINEL_RULES;
    ok &= CHECK_STATUS(robotstxt_access_from_outcome(&fetch, ROBOTSTXT_ACCESS_CAREFUL, &options,
                                                     &d, &robots),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "fetch->body") != NULL);
    ok &= CHECK(robots == (robotstxt_robots *)SENTINEL_RULES);
    return ok;
}

struct bad_input_test {
    const char *name;
    bool (*run)(void);
};

static const struct bad_input_test TESTS[] = {
    {"a_3_7_mb_body", test_a_3_7_mb_body},
    {"invalid_utf8_everywhere", test_invalid_utf8_everywhere},
    {"nul_bytes", test_nul_bytes},
    {"only_carriage_returns", test_only_carriage_returns},
    {"a_600_kib_line", test_a_600_kib_line},
    {"a_hundred_thousand_rules", test_a_hundred_thousand_rules},
    {"ten_thousand_user_agents", test_ten_thousand_user_agents},
    {"5000_stars_and_a_1_mb_url", test_5000_stars_and_a_1_mb_url},
    {"options_out_of_range", test_options_out_of_range},
    {"odd_urls_and_hosts", test_odd_urls_and_hosts},
    {"parse_with_null_options", test_parse_with_null_options},
    {"access_from_outcome_ignores_validators", test_access_from_outcome_ignores_validators},
};

void run_bad_input_tests(size_t *passed, size_t *failed) {
    size_t i;
    for (i = 0; i < sizeof TESTS / sizeof TESTS[0]; i++) {
        bool ok = TESTS[i].run();
        if (!ok) {
            fprintf(stderr, "FAIL bad input: %s\n", TESTS[i].name);
        }
        *(ok ? passed : failed) += 1;
    }
    printf("bad input: %zu cases\n", sizeof TESTS / sizeof TESTS[0]);
}
