/* The C ABI's contract, one `bool test_x(void)` per promise: results,
 * every error path (NULL handles and pointers, (NULL, n) text, invalid
 * tokens and options, indexes), outputs untouched on failure, borrowed
 * strings, ownership, and per-thread state. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char SHOP[] = "User-agent: *\n"
                           "Disallow: /account/\n"
                           "Disallow: /people/\n"
                           "Disallow: /products/*?sort=\n"
                           "Allow: /products/\n"
                           "Crawl-delay: 2\n"
                           "\n"
                           "User-agent: NimbuBot\n"
                           "Disallow: /prices/\n"
                           "Allow: /prices/today\n"
                           "Disallow: /*.pdf$\n"
                           "Disallow: /offers/\n"
                           "Allow: /offers/\n"
                           "Crawl-delay: 2.5\n"
                           "\n"
                           "User-agent: nimbubot\n"
                           "Disallow: /drafts/\n"
                           "\n"
                           "User-agent: ArchiveBot\n"
                           "Disallow: /\n"
                           "\n"
                           "Sitemap: https://bazaar.nimbu.test/sitemap.xml\n";

/* A pointer value no call may write: outputs must stay untouched. */
static int sentinel_target;
#define SENTINEL ((void *)&sentinel_target)

static robotstxt_robots *parse(const char *body) {
    robotstxt_robots *robots = NULL;
    if (!OK(robotstxt_robots_parse(TEXT(body), &robots))) {
        return NULL;
    }
    return robots;
}

static robotstxt_rules *rules_for(const robotstxt_robots *robots, const char *token) {
    robotstxt_rules *rules = NULL;
    if (!OK(robotstxt_robots_rules_for(robots, TEXT(token), &rules))) {
        return NULL;
    }
    return rules;
}

static bool allowed(const robotstxt_rules *rules, const char *url) {
    bool ok = false;
    if (!OK(robotstxt_rules_can_fetch(rules, TEXT(url), &ok))) {
        return false;
    }
    return ok;
}

static bool test_version_and_messages(void) {
    const char *v = robotstxt_version();
    bool ok = CHECK(v != NULL && strlen(v) >= 5 && v[0] >= '0' && v[0] <= '9');
    robotstxt_status s;
    for (s = 0; s <= 9; s++) {
        ok &= CHECK(strcmp(robotstxt_status_message(s), "unknown status") != 0);
    }
    ok &= CHECK(strcmp(robotstxt_status_message(ROBOTSTXT_STATUS_OK), "success") == 0);
    ok &= CHECK(strcmp(robotstxt_status_message(ROBOTSTXT_STATUS_PANIC), "unknown status") != 0);
    ok &= CHECK(strcmp(robotstxt_status_message(99), "unknown status") == 0);
    ok &= CHECK(strcmp(robotstxt_status_message(UINT32_MAX), "unknown status") == 0);
    /* Explicit values: the ABI promises them. */
    ok &= CHECK(ROBOTSTXT_STATUS_OK == 0 && ROBOTSTXT_STATUS_NULL_ARGUMENT == 1 &&
                ROBOTSTXT_STATUS_INVALID_TOKEN == 3 && ROBOTSTXT_STATUS_PANIC == 100);
    return ok;
}

