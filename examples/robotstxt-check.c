/*
 * robotstxt-check: may this crawler fetch these URLs? A command-line tool
 * with the interface of Google's robots_main, on the robotstxt C API.
 *
 *     robotstxt-check [OPTIONS] ROBOTS_FILE USER_AGENT URL...
 *     robotstxt-check [OPTIONS] --user-agent HEADER ROBOTS_FILE URL...
 *
 * Prints one line per URL, `user-agent '<ua>' with URI '<url>': ALLOWED` or
 * `DISALLOWED` (with --json, one JSON object per URL that also holds the
 * usage preferences), and exits 0 when every URL is allowed, 1 when one is not,
 * 2 on a usage or I/O error (message on stderr). --user-agent takes a whole
 * User-Agent header instead of USER_AGENT and finds its product token with
 * robotstxt_product_token. Options go before the arguments; `--` ends them.
 * ROBOTS_FILE `-` reads standard input, and only as far as the parse limit.
 * Control bytes and `\` in printed text are escaped (`\n`, `\x1b`, `\\`),
 * so a URL cannot forge a line; JSON strings are escaped as JSON, bytes
 * that are not UTF-8 as \ufffd. Run with --help for the options.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <robotstxt.h>

#include "utf8.h"

enum { EXIT_ALLOWED = 0, EXIT_DISALLOWED = 1, EXIT_USAGE = 2 };

static const char USAGE[] =
    "usage: robotstxt-check [OPTIONS] ROBOTS_FILE USER_AGENT URL...\n"
    "       robotstxt-check [OPTIONS] --user-agent HEADER ROBOTS_FILE URL...\n"
    "       robotstxt-check [--sitemaps] [--lint] ROBOTS_FILE\n"
    "\n"
    "Says whether USER_AGENT may fetch each URL under the robots.txt in\n"
    "ROBOTS_FILE (`-` for standard input; read up to the 512,000-byte parse\n"
    "limit), one line per URL:\n"
    "  user-agent '<ua>' with URI '<url>': ALLOWED|DISALLOWED\n"
    "Control bytes and \\ in printed text are escaped (\\n, \\t, \\x1b, \\\\).\n"
    "With --json, one JSON object per URL and line instead.\n"
    "Exit status: 0 if every URL is allowed, 1 if one is not, 2 on a usage\n"
    "or I/O error.\n"
    "\n"
    "Options (before the arguments; `--` ends them):\n"
    "  --user-agent HEADER   a whole User-Agent header instead of USER_AGENT,\n"
    "                        checked as its product token: the first product\n"
    "                        after a comment's opening `compatible;`, else\n"
    "                        the first product ('Mozilla/5.0 (compatible;\n"
    "                        ExampleBot/1.0)', 'ExampleBot/1.0 (+https://...)')\n"
    "  --profile rfc|google  rfc (default): RFC 9309; USER_AGENT must be a\n"
    "                        product token such as ExampleBot. google: answer\n"
    "                        as Google's robots_main does (any USER_AGENT,\n"
    "                        compared whole; URLs compared as given).\n"
    "  --explain             append the deciding line to each result:\n"
    "                        (line N: allow|disallow PATTERN) or\n"
    "                        (no matching rule); below it, indented, the\n"
    "                        usage preferences stated for the URL and the\n"
    "                        crawler's Content-Signal, when the file has them:\n"
    "                          usage: LABEL=y|n|unknown (line N), ...\n"
    "                          content-signal: KEY=yes|no|unset, ... (line N)\n"
    "  --json                print one JSON object per URL, one per line:\n"
    "                        {\"url\", \"allowed\", \"line\", \"kind\", \"pattern\",\n"
    "                         \"preferences\": {LABEL: {\"value\": \"y\"|\"n\"|null,\n"
    "                         \"lines\": [N, ...]}}, \"content_signal\":\n"
    "                         {KEY: \"yes\"|\"no\"|null} or null}; train-ai and\n"
    "                        search are always in preferences. Bytes that\n"
    "                        are not UTF-8 become \\ufffd. Not with\n"
    "                        --crawl-delay, --sitemaps or --lint\n"
    "  --crawl-delay         print `crawl-delay: SECONDS` (or `none`)\n"
    "  --sitemaps            print `sitemap: URL` for each sitemap line\n"
    "  --lint                print the lines that have something to report:\n"
    "                        FILE:LINE: KIND[: FLAG, ...]\n"
    "  -h, --help            print this help\n"
    "  --version             print the library's version\n";

struct options {
    robotstxt_profile profile;
    bool explain, json, crawl_delay, sitemaps, lint;
    const char *file;
    const uint8_t *agent; /* NULL when only --sitemaps/--lint are asked */
    size_t agent_len;
    char **urls;
    int url_count;
};

