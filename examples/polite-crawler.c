/* polite-crawler: a polite crawler in about 30 lines of logic, on the
 * robotstxt cache, pacer and rules.
 *
 *     polite-crawler URL...
 *
 * For each URL it gets the origin's rules from the cache (which says when
 * /robots.txt must be fetched: once per origin, then again when the copy
 * ages), waits its turn with the host's pacer (1 s apart, or the site's
 * Crawl-delay when longer, one request at a time, held back by a 429 or
 * 5xx), fetches the page when the rules allow it, and prints one line per
 * URL:
 *
 *     allowed 200 http://127.0.0.1:8000/public
 *     disallowed http://127.0.0.1:8000/private/x
 *
 * When the robots.txt could not be had (a 5xx, no response), everything on
 * the origin is disallowed for now, and stderr says why and when the cache
 * tries again.
 *
 * The HTTP client is a toy: http:// only, HTTP/1.0 over a plain socket,
 * IPv4, no redirects. Exit status: 0, or 1 if a URL could not be crawled,
 * or 2 for usage. See README.md ("Polite crawler").
 */
#define _POSIX_C_SOURCE 200809L
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "robotstxt.h"

#define AGENT "PoliteBot" /* our product token */
#define TEXT(s) (const uint8_t *)(s), strlen(s)

/* The library reads no clock: this is ours (ms on the monotonic clock). */
static uint64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void sleep_until(uint64_t when_ms) {
    uint64_t now = now_ms();
    if (when_ms > now) {
        uint64_t wait = when_ms - now;
        struct timespec t;
        t.tv_sec = (time_t)(wait / 1000);
        t.tv_nsec = (long)(wait % 1000) * 1000000;
        nanosleep(&t, NULL);
    }
}

/* Splits `http://host[:port][/path]`; false for anything else. */
static int split_url(const char *url, char *host, size_t host_size, char *port,
                     size_t port_size, const char **path) {
    size_t host_len, port_len = 0;
    if (strncmp(url, "http://", 7) != 0) {
        return 0;
    }
    url += 7;
    host_len = strcspn(url, ":/?#");
    if (host_len == 0 || host_len >= host_size) {
        return 0;
    }
    memcpy(host, url, host_len);
    host[host_len] = '\0';
    url += host_len;
    if (*url == ':') {
        port_len = strcspn(++url, "/?#");
        if (port_len == 0 || port_len >= port_size) {
            return 0;
        }
        memcpy(port, url, port_len);
        url += port_len;
    } else {
        port_len = 2;
        memcpy(port, "80", 2);
    }
    port[port_len] = '\0';
    *path = *url == '/' ? url : "/";
    return 1;
}

/* The Retry-After of a response head, in seconds, up to a day (all the
 * library honours; an HTTP date is not read); -1 without one. */
static long retry_after_s(const char *head, const char *end) {
    const char *line = head;
    while ((line = strstr(line, "\r\n")) != NULL && line < end) {
        char *after;
        long seconds;
        line += 2;
        if (strncasecmp(line, "Retry-After:", 12) != 0) {
            continue;
        }
        seconds = strtol(line + 12, &after, 10);
        if (after != line + 12 && seconds >= 0) {
            return seconds < 86400 ? seconds : 86400;
        }
    }
    return -1;
}

/* GETs an http:// URL. Returns the status (0: no response, as the library
 * expects), the body in *body (malloc'd, free it) and *len, and the
 * Retry-After in *retry_after (seconds; -1: none). */
