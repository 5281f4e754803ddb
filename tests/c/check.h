/* A tiny test harness: plain `bool test_x(void)` cases and checks that say
 * where and why they failed, with the library's last error. */
#ifndef ROBOTSTXT_TEST_CHECK_H
#define ROBOTSTXT_TEST_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "robotstxt.h"

/* Reports a failed check at file:line (printf-style detail); returns ok. */
bool check_at(bool ok, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Reports a status other than `want`, with its message and last error. */
bool check_status_at(robotstxt_status got, robotstxt_status want, const char *file,
                     int line, const char *call);

/* Whether (ptr, len) holds exactly the NUL-terminated `want`. */
bool text_is(const uint8_t *ptr, size_t len, const char *want);

/* The thread's last error as a NUL-terminated copy in a static buffer. */
const char *last_error(void);

#define CHECK(cond) check_at((cond), __FILE__, __LINE__, "%s", #cond)
#define CHECK_STATUS(call, want) check_status_at((call), (want), __FILE__, __LINE__, #call)
#define OK(call) CHECK_STATUS(call, ROBOTSTXT_STATUS_OK)
#define TEXT(s) (const uint8_t *)(s), strlen(s)

/* Suites: each runs its cases and adds to the counts. */
void run_api_tests(size_t *passed, size_t *failed);
void run_vector_tests(size_t *passed, size_t *failed);
void run_cache_tests(size_t *passed, size_t *failed);
void run_bad_input_tests(size_t *passed, size_t *failed);
void run_thread_tests(size_t *passed, size_t *failed);
void run_preference_tests(size_t *passed, size_t *failed);
void run_fleet_tests(size_t *passed, size_t *failed);

#endif