/* Writes `len` bytes with control bytes and `\` escaped, so that text from
 * the command line or the file can neither start a line of its own nor
 * send terminal escapes. */
static void put_escaped(FILE *out, const uint8_t *s, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        switch (s[i]) {
        case '\n':
            fputs("\\n", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        default:
            if (s[i] < 0x20 || s[i] == 0x7f) {
                fprintf(out, "\\x%02x", s[i]);
            } else {
                putc(s[i], out);
            }
        }
    }
}

static void put_escaped_str(FILE *out, const char *s) {
    put_escaped(out, (const uint8_t *)s, strlen(s));
}


/* Writes `len` bytes as a JSON string: quotes, `\` and control bytes
 * escaped, and bytes that are not UTF-8 replaced by \ufffd, so that any
 * JSON parser reads the line. */
static void put_json_string(FILE *out, const uint8_t *s, size_t len) {
    size_t i = 0;
    putc('"', out);
    while (i < len) {
        bool valid;
        size_t n = utf8_sequence(s + i, len - i, &valid);
        if (!valid) {
            fputs("\\ufffd", out);
        } else if (n > 1) {
            fwrite(s + i, 1, n, out);
        } else if (s[i] == '"' || s[i] == '\\') {
            putc('\\', out);
            putc(s[i], out);
        } else if (s[i] == '\n') {
            fputs("\\n", out);
        } else if (s[i] == '\r') {
            fputs("\\r", out);
        } else if (s[i] == '\t') {
            fputs("\\t", out);
        } else if (s[i] < 0x20 || s[i] == 0x7f) {
            fprintf(out, "\\u%04x", s[i]);
        } else {
            putc(s[i], out);
        }
        i += n;
    }
    putc('"', out);
}

static int usage_error(const char *message, const char *arg) {
    fprintf(stderr, "robotstxt-check: %s", message);
    if (arg != NULL) {
        fputs(": ", stderr);
        put_escaped_str(stderr, arg);
    }
    fputs("\nTry 'robotstxt-check --help'.\n", stderr);
    return EXIT_USAGE;
}

/* Reports a failed library call with its detailed message (which quotes
 * the caller's text with control bytes already escaped); exit 2. */
static int api_error(robotstxt_status status) {
    const uint8_t *msg = NULL;
    size_t len = 0;
    if (robotstxt_last_error(&msg, &len) != ROBOTSTXT_STATUS_OK || len == 0) {
        fprintf(stderr, "robotstxt-check: %s\n", robotstxt_status_message(status));
    } else {
        fprintf(stderr, "robotstxt-check: %.*s\n", (int)len, (const char *)msg);
    }
    return EXIT_USAGE;
}