static uint16_t http_get(const char *url, char **body, size_t *len, long *retry_after) {
    char host[256], port[8], request[2048];
    const char *path;
    struct addrinfo hints, *addr = NULL;
    struct timeval timeout = {5, 0};
    char *buf = NULL, *start;
    size_t size = 0, cap = 0;
    int fd = -1, status = 0, n;
    *body = NULL;
    *len = 0;
    *retry_after = -1;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    if (!split_url(url, host, sizeof host, port, sizeof port, &path) ||
        getaddrinfo(host, port, &hints, &addr) != 0) {
        return 0;
    }
    fd = socket(addr->ai_family, addr->ai_socktype, addr->ai_protocol);
    n = snprintf(request, sizeof request,
                 "GET %s HTTP/1.0\r\nHost: %s:%s\r\nUser-Agent: " AGENT "/1.0\r\n\r\n", path,
                 host, port);
    if (fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) == 0 &&
        connect(fd, addr->ai_addr, addr->ai_addrlen) == 0 && n > 0 &&
        (size_t)n < sizeof request && write(fd, request, (size_t)n) == n) {
        for (;;) {
            ssize_t got;
            if (size == cap) {
                size_t bigger_cap = cap ? 2 * cap : 4096;
                char *bigger = realloc(buf, bigger_cap + 1);
                if (bigger == NULL) {
                    break;
                }
                buf = bigger;
                cap = bigger_cap;
            }
            if ((got = read(fd, buf + size, cap - size)) <= 0) {
                break;
            }
            size += (size_t)got;
        }
    }
    if (fd >= 0) {
        close(fd);
    }
    freeaddrinfo(addr);
    if (buf == NULL) {
        return 0;
    }
    buf[size] = '\0';
    start = strstr(buf, "\r\n\r\n");
    if (start == NULL || sscanf(buf, "HTTP/%*d.%*d %d", &status) != 1 || status < 100 ||
        status > 999) {
        free(buf);
        return 0;
    }
    *retry_after = retry_after_s(buf, start);
    *len = size - (size_t)(start + 4 - buf);
    memmove(buf, start + 4, *len);
    *body = buf;
    return (uint16_t)status;
}

/* Waits for the host's turn: reserves a slot, sleeps until it, and
 * confirms just before sending, so that a 429, Retry-After or slower pace
 * recorded meanwhile still holds the request back. False while the host
 * is switched off. After a true, send, then report() the outcome. */
static int wait_turn(robotstxt_pacer *pacer, const char *host) {
    robotstxt_ticket *ticket = NULL;
    robotstxt_confirm c = {ROBOTSTXT_CONFIRM_DISABLED, 0, false};
    if (robotstxt_pacer_reserve(pacer, TEXT(host), now_ms(), &ticket) != 0 || ticket == NULL) {
        return 0;
    }
    sleep_until(robotstxt_ticket_start(ticket));
    while (robotstxt_pacer_confirm(pacer, ticket, now_ms(), &c) == 0 &&
           c.kind == ROBOTSTXT_CONFIRM_WAIT) {
        sleep_until(c.until_ms); /* busy: one thread here, so nothing ends sooner */
    }
    robotstxt_ticket_free(ticket);
    return c.kind == ROBOTSTXT_CONFIRM_GO;
}

/* Tells the pacer how a request went: it frees the host's in-flight place;
 * a 429 or 5xx widens the gap, a Retry-After holds the host back. */
static void report(robotstxt_pacer *pacer, const char *host, uint16_t status, long retry_after) {
    robotstxt_pacer_record(pacer, TEXT(host), now_ms(), status, retry_after >= 0,
                           retry_after >= 0 ? (uint64_t)retry_after * 1000 : 0);
}

/* The rules for `url`, from the cache; when it says so, fetch /robots.txt
 * (in the host's pace, like any request) and store what came back. */
