/* One parsed handle and its rules shared by 16 pthreads doing mixed
 * questions: can_fetch, decide, selecting their own rules from
 * the shared robots, crawl delays, sitemaps, diagnostics; every answer is
 * compared with the single-threaded answer. Then one pacer shared by 16
 * pthreads that reserve, sleep on a simulated clock, confirm and report:
 * the requests to each host start at least its gap apart, never more at
 * once than allowed, and every ticket goes. Runs under ASan + UBSan and
 * valgrind with the rest of the suite (test_cache.c shares one cache and
 * one pacer between 16 threads the same way). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
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

/* --- 16 threads, one pacer, a simulated clock --- */

enum { PACE_HOSTS = 2, PACE_ROUNDS = 20, MAX_IN_FLIGHT = 2, SPINS = 1000000 };
static const char *const PACE_HOST[PACE_HOSTS] = {"a.test", "b.test"};
/* a.test has the 10 ms floor; b.test a 25 ms crawl delay. */
static const uint64_t PACE_GAP[PACE_HOSTS] = {10, 25};

struct pace_shared {
    robotstxt_pacer *pacer;
    /* Simulated ms. Sleeping moves it forward, never back; a thread may
     * act on a reading another thread has already moved past. */
    _Atomic uint64_t clock;
    atomic_int in_flight[PACE_HOSTS];
    pthread_mutex_t lock;
    uint64_t go[PACE_HOSTS][THREADS * PACE_ROUNDS];
    size_t go_count[PACE_HOSTS];
};

struct pace_job {
    struct pace_shared *sh;
    int id;
    size_t mismatches;
};

static void sleep_until(struct pace_shared *sh, uint64_t t) {
    uint64_t now = atomic_load(&sh->clock);
    while (now < t && !atomic_compare_exchange_weak(&sh->clock, &now, t)) {
    }
}

/* Reserve, sleep until the start, confirm (sleeping as told, or until a
 * request ends when busy), send, report. */