/* Returns -1 when the arguments are fine, else the exit status. */
static int parse_args(int argc, char **argv, struct options *o) {
    /* The arguments, gathered at the front of argv + 1 without the options. */
    char **args = argv + 1;
    const char *header = NULL; /* --user-agent */
    bool options_ended = false;
    int i, rest = 0;
    memset(o, 0, sizeof *o);
    o->profile = ROBOTSTXT_PROFILE_RFC;
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *profile = NULL;
        if (options_ended || arg[0] != '-' || arg[1] == '\0') {
            args[rest++] = argv[i];
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_ended = true;
            continue;
        }
        /* Not a URL: a misplaced option would otherwise be checked as one. */
        if (rest > 0) {
            return usage_error("option after the arguments", arg);
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(USAGE, stdout);
            return EXIT_ALLOWED;
        } else if (strcmp(arg, "--version") == 0) {
            printf("robotstxt-check (robotstxt %s)\n", robotstxt_version());
            return EXIT_ALLOWED;
        } else if (strcmp(arg, "--explain") == 0) {
            o->explain = true;
        } else if (strcmp(arg, "--json") == 0) {
            o->json = true;
        } else if (strcmp(arg, "--crawl-delay") == 0) {
            o->crawl_delay = true;
        } else if (strcmp(arg, "--sitemaps") == 0) {
            o->sitemaps = true;
        } else if (strcmp(arg, "--lint") == 0) {
            o->lint = true;
        } else if (strcmp(arg, "--user-agent") == 0) {
            if (++i == argc) {
                return usage_error("--user-agent needs a value: a User-Agent header", NULL);
            }
            header = argv[i];
        } else if (strncmp(arg, "--user-agent=", 13) == 0) {
            header = arg + 13;
        } else if (strcmp(arg, "--profile") == 0) {
            if (++i == argc) {
                return usage_error("--profile needs a value: rfc or google", NULL);
            }
            profile = argv[i];
        } else if (strncmp(arg, "--profile=", 10) == 0) {
            profile = arg + 10;
        } else {
            return usage_error("unknown option", arg);
        }
        if (profile != NULL) {
            if (strcmp(profile, "rfc") == 0) {
                o->profile = ROBOTSTXT_PROFILE_RFC;
            } else if (strcmp(profile, "google") == 0) {
                o->profile = ROBOTSTXT_PROFILE_GOOGLE;
            } else {
                return usage_error("--profile takes rfc or google, not", profile);
            }
        }
    }
    /* JSON lines only: another kind of line would break a reader. */
    if (o->json && (o->crawl_delay || o->sitemaps || o->lint)) {
        return usage_error("--json cannot be combined with --crawl-delay, --sitemaps or --lint",
                           NULL);
    }
    if (rest < 1) {
        return usage_error("missing ROBOTS_FILE", NULL);
    }
    o->file = args[0];
    if (header == NULL && rest == 1) {
        if (o->crawl_delay || o->json || !(o->sitemaps || o->lint)) {
            return usage_error("missing USER_AGENT and URL", NULL);
        }
        return -1;
    }
    if (header == NULL) {
        o->agent = (const uint8_t *)args[1];
        o->agent_len = strlen(args[1]);
    }
    o->urls = args + (header == NULL ? 2 : 1);
    o->url_count = rest - (header == NULL ? 2 : 1);
    if (o->url_count == 0 && !(o->crawl_delay || o->sitemaps || o->lint)) {
        return usage_error("missing URL", NULL);
    }
    if (header != NULL) {
        /* The token points into `header`, which lives as long as argv. */
        robotstxt_status status = robotstxt_product_token((const uint8_t *)header, strlen(header),
                                                          &o->agent, &o->agent_len);
        if (status != ROBOTSTXT_STATUS_OK) {
            return api_error(status);
        }
    }
    return -1;
}

/* Reads `path` (or standard input for `-`) as raw bytes, at most `limit`
 * of them: the parser looks no further, and endless input (/dev/zero, a
 * pipe) must still get an answer. */
static uint8_t *read_prefix(const char *path, size_t limit, size_t *len_out) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    int saved;
    if (f == NULL) {
        saved = errno;
        fputs("robotstxt-check: cannot open ", stderr);
        put_escaped_str(stderr, path);
        fprintf(stderr, ": %s\n", strerror(saved));
        return NULL;
    }
    /* An empty file still gets a buffer: NULL means failure. */
    do {
        size_t n;
        if (len == cap) {
            uint8_t *grown;
            cap = cap ? cap * 2 : 65536;
            cap = cap < limit ? cap : limit;
            grown = realloc(buf, cap);
            if (grown == NULL) {
                fputs("robotstxt-check: out of memory reading ", stderr);
                put_escaped_str(stderr, path);
                fputc('\n', stderr);
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            if (ferror(f)) {
                saved = errno;
                fputs("robotstxt-check: cannot read ", stderr);
                put_escaped_str(stderr, f == stdin ? "standard input" : path);
                fprintf(stderr, ": %s\n", strerror(saved));
                free(buf);
                buf = NULL;
            }
            break;
        }
    } while (len < limit);
    if (f != stdin) {
        fclose(f);
    }
    *len_out = len;
    return buf;
}

