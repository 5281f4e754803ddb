/* The complete example of docs/c.md: parse once, select the rules for one
 * crawler, ask, and handle errors. Built and run by `make test` twice: linked
 * against librobotstxt.a alone, and through pkg-config against the
 * installed shared library. */
#include <stdio.h>
#include <string.h>

#include <robotstxt.h>

/* Prints why a call failed: the status and this thread's detailed message. */
static int fail(const char *what, robotstxt_status status) {
    const uint8_t *msg;
    size_t len;
    robotstxt_last_error(&msg, &len);
    fprintf(stderr, "%s: %s: %.*s\n", what, robotstxt_status_message(status), (int)len,
            (const char *)msg);
    return 1;
}

int main(void) {
    static const char body[] = "User-agent: *\n"
                               "Disallow: /account/\n"
                               "\n"
                               "User-agent: NimbuBot\n"
                               "Disallow: /prices/\n"
                               "Allow: /prices/today\n"
                               "Crawl-delay: 2.5\n"
                               "\n"
                               "Sitemap: https://bazaar.nimbu.test/sitemap.xml\n";
    static const char *const urls[] = {"https://bazaar.nimbu.test/prices/today",
                                        "https://bazaar.nimbu.test/prices/history",
                                        "/account/orders"};
    robotstxt_robots *robots = NULL;
    robotstxt_rules *rules = NULL;
    robotstxt_status status;
    double delay;
    bool has_delay;
    size_t i, count;
    const char *bad = "NimbuBot/1.0";

    printf("robotstxt %s\n", robotstxt_version());

    /* Parsing never fails on content; only on bad arguments. */
    status = robotstxt_robots_parse((const uint8_t *)body, strlen(body), &robots);
    if (status != ROBOTSTXT_STATUS_OK) {
        return fail("parse", status);
    }

    /* RFC 9309 wants a product token, not a User-Agent header. */
    status = robotstxt_robots_rules_for(robots, (const uint8_t *)bad, strlen(bad), &rules);
    if (status == ROBOTSTXT_STATUS_INVALID_TOKEN) {
        fail("rules_for(\"NimbuBot/1.0\") (expected)", status);
    }

    status = robotstxt_robots_rules_for(robots, (const uint8_t *)"NimbuBot", 8, &rules);
    if (status != ROBOTSTXT_STATUS_OK) {
        robotstxt_robots_free(robots);
        return fail("rules_for", status);
    }

    for (i = 0; i < sizeof urls / sizeof urls[0]; i++) {
        robotstxt_decision d;
        status = robotstxt_rules_decide(rules, (const uint8_t *)urls[i], strlen(urls[i]), &d);
        if (status != ROBOTSTXT_STATUS_OK) {
            break;
        }
        printf("%s: %s", urls[i], d.allowed ? "allowed" : "disallowed");
        if (d.kind == ROBOTSTXT_DECISION_NONE) {
            printf(" (no matching rule)\n");
        } else {
            /* The pattern borrows from `rules`: valid until it is freed. */
            printf(" (line %u: %s %.*s)\n", d.line, robotstxt_decision_kind_name(d.kind),
                   (int)d.pattern.len, (const char *)d.pattern.ptr);
        }
    }

    if (robotstxt_rules_crawl_delay(rules, &delay, &has_delay) == ROBOTSTXT_STATUS_OK &&
        has_delay) {
        printf("crawl-delay: %g s\n", delay);
    }

    /* Sitemaps borrow from `robots`: read them before freeing it. */
    if (robotstxt_robots_sitemap_count(robots, &count) == ROBOTSTXT_STATUS_OK) {
        for (i = 0; i < count; i++) {
            const uint8_t *url;
            size_t len;
            if (robotstxt_robots_sitemap(robots, i, &url, &len) == ROBOTSTXT_STATUS_OK) {
                printf("sitemap: %.*s\n", (int)len, (const char *)url);
            }
        }
    }

    /* Rules do not depend on the robots handle: free in any order. */
    robotstxt_robots_free(robots);
    robotstxt_rules_free(rules);
    return status == ROBOTSTXT_STATUS_OK ? 0 : fail("decide", status);
}
