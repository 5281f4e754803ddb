/* One parsed handle and its rules shared by 16 pthreads doing mixed
 * questions: can_fetch, decide, selecting their own rules from
 * the shared robots, crawl delays, sitemaps, diagnostics; every answer is
 * compared with the single-threaded answer. Runs under ASan + UBSan and
 * valgrind with the rest of the suite (test_cache.c shares one cache and one
 * pacer between 16 threads the same way). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

enum { THREADS = 16, ROUNDS = 200 };

static const char BODY[] = "User-agent: *\n"
                           "Disallow: /account/\n"
                           "Disallow: /products/*?sort=\n"
                           "Allow: /products/\n"
                           "Crawl-delay: 2\n"
                           "\n"
                           "User-agent: NimbuBot\n"
                           "Disallow: /prices/\n"
                           "Allow: /prices/today\n"
                           "Disallow: /*.pdf$\n"
                           "Crawl-delay: 2.5\n"
                           "Sitemap: https://bazaar.test/sitemap.xml\n"
                           "Unknown-key: x\n";

static const char *const URLS[] = {
    "/",
    "/account/orders",
    "/products/?sort=price",
    "/products/shoes",
    "/prices/today",
    "/prices/history",
    "/guides/size.pdf",
    "/guides/size.pdf?print=1",
    "https://bazaar.test/prices/today#x",
    "/robots.txt",
    "/%70rices/history",
    "/\xe3\x83\x84",
};
enum { N_URLS = sizeof URLS / sizeof URLS[0] };
static const char *const TOKENS[] = {"NimbuBot", "OtherBot"};

struct expected {
    bool allowed[2][N_URLS];
    uint32_t line[2][N_URLS];
    double delay[2];
    size_t sitemaps, diagnostics;
};

struct job {
    const robotstxt_robots *robots;
    const robotstxt_rules *shared_rules; /* NimbuBot's */
    const struct expected *want;
    int id;
    size_t mismatches;
};

static void *run(void *arg) {
    struct job *job = arg;
    const struct expected *want = job->want;
    int round;
    for (round = 0; round < ROUNDS; round++) {
        int t = (job->id + round) % 2;
        size_t u = (size_t)(job->id * 7 + round) % N_URLS;
        robotstxt_rules *own = NULL;
        robotstxt_decision d;
        bool allowed = !want->allowed[0][u], has = false;
        double delay = -1;
        size_t n = 0;
        /* The shared rules. */
        if (robotstxt_rules_can_fetch(job->shared_rules, (const uint8_t *)URLS[u], strlen(URLS[u]),
                                      &allowed) != ROBOTSTXT_STATUS_OK ||
            allowed != want->allowed[0][u]) {
            job->mismatches++;
        }
        if (robotstxt_rules_decide(job->shared_rules, (const uint8_t *)URLS[u], strlen(URLS[u]),
                                   &d) != ROBOTSTXT_STATUS_OK ||
            d.allowed != want->allowed[0][u] || d.line != want->line[0][u]) {
            job->mismatches++;
        }
        /* Rules of its own, selected from the shared robots. */
        if (robotstxt_robots_rules_for(job->robots, (const uint8_t *)TOKENS[t], strlen(TOKENS[t]),
                                       &own) != ROBOTSTXT_STATUS_OK) {
            job->mismatches++;
            continue;
        }
        if (robotstxt_rules_decide(own, (const uint8_t *)URLS[u], strlen(URLS[u]), &d) !=
                ROBOTSTXT_STATUS_OK ||
            d.allowed != want->allowed[t][u] || d.line != want->line[t][u]) {
            job->mismatches++;
        }
        if (robotstxt_rules_crawl_delay(own, &delay, &has) != ROBOTSTXT_STATUS_OK || !has ||
            delay != want->delay[t]) {
            job->mismatches++;
        }
        robotstxt_rules_free(own);
        if (robotstxt_robots_sitemap_count(job->robots, &n) != ROBOTSTXT_STATUS_OK ||
            n != want->sitemaps) {
            job->mismatches++;
        }
        if (robotstxt_robots_diagnostic_count(job->robots, &n) != ROBOTSTXT_STATUS_OK ||
            n != want->diagnostics) {
            job->mismatches++;
        }
    }
    return NULL;
}

static bool test_sixteen_threads_share_one_parsed_file(void) {
    robotstxt_robots *robots = NULL;
    robotstxt_rules *rules[2] = {NULL, NULL};
    struct expected want;
    struct job jobs[THREADS];
    pthread_t threads[THREADS];
    bool ok = OK(robotstxt_robots_parse(TEXT(BODY), &robots));
    int t, started = 0;
    size_t u;
    memset(&want, 0, sizeof want);
    /* The single-threaded answers. */
    for (t = 0; ok && t < 2; t++) {
        bool has = false;
        ok &= OK(robotstxt_robots_rules_for(robots, TEXT(TOKENS[t]), &rules[t]));
        for (u = 0; ok && u < N_URLS; u++) {
            robotstxt_decision d;
            ok &= OK(robotstxt_rules_decide(rules[t], TEXT(URLS[u]), &d));
            want.allowed[t][u] = d.allowed;
            want.line[t][u] = d.line;
        }
        ok &= OK(robotstxt_rules_crawl_delay(rules[t], &want.delay[t], &has));
    }
    ok &= OK(robotstxt_robots_sitemap_count(robots, &want.sitemaps));
    ok &= OK(robotstxt_robots_diagnostic_count(robots, &want.diagnostics));
    ok &= CHECK(!want.allowed[0][5] && want.allowed[0][4] && !want.allowed[1][1]);
    for (t = 0; ok && t < THREADS; t++) {
        jobs[t].robots = robots;
        jobs[t].shared_rules = rules[0];
        jobs[t].want = &want;
        jobs[t].id = t;
        jobs[t].mismatches = 0;
        ok &= CHECK(pthread_create(&threads[t], NULL, run, &jobs[t]) == 0);
        started += ok;
    }
    for (t = 0; t < started; t++) {
        ok &= CHECK(pthread_join(threads[t], NULL) == 0);
        ok &= check_at(jobs[t].mismatches == 0, __FILE__, __LINE__,
                       "thread %d: %zu answers differ from the single-threaded ones", t,
                       jobs[t].mismatches);
    }
    robotstxt_rules_free(rules[0]);
    robotstxt_rules_free(rules[1]);
    robotstxt_robots_free(robots);
    return ok;
}

void run_thread_tests(size_t *passed, size_t *failed) {
    bool ok = test_sixteen_threads_share_one_parsed_file();
    if (!ok) {
        fprintf(stderr, "FAIL threads: sixteen_threads_share_one_parsed_file\n");
    }
    *(ok ? passed : failed) += 1;
    printf("threads: 1 case, %d threads x %d rounds\n", THREADS, ROUNDS);
}
