/*
 * bench_check.c: the check workload of ../shared/bench through the C ABI,
 * to show what the boundary costs per call. Prints a Markdown section.
 *
 * The loop is the one benches/compare.rs times for Rust: for each sample
 * file (its first 512,000 bytes) and each agent (ExampleBot, Googlebot),
 * parse and select the rules (untimed), then time 20 passes over the
 * file's 20 URLs. Figures: mean per check over the whole workload, the
 * per-file median, and the mean on the files of 64 KiB or more, through
 * robotstxt_rules_can_fetch and robotstxt_rules_decide, in both profiles.
 * With --rust FILE (compare.rs's Markdown report) the Rust figures for
 * Rules::can_fetch are printed beside them, with the difference.
 *
 * Then compare.rs's first answers: for every file of parse_files.tsv,
 * parse, select for ExampleBot, check its first 1, 5 or 20 URLs and free
 * it all, one timed pass over the whole corpus, beside the Rust figures
 * of robotstxt and its peers from the same report.
 *
 *     bench-check [--rounds N] [--rust RUST.md] [--shop ROBOTS.TXT] [--out FILE]
 *
 * ROBOTSTXT_SHARED names the shared directory (default ../shared). A
 * benchmark, not a test: it prints numbers and asserts no time.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "robotstxt.h"

#define CAP 512000
#define REPS 20
#define LARGE 65536
#define SHOP_CALLS 1000000
#define MAX_ROUNDS 100
#define FIRST_URLS 20
#define FIRST_SIZES 3
#define FIRST_LIBS 4

static const char *const AGENTS[2] = {"ExampleBot", "Googlebot"};
/* compare.rs's FIRST_ANSWER_CHECKS. */
static const size_t FIRST_CHECKS[FIRST_SIZES] = {1, 5, 20};

