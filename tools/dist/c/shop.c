/* The practice shop of behaviour §9, asked through the installed C API: what a
 * user of the release tarball compiles first. `make dist-test` builds it
 * against the unpacked tarball (shared and static) and runs it.
 *
 *     shop ROBOTS_TXT
 *
 * Prints each answer; exits 1 if one differs from the table of behaviour §9. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <robotstxt.h>

enum want { ALLOWED, DISALLOWED, NOT_A_TOKEN };

static const struct question {
    const char *token;
    const char *path;
    enum want want;
} questions[] = {
    {"NimbuBot", "/prices/today", ALLOWED},
    {"NimbuBot", "/prices/history", DISALLOWED},
    {"NimbuBot", "/guides/size-chart.pdf", DISALLOWED},
    {"NimbuBot", "/guides/size-chart.pdf?print=1", ALLOWED},
    {"NimbuBot", "/offers/weekend", ALLOWED},
    {"NimbuBot", "/drafts/new-range", DISALLOWED},
    {"NimbuBot", "/account/orders", ALLOWED},
    {"OtherBot", "/account/orders", DISALLOWED},
    {"OtherBot", "/products/?sort=price", DISALLOWED},
    {"ArchiveBot", "/robots.txt", ALLOWED},
    {"nimbubot", "/%70rices/history", DISALLOWED},
    {"Mozilla/5.0 (compatible; NimbuBot/1.0)", "/prices/history", NOT_A_TOKEN},
};

static const char *const want_name[] = {"allowed", "disallowed", "error: not a product token"};

/* The whole file, or NULL; *len is its size. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *body = NULL;
    long size;
    if (f == NULL) {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        body = malloc((size_t)size + 1);
        if (body != NULL && fread(body, 1, (size_t)size, f) != (size_t)size) {
            free(body);
            body = NULL;
        }
        *len = (size_t)size;
    }
    fclose(f);
    return body;
}

/* The answer to one question, as an index into want_name; -1 on a call
 * that should not fail. */
static int ask(const robotstxt_robots *robots, const struct question *q) {
    robotstxt_rules *rules = NULL;
    robotstxt_status status;
    bool allowed = false;

    status = robotstxt_robots_rules_for(robots, (const uint8_t *)q->token, strlen(q->token), &rules);
    if (status == ROBOTSTXT_STATUS_INVALID_TOKEN) {
        return NOT_A_TOKEN;
    }
    if (status == ROBOTSTXT_STATUS_OK) {
        status = robotstxt_rules_can_fetch(rules, (const uint8_t *)q->path, strlen(q->path), &allowed);
    }
    robotstxt_rules_free(rules);
    if (status != ROBOTSTXT_STATUS_OK) {
        fprintf(stderr, "%s %s: %s\n", q->token, q->path, robotstxt_status_message(status));
        return -1;
    }
    return allowed ? ALLOWED : DISALLOWED;
}

/* 1 when `token`'s crawl delay is `want` seconds. */
static int delay_is(const robotstxt_robots *robots, const char *token, double want) {
    robotstxt_rules *rules = NULL;
    double delay = 0;
    bool has = false;
    int ok = robotstxt_robots_rules_for(robots, (const uint8_t *)token, strlen(token), &rules) ==
                 ROBOTSTXT_STATUS_OK &&
             robotstxt_rules_crawl_delay(rules, &delay, &has) == ROBOTSTXT_STATUS_OK && has &&
             delay == want;
    printf("crawl-delay %-8s %g s%s\n", token, has ? delay : 0.0, ok ? "" : "  WRONG");
    robotstxt_rules_free(rules);
    return ok;
}

int main(int argc, char **argv) {
    robotstxt_robots *robots = NULL;
    size_t i, len = 0, sitemaps = 0;
    int wrong = 0;
    char *body;

    if (argc != 2) {
        fprintf(stderr, "usage: %s ROBOTS_TXT\n", argv[0]);
        return 2;
    }
    body = read_file(argv[1], &len);
    if (body == NULL) {
        perror(argv[1]);
        return 2;
    }
    if (robotstxt_robots_parse((const uint8_t *)body, len, &robots) != ROBOTSTXT_STATUS_OK) {
        free(body);
        return 2;
    }
    free(body); /* the handle keeps its own copy */

    printf("robotstxt %s over %s\n", robotstxt_version(), argv[1]);
    for (i = 0; i < sizeof questions / sizeof questions[0]; i++) {
        const struct question *q = &questions[i];
        int got = ask(robots, q);
        int ok = got == (int)q->want;
        printf("%-40s %-32s %s%s\n", q->token, q->path, got < 0 ? "failed" : want_name[got],
               ok ? "" : "  WRONG");
        wrong += !ok;
    }
    wrong += !delay_is(robots, "NimbuBot", 2.5);
    wrong += !delay_is(robots, "OtherBot", 2.0);
    if (robotstxt_robots_sitemap_count(robots, &sitemaps) != ROBOTSTXT_STATUS_OK || sitemaps != 1) {
        printf("sitemaps: %zu, want 1  WRONG\n", sitemaps);
        wrong++;
    }
    robotstxt_robots_free(robots);
    printf("%s\n", wrong == 0 ? "all answers as in behaviour §9" : "some answers differ from behaviour §9");
    return wrong == 0 ? 0 : 1;
}
