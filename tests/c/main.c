/* The C test suite: every shared vector and every error path of the C ABI.
 * Ends with the summary line `N passed, M failed`. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

bool check_at(bool ok, const char *file, int line, const char *fmt, ...) {
    if (!ok) {
        va_list args;
        fprintf(stderr, "%s:%d: check failed: ", file, line);
        va_start(args, fmt);
        vfprintf(stderr, fmt, args);
        va_end(args);
        fputc('\n', stderr);
    }
    return ok;
}

bool check_status_at(robotstxt_status got, robotstxt_status want, const char *file,
                     int line, const char *call) {
    if (got == want) {
        return true;
    }
    return check_at(false, file, line, "%s returned %u (%s), want %u (%s); last error: %s",
                    call, (unsigned)got, robotstxt_status_message(got), (unsigned)want,
                    robotstxt_status_message(want), last_error());
}

bool text_is(const uint8_t *ptr, size_t len, const char *want) {
    size_t n = strlen(want);
    return len == n && (n == 0 || (ptr != NULL && memcmp(ptr, want, n) == 0));
}

const char *last_error(void) {
    static char copy[4096];
    const uint8_t *msg = NULL;
    size_t len = 0;
    if (robotstxt_last_error(&msg, &len) != ROBOTSTXT_STATUS_OK) {
        return "(robotstxt_last_error failed)";
    }
    if (len >= sizeof copy) {
        len = sizeof copy - 1;
    }
    if (len > 0) {
        memcpy(copy, msg, len);
    }
    copy[len] = '\0';
    return copy;
}

int main(void) {
    size_t passed = 0, failed = 0;
    printf("robotstxt %s: C ABI tests\n", robotstxt_version());
    run_api_tests(&passed, &failed);
    run_cache_tests(&passed, &failed);
    run_bad_input_tests(&passed, &failed);
    run_thread_tests(&passed, &failed);
    run_preference_tests(&passed, &failed);
    run_fleet_tests(&passed, &failed);
    run_vector_tests(&passed, &failed);
    printf("%zu passed, %zu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