static void die(const char *what, const char *detail) {
    fprintf(stderr, "bench-check: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

/* The detailed message of the last failed call, NUL-terminated. */
static const char *last_error(void) {
    static char msg[512];
    const uint8_t *ptr = NULL;
    size_t len = 0;
    if (robotstxt_last_error(&ptr, &len) != ROBOTSTXT_STATUS_OK || !ptr)
        return "no detail";
    snprintf(msg, sizeof msg, "%.*s", (int)(len < sizeof msg ? len : sizeof msg - 1), (const char *)ptr);
    return msg;
}

static void *xrealloc(void *p, size_t n) {
    p = realloc(p, n ? n : 1);
    if (!p)
        die("out of memory", NULL);
    return p;
}

static char *read_file(const char *path, size_t cap, size_t *len_out) {
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open", path);
    size_t len = 0, size = 4096;
    char *buf = xrealloc(NULL, size);
    for (;;) {
        if (len == size)
            buf = xrealloc(buf, size *= 2);
        size_t n = fread(buf + len, 1, size - len, f);
        if (n == 0)
            break;
        len += n;
    }
    if (ferror(f))
        die("cannot read", path);
    fclose(f);
    if (len > cap)
        len = cap;
    *len_out = len;
    return buf;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---- the report: printed and kept for --out ---- */

static char *report;
static size_t report_len;

static void out(const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        die("vsnprintf failed", NULL);
    report = xrealloc(report, report_len + (size_t)n + 1);
    vsnprintf(report + report_len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    fputs(report + report_len, stdout);
    report_len += (size_t)n;
}

/* As compare.rs's fmt_ns. */
static const char *fmt_ns(double ns, char *buf, size_t size) {
    if (isnan(ns))
        snprintf(buf, size, "–");
    else if (ns >= 1e6)
        snprintf(buf, size, "%.2f ms", ns / 1e6);
    else if (ns >= 1e3)
        snprintf(buf, size, "%.2f µs", ns / 1e3);
    else
        snprintf(buf, size, "%.0f ns", ns);
    return buf;
}

/* `n` with thousands separators, as "80,000". */
static const char *fmt_count(size_t n, char *buf, size_t size) {
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%zu", n);
    size_t j = 0;
    for (int i = 0; i < len && j + 2 < size; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[j++] = ',';
        buf[j++] = digits[i];
    }
    buf[j] = '\0';
    return buf;
}

/* ---- the workload ---- */

typedef struct {
    char *name;
    char *body;
    size_t len;
    size_t nurls;
    char **urls;
    size_t *url_lens;
} sample_file;

static sample_file *files;
static size_t nfiles, total_urls;

static void load_workload(const char *shared) {
    char path[4096];
    snprintf(path, sizeof path, "%s/bench/check_urls.tsv", shared);
    size_t len;
    char *tsv = read_file(path, SIZE_MAX, &len);
    tsv = xrealloc(tsv, len + 1);
    tsv[len] = '\0';
    char *line = strchr(tsv, '\n'); /* skip the header */
    while (line && *++line) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        char *class = strchr(line, '\t');
        char *url = class ? strchr(class + 1, '\t') : NULL;
        if (!url)
            die("malformed line in check_urls.tsv", line);
        *class = '\0';
        url++;
        if (nfiles == 0 || strcmp(files[nfiles - 1].name, line) != 0) {
            files = xrealloc(files, (nfiles + 1) * sizeof *files);
            sample_file *f = &files[nfiles++];
            memset(f, 0, sizeof *f);
            f->name = line;
            snprintf(path, sizeof path, "%s/corpus/%s", shared, line);
            f->body = read_file(path, CAP, &f->len);
        }
        sample_file *f = &files[nfiles - 1];
        f->urls = xrealloc(f->urls, (f->nurls + 1) * sizeof *f->urls);
        f->url_lens = xrealloc(f->url_lens, (f->nurls + 1) * sizeof *f->url_lens);
        f->urls[f->nurls] = url;
        f->url_lens[f->nurls] = strlen(url);
        f->nurls++;
        total_urls++;
        line = end;
    }
}

/* ---- the first-answer workload: every corpus file ---- */

typedef struct {
    char *body;
    size_t len;
    size_t nurls;
    char *urls[FIRST_URLS];
    size_t url_lens[FIRST_URLS];
} corpus_file;

static corpus_file *corpus;
static size_t ncorpus;

/* As compare.rs's path_of: after "://", from the first '/', cut at the
 * first '#'; "/" when there is no path. Points into `url`. */
static const char *path_of(const char *url, size_t *len) {
    const char *rest = strstr(url, "://");
    rest = rest ? rest + 3 : url;
    const char *path = strchr(rest, '/');
    if (!path) {
        *len = 1;
        return "/";
    }
    *len = strcspn(path, "#");
    return path;
}

/* Indices into files[] sorted by name, then by position: a file's own
 * URLs are found by bsearch and kept in check_urls.tsv's order. */
static size_t *by_name;

static int cmp_by_name(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(files[x].name, files[y].name);
    return c ? c : (x > y) - (x < y);
}

static int cmp_name_key(const void *key, const void *elem) {
    return strcmp((const char *)key, files[*(const size_t *)elem].name);
}

/* The column of `name` in a TSV header line; dies when missing. */
static int tsv_column(const char *header, const char *name) {
    int col = 0;
    size_t n = strlen(name);
    for (const char *c = header;; col++) {
        size_t w = strcspn(c, "\t\r\n");
        if (w == n && strncmp(c, name, n) == 0)
            return col;
        if (c[w] != '\t')
            die("parse_files.tsv has no column", name);
        c += w + 1;
    }
}

/* Every row of parse_files.tsv, in order, with compare.rs's
 * first_answer_urls. After load_workload: borrows its URLs. */
static void load_corpus(const char *shared) {
    char path[4096];
    snprintf(path, sizeof path, "%s/bench/parse_files.tsv", shared);
    size_t len;
    char *tsv = read_file(path, SIZE_MAX, &len);
    tsv = xrealloc(tsv, len + 1);
    tsv[len] = '\0';
    int file_col = tsv_column(tsv, "file"), cap_col = tsv_column(tsv, "capped_bytes");

    by_name = xrealloc(by_name, nfiles * sizeof *by_name);
    for (size_t i = 0; i < nfiles; i++)
        by_name[i] = i;
    qsort(by_name, nfiles, sizeof *by_name, cmp_by_name);
    /* `all`: every workload URL in order, as its path. */
    const char **all = xrealloc(NULL, total_urls * sizeof *all);
    size_t *all_lens = xrealloc(NULL, total_urls * sizeof *all_lens);
    size_t n_all = 0;
    for (size_t i = 0; i < nfiles; i++)
        for (size_t u = 0; u < files[i].nurls; u++, n_all++)
            all[n_all] = path_of(files[i].urls[u], &all_lens[n_all]);
    if (n_all == 0)
        die("check_urls.tsv has no URLs", NULL);

    char *line = strchr(tsv, '\n'); /* skip the header */
    while (line && *++line) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        char *name = NULL, *capped = NULL, *cell = line;
        for (int col = 0; cell; col++) {
            char *tab = strchr(cell, '\t');
            if (tab)
                *tab = '\0';
            if (col == file_col)
                name = cell;
            if (col == cap_col)
                capped = cell;
            cell = tab ? tab + 1 : NULL;
        }
        if (!name || !capped)
            die("malformed line in parse_files.tsv", line);
        size_t cap = strtoull(capped, NULL, 10);
        corpus = xrealloc(corpus, (ncorpus + 1) * sizeof *corpus);
        size_t i = ncorpus++;
        corpus_file *c = &corpus[i];
        memset(c, 0, sizeof *c);
        snprintf(path, sizeof path, "%s/corpus/%s", shared, name);
        c->body = read_file(path, cap < CAP ? cap : CAP, &c->len);
        c->body = xrealloc(c->body, c->len); /* 20,000 bodies: no slack */

        size_t *own = bsearch(name, by_name, nfiles, sizeof *by_name, cmp_name_key);
        if (own) {
            while (own > by_name && strcmp(files[own[-1]].name, name) == 0)
                own--;
            for (; own < by_name + nfiles && strcmp(files[*own].name, name) == 0; own++)
                for (size_t u = 0; u < files[*own].nurls && c->nurls < FIRST_URLS; u++, c->nurls++) {
                    c->urls[c->nurls] = files[*own].urls[u];
                    c->url_lens[c->nurls] = files[*own].url_lens[u];
                }
        } else {
            /* `/`, then paths of the workload's other URLs in turn. */
            static const char host[] = "https://www.example.com";
            for (size_t k = 0; k < FIRST_URLS; k++, c->nurls++) {
                size_t plen = 1;
                const char *p = k == 0 ? "/" : all[(i * 19 + k) % n_all];
                if (k > 0)
                    plen = all_lens[(i * 19 + k) % n_all];
                char *url = xrealloc(NULL, sizeof host - 1 + plen + 1);
                memcpy(url, host, sizeof host - 1);
                memcpy(url + sizeof host - 1, p, plen);
                url[sizeof host - 1 + plen] = '\0';
                c->urls[k] = url;
                c->url_lens[k] = sizeof host - 1 + plen;
            }
        }
        line = end;
    }
    free(all);
    free(all_lens);
    free(tsv); /* the corpus keeps no name */
}

/* ---- timing ---- */

enum { RFC, GOOGLE };
enum { CAN_FETCH, DECIDE };
enum { WHOLE, MEDIAN, LARGE_FILES, METRICS };

typedef struct {
    int profile;
    int call;
} variant;

static const variant VARIANTS[4] = {{RFC, CAN_FETCH}, {RFC, DECIDE}, {GOOGLE, CAN_FETCH}, {GOOGLE, DECIDE}};
static const char *const PROFILE_NAMES[2] = {"rfc", "google"};
static const char *const CALL_NAMES[2] = {"`robotstxt_rules_can_fetch`", "`robotstxt_rules_decide`"};

static robotstxt_rules *select_rules(const char *body, size_t len, int profile, const char *agent,
                                     robotstxt_robots **robots_out) {
    robotstxt_options options = robotstxt_options_default();
    options.profile = profile == GOOGLE ? ROBOTSTXT_PROFILE_GOOGLE : ROBOTSTXT_PROFILE_RFC;
    options.parse_limit = CAP;
    robotstxt_robots *robots;
    robotstxt_rules *rules;
    if (robotstxt_robots_parse_with((const uint8_t *)body, len, &options, &robots) != ROBOTSTXT_STATUS_OK)
        die("robotstxt_robots_parse_with failed", last_error());
    if (robotstxt_robots_rules_for(robots, (const uint8_t *)agent, strlen(agent), &rules) != ROBOTSTXT_STATUS_OK)
        die("robotstxt_robots_rules_for failed", last_error());
    *robots_out = robots;
    return rules;
}

/* Times `reps` passes over `n` URLs; returns ns per check and adds the
 * disallowed answers of one pass to *disallowed. */
static double time_checks(const robotstxt_rules *rules, int call, char *const *urls, const size_t *lens,
                          size_t n, int reps, size_t *disallowed) {
    size_t no = 0;
    bool ok = true;
    double start = now_ns();
    if (call == CAN_FETCH) {
        for (int r = 0; r < reps; r++)
            for (size_t i = 0; i < n; i++) {
                bool allowed;
                ok &= robotstxt_rules_can_fetch(rules, (const uint8_t *)urls[i], lens[i], &allowed) ==
                      ROBOTSTXT_STATUS_OK;
                no += !allowed;
            }
    } else {
        for (int r = 0; r < reps; r++)
            for (size_t i = 0; i < n; i++) {
                robotstxt_decision d = {0};
                ok &= robotstxt_rules_decide(rules, (const uint8_t *)urls[i], lens[i], &d) == ROBOTSTXT_STATUS_OK;
                no += !d.allowed;
            }
    }
    double ns = (now_ns() - start) / ((double)n * reps);
    if (!ok)
        die("a check failed", last_error());
    *disallowed += no / (size_t)reps;
    return ns;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* As compare.rs's median: the upper middle of the sorted values. */
static double median(double *v, size_t n) {
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* One pass of the workload with `v`, compare.rs's check loop; writes the
 * three figures to m[] and returns the disallowed answers. */
static size_t run_workload(variant v, double m[METRICS]) {
    static double *per_file;
    per_file = xrealloc(per_file, nfiles * sizeof *per_file);
    double total = 0, large = 0;
    size_t large_n = 0, disallowed = 0;
    for (size_t i = 0; i < nfiles; i++) {
        const sample_file *f = &files[i];
        double file_ns = 0;
        for (int a = 0; a < 2; a++) {
            robotstxt_robots *robots;
            robotstxt_rules *rules = select_rules(f->body, f->len, v.profile, AGENTS[a], &robots);
            file_ns += time_checks(rules, v.call, f->urls, f->url_lens, f->nurls, REPS, &disallowed) / 2;
            robotstxt_rules_free(rules);
            robotstxt_robots_free(robots);
        }
        per_file[i] = file_ns;
        total += file_ns * (double)f->nurls;
        if (f->len >= LARGE) {
            large += file_ns * (double)f->nurls;
            large_n += f->nurls;
        }
    }
    m[WHOLE] = total / (double)total_urls;
    m[MEDIAN] = median(per_file, nfiles);
    m[LARGE_FILES] = large / (double)large_n;
    return disallowed;
}

/* One timed pass of compare.rs's first answers with `n` checks per file,
 * RFC profile, every handle freed inside the timing as a crawler would;
 * returns ns per pass and writes the allowed answers. */
static double first_answer_pass(size_t n, size_t *allowed_out) {
    size_t allowed = 0;
    bool ok = true;
    double start = now_ns();
    for (size_t i = 0; i < ncorpus; i++) {
        const corpus_file *c = &corpus[i];
        robotstxt_robots *robots;
        robotstxt_rules *rules = select_rules(c->body, c->len, RFC, "ExampleBot", &robots);
        size_t k = n < c->nurls ? n : c->nurls;
        for (size_t u = 0; u < k; u++) {
            bool yes = false;
            ok &= robotstxt_rules_can_fetch(rules, (const uint8_t *)c->urls[u], c->url_lens[u], &yes) ==
                  ROBOTSTXT_STATUS_OK;
            allowed += yes;
        }
        robotstxt_rules_free(rules);
        robotstxt_robots_free(robots);
    }
    double ns = now_ns() - start;
    if (!ok)
        die("a check failed", last_error());
    *allowed_out = allowed;
    return ns;
}

/* ---- the Rust figures, from compare.rs's report ---- */

static const char *const RUST_HEADINGS[METRICS] = {
    "### Check time, whole workload",
    "### Check time, per-file median",
    "### Check time on the files ≥ 64 KiB",
};

/* Reads "346 ns", "4.39 µs" or "1.04 ms" into ns; NaN otherwise. */
static double parse_ns(const char *cell) {
    char *end;
    double x = strtod(cell, &end);
    if (end == cell)
        return NAN;
    while (*end == ' ')
        end++;
    if (strncmp(end, "ns", 2) == 0)
        return x;
    if (strncmp(end, "µs", strlen("µs")) == 0)
        return x * 1e3;
    if (strncmp(end, "ms", 2) == 0)
        return x * 1e6;
    return NAN;
}

/* One per FIRST_CHECKS, as compare.rs titles them. */
static const char *const RUST_FIRST_HEADINGS[FIRST_SIZES] = {
    "### First answer: parse, select and 1 check per file, whole corpus",
    "### First answer: parse, select and 5 checks per file, whole corpus",
    "### First answer: parse, select and 20 checks per file, whole corpus",
};

/* The rows read from each first-answer table: ours, then the peers. */
static const char *const FIRST_LIB_NAMES[FIRST_LIBS] = {
    "robotstxt (rfc)",
    "texting_robots 0.2",
    "robotstxt 0.3 (Google port)",
    "fast-robots 0.1",
};

/* rust[profile][metric]: robotstxt's row of each check table;
 * first[size][lib]: each first-answer table's rows of FIRST_LIB_NAMES.
 * NaN when the file, the table or the row is missing. Returns whether the
 * file was read. */
static bool read_rust(const char *path, double rust[2][METRICS], double first[FIRST_SIZES][FIRST_LIBS],
                      char *when, size_t when_size) {
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < METRICS; k++)
            rust[p][k] = NAN;
    for (int s = 0; s < FIRST_SIZES; s++)
        for (int l = 0; l < FIRST_LIBS; l++)
            first[s][l] = NAN;
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return false;
    struct stat st;
    if (stat(path, &st) == 0) {
        struct tm tm;
        localtime_r(&st.st_mtime, &tm);
        strftime(when, when_size, "%Y-%m-%d %H:%M", &tm);
    } else {
        snprintf(when, when_size, "?");
    }
    char line[4096];
    int table = -1, first_table = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "###", 3) == 0) {
            table = first_table = -1;
            for (int k = 0; k < METRICS; k++)
                if (strncmp(line, RUST_HEADINGS[k], strlen(RUST_HEADINGS[k])) == 0)
                    table = k;
            for (int s = 0; s < FIRST_SIZES; s++)
                if (strncmp(line, RUST_FIRST_HEADINGS[s], strlen(RUST_FIRST_HEADINGS[s])) == 0)
                    first_table = s;
            continue;
        }
        for (int l = 0; first_table >= 0 && l < FIRST_LIBS; l++) {
            char row[64];
            snprintf(row, sizeof row, "| %s |", FIRST_LIB_NAMES[l]);
            if (strncmp(line, row, strlen(row)) == 0)
                first[first_table][l] = parse_ns(line + strlen(row));
        }
        if (table < 0)
            continue;
        for (int p = 0; p < 2; p++) {
            char row[64];
            snprintf(row, sizeof row, "| robotstxt (%s) |", PROFILE_NAMES[p]);
            if (strncmp(line, row, strlen(row)) == 0)
                rust[p][table] = parse_ns(line + strlen(row));
        }
    }
    fclose(f);
    return true;
}

