/* utf8.h: reading bytes as UTF-8 the way Rust's from_utf8_lossy does, for
 * robotstxt-check's JSON output and the C vector runner, which compares
 * text as the Rust runner reads it. */
#ifndef ROBOTSTXT_EXAMPLES_UTF8_H
#define ROBOTSTXT_EXAMPLES_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The length of the UTF-8 sequence at s[0..len) and whether it is valid;
 * for an invalid one, the length of its longest valid start (at least 1),
 * which one U+FFFD replaces, as most decoders do. */
static size_t utf8_sequence(const uint8_t *s, size_t len, bool *valid) {
    uint8_t lo = 0x80, hi = 0xBF;
    size_t need, i;
    *valid = true;
    if (s[0] < 0x80) {
        return 1;
    } else if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        need = 1;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        need = 2;
        lo = s[0] == 0xE0 ? 0xA0 : 0x80; /* no overlong forms */
        hi = s[0] == 0xED ? 0x9F : 0xBF; /* no surrogates */
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        need = 3;
        lo = s[0] == 0xF0 ? 0x90 : 0x80;
        hi = s[0] == 0xF4 ? 0x8F : 0xBF; /* nothing past U+10FFFF */
    } else {
        *valid = false;
        return 1;
    }
    for (i = 1; i <= need; i++) {
        if (i >= len || s[i] < lo || s[i] > hi) {
            *valid = false;
            return i;
        }
        lo = 0x80;
        hi = 0xBF;
    }
    return need + 1;
}

#endif