static void *pace_run(void *arg) {
    struct pace_job *job = arg;
    struct pace_shared *sh = job->sh;
    int round;
    for (round = 0; round < PACE_ROUNDS; round++) {
        int h = (job->id + round) % PACE_HOSTS;
        const char *host = PACE_HOST[h];
        robotstxt_ticket *ticket = NULL;
        robotstxt_confirm c = {ROBOTSTXT_CONFIRM_WAIT, 0, false};
        uint64_t now = atomic_load(&sh->clock);
        size_t spins = 0, in_flight = 0;
        if (robotstxt_pacer_reserve(sh->pacer, (const uint8_t *)host, strlen(host), now,
                                    &ticket) != ROBOTSTXT_STATUS_OK ||
            ticket == NULL || robotstxt_ticket_start(ticket) < now) {
            job->mismatches++;
            robotstxt_ticket_free(ticket);
            continue;
        }
        sleep_until(sh, robotstxt_ticket_start(ticket));
        while (spins++ < SPINS) {
            now = atomic_load(&sh->clock);
            if (robotstxt_pacer_confirm(sh->pacer, ticket, now, &c) != ROBOTSTXT_STATUS_OK ||
                c.kind == ROBOTSTXT_CONFIRM_GO || c.kind == ROBOTSTXT_CONFIRM_DISABLED) {
                break;
            }
            if (c.busy) {
                sched_yield();
            } else {
                sleep_until(sh, c.until_ms);
            }
        }
        robotstxt_ticket_free(ticket);
        if (c.kind != ROBOTSTXT_CONFIRM_GO) {
            job->mismatches++;
            continue;
        }
        /* In flight: counted from GO to just before the report. */
        if (atomic_fetch_add(&sh->in_flight[h], 1) + 1 > MAX_IN_FLIGHT) {
            job->mismatches++;
        }
        if (robotstxt_pacer_in_flight(sh->pacer, (const uint8_t *)host, strlen(host), now,
                                      &in_flight) != ROBOTSTXT_STATUS_OK ||
            in_flight < 1 || in_flight > MAX_IN_FLIGHT) {
            job->mismatches++;
        }
        pthread_mutex_lock(&sh->lock);
        sh->go[h][sh->go_count[h]++] = now;
        pthread_mutex_unlock(&sh->lock);
        sleep_until(sh, now + 3); /* the request takes 3 ms */
        sched_yield();
        atomic_fetch_sub(&sh->in_flight[h], 1);
        if (robotstxt_pacer_record(sh->pacer, (const uint8_t *)host, strlen(host),
                                   atomic_load(&sh->clock), 200, false, 0) != ROBOTSTXT_STATUS_OK) {
            job->mismatches++;
        }
    }
    return NULL;
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static bool test_sixteen_threads_pace_one_host_set(void) {
    static struct pace_shared sh;
    robotstxt_pacer_options o = robotstxt_pacer_options_default();
    struct pace_job jobs[THREADS];
    pthread_t threads[THREADS];
    int t, h, started = 0;
    size_t i, total = 0;
    bool ok;
    memset(&sh, 0, sizeof sh);
    atomic_init(&sh.clock, 1000);
    for (h = 0; h < PACE_HOSTS; h++) {
        atomic_init(&sh.in_flight[h], 0);
    }
    pthread_mutex_init(&sh.lock, NULL);
    o.floor_ms = PACE_GAP[0];
    o.max_in_flight = MAX_IN_FLIGHT;
    ok = OK(robotstxt_pacer_new(&o, &sh.pacer));
    ok = ok && OK(robotstxt_pacer_set_delay(sh.pacer, TEXT(PACE_HOST[1]), true,
                                            (double)PACE_GAP[1] / 1000, false, 0, 0));
    for (t = 0; ok && t < THREADS; t++) {
        jobs[t].sh = &sh;
        jobs[t].id = t;
        jobs[t].mismatches = 0;
        ok &= CHECK(pthread_create(&threads[t], NULL, pace_run, &jobs[t]) == 0);
        started += ok;
    }
    for (t = 0; t < started; t++) {
        ok &= CHECK(pthread_join(threads[t], NULL) == 0);
        ok &= check_at(jobs[t].mismatches == 0, __FILE__, __LINE__,
                       "thread %d: %zu requests not paced as they should be", t,
                       jobs[t].mismatches);
    }
    for (h = 0; ok && h < PACE_HOSTS; h++) {
        uint64_t gap = 0;
        total += sh.go_count[h];
        qsort(sh.go[h], sh.go_count[h], sizeof sh.go[h][0], compare_u64);
        for (i = 1; i < sh.go_count[h]; i++) {
            ok &= check_at(sh.go[h][i] >= sh.go[h][i - 1] + PACE_GAP[h], __FILE__, __LINE__,
                           "%s: requests started at %llu and %llu, want %llu ms apart",
                           PACE_HOST[h], (unsigned long long)sh.go[h][i - 1],
                           (unsigned long long)sh.go[h][i], (unsigned long long)PACE_GAP[h]);
        }
        ok &= OK(robotstxt_pacer_gap_ms(sh.pacer, TEXT(PACE_HOST[h]), &gap));
        ok &= CHECK(gap == PACE_GAP[h]);
    }
    ok &= check_at(!ok || total == THREADS * PACE_ROUNDS, __FILE__, __LINE__,
                   "%zu requests went, want %d", total, THREADS * PACE_ROUNDS);
    robotstxt_pacer_free(sh.pacer);
    pthread_mutex_destroy(&sh.lock);
    return ok;
}

void run_thread_tests(size_t *passed, size_t *failed) {
    static const struct {
        const char *name;
        bool (*run)(void);
    } tests[] = {
        {"sixteen_threads_share_one_parsed_file", test_sixteen_threads_share_one_parsed_file},
        {"sixteen_threads_pace_one_host_set", test_sixteen_threads_pace_one_host_set},
    };
    size_t i;
    for (i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        bool ok = tests[i].run();
        if (!ok) {
            fprintf(stderr, "FAIL threads: %s\n", tests[i].name);
        }
        *(ok ? passed : failed) += 1;
    }
    printf("threads: 2 cases, %d threads x %d rounds (parsed), x %d (paced)\n", THREADS, ROUNDS,
           PACE_ROUNDS);
}