/* ---- main ---- */

static const char *arg(int argc, char **argv, const char *name) {
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return NULL;
}

/* "median (min–max)" of `n` values, formatted as times. */
static const char *summary(double *v, size_t n, char *buf, size_t size) {
    double sorted[MAX_ROUNDS];
    memcpy(sorted, v, n * sizeof *v);
    double m = median(sorted, n);
    char a[32], b[32], c[32];
    if (n == 1)
        snprintf(buf, size, "%s", fmt_ns(m, a, sizeof a));
    else
        snprintf(buf, size, "%s (%s–%s)", fmt_ns(m, a, sizeof a), fmt_ns(sorted[0], b, sizeof b),
                 fmt_ns(sorted[n - 1], c, sizeof c));
    return buf;
}

int main(int argc, char **argv) {
    const char *rounds_arg = arg(argc, argv, "--rounds");
    int rounds = rounds_arg ? atoi(rounds_arg) : 5;
    if (rounds < 1 || rounds > MAX_ROUNDS)
        die("--rounds must be between 1 and 100", rounds_arg);
    const char *rust_path = arg(argc, argv, "--rust");
    const char *shop_path = arg(argc, argv, "--shop");
    if (!shop_path)
        shop_path = "examples/shop/robots.txt";
    const char *out_path = arg(argc, argv, "--out");
    const char *shared = getenv("ROBOTSTXT_SHARED");
    if (!shared || !*shared)
        shared = "../shared";

    load_workload(shared);
    load_corpus(shared);
    size_t large_files = 0;
    for (size_t i = 0; i < nfiles; i++)
        large_files += files[i].len >= LARGE;

    /* The workload: rounds, the four variants interleaved. */
    double m[4][METRICS][MAX_ROUNDS];
    size_t disallowed[4] = {0};
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < 4; i++) {
            int v = (i + r) % 4;
            double fig[METRICS];
            disallowed[v] = run_workload(VARIANTS[v], fig);
            for (int k = 0; k < METRICS; k++)
                m[v][k][r] = fig[k];
        }
    }

    /* One question to small rules, SHOP_CALLS times a round. */
    size_t shop_len;
    char *shop = read_file(shop_path, CAP, &shop_len);
    char *shop_url = "https://bazaar.nimbu.test/prices/today";
    size_t shop_url_len = strlen(shop_url);
    double shop_ns[2][MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < 2; i++) {
            int call = (i + r) % 2;
            robotstxt_robots *robots;
            robotstxt_rules *rules = select_rules(shop, shop_len, RFC, "NimbuBot", &robots);
            size_t no = 0;
            shop_ns[call][r] = time_checks(rules, call, &shop_url, &shop_url_len, 1, SHOP_CALLS, &no);
            if (no != 0)
                die("the practice shop disallows", shop_url);
            robotstxt_rules_free(rules);
            robotstxt_robots_free(robots);
        }
    }

    /* First answers: per size, one untimed pass, then the rounds. */
    double first_ns[FIRST_SIZES][MAX_ROUNDS];
    size_t first_allowed[FIRST_SIZES];
    for (int s = 0; s < FIRST_SIZES; s++)
        for (int r = -1; r < rounds; r++) {
            double ns = first_answer_pass(FIRST_CHECKS[s], &first_allowed[s]);
            if (r >= 0)
                first_ns[s][r] = ns;
        }

    double rust[2][METRICS], rust_first[FIRST_SIZES][FIRST_LIBS];
    char rust_when[64] = "";
    bool have_rust = read_rust(rust_path, rust, rust_first, rust_when, sizeof rust_when);
    bool have_rust_first = false;
    for (int s = 0; s < FIRST_SIZES; s++)
        for (int l = 0; l < FIRST_LIBS; l++)
            have_rust_first |= !isnan(rust_first[s][l]);

    char buf[3][96];
    out("## C: the check workload through the C ABI\n\n");
    out("robotstxt %s, called from C (`cc -O2`, linked against `librobotstxt.a`). Inputs: "
        "the check workload of `../shared/bench`, %s files × 20 URLs × 2 agents (ExampleBot, "
        "Googlebot), each file's first 512,000 bytes (%zu files of 64 KiB or more). The loop is "
        "`benches/compare.rs`'s: for each file and agent, parse and select the rules (untimed), "
        "then time %d passes over the file's URLs. %d round%s, the four variants interleaved; "
        "each figure is the median of the rounds (min–max). Command: `make c-bench`.\n",
        robotstxt_version(), fmt_count(nfiles, buf[1], sizeof buf[1]), large_files, REPS, rounds, rounds == 1 ? "" : "s");

    out("\n### Check time through the C ABI\n\n");
    out("| profile | call | whole workload (mean per check) | per-file median | files ≥ 64 KiB (mean per check) |\n");
    out("|---|---|---:|---:|---:|\n");
    for (int p = 0; p < 2; p++) {
        for (int c = 0; c < 2; c++) {
            int v = p * 2 + c;
            out("| %s | %s |", PROFILE_NAMES[p], CALL_NAMES[c]);
            for (int k = 0; k < METRICS; k++)
                out(" %s |", summary(m[v][k], (size_t)rounds, buf[0], sizeof buf[0]));
            out("\n");
        }
        out("| %s | Rust `Rules::can_fetch` (compare.rs) |", PROFILE_NAMES[p]);
        for (int k = 0; k < METRICS; k++)
            out(" %s |", fmt_ns(rust[p][k], buf[0], sizeof buf[0]));
        out("\n");
    }

    out("\n### What the boundary costs per call\n\n");
    if (have_rust)
        out("`robotstxt_rules_can_fetch` from C against `Rules::can_fetch` in Rust on the same loop; the "
            "Rust figures are robotstxt's rows of the Rust section (`%s`, written %s: another process, one "
            "pass). A difference smaller than the C figure's min–max spread is noise.\n\n",
            rust_path, rust_when);
    else
        out("No Rust figures to compare with (`%s` is missing: `make bench` writes it before this step).\n\n",
            rust_path ? rust_path : "--rust FILE");
    out("| profile | | whole workload | per-file median | files ≥ 64 KiB |\n");
    out("|---|---|---:|---:|---:|\n");
    for (int p = 0; p < 2; p++) {
        double c[METRICS];
        for (int k = 0; k < METRICS; k++) {
            double sorted[MAX_ROUNDS];
            memcpy(sorted, m[p * 2 + CAN_FETCH][k], (size_t)rounds * sizeof(double));
            c[k] = median(sorted, (size_t)rounds);
        }
        out("| %s | C − Rust |", PROFILE_NAMES[p]);
        for (int k = 0; k < METRICS; k++) {
            double d = c[k] - rust[p][k];
            if (isnan(d))
                out(" – |");
            else
                out(" %s%s |", d < 0 ? "−" : "+", fmt_ns(d < 0 ? -d : d, buf[0], sizeof buf[0]));
        }
        out("\n| %s | C ÷ Rust |", PROFILE_NAMES[p]);
        for (int k = 0; k < METRICS; k++) {
            double x = c[k] / rust[p][k];
            out(!isnan(x) ? " %.2f× |" : " – |", x);
        }
        out("\n");
    }

    out("\n### One question to small rules\n\n");
    out("The practice shop (`%s`, RFC profile), NimbuBot, `%s` (allowed by `Allow: /prices/today`), "
        "%s calls a round: the whole cost of a question whose matching is trivial, boundary included. "
        "Go's `BenchmarkAllowed` asks the same question.\n\n",
        shop_path, shop_url, fmt_count(SHOP_CALLS, buf[1], sizeof buf[1]));
    out("| call | time per call |\n|---|---:|\n");
    for (int c = 0; c < 2; c++)
        out("| %s | %s |\n", CALL_NAMES[c], summary(shop_ns[c], (size_t)rounds, buf[0], sizeof buf[0]));

    out("\nDisallowed answers over the %s checks (both agents): rfc %zu, google %zu",
        fmt_count(total_urls * 2, buf[1], sizeof buf[1]), disallowed[0], disallowed[2]);
    if (disallowed[0] != disallowed[1] || disallowed[2] != disallowed[3])
        out(" (`robotstxt_rules_decide` differs: rfc %zu, google %zu)", disallowed[1], disallowed[3]);
    else
        out("; `robotstxt_rules_decide` agrees");
    out(".\n");

    out("\n### First answer: parse, select and N checks per file, whole corpus\n\n");
    out("compare.rs's first answers through the C ABI: for each of the %s files of `parse_files.tsv` "
        "(each file's first 512,000 bytes at most), parse (RFC profile), select the rules for ExampleBot, "
        "`robotstxt_rules_can_fetch` on the file's first N URLs (its own workload URLs where the workload "
        "has some, else `/` and then paths of the workload's other URLs), then free the rules and the "
        "robots. One timed pass over the whole corpus, after one untimed; the median of %d round%s%s.",
        fmt_count(ncorpus, buf[1], sizeof buf[1]), rounds, rounds == 1 ? "" : "s",
        rounds == 1 ? "" : " (min–max)");
    if (have_rust_first)
        out(" The Rust figures are the rows of the Rust section's first-answer tables (`%s`, written %s: "
            "another process, the median of its rounds); the Google port leaves out the files it panics "
            "on. Peer ÷ C above 1× means robotstxt through C is faster.\n\n",
            rust_path, rust_when);
    else if (have_rust)
        out(" No Rust figures to compare with (`%s` has no first-answer tables): the C figures alone.\n\n",
            rust_path);
    else
        out(" No Rust figures to compare with (`%s` is missing: `make bench` writes it before this step): "
            "the C figures alone.\n\n",
            rust_path ? rust_path : "--rust FILE");
    if (have_rust_first) {
        out("| N | robotstxt through C | robotstxt (rfc) in Rust | C ÷ Rust |");
        for (int l = 1; l < FIRST_LIBS; l++)
            out(" %s | ÷ C |", FIRST_LIB_NAMES[l]);
        out("\n|---:|---:|---:|---:|");
        for (int l = 1; l < FIRST_LIBS; l++)
            out("---:|---:|");
        out("\n");
    } else {
        out("| N | robotstxt through C |\n|---:|---:|\n");
    }
    for (int s = 0; s < FIRST_SIZES; s++) {
        out("| %zu | %s |", FIRST_CHECKS[s], summary(first_ns[s], (size_t)rounds, buf[0], sizeof buf[0]));
        if (have_rust_first) {
            double sorted[MAX_ROUNDS];
            memcpy(sorted, first_ns[s], (size_t)rounds * sizeof(double));
            double c = median(sorted, (size_t)rounds), x = c / rust_first[s][0];
            out(" %s |", fmt_ns(rust_first[s][0], buf[0], sizeof buf[0]));
            out(!isnan(x) ? " %.2f× |" : " – |", x);
            for (int l = 1; l < FIRST_LIBS; l++) {
                x = rust_first[s][l] / c;
                out(" %s |", fmt_ns(rust_first[s][l], buf[0], sizeof buf[0]));
                out(!isnan(x) ? " %.1f× |" : " – |", x);
            }
        }
        out("\n");
    }
    out("\nAllowed answers per pass: %s (N = 1), %s (N = 5), %s (N = 20).\n",
        fmt_count(first_allowed[0], buf[0], sizeof buf[0]), fmt_count(first_allowed[1], buf[1], sizeof buf[1]),
        fmt_count(first_allowed[2], buf[2], sizeof buf[2]));

    if (out_path) {
        FILE *f = fopen(out_path, "w");
        if (!f || fwrite(report, 1, report_len, f) != report_len || fclose(f) != 0)
            die("cannot write", out_path);
        fprintf(stderr, "wrote %s\n", out_path);
    }
    return 0;
}