static bool test_shop_answers(void) {
    robotstxt_robots *robots = parse(SHOP);
    robotstxt_rules *nimbu = rules_for(robots, "NimbuBot");
    robotstxt_rules *other = rules_for(robots, "OtherBot");
    robotstxt_rules *archive = rules_for(robots, "ArchiveBot");
    bool ok = CHECK(robots && nimbu && other && archive);
    if (ok) {
        ok &= CHECK(allowed(nimbu, "/prices/today"));
        ok &= CHECK(!allowed(nimbu, "/prices/history"));
        ok &= CHECK(!allowed(nimbu, "https://bazaar.nimbu.test/guides/size-chart.pdf"));
        ok &= CHECK(allowed(nimbu, "/guides/size-chart.pdf?print=1"));
        ok &= CHECK(allowed(nimbu, "/offers/weekend"));
        ok &= CHECK(!allowed(nimbu, "/drafts/new-range"));
        ok &= CHECK(allowed(nimbu, "/account/orders"));
        ok &= CHECK(!allowed(other, "/account/orders"));
        ok &= CHECK(!allowed(other, "/products/?sort=price"));
        ok &= CHECK(allowed(archive, "/robots.txt"));
        ok &= CHECK(!allowed(archive, "/"));
    }
    robotstxt_rules_free(archive);
    robotstxt_rules_free(other);
    robotstxt_rules_free(nimbu);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_decide_and_borrowed_pattern(void) {
    robotstxt_robots *robots = parse(SHOP);
    robotstxt_rules *rules = rules_for(robots, "NimbuBot");
    robotstxt_decision d;
    bool ok = CHECK(rules != NULL);
    if (!ok) {
        robotstxt_robots_free(robots);
        return false;
    }
    ok &= OK(robotstxt_rules_decide(rules, TEXT("/prices/today"), &d));
    ok &= CHECK(d.allowed && d.line == 10 && d.kind == ROBOTSTXT_DECISION_ALLOW);
    ok &= CHECK(text_is(d.pattern.ptr, d.pattern.len, "/prices/today"));
    ok &= OK(robotstxt_rules_decide(rules, TEXT("/nothing/here"), &d));
    ok &= CHECK(d.allowed && d.line == 0 && d.kind == ROBOTSTXT_DECISION_NONE);
    ok &= CHECK(d.pattern.ptr == NULL && d.pattern.len == 0);
    ok &= OK(robotstxt_rules_decide(rules, TEXT("/prices/history"), &d));
    /* Rules outlive the robots they came from, and so do their patterns. */
    robotstxt_robots_free(robots);
    ok &= CHECK(!d.allowed && d.line == 9 && d.kind == ROBOTSTXT_DECISION_DISALLOW);
    ok &= CHECK(text_is(d.pattern.ptr, d.pattern.len, "/prices/"));
    ok &= CHECK(!allowed(rules, "/prices/history"));
    ok &= CHECK(strcmp(robotstxt_decision_kind_name(ROBOTSTXT_DECISION_DISALLOW), "disallow") == 0);
    ok &= CHECK(strcmp(robotstxt_decision_kind_name(ROBOTSTXT_DECISION_ALLOW), "allow") == 0);
    ok &= CHECK(strcmp(robotstxt_decision_kind_name(ROBOTSTXT_DECISION_NONE), "none") == 0);
    ok &= CHECK(strcmp(robotstxt_decision_kind_name(ROBOTSTXT_DECISION_ALLOW_ALL), "allow-all") == 0);
    ok &= CHECK(strcmp(robotstxt_decision_kind_name(ROBOTSTXT_DECISION_DISALLOW_ALL), "disallow-all") == 0);
    ok &= CHECK(robotstxt_decision_kind_name(5) == NULL);
    ok &= CHECK(strcmp(robotstxt_cause_name(ROBOTSTXT_CAUSE_NO_RESPONSE), "no-response") == 0);
    ok &= CHECK(robotstxt_cause_name(6) == NULL);
    robotstxt_rules_free(rules);
    return ok;
}

static bool test_empty_and_binary_bodies(void) {
    robotstxt_robots *robots = NULL;
    robotstxt_rules *rules = NULL;
    static const uint8_t junk[] = {0x00, 0xff, 0xfe, '\r', 'D', 0x00, ':', '\n', 0xef, 0xbb};
    bool ok = OK(robotstxt_robots_parse(NULL, 0, &robots));
    ok &= OK(robotstxt_robots_rules_for(robots, TEXT("ExampleBot"), &rules));
    ok &= CHECK(allowed(rules, "/anything"));
    /* (NULL, 0) is the empty URL: the path "/". */
    {
        bool a = false;
        ok &= OK(robotstxt_rules_can_fetch(rules, NULL, 0, &a));
        ok &= CHECK(a);
    }
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    robots = NULL;
    ok &= OK(robotstxt_robots_parse(junk, sizeof junk, &robots));
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_parse_errors(void) {
    robotstxt_robots *robots = SENTINEL;
    robotstxt_options options = robotstxt_options_default();
    bool ok = CHECK_STATUS(robotstxt_robots_parse(NULL, 5, &robots), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(robots == SENTINEL);
    ok &= CHECK(strstr(last_error(), "robotstxt_robots_parse") != NULL);
    ok &= CHECK(strstr(last_error(), "`body` is NULL but its length is 5") != NULL);
    ok &= CHECK_STATUS(robotstxt_robots_parse(TEXT("x"), NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "robots_out") != NULL);
    ok &= CHECK_STATUS(robotstxt_robots_parse_with(TEXT("x"), NULL, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_parse_with(NULL, 1, &options, &robots),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    /* A length no buffer can have is refused before anything is read. */
    ok &= CHECK_STATUS(robotstxt_robots_parse((const uint8_t *)"x", SIZE_MAX, &robots),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK(robots == SENTINEL);
    return ok;
}

static bool test_options(void) {
    robotstxt_options o = robotstxt_options_default();
    robotstxt_robots *robots = SENTINEL;
    robotstxt_profile profile = 99;
    static const size_t bad_limits[] = {0, 1, ROBOTSTXT_MIN_PARSE_LIMIT - 1,
                                        ROBOTSTXT_MAX_PARSE_LIMIT + 1, SIZE_MAX};
    size_t i;
    bool ok = CHECK(o.profile == ROBOTSTXT_PROFILE_RFC && o.parse_limit == 512000 && o.typos);
    for (i = 0; i < sizeof bad_limits / sizeof bad_limits[0]; i++) {
        o.parse_limit = bad_limits[i];
        ok &= CHECK_STATUS(robotstxt_robots_parse_with(TEXT(SHOP), &o, &robots),
                           ROBOTSTXT_STATUS_PARSE_LIMIT);
        ok &= CHECK(robots == SENTINEL);
        ok &= CHECK(strstr(last_error(), "parse limit") != NULL);
    }
    o = robotstxt_options_default();
    o.profile = 2;
    ok &= CHECK_STATUS(robotstxt_robots_parse_with(TEXT(SHOP), &o, &robots),
                       ROBOTSTXT_STATUS_INVALID_OPTION);
    ok &= CHECK(robots == SENTINEL && strstr(last_error(), "profile") != NULL);
    /* A zeroed struct is invalid rather than silently different. */
    memset(&o, 0, sizeof o);
    ok &= CHECK_STATUS(robotstxt_robots_parse_with(TEXT(SHOP), &o, &robots),
                       ROBOTSTXT_STATUS_PARSE_LIMIT);
    /* The bounds themselves are fine; so is the Google profile. */
    o = robotstxt_options_default();
    o.parse_limit = ROBOTSTXT_MAX_PARSE_LIMIT;
    o.profile = ROBOTSTXT_PROFILE_GOOGLE;
    o.typos = false;
    ok &= OK(robotstxt_robots_parse_with(TEXT(SHOP), &o, &robots));
    ok &= OK(robotstxt_robots_profile(robots, &profile));
    ok &= CHECK(profile == ROBOTSTXT_PROFILE_GOOGLE);
    ok &= CHECK_STATUS(robotstxt_robots_profile(robots, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_profile(NULL, &profile), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_typos_option(void) {
    robotstxt_options o = robotstxt_options_default();
    robotstxt_robots *robots = NULL;
    robotstxt_rules *rules = NULL;
    const char *body = "User-agent: *\nDissallow: /x\n";
    bool ok = OK(robotstxt_robots_parse_with(TEXT(body), &o, &robots));
    ok &= OK(robotstxt_robots_rules_for(robots, TEXT("ExampleBot"), &rules));
    ok &= CHECK(!allowed(rules, "/x"));
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    o.typos = false;
    ok &= OK(robotstxt_robots_parse_with(TEXT(body), &o, &robots));
    ok &= OK(robotstxt_robots_rules_for(robots, TEXT("ExampleBot"), &rules));
    ok &= CHECK(allowed(rules, "/x"));
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_parse_limit_cuts(void) {
    /* A disallow past 512,000 bytes is unseen by default, seen with more. */
    static char body[600100];
    robotstxt_options o = robotstxt_options_default();
    robotstxt_robots *robots = NULL;
    robotstxt_rules *rules = NULL;
    size_t n = 0;
    bool ok;
    n += (size_t)sprintf(body, "User-agent: *\n");
    while (n < 600000) {
        body[n++] = '#';
    }
    body[n++] = '\n';
    n += (size_t)sprintf(body + n, "Disallow: /late\n");
    ok = OK(robotstxt_robots_parse_with((const uint8_t *)body, n, &o, &robots));
    ok &= OK(robotstxt_robots_rules_for(robots, TEXT("ExampleBot"), &rules));
    ok &= CHECK(allowed(rules, "/late"));
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    o.parse_limit = 700000;
    ok &= OK(robotstxt_robots_parse_with((const uint8_t *)body, n, &o, &robots));
    ok &= OK(robotstxt_robots_rules_for(robots, TEXT("ExampleBot"), &rules));
    ok &= CHECK(!allowed(rules, "/late"));
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_invalid_token(void) {
    robotstxt_robots *robots = parse(SHOP);
    robotstxt_rules *rules = SENTINEL;
    const char *ua = "Mozilla/5.0 (compatible; NimbuBot/1.0)";
    robotstxt_options google = robotstxt_options_default();
    robotstxt_robots *g = NULL;
    bool ok = CHECK_STATUS(robotstxt_robots_rules_for(robots, TEXT(ua), &rules),
                           ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK(rules == SENTINEL);
    /* The core's own message, verbatim: what was passed, what to pass. */
    ok &= CHECK(strstr(last_error(), "invalid product token \"Mozilla/5.0 (compatible; NimbuBot/1.0)\"") ==
                last_error());
    ok &= CHECK(strstr(last_error(), "ExampleBot") != NULL);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for(robots, TEXT("MyBot/1.0"), &rules),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK(strstr(last_error(), "\"MyBot/1.0\"") != NULL);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for(robots, NULL, 0, &rules),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK(strstr(last_error(), "\"\"") != NULL);
    ok &= CHECK(rules == SENTINEL);
    /* The Google profile takes any name, compared whole. */
    google.profile = ROBOTSTXT_PROFILE_GOOGLE;
    ok &= OK(robotstxt_robots_parse_with(TEXT(SHOP), &google, &g));
    rules = NULL;
    ok &= OK(robotstxt_robots_rules_for(g, TEXT(ua), &rules));
    ok &= CHECK(!allowed(rules, "/account/orders")); /* the `*` group */
    robotstxt_rules_free(rules);
    rules = NULL;
    ok &= OK(robotstxt_robots_rules_for(g, NULL, 0, &rules));
    robotstxt_rules_free(rules);
    robotstxt_robots_free(g);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_product_token(void) {
    static const char *const good[][2] = {
        {"Mozilla/5.0 (compatible; PoliteBot/2.1; +https://x)", "PoliteBot"},
        {"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 "
         "(KHTML, like Gecko) Chrome/99.0 Mobile Safari/537.36 "
         "(compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
         "Googlebot"},
        {"PoliteBot/1.0 (+https://example.com/bot)", "PoliteBot"},
        {"PoliteBot", "PoliteBot"},
    };
    static const char *const bad[] = {"Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0", "Bot2/1.0",
                                      " ", "Mozilla/5.0 (compatible; 360Spider)"};
    static const uint8_t not_utf8[] = {'B', 0xff, 'o', 't'};
    robotstxt_robots *robots = parse(SHOP);
    robotstxt_rules *rules = NULL;
    const uint8_t *token = SENTINEL;
    size_t len = 99, i;
    bool ok = true;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        const char *ua = good[i][0];
        ok &= OK(robotstxt_product_token(TEXT(ua), &token, &len));
        ok &= CHECK(text_is(token, len, good[i][1]));
        /* A sub-slice of the header, not a copy. */
        ok &= CHECK(token >= (const uint8_t *)ua && token + len <= (const uint8_t *)ua + strlen(ua));
    }
    token = SENTINEL;
    len = 99;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ok &= CHECK_STATUS(robotstxt_product_token(TEXT(bad[i]), &token, &len),
                           ROBOTSTXT_STATUS_INVALID_TOKEN);
        ok &= CHECK(strstr(last_error(), "product token") != NULL);
    }
    ok &= CHECK_STATUS(robotstxt_product_token(NULL, 0, &token, &len),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK_STATUS(robotstxt_product_token(not_utf8, sizeof not_utf8, &token, &len),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK_STATUS(robotstxt_product_token(NULL, 4, &token, &len),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "robotstxt_product_token") != NULL);
    ok &= CHECK_STATUS(robotstxt_product_token(TEXT("PoliteBot"), NULL, &len),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_product_token(TEXT("PoliteBot"), &token, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(token == SENTINEL && len == 99);
    /* What it finds selects that crawler's group. */
    ok &= OK(robotstxt_product_token(TEXT("Mozilla/5.0 (compatible; NimbuBot/1.0)"), &token, &len));
    ok &= OK(robotstxt_robots_rules_for(robots, token, len, &rules));
    ok &= CHECK(!allowed(rules, "/prices/history") && allowed(rules, "/prices/today"));
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_selection_null_arguments(void) {
    robotstxt_robots *robots = parse(SHOP);
    robotstxt_rules *rules = SENTINEL;
    robotstxt_str list[2];
    bool ok = CHECK_STATUS(robotstxt_robots_rules_for(NULL, TEXT("NimbuBot"), &rules),
                           ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "`robots` is NULL") != NULL);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for(robots, NULL, 3, &rules),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for(robots, TEXT("NimbuBot"), NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for_any(robots, NULL, 0, &rules),
                       ROBOTSTXT_STATUS_NO_TOKENS);
    ok &= CHECK(strstr(last_error(), "no product tokens") != NULL);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for_strictest(robots, NULL, 0, &rules),
                       ROBOTSTXT_STATUS_NO_TOKENS);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for_any(robots, NULL, 2, &rules),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    list[0].ptr = (const uint8_t *)"NimbuBot";
    list[0].len = 8;
    list[1].ptr = NULL;
    list[1].len = 4;
    ok &= CHECK_STATUS(robotstxt_robots_rules_for_any(robots, list, 2, &rules),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for_strictest(robots, list, 2, &rules),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    list[1].ptr = (const uint8_t *)"GPT/1";
    list[1].len = 5;
    ok &= CHECK_STATUS(robotstxt_robots_rules_for_any(robots, list, 2, &rules),
                       ROBOTSTXT_STATUS_INVALID_TOKEN);
    ok &= CHECK(strstr(last_error(), "\"GPT/1\"") != NULL);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for_any(robots, list, SIZE_MAX, &rules),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for_any(NULL, list, 1, &rules),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_rules_for_any(robots, list, 1, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(rules == SENTINEL);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_several_tokens(void) {
    robotstxt_robots *robots = parse(SHOP);
    robotstxt_rules *any = NULL, *strictest = NULL;
    robotstxt_str list[2];
    double delay = 0;
    bool has = false;
    bool ok;
    list[0].ptr = (const uint8_t *)"NimbuBot";
    list[0].len = 8;
    list[1].ptr = (const uint8_t *)"ArchiveBot";
    list[1].len = 10;
    ok = OK(robotstxt_robots_rules_for_any(robots, list, 2, &any));
    ok &= OK(robotstxt_robots_rules_for_strictest(robots, list, 2, &strictest));
    if (ok) {
        /* Merged: Allow /prices/today (13) beats Disallow / (1). */
        ok &= CHECK(allowed(any, "/prices/today"));
        /* Strictest: ArchiveBot's own selection disallows it. */
        ok &= CHECK(!allowed(strictest, "/prices/today"));
        ok &= OK(robotstxt_rules_crawl_delay(strictest, &delay, &has));
        ok &= CHECK(has && delay == 2.5);
        /* The index built up front answers as the scan did. */
        ok &= OK(robotstxt_rules_compile(any));
        ok &= OK(robotstxt_rules_compile(strictest));
        ok &= CHECK(allowed(any, "/prices/today"));
        ok &= CHECK(!allowed(strictest, "/prices/today"));
    }
    robotstxt_rules_free(any);
    robotstxt_rules_free(strictest);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_rules_null_arguments(void) {
    robotstxt_robots *robots = parse(SHOP);
    robotstxt_rules *rules = rules_for(robots, "NimbuBot");
    bool a = true;
    robotstxt_decision d;
    double seconds = -1;
    bool has = true;
    uint32_t n = 7, m = 7;
    bool ok = CHECK_STATUS(robotstxt_rules_can_fetch(NULL, TEXT("/"), &a),
                           ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_can_fetch(rules, NULL, 1, &a),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "`url` is NULL but its length is 1") != NULL);
    ok &= CHECK_STATUS(robotstxt_rules_can_fetch(rules, TEXT("/"), NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(a == true);
    memset(&d, 0x5a, sizeof d);
    ok &= CHECK_STATUS(robotstxt_rules_decide(NULL, TEXT("/"), &d), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_decide(rules, NULL, 2, &d), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(d.line == 0x5a5a5a5a);
    ok &= CHECK_STATUS(robotstxt_rules_decide(rules, TEXT("/"), NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_compile(NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "rules") != NULL);
    ok &= CHECK_STATUS(robotstxt_rules_crawl_delay(NULL, &seconds, &has),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_crawl_delay(rules, NULL, &has),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_crawl_delay(rules, &seconds, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(seconds == -1 && has == true);
    ok &= CHECK_STATUS(robotstxt_rules_request_rate(NULL, &n, &m, &has),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_rules_request_rate(rules, &n, NULL, &has),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(n == 7 && m == 7);
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_crawl_delay_and_rate(void) {
    robotstxt_robots *robots = parse("User-agent: a\nCrawl-delay: 0.05\nRequest-rate: 1/10s\n"
                                     "Request-rate: 3/1m\nDisallow: /never\n\nUser-agent: b\nDisallow: /\n");
    robotstxt_rules *a = rules_for(robots, "a");
    robotstxt_rules *b = rules_for(robots, "b");
    double seconds = -1;
    bool has = false;
    uint32_t n = 0, m = 0;
    bool ok = CHECK(a && b);
    ok &= OK(robotstxt_rules_crawl_delay(a, &seconds, &has));
    ok &= CHECK(has && seconds == 0.05);
    ok &= OK(robotstxt_rules_request_rate(a, &n, &m, &has));
    ok &= CHECK(has && n == 3 && m == 60); /* the slowest: 20 s between requests, not 10 */
    ok &= OK(robotstxt_rules_crawl_delay(b, &seconds, &has));
    ok &= CHECK(!has && seconds == 0);
    ok &= OK(robotstxt_rules_request_rate(b, &n, &m, &has));
    ok &= CHECK(!has && n == 0 && m == 0);
    robotstxt_rules_free(a);
    robotstxt_rules_free(b);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_sitemaps_and_host(void) {
    robotstxt_robots *robots = parse("Sitemap: https://a.test/1.xml\nHost: a.test\n"
                                     "Host: b.test\nsitemap: https://a.test/2.xml\n");
    robotstxt_robots *none = parse("User-agent: *\n");
    const uint8_t *first = NULL, *url = SENTINEL, *host = SENTINEL;
    size_t count = 0, len = 99, first_len = 0;
    bool found = false;
    bool ok = OK(robotstxt_robots_sitemap_count(robots, &count));
    ok &= CHECK(count == 2);
    ok &= OK(robotstxt_robots_sitemap(robots, 0, &first, &first_len));
    ok &= CHECK(text_is(first, first_len, "https://a.test/1.xml"));
    ok &= OK(robotstxt_robots_sitemap(robots, 1, &url, &len));
    ok &= CHECK(text_is(url, len, "https://a.test/2.xml"));
    url = SENTINEL;
    len = 99;
    ok &= CHECK_STATUS(robotstxt_robots_sitemap(robots, 2, &url, &len),
                       ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK(url == SENTINEL && len == 99);
    ok &= CHECK(strstr(last_error(), "sitemap index 2 is out of range: there are 2") != NULL);
    ok &= CHECK_STATUS(robotstxt_robots_sitemap(robots, SIZE_MAX, &url, &len),
                       ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK_STATUS(robotstxt_robots_sitemap(NULL, 0, &url, &len),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_sitemap(robots, 0, NULL, &len),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_sitemap(robots, 0, &url, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_sitemap_count(NULL, &count),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_sitemap_count(robots, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= OK(robotstxt_robots_host(robots, &host, &len, &found));
    ok &= CHECK(found && text_is(host, len, "a.test"));
    ok &= OK(robotstxt_robots_host(none, &host, &len, &found));
    ok &= CHECK(!found && host == NULL && len == 0);
    ok &= CHECK_STATUS(robotstxt_robots_host(robots, &host, &len, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_host(NULL, &host, &len, &found),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= OK(robotstxt_robots_sitemap_count(none, &count));
    ok &= CHECK(count == 0);
    /* Borrowed text lives as long as its handle: still readable here. */
    ok &= CHECK(text_is(first, first_len, "https://a.test/1.xml"));
    robotstxt_robots_free(none);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_diagnostics(void) {
    robotstxt_robots *robots = parse("Disallow: /early\n"    /* 1: outside-group */
                                     "User-agent: *\n"       /* 2 */
                                     "Dissallow: /typo\n"    /* 3: typo */
                                     "disallow /nocolon\n"   /* 4: missing-colon */
                                     "Crawl-delay: soon\n"   /* 5: invalid-value */
                                     "Foo: bar\n"            /* 6: unknown */
                                     "# comment\n"           /* 7: nothing */
                                     "just some words here\n"); /* 8: invalid */
    robotstxt_diagnostic d, untouched;
    size_t count = 0;
    bool ok = OK(robotstxt_robots_diagnostic_count(robots, &count));
    ok &= CHECK(count == 6);
    ok &= OK(robotstxt_robots_diagnostic(robots, 0, &d));
    ok &= CHECK(d.line == 1 && d.kind == ROBOTSTXT_LINE_DISALLOW &&
                d.flags == ROBOTSTXT_FLAG_OUTSIDE_GROUP);
    ok &= OK(robotstxt_robots_diagnostic(robots, 1, &d));
    ok &= CHECK(d.line == 3 && d.kind == ROBOTSTXT_LINE_DISALLOW && d.flags == ROBOTSTXT_FLAG_TYPO);
    ok &= OK(robotstxt_robots_diagnostic(robots, 2, &d));
    ok &= CHECK(d.line == 4 && d.flags == ROBOTSTXT_FLAG_MISSING_COLON);
    ok &= OK(robotstxt_robots_diagnostic(robots, 3, &d));
    ok &= CHECK(d.line == 5 && d.kind == ROBOTSTXT_LINE_CRAWL_DELAY &&
                d.flags == ROBOTSTXT_FLAG_INVALID_VALUE);
    ok &= OK(robotstxt_robots_diagnostic(robots, 4, &d));
    ok &= CHECK(d.line == 6 && d.kind == ROBOTSTXT_LINE_UNKNOWN &&
                d.flags == ROBOTSTXT_FLAG_UNKNOWN_KEY);
    ok &= OK(robotstxt_robots_diagnostic(robots, 5, &d));
    ok &= CHECK(d.line == 8 && d.kind == ROBOTSTXT_LINE_INVALID);
    memset(&untouched, 0x33, sizeof untouched);
    d = untouched;
    ok &= CHECK_STATUS(robotstxt_robots_diagnostic(robots, 6, &d),
                       ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE);
    ok &= CHECK(memcmp(&d, &untouched, sizeof d) == 0);
    ok &= CHECK(strstr(last_error(), "diagnostic index 6") != NULL);
    ok &= CHECK_STATUS(robotstxt_robots_diagnostic(robots, 0, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_diagnostic(NULL, 0, &d), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_diagnostic_count(NULL, &count),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_robots_diagnostic_count(robots, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strcmp(robotstxt_line_kind_name(ROBOTSTXT_LINE_USER_AGENT), "user-agent") == 0);
    ok &= CHECK(strcmp(robotstxt_line_kind_name(ROBOTSTXT_LINE_INVALID), "invalid") == 0);
    ok &= CHECK(strcmp(robotstxt_line_kind_name(ROBOTSTXT_LINE_CONTENT_USAGE), "content-usage") == 0);
    ok &= CHECK(robotstxt_line_kind_name(11) == NULL);
    ok &= CHECK(strcmp(robotstxt_diagnostic_flag_name(ROBOTSTXT_FLAG_TYPO), "typo") == 0);
    ok &= CHECK(strcmp(robotstxt_diagnostic_flag_name(ROBOTSTXT_FLAG_UNKNOWN_KEY), "unknown-key") == 0);
    ok &= CHECK(robotstxt_diagnostic_flag_name(0) == NULL);
    ok &= CHECK(robotstxt_diagnostic_flag_name(ROBOTSTXT_FLAG_TYPO | ROBOTSTXT_FLAG_TOO_LONG) == NULL);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_last_error(void) {
    robotstxt_robots *robots = parse(SHOP);
    robotstxt_rules *rules = NULL;
    const uint8_t *msg = NULL;
    size_t len = 0;
    char before[256];
    bool ok = CHECK_STATUS(robotstxt_robots_rules_for(robots, TEXT("Bad Bot"), &rules),
                           ROBOTSTXT_STATUS_INVALID_TOKEN);
    snprintf(before, sizeof before, "%s", last_error());
    /* Successful calls leave the message alone. */
    rules = rules_for(robots, "NimbuBot");
    ok &= CHECK(rules != NULL && strcmp(before, last_error()) == 0);
    ok &= CHECK_STATUS(robotstxt_last_error(NULL, &len), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_last_error(&msg, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strcmp(before, last_error()) == 0);
    ok &= OK(robotstxt_last_error(&msg, &len));
    ok &= CHECK(len == strlen(before) && memcmp(msg, before, len) == 0);
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

/* Frees of NULL do nothing; a double free is the caller's bug and is not
 * exercised. */
static bool test_free_null(void) {
    robotstxt_robots_free(NULL);
    robotstxt_rules_free(NULL);
    robotstxt_entry_free(NULL);
    return true;
}

struct thread_job {
    const robotstxt_rules *rules;
    const robotstxt_robots *robots;
    const char *bad_token;
    bool ok;
};

/* Whether (ptr, len) contains the NUL-terminated `want`. */
static bool contains(const uint8_t *ptr, size_t len, const char *want) {
    size_t n = strlen(want), i;
    for (i = 0; ptr != NULL && i + n <= len; i++) {
        if (memcmp(ptr + i, want, n) == 0) {
            return true;
        }
    }
    return false;
}

static void *thread_main(void *arg) {
    struct thread_job *job = arg;
    robotstxt_rules *rules = SENTINEL;
    const uint8_t *msg = NULL;
    size_t len = 0, i;
    char want[64];
    bool ok = true;
    for (i = 0; i < 2000; i++) {
        bool a = true;
        ok &= robotstxt_rules_can_fetch(job->rules, TEXT("/prices/history"), &a) ==
                  ROBOTSTXT_STATUS_OK &&
              !a;
    }
    /* Each thread fails with its own token and reads back its own message. */
    ok &= robotstxt_robots_rules_for(job->robots, TEXT(job->bad_token), &rules) ==
          ROBOTSTXT_STATUS_INVALID_TOKEN;
    for (i = 0; i < 200; i++) {
        bool a;
        ok &= robotstxt_rules_can_fetch(job->rules, TEXT("/"), &a) == ROBOTSTXT_STATUS_OK;
    }
    ok &= robotstxt_last_error(&msg, &len) == ROBOTSTXT_STATUS_OK;
    snprintf(want, sizeof want, "\"%s\"", job->bad_token);
    ok &= contains(msg, len, want);
    job->ok = ok;
    return NULL;
}

static bool test_threads_share_handles(void) {
    robotstxt_robots *robots = parse(SHOP);
    robotstxt_rules *rules = rules_for(robots, "NimbuBot");
    static const char *const tokens[4] = {"one/1", "two/2", "three/3", "four/4"};
    pthread_t threads[4];
    struct thread_job jobs[4];
    bool ok = CHECK(rules != NULL);
    int i;
    for (i = 0; ok && i < 4; i++) {
        jobs[i].rules = rules;
        jobs[i].robots = robots;
        jobs[i].bad_token = tokens[i];
        jobs[i].ok = false;
        ok &= CHECK(pthread_create(&threads[i], NULL, thread_main, &jobs[i]) == 0);
    }
    for (i = 0; ok && i < 4; i++) {
        ok &= CHECK(pthread_join(threads[i], NULL) == 0);
        ok &= check_at(jobs[i].ok, __FILE__, __LINE__, "thread %d", i);
    }
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

static bool test_access(void) {
    robotstxt_disposition d = 99;
    robotstxt_fetch fetch = {0};
    robotstxt_options options = robotstxt_options_default();
    robotstxt_robots *robots = SENTINEL;
    bool ok = OK(robotstxt_access_classify(200, 0, ROBOTSTXT_ACCESS_CAREFUL, &d));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_FOLLOW_RULES);
    ok &= OK(robotstxt_access_classify(200, 6, ROBOTSTXT_ACCESS_CAREFUL, &d));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_ALLOW_ALL);
    ok &= OK(robotstxt_access_classify(403, 0, ROBOTSTXT_ACCESS_CAREFUL, &d));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_DISALLOW_ALL && robotstxt_disposition_retry_later(d));
    ok &= OK(robotstxt_access_classify(403, 0, ROBOTSTXT_ACCESS_STRICT_RFC, &d));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_ALLOW_ALL && !robotstxt_disposition_retry_later(d));
    ok &= OK(robotstxt_access_classify(0, 0, ROBOTSTXT_ACCESS_CAREFUL, &d)); /* no response */
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_DISALLOW_ALL);
    ok &= OK(robotstxt_access_classify(304, 0, ROBOTSTXT_ACCESS_CAREFUL, &d));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_NOT_MODIFIED);
    ok &= CHECK(!robotstxt_disposition_retry_later(77));
    d = 99;
    ok &= CHECK_STATUS(robotstxt_access_classify(200, 0, 2, &d), ROBOTSTXT_STATUS_INVALID_OPTION);
    ok &= CHECK(d == 99 && strstr(last_error(), "access policy") != NULL);
    ok &= CHECK_STATUS(robotstxt_access_classify(200, 0, 0, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);

    fetch.http_status = 200;
    fetch.body.ptr = (const uint8_t *)SHOP;
    fetch.body.len = strlen(SHOP);
    ok &= OK(robotstxt_access_from_outcome(&fetch, ROBOTSTXT_ACCESS_CAREFUL, &options, &d, &robots));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_FOLLOW_RULES && robots != NULL && robots != SENTINEL);
    if (robots != NULL && robots != SENTINEL) {
        robotstxt_rules *rules = rules_for(robots, "OtherBot");
        ok &= CHECK(rules && !allowed(rules, "/account/x"));
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
    }
    fetch.http_status = 404;
    robots = SENTINEL;
    ok &= OK(robotstxt_access_from_outcome(&fetch, ROBOTSTXT_ACCESS_CAREFUL, &options, &d, &robots));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_ALLOW_ALL && robots == NULL);
    robots = SENTINEL;
    ok &= CHECK_STATUS(robotstxt_access_from_outcome(NULL, 0, &options, &d, &robots),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_access_from_outcome(&fetch, 0, NULL, &d, &robots),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_access_from_outcome(&fetch, 0, &options, NULL, &robots),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_access_from_outcome(&fetch, 0, &options, &d, NULL),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_access_from_outcome(&fetch, 9, &options, &d, &robots),
                       ROBOTSTXT_STATUS_INVALID_OPTION);
    options.parse_limit = 10;
    ok &= CHECK_STATUS(robotstxt_access_from_outcome(&fetch, 0, &options, &d, &robots),
                       ROBOTSTXT_STATUS_PARSE_LIMIT);
    options = robotstxt_options_default();
    fetch.body.ptr = NULL;
    ok &= CHECK_STATUS(robotstxt_access_from_outcome(&fetch, 0, &options, &d, &robots),
                       ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "fetch->body") != NULL);
    ok &= CHECK(robots == SENTINEL);
    return ok;
}

static const uint64_t HOUR = 3600000;

static bool answer_at(robotstxt_entry *entry, uint64_t now, robotstxt_answer want,
                      const char *url, bool want_allowed) {
    robotstxt_answer answer = 99;
    robotstxt_robots *robots = NULL;
    bool ok = OK(robotstxt_entry_answer(entry, now, &answer, &robots));
    ok &= check_at(answer == want, __FILE__, __LINE__, "answer %u, want %u", (unsigned)answer,
                   (unsigned)want);
    if (ok && robots != NULL) {
        robotstxt_rules *rules = rules_for(robots, "ExampleBot");
        ok &= CHECK(rules && allowed(rules, url) == want_allowed);
        robotstxt_rules_free(rules);
    }
    robotstxt_robots_free(robots);
    return ok;
}

/* behaviour §7's worked example, plus the entry's getters and error paths. */
static bool test_entry(void) {
    robotstxt_freshness_policy policy = robotstxt_freshness_policy_default();
    robotstxt_entry *entry = SENTINEL;
    robotstxt_fetch ok200 = {0}, fail503 = {0}, newer = {0};
    robotstxt_disposition d = 99;
    robotstxt_validators v;
    robotstxt_robots *kept = NULL;
    robotstxt_answer answer;
    uint64_t at = 0;
    uint32_t failures = 9;
    bool has = true, due = false;
    bool ok = CHECK(policy.fresh_for_ms == 24 * HOUR && policy.retry_ms == HOUR &&
                    policy.unreachable_limit_ms == 30 * 24 * HOUR &&
                    policy.after_limit == ROBOTSTXT_AFTER_LIMIT_KEEP_COPY &&
                    policy.access == ROBOTSTXT_ACCESS_CAREFUL &&
                    policy.options.parse_limit == ROBOTSTXT_MIN_PARSE_LIMIT);

    policy.after_limit = 5;
    ok &= CHECK_STATUS(robotstxt_entry_new(&policy, &entry), ROBOTSTXT_STATUS_INVALID_OPTION);
    ok &= CHECK(strstr(last_error(), "after_limit") != NULL);
    policy = robotstxt_freshness_policy_default();
    policy.access = 5;
    ok &= CHECK_STATUS(robotstxt_entry_new(&policy, &entry), ROBOTSTXT_STATUS_INVALID_OPTION);
    policy = robotstxt_freshness_policy_default();
    policy.options.parse_limit = 0;
    ok &= CHECK_STATUS(robotstxt_entry_new(&policy, &entry), ROBOTSTXT_STATUS_PARSE_LIMIT);
    policy = robotstxt_freshness_policy_default();
    ok &= CHECK_STATUS(robotstxt_entry_new(NULL, &entry), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_new(&policy, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(entry == SENTINEL);
    ok &= OK(robotstxt_entry_new(&policy, &entry));
    if (!ok) {
        return false;
    }

    ok &= OK(robotstxt_entry_is_due(entry, 0, &due));
    ok &= CHECK(due);
    ok &= OK(robotstxt_entry_has_copy(entry, &has));
    ok &= CHECK(!has);
    ok &= OK(robotstxt_entry_fetched_at(entry, &at, &has));
    ok &= CHECK(!has && at == 0);
    ok &= answer_at(entry, 0, ROBOTSTXT_ANSWER_DISALLOW_ALL, "/", false);

    ok200.http_status = 200;
    ok200.body.ptr = (const uint8_t *)"User-agent: *\nDisallow: /x\n";
    ok200.body.len = strlen((const char *)ok200.body.ptr);
    ok200.has_etag = true;
    ok200.etag.ptr = (const uint8_t *)"\"v1\"";
    ok200.etag.len = 4;
    ok &= OK(robotstxt_entry_record(entry, 0, &ok200, &d));
    ok &= CHECK(d == ROBOTSTXT_DISPOSITION_FOLLOW_RULES);
    ok &= OK(robotstxt_entry_validators(entry, &v));
    ok &= CHECK(v.has_etag && text_is(v.etag.ptr, v.etag.len, "\"v1\""));
    ok &= CHECK(!v.has_last_modified && v.last_modified.ptr == NULL && v.last_modified.len == 0);
    ok &= OK(robotstxt_entry_is_due(entry, 2 * HOUR, &due));
    ok &= CHECK(!due);
    ok &= answer_at(entry, 2 * HOUR, ROBOTSTXT_ANSWER_RULES, "/x", false);
    ok &= answer_at(entry, 23 * HOUR + HOUR / 2, ROBOTSTXT_ANSWER_RULES, "/y", true);
    ok &= OK(robotstxt_entry_is_due(entry, 24 * HOUR + HOUR / 2, &due));
    ok &= CHECK(due);

    /* A handle from answer outlives the entry's next record and its free. */
    ok &= OK(robotstxt_entry_answer(entry, 24 * HOUR, &answer, &kept));
    fail503.http_status = 503;
    ok &= OK(robotstxt_entry_record(entry, 24 * HOUR + HOUR / 2, &fail503, NULL));
    ok &= OK(robotstxt_entry_due_at(entry, &at));
    ok &= CHECK(at == 25 * HOUR + HOUR / 2);
    ok &= OK(robotstxt_entry_failures(entry, &failures));
    ok &= CHECK(failures == 1);
    ok &= answer_at(entry, 25 * HOUR, ROBOTSTXT_ANSWER_RULES, "/x", false);

    newer.http_status = 200;
    newer.body.ptr = (const uint8_t *)"User-agent: *\nDisallow: /y\n";
    newer.body.len = strlen((const char *)newer.body.ptr);
    ok &= OK(robotstxt_entry_record(entry, 25 * HOUR + HOUR / 2, &newer, &d));
    ok &= answer_at(entry, 25 * HOUR + HOUR / 2, ROBOTSTXT_ANSWER_RULES, "/y", false);
    ok &= OK(robotstxt_entry_fetched_at(entry, &at, &has));
    ok &= CHECK(has && at == 25 * HOUR + HOUR / 2);
    ok &= OK(robotstxt_entry_failures(entry, &failures));
    ok &= CHECK(failures == 0);
    ok &= OK(robotstxt_entry_validators(entry, &v));
    ok &= CHECK(!v.has_etag && v.etag.ptr == NULL);

    /* Error paths: nothing written, nothing recorded. */
    ok &= CHECK_STATUS(robotstxt_entry_record(NULL, 0, &ok200, &d), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_record(entry, 0, NULL, &d), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok200.etag.ptr = NULL;
    ok &= CHECK_STATUS(robotstxt_entry_record(entry, 0, &ok200, &d), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "fetch->etag") != NULL);
    ok &= OK(robotstxt_entry_fetched_at(entry, &at, &has));
    ok &= CHECK(at == 25 * HOUR + HOUR / 2);
    ok &= CHECK_STATUS(robotstxt_entry_is_due(NULL, 0, &due), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_is_due(entry, 0, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_due_at(entry, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_fetched_at(entry, &at, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_failures(NULL, &failures), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_has_copy(entry, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_validators(entry, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_answer(entry, 0, NULL, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= OK(robotstxt_entry_answer(entry, 0, &answer, NULL)); /* robots_out is optional */
    robotstxt_entry_free(entry);

    if (kept != NULL) {
        robotstxt_rules *rules = rules_for(kept, "ExampleBot");
        ok &= CHECK(rules && !allowed(rules, "/x"));
        robotstxt_rules_free(rules);
    }
    robotstxt_robots_free(kept);
    return ok;
}

static bool test_entry_after_limit(void) {
    robotstxt_freshness_policy policy = robotstxt_freshness_policy_default();
    robotstxt_entry *entry = NULL;
    robotstxt_fetch down = {0};
    bool ok;
    policy.after_limit = ROBOTSTXT_AFTER_LIMIT_ALLOW_ALL;
    policy.unreachable_limit_ms = 2 * HOUR;
    ok = OK(robotstxt_entry_new(&policy, &entry));
    down.http_status = 0; /* no response */
    ok &= OK(robotstxt_entry_record(entry, 0, &down, NULL));
    ok &= answer_at(entry, HOUR, ROBOTSTXT_ANSWER_DISALLOW_ALL, "/", false);
    ok &= answer_at(entry, 2 * HOUR, ROBOTSTXT_ANSWER_ALLOW_ALL, "/", true);
    robotstxt_entry_free(entry);
    return ok;
}

struct api_test {
    const char *name;
    bool (*run)(void);
};

/* A copy for a fleet's shared store: encoded, decoded, refused when
 * damaged; and the Lua scripts by name. */
static bool test_stored_copy(void) {
    robotstxt_freshness_policy policy = robotstxt_freshness_policy_default();
    robotstxt_entry *entry = NULL, *copy = SENTINEL;
    robotstxt_fetch ok200 = {0};
    const char *body = "User-agent: *\nDisallow: /x\n";
    uint8_t small[8], *bytes = NULL;
    size_t len = 0, needed = 0;
    robotstxt_str stored = {0}, source = {0};
    uint64_t due = 0, copy_due = 1;
    bool ok = OK(robotstxt_entry_new(&policy, &entry));
    if (!ok) {
        return false;
    }
    ok200.http_status = 200;
    ok200.body.ptr = (const uint8_t *)body;
    ok200.body.len = strlen(body);
    ok &= OK(robotstxt_entry_record(entry, 1000, &ok200, NULL));

    /* The length first (out NULL), then the bytes. */
    ok &= CHECK_STATUS(robotstxt_entry_encode(entry, ok200.body.ptr, ok200.body.len, NULL, 0, &needed),
                       ROBOTSTXT_STATUS_BUFFER_TOO_SMALL);
    ok &= CHECK(needed > ok200.body.len);
    ok &= CHECK_STATUS(robotstxt_entry_encode(entry, ok200.body.ptr, ok200.body.len, small,
                                              sizeof small, &len),
                       ROBOTSTXT_STATUS_BUFFER_TOO_SMALL);
    ok &= CHECK(len == needed && strstr(last_error(), "call again") != NULL);
    bytes = malloc(needed);
    ok &= CHECK(bytes != NULL);
    if (!ok) {
        robotstxt_entry_free(entry);
        free(bytes);
        return false;
    }
    ok &= OK(robotstxt_entry_encode(entry, ok200.body.ptr, ok200.body.len, bytes, needed, &len));
    ok &= CHECK(len == needed && memcmp(bytes, "RTXC", 4) == 0);
    ok &= CHECK_STATUS(robotstxt_entry_encode(entry, (const uint8_t *)"other", 5, bytes, needed, &len),
                       ROBOTSTXT_STATUS_BODY_MISMATCH);

    ok &= OK(robotstxt_entry_decode(bytes, needed, &policy, &copy));
    ok &= OK(robotstxt_entry_due_at(entry, &due));
    ok &= OK(robotstxt_entry_due_at(copy, &copy_due));
    ok &= CHECK(due == copy_due);
    ok &= answer_at(copy, 2000, ROBOTSTXT_ANSWER_RULES, "/x", false);
    ok &= OK(robotstxt_entry_stored_body(bytes, needed, &stored));
    ok &= CHECK(text_is(stored.ptr, stored.len, body));
    robotstxt_entry_free(copy);

    /* Damaged, cut, newer: refused, nothing written. */
    copy = SENTINEL;
    bytes[needed - 1] ^= 1;
    ok &= CHECK_STATUS(robotstxt_entry_decode(bytes, needed, &policy, &copy), ROBOTSTXT_STATUS_INVALID_COPY);
    bytes[needed - 1] ^= 1;
    ok &= CHECK_STATUS(robotstxt_entry_decode(bytes, needed - 1, &policy, &copy), ROBOTSTXT_STATUS_INVALID_COPY);
    bytes[4] += 1;
    ok &= CHECK_STATUS(robotstxt_entry_decode(bytes, needed, &policy, &copy), ROBOTSTXT_STATUS_COPY_VERSION);
    ok &= CHECK(copy == SENTINEL);
    ok &= CHECK_STATUS(robotstxt_entry_decode(NULL, 3, &policy, &copy), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_stored_body(bytes, needed, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
    ok &= CHECK_STATUS(robotstxt_entry_encode(entry, NULL, 0, NULL, 0, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);

    ok &= OK(robotstxt_fleet_script((const uint8_t *)"reserve", 7, &source));
    ok &= CHECK(source.len > 100 && contains(source.ptr, source.len, "HostPace::reserve"));
    ok &= CHECK_STATUS(robotstxt_fleet_script((const uint8_t *)"nope", 4, &source),
                       ROBOTSTXT_STATUS_INVALID_ARGUMENT);
    ok &= CHECK(strstr(last_error(), "lookup, store") != NULL);

    /* The rules for a token under the entry's answer, blanket ones too. */
    {
        robotstxt_rules *rules = NULL;
        robotstxt_entry *gone = NULL;
        robotstxt_fetch missing = {0};
        char key[64];
        size_t key_len = 0;
        ok &= OK(robotstxt_entry_rules_for(entry, 2000, (const uint8_t *)"ExampleBot", 10, &rules));
        ok &= CHECK(rules != NULL && !allowed(rules, "/x") && allowed(rules, "/y"));
        robotstxt_rules_free(rules);
        ok &= CHECK_STATUS(robotstxt_entry_rules_for(entry, 2000, (const uint8_t *)"Bad Bot/1", 9, &rules),
                           ROBOTSTXT_STATUS_INVALID_TOKEN);
        ok &= OK(robotstxt_entry_new(&policy, &gone));
        missing.http_status = 503;
        ok &= OK(robotstxt_entry_record(gone, 0, &missing, NULL));
        rules = NULL;
        ok &= OK(robotstxt_entry_rules_for(gone, 1, (const uint8_t *)"ExampleBot", 10, &rules));
        ok &= CHECK(rules != NULL && !allowed(rules, "/anything"));
        {
            /* A fleet's answer while another worker fetches: ask again at
             * the end of its lease. */
            robotstxt_rules *until = NULL;
            uint64_t at = 0;
            bool has = false;
            ok &= OK(robotstxt_rules_with_retry_at(rules, 5000, &until));
            ok &= CHECK(until != NULL && !allowed(until, "/anything"));
            ok &= OK(robotstxt_rules_retry_at(until, &at, &has));
            ok &= CHECK(has && at == 5000);
            ok &= CHECK_STATUS(robotstxt_rules_with_retry_at(NULL, 5000, &until), ROBOTSTXT_STATUS_NULL_ARGUMENT);
            ok &= CHECK_STATUS(robotstxt_rules_with_retry_at(rules, 5000, NULL), ROBOTSTXT_STATUS_NULL_ARGUMENT);
            robotstxt_rules_free(until);
        }
        robotstxt_rules_free(rules);
        robotstxt_entry_free(gone);

        ok &= OK(robotstxt_robots_origin((const uint8_t *)"HTTPS://Shop.Test:443/a?b", 25, (uint8_t *)key,
                                         sizeof key, &key_len));
        ok &= CHECK(text_is((const uint8_t *)key, key_len, "https://shop.test"));
        ok &= CHECK_STATUS(robotstxt_robots_origin((const uint8_t *)"https://shop.test/", 18, NULL, 0, &key_len),
                           ROBOTSTXT_STATUS_BUFFER_TOO_SMALL);
        ok &= CHECK(key_len == 17);
        ok &= CHECK_STATUS(robotstxt_robots_origin((const uint8_t *)"ftp://x/", 8, (uint8_t *)key, sizeof key,
                                                   &key_len),
                           ROBOTSTXT_STATUS_INVALID_URL);
        ok &= OK(robotstxt_pacer_host((const uint8_t *)"Shop.TEST", 9, (uint8_t *)key, sizeof key, &key_len));
        ok &= CHECK(text_is((const uint8_t *)key, key_len, "shop.test"));
        ok &= CHECK_STATUS(robotstxt_pacer_host((const uint8_t *)"", 0, (uint8_t *)key, sizeof key, &key_len),
                           ROBOTSTXT_STATUS_INVALID_HOST);
    }

    robotstxt_entry_free(entry);
    free(bytes);
    return ok;
}

/* A host's pace kept in a store two workers share: each step reads the
 * state out, runs one function and writes it back, as a fleet would
 * (atomically: here the store is plain memory and the workers take turns). */
struct pace_store {
    robotstxt_host_pace state;
    uint64_t in_flight[2];
};

static void pace_load(const struct pace_store *store, robotstxt_host_pace *pace, uint64_t *room) {
    *pace = store->state;
    memcpy(room, store->in_flight, sizeof store->in_flight);
    pace->in_flight_until_ms = room;
}

static void pace_save(struct pace_store *store, const robotstxt_host_pace *pace) {
    store->state = *pace;
    memcpy(store->in_flight, pace->in_flight_until_ms, sizeof store->in_flight);
    store->state.in_flight_until_ms = NULL;
}

static bool test_host_pace(void) {
    robotstxt_pacer_options options = robotstxt_pacer_options_default();
    struct pace_store store;
    robotstxt_host_pace pace;
    uint64_t room[2], delay = 0;
    robotstxt_slot first, second;
    robotstxt_confirm answer;
    bool reserved = false, ok = true;
    robotstxt_robots *robots = parse("User-agent: *\nCrawl-delay: 2.5\nDisallow: /x\n");
    robotstxt_rules *rules = robots == NULL ? NULL : rules_for(robots, "ExampleBot");
    ok &= CHECK(rules != NULL);
    options.max_in_flight = 2;

    ok &= OK(robotstxt_host_pace_init(&pace, room, 2));
    ok &= CHECK(pace.factor == 1 && !pace.has_last_start && pace.in_flight_len == 0);
    ok &= OK(robotstxt_rules_pace_delay_ms(rules, &delay));
    ok &= CHECK(delay == 2500);
    ok &= OK(robotstxt_host_pace_set_delay(&pace, delay, &options));
    ok &= CHECK(robotstxt_host_pace_gap_ms(&pace, &options) == 2500);
    pace_save(&store, &pace);

    /* Worker A and worker B each reserve: slots one gap apart. */
    pace_load(&store, &pace, room);
    ok &= OK(robotstxt_host_pace_reserve(&pace, 1000, &options, &first, &reserved));
    ok &= CHECK(reserved && first.start_ms == 1000);
    pace_save(&store, &pace);
    pace_load(&store, &pace, room);
    ok &= OK(robotstxt_host_pace_reserve(&pace, 1001, &options, &second, &reserved));
    ok &= CHECK(reserved && second.start_ms == 3500);
    pace_save(&store, &pace);

    /* A goes; B confirms too early and waits; A's answer is a 429 with
     * Retry-After: B's slot is voided and moved past it. */
    pace_load(&store, &pace, room);
    ok &= OK(robotstxt_host_pace_confirm(&pace, &first, 1000, &options, &answer));
    ok &= CHECK(answer.kind == ROBOTSTXT_CONFIRM_GO && pace.in_flight_len == 1);
    ok &= CHECK(robotstxt_host_pace_in_flight(&pace, 1000) == 1);
    pace_save(&store, &pace);
    pace_load(&store, &pace, room);
    ok &= OK(robotstxt_host_pace_confirm(&pace, &second, 2000, &options, &answer));
    ok &= CHECK(answer.kind == ROBOTSTXT_CONFIRM_WAIT && answer.until_ms == 3500 && !answer.busy);
    pace_save(&store, &pace);
    pace_load(&store, &pace, room);
    ok &= OK(robotstxt_host_pace_record(&pace, 1200, 429, true, 60000, &options));
    ok &= CHECK(pace.factor == 2 && pace.not_before_ms == 61200 && pace.in_flight_len == 0);
    pace_save(&store, &pace);
    pace_load(&store, &pace, room);
    ok &= OK(robotstxt_host_pace_confirm(&pace, &second, 3500, &options, &answer));
    ok &= CHECK(answer.kind == ROBOTSTXT_CONFIRM_WAIT && answer.until_ms == 61200);
    ok &= CHECK(second.start_ms == 61200 && second.generation == pace.generation);
    ok &= CHECK(!robotstxt_host_pace_safe_to_forget(&pace, 3500, &options));
    pace_save(&store, &pace);

    /* The kill switch: nothing is reserved, a slot out is refused. */
    pace_load(&store, &pace, room);
    ok &= OK(robotstxt_host_pace_set_enabled(&pace, false, &options));
    first.start_ms = 7;
    ok &= OK(robotstxt_host_pace_reserve(&pace, 70000, &options, &first, &reserved));
    ok &= CHECK(!reserved && first.start_ms == 0);
    ok &= OK(robotstxt_host_pace_confirm(&pace, &second, 70000, &options, &answer));
    ok &= CHECK(answer.kind == ROBOTSTXT_CONFIRM_DISABLED);
    ok &= OK(robotstxt_host_pace_set_enabled(&pace, true, &options));
    ok &= OK(robotstxt_host_pace_cancel(&pace, second, &options));
    pace_save(&store, &pace);

    /* Misuse: a clear status, and the state untouched. */
    pace_load(&store, &pace, room);
    {
        robotstxt_host_pace before = pace;
        options.max_in_flight = 3; /* more than the array holds */
        ok &= CHECK_STATUS(robotstxt_host_pace_reserve(&pace, 80000, &options, &first, &reserved),
                           ROBOTSTXT_STATUS_INVALID_ARGUMENT);
        ok &= CHECK(strstr(last_error(), "in_flight_cap") != NULL);
        ok &= CHECK(before.next_slot_ms == pace.next_slot_ms && before.generation == pace.generation &&
                    before.factor == pace.factor && before.in_flight_len == pace.in_flight_len);
        options.max_in_flight = 2;
        pace.in_flight_len = 3;
        ok &= CHECK_STATUS(robotstxt_host_pace_set_delay(&pace, 0, &options), ROBOTSTXT_STATUS_INVALID_ARGUMENT);
        pace = before;
        ok &= CHECK_STATUS(robotstxt_host_pace_reserve(NULL, 0, &options, &first, &reserved),
                           ROBOTSTXT_STATUS_NULL_ARGUMENT);
        ok &= CHECK_STATUS(robotstxt_host_pace_reserve(&pace, 0, NULL, &first, &reserved),
                           ROBOTSTXT_STATUS_NULL_ARGUMENT);
        ok &= CHECK_STATUS(robotstxt_host_pace_confirm(&pace, NULL, 0, &options, &answer),
                           ROBOTSTXT_STATUS_NULL_ARGUMENT);
        ok &= CHECK_STATUS(robotstxt_host_pace_init(&pace, NULL, 2), ROBOTSTXT_STATUS_NULL_ARGUMENT);
        ok &= CHECK_STATUS(robotstxt_rules_pace_delay_ms(NULL, &delay), ROBOTSTXT_STATUS_NULL_ARGUMENT);
        ok &= CHECK(robotstxt_host_pace_gap_ms(NULL, &options) == 0);
        ok &= CHECK(robotstxt_host_pace_in_flight(NULL, 0) == 0);
    }

    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return ok;
}

/* A pace zero-filled instead of initialised (factor 0) paces as an
 * initialised one: a 429 still doubles the gap. */
static bool test_host_pace_zero_filled(void) {
    bool ok = true;
    robotstxt_pacer_options options = robotstxt_pacer_options_default();
    uint64_t room[1] = {0};
    robotstxt_host_pace zeroed;
    robotstxt_host_pace initialised;
    memset(&zeroed, 0, sizeof zeroed);
    zeroed.in_flight_until_ms = room;
    zeroed.in_flight_cap = 1;
    ok &= OK(robotstxt_host_pace_init(&initialised, room, 1));
    ok &= CHECK(robotstxt_host_pace_gap_ms(&zeroed, &options) == robotstxt_host_pace_gap_ms(&initialised, &options));
    ok &= OK(robotstxt_host_pace_record(&zeroed, 1000, 429, false, 0, &options));
    ok &= CHECK(robotstxt_host_pace_gap_ms(&zeroed, &options) == 2 * options.floor_ms);
    ok &= OK(robotstxt_host_pace_record(&zeroed, 2000, 503, false, 0, &options));
    ok &= CHECK(robotstxt_host_pace_gap_ms(&zeroed, &options) == 4 * options.floor_ms);
    return ok;
}

static const struct api_test TESTS[] = {
    {"version_and_messages", test_version_and_messages},
    {"shop_answers", test_shop_answers},
    {"decide_and_borrowed_pattern", test_decide_and_borrowed_pattern},
    {"empty_and_binary_bodies", test_empty_and_binary_bodies},
    {"parse_errors", test_parse_errors},
    {"options", test_options},
    {"typos_option", test_typos_option},
    {"parse_limit_cuts", test_parse_limit_cuts},
    {"invalid_token", test_invalid_token},
    {"product_token", test_product_token},
    {"selection_null_arguments", test_selection_null_arguments},
    {"several_tokens", test_several_tokens},
    {"rules_null_arguments", test_rules_null_arguments},
    {"crawl_delay_and_rate", test_crawl_delay_and_rate},
    {"sitemaps_and_host", test_sitemaps_and_host},
    {"diagnostics", test_diagnostics},
    {"last_error", test_last_error},
    {"free_null", test_free_null},
    {"threads_share_handles", test_threads_share_handles},
    {"access", test_access},
    {"entry", test_entry},
    {"entry_after_limit", test_entry_after_limit},
    {"stored_copy", test_stored_copy},
    {"host_pace", test_host_pace},
    {"host_pace_zero_filled", test_host_pace_zero_filled},
};

void run_api_tests(size_t *passed, size_t *failed) {
    size_t i;
    for (i = 0; i < sizeof TESTS / sizeof TESTS[0]; i++) {
        bool ok = TESTS[i].run();
        if (!ok) {
            fprintf(stderr, "FAIL api: %s\n", TESTS[i].name);
        }
        *(ok ? passed : failed) += 1;
    }
    printf("api: %zu cases\n", sizeof TESTS / sizeof TESTS[0]);
}