/* The shortest fixed-point decimal that reads back as `seconds` (2.5,
 * 0.05, 10): delays come from decimal text with at most 9 fraction digits. */
static void print_seconds(double seconds) {
    char buf[64];
    int digits;
    for (digits = 0; digits <= 9; digits++) {
        snprintf(buf, sizeof buf, "%.*f", digits, seconds);
        if (strtod(buf, NULL) == seconds) {
            fputs(buf, stdout);
            return;
        }
    }
    printf("%.17g", seconds);
}

static void print_lint(const robotstxt_robots *robots, const char *file) {
    size_t count = 0, i;
    const char *shown = strcmp(file, "-") == 0 ? "<stdin>" : file;
    robotstxt_robots_diagnostic_count(robots, &count);
    for (i = 0; i < count; i++) {
        robotstxt_diagnostic d;
        robotstxt_diagnostic_flags bit;
        const char *sep = ": ";
        if (robotstxt_robots_diagnostic(robots, i, &d) != ROBOTSTXT_STATUS_OK) {
            continue;
        }
        put_escaped_str(stdout, shown);
        printf(":%u: %s", d.line, robotstxt_line_kind_name(d.kind));
        for (bit = 1; bit != 0; bit <<= 1) {
            if (d.flags & bit) {
                printf("%s%s", sep, robotstxt_diagnostic_flag_name(bit));
                sep = ", ";
            }
        }
        putchar('\n');
    }
}

/* The usage preferences for one URL: `train-ai=y (line 4), search=unknown`
 * for --explain, or the "preferences" object for --json. */
static robotstxt_status print_labels(const robotstxt_preferences *p, bool json) {
    size_t count = 0, i, k;
    robotstxt_status status = robotstxt_preferences_label_count(p, &count);
    for (i = 0; status == ROBOTSTXT_STATUS_OK && i < count; i++) {
        robotstxt_label_preference l;
        status = robotstxt_preferences_label(p, i, &l);
        if (status != ROBOTSTXT_STATUS_OK) {
            break;
        }
        if (json) {
            fputs(i == 0 ? "{" : ", ", stdout);
            put_json_string(stdout, l.label.ptr, l.label.len);
            fputs(": {\"value\": ", stdout);
            if (l.value == ROBOTSTXT_USAGE_UNKNOWN) {
                fputs("null", stdout);
            } else {
                printf("\"%s\"", robotstxt_usage_name(l.value));
            }
            fputs(", \"lines\": [", stdout);
            for (k = 0; k < l.line_count; k++) {
                printf("%s%u", k == 0 ? "" : ", ", l.lines[k]);
            }
            fputs("]}", stdout);
        } else {
            fputs(i == 0 ? "  usage: " : ", ", stdout);
            put_escaped(stdout, l.label.ptr, l.label.len);
            printf("=%s", robotstxt_usage_name(l.value));
            for (k = 0; k < l.line_count; k++) {
                printf("%s%u", k > 0 ? ", " : l.line_count > 1 ? " (lines " : " (line ",
                       l.lines[k]);
            }
            if (l.line_count > 0) {
                putchar(')');
            }
        }
    }
    if (status == ROBOTSTXT_STATUS_OK) {
        fputs(json ? (count == 0 ? "{}" : "}") : "\n", stdout);
    }
    return status;
}

/* The crawler's Content-Signal (NULL: none): `search=yes, ai-input=unset
 * (line 5)` for --explain, or the "content_signal" value for --json. */