static robotstxt_rules *rules_for(robotstxt_cache *cache, robotstxt_pacer *pacer,
                                  const char *url, const char *host) {
    for (;;) {
        robotstxt_lookup l;
        robotstxt_fetch got = {0};
        const uint8_t *robots_url;
        size_t robots_url_len;
        char robots[512], *body;
        long retry_after;
        if (robotstxt_cache_lookup(cache, TEXT(url), TEXT(AGENT), now_ms(),
                                   ROBOTSTXT_WHEN_FETCHING_WAIT, &l) != ROBOTSTXT_STATUS_OK) {
            return NULL;
        }
        if (l.kind == ROBOTSTXT_LOOKUP_READY) {
            return l.rules;
        }
        if (l.kind == ROBOTSTXT_LOOKUP_WAIT) { /* another thread is fetching it */
            sleep_until(now_ms() + 20);
            continue;
        }
        robotstxt_lease_robots_url(l.lease, &robots_url, &robots_url_len);
        snprintf(robots, sizeof robots, "%.*s", (int)robots_url_len, (const char *)robots_url);
        if (!wait_turn(pacer, host)) {
            robotstxt_lease_free(l.lease); /* not stored: given back */
            return NULL;
        }
        got.http_status = http_get(robots, &body, &got.body.len, &retry_after); /* 0: none */
        report(pacer, host, got.http_status, retry_after);
        got.body.ptr = (const uint8_t *)body;
        got.has_retry_after = retry_after >= 0; /* the cache waits 1 min to 24 h */
        got.retry_after_ms = got.has_retry_after ? (uint64_t)retry_after * 1000 : 0;
        robotstxt_cache_store(cache, l.lease, now_ms(), &got, NULL);
        robotstxt_lease_free(l.lease);
        free(body);
    }
}

/* Why the rules disallow everything, when they are a blanket answer for a
 * robots.txt that could not be had, and when the cache tries again. */
static void explain_blanket(const robotstxt_rules *rules, const char *url) {
    robotstxt_blanket b;
    uint64_t retry_at = 0, now = now_ms();
    bool has_retry_at = false;
    char why[64];
    if (robotstxt_rules_blanket(rules, &b) != 0 || !b.is_blanket || b.allowed) {
        return;
    }
    if (b.cause == ROBOTSTXT_CAUSE_STATUS) {
        snprintf(why, sizeof why, "HTTP %u", (unsigned)b.http_status);
    } else { /* no-response, not-fetched */
        snprintf(why, sizeof why, "%s", robotstxt_cause_name(b.cause));
    }
    robotstxt_rules_retry_at(rules, &retry_at, &has_retry_at);
    fprintf(stderr, "polite-crawler: %s: robots.txt unreachable (%s), everything disallowed", url,
            why);
    if (has_retry_at) {
        fprintf(stderr, " until it is fetched again in %llu s",
                (unsigned long long)((retry_at > now ? retry_at - now : 0) + 999) / 1000);
    }
    fputc('\n', stderr);
}

int main(int argc, char **argv) {
    robotstxt_cache_options cache_options = robotstxt_cache_options_default();
    robotstxt_pacer_options pacer_options = robotstxt_pacer_options_default();
    robotstxt_cache *cache;
    robotstxt_pacer *pacer;
    int i, failed = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: polite-crawler URL...\n");
        return 2;
    }
    robotstxt_cache_new(&cache_options, &cache);
    robotstxt_pacer_new(&pacer_options, &pacer);
    for (i = 1; i < argc; i++) {
        const char *url = argv[i], *path;
        char host[256], port[8], *page;
        size_t page_len;
        bool allowed = false;
        uint16_t status;
        long retry_after;
        robotstxt_rules *rules = NULL;
        if (!split_url(url, host, sizeof host, port, sizeof port, &path) ||
            (rules = rules_for(cache, pacer, url, host)) == NULL) {
            fprintf(stderr, "polite-crawler: %s: cannot crawl (http:// URLs only)\n", url);
            failed = 1;
            continue;
        }
        robotstxt_rules_can_fetch(rules, TEXT(url), &allowed);
        robotstxt_pacer_set_rules(pacer, TEXT(host), rules); /* Crawl-delay, Request-rate */
        if (!allowed) {
            explain_blanket(rules, url);
            printf("disallowed %s\n", url);
        } else if (wait_turn(pacer, host)) {
            status = http_get(url, &page, &page_len, &retry_after);
            report(pacer, host, status, retry_after);
            free(page); /* a real crawler would parse it here */
            printf("allowed %u %s\n", (unsigned)status, url);
        }
        robotstxt_rules_free(rules);
        fflush(stdout);
    }
    robotstxt_pacer_free(pacer);
    robotstxt_cache_free(cache);
    return failed;
}