static robotstxt_status print_signal(const robotstxt_content_signal *signal, bool json) {
    size_t count = 0, line_count = 0, i;
    const uint32_t *lines = NULL;
    robotstxt_status status;
    if (signal == NULL) {
        if (json) {
            fputs("null", stdout);
        }
        return ROBOTSTXT_STATUS_OK;
    }
    status = robotstxt_content_signal_count(signal, &count);
    if (status == ROBOTSTXT_STATUS_OK) {
        status = robotstxt_content_signal_lines(signal, &lines, &line_count);
    }
    for (i = 0; status == ROBOTSTXT_STATUS_OK && i < count; i++) {
        robotstxt_signal e;
        const char *value;
        status = robotstxt_content_signal_entry(signal, i, &e);
        if (status != ROBOTSTXT_STATUS_OK) {
            break;
        }
        value = !e.is_set ? NULL : e.yes ? "yes" : "no";
        if (json) {
            fputs(i == 0 ? "{" : ", ", stdout);
            put_json_string(stdout, e.key.ptr, e.key.len);
            if (value == NULL) {
                fputs(": null", stdout);
            } else {
                printf(": \"%s\"", value);
            }
        } else {
            fputs(i == 0 ? "  content-signal: " : ", ", stdout);
            put_escaped(stdout, e.key.ptr, e.key.len);
            printf("=%s", value ? value : "unset");
        }
    }
    if (status != ROBOTSTXT_STATUS_OK) {
        return status;
    }
    if (json) {
        fputs(count == 0 ? "{}" : "}", stdout);
        return status;
    }
    for (i = 0; i < line_count; i++) {
        printf("%s%u", i > 0 ? ", " : line_count > 1 ? " (lines " : " (line ", lines[i]);
    }
    puts(line_count > 0 ? ")" : "");
    return status;
}

/* One URL as a line of JSON. */
static robotstxt_status print_json(const char *url, const robotstxt_decision *d,
                                   const robotstxt_preferences *p,
                                   const robotstxt_content_signal *signal) {
    robotstxt_status status;
    fputs("{\"url\": ", stdout);
    put_json_string(stdout, (const uint8_t *)url, strlen(url));
    printf(", \"allowed\": %s, \"line\": %u, \"kind\": \"%s\", \"pattern\": ",
           d->allowed ? "true" : "false", d->line, robotstxt_decision_kind_name(d->kind));
    put_json_string(stdout, d->pattern.ptr, d->pattern.len);
    fputs(", \"preferences\": ", stdout);
    status = print_labels(p, true);
    if (status != ROBOTSTXT_STATUS_OK) {
        return status;
    }
    fputs(", \"content_signal\": ", stdout);
    status = print_signal(signal, true);
    if (status == ROBOTSTXT_STATUS_OK) {
        puts("}");
    }
    return status;
}

/* The result line, and with --explain the deciding rule and, below it,
 * the usage preferences and Content-Signal when the file states them. */
static robotstxt_status print_words(const struct options *o, const char *url,
                                    const robotstxt_decision *d, const robotstxt_preferences *p,
                                    const robotstxt_content_signal *signal) {
    size_t statements = 0;
    robotstxt_status status = ROBOTSTXT_STATUS_OK;
    fputs("user-agent '", stdout);
    put_escaped(stdout, o->agent, o->agent_len);
    fputs("' with URI '", stdout);
    put_escaped_str(stdout, url);
    printf("': %s", d->allowed ? "ALLOWED" : "DISALLOWED");
    if (!o->explain) {
        putchar('\n');
        return status;
    }
    if (d->kind == ROBOTSTXT_DECISION_NONE) {
        fputs(" (no matching rule)\n", stdout);
    } else {
        printf(" (line %u: %s ", d->line, robotstxt_decision_kind_name(d->kind));
        put_escaped(stdout, d->pattern.ptr, d->pattern.len);
        puts(")");
    }
    /* Only what the file states: a file without preferences reads as
     * before. */
    status = robotstxt_preferences_statement_count(p, &statements);
    if (status == ROBOTSTXT_STATUS_OK && statements > 0) {
        status = print_labels(p, false);
    }
    if (status == ROBOTSTXT_STATUS_OK) {
        status = print_signal(signal, false);
    }
    return status;
}

static int check_urls(const struct options *o, const robotstxt_rules *rules) {
    int exit_code = EXIT_ALLOWED, i;
    robotstxt_content_signal *signal = NULL;
    robotstxt_status status = ROBOTSTXT_STATUS_OK;
    if (o->json || o->explain) {
        status = robotstxt_rules_content_signal(rules, &signal);
    }
    for (i = 0; status == ROBOTSTXT_STATUS_OK && i < o->url_count; i++) {
        const char *url = o->urls[i];
        robotstxt_decision d;
        robotstxt_preferences *p = NULL;
        status = robotstxt_rules_decide(rules, (const uint8_t *)url, strlen(url), &d);
        if (status == ROBOTSTXT_STATUS_OK && (o->json || o->explain)) {
            status = robotstxt_rules_preferences(rules, (const uint8_t *)url, strlen(url), &p);
        }
        if (status == ROBOTSTXT_STATUS_OK) {
            status = o->json ? print_json(url, &d, p, signal) : print_words(o, url, &d, p, signal);
        }
        robotstxt_preferences_free(p);
        if (status == ROBOTSTXT_STATUS_OK && !d.allowed) {
            exit_code = EXIT_DISALLOWED;
        }
    }
    robotstxt_content_signal_free(signal);
    return status == ROBOTSTXT_STATUS_OK ? exit_code : api_error(status);
}

static int run(const struct options *o, const robotstxt_options *parse, const uint8_t *body,
               size_t body_len) {
    robotstxt_robots *robots = NULL;
    robotstxt_rules *rules = NULL;
    robotstxt_status status;
    int exit_code = EXIT_ALLOWED;

    status = robotstxt_robots_parse_with(body, body_len, parse, &robots);
    if (status != ROBOTSTXT_STATUS_OK) {
        return api_error(status);
    }
    if (o->agent != NULL) {
        status = robotstxt_robots_rules_for(robots, o->agent, o->agent_len, &rules);
        if (status != ROBOTSTXT_STATUS_OK) {
            exit_code = api_error(status);
            if (status == ROBOTSTXT_STATUS_INVALID_TOKEN) {
                fputs("robotstxt-check: (--profile google accepts any name)\n", stderr);
            }
            robotstxt_robots_free(robots);
            return exit_code;
        }
        exit_code = check_urls(o, rules);
    }
    /* Google's robots_main says so when the file is empty. */
    if (o->profile == ROBOTSTXT_PROFILE_GOOGLE && body_len == 0 && o->url_count > 0 && !o->json) {
        puts("notice: robots file is empty so all user-agents are allowed");
    }
    if (o->crawl_delay && exit_code != EXIT_USAGE) {
        double seconds = 0;
        bool has = false;
        robotstxt_rules_crawl_delay(rules, &seconds, &has);
        fputs("crawl-delay: ", stdout);
        if (has) {
            print_seconds(seconds);
            putchar('\n');
        } else {
            puts("none");
        }
    }
    if (o->sitemaps && exit_code != EXIT_USAGE) {
        size_t count = 0, i;
        robotstxt_robots_sitemap_count(robots, &count);
        for (i = 0; i < count; i++) {
            const uint8_t *url = NULL;
            size_t len = 0;
            robotstxt_robots_sitemap(robots, i, &url, &len);
            fputs("sitemap: ", stdout);
            put_escaped(stdout, url, len);
            putchar('\n');
        }
    }
    if (o->lint && exit_code != EXIT_USAGE) {
        print_lint(robots, o->file);
    }
    robotstxt_rules_free(rules);
    robotstxt_robots_free(robots);
    return exit_code;
}

int main(int argc, char **argv) {
    struct options o;
    robotstxt_options parse = robotstxt_options_default();
    uint8_t *body;
    size_t body_len = 0;
    int exit_code = parse_args(argc, argv, &o);
    if (exit_code >= 0) {
        return exit_code;
    }
    parse.profile = o.profile;
    /* One byte past the limit tells the parser whether the limit cuts a
     * line (a cut line is dropped). */
    body = read_prefix(o.file, parse.parse_limit + 1, &body_len);
    if (body == NULL) {
        return EXIT_USAGE;
    }
    exit_code = run(&o, &parse, body, body_len);
    free(body);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "robotstxt-check: cannot write the output: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    return exit_code;
}
