package robotstxt

// #include "shim.h"
import "C"

import "runtime"

// ProductToken returns the crawler's product token in a whole User-Agent
// header, for Robots.RulesFor: RFC 9309 §2.2.1 matches the product token,
// not the header. If a comment starts with "compatible;" (any case), it is
// the first product named after that:
//
//	Mozilla/5.0 (compatible; PoliteBot/2.1; +https://example.com/bot) -> PoliteBot
//
// Otherwise it is the header's first product:
//
//	PoliteBot/1.0 (+https://example.com/bot) -> PoliteBot
//
// A product's name ends at '/', whitespace, ';', '(' or the end. The token
// is a substring of userAgent (no copy).
//
// An empty header, a name that is not one or more of A-Z a-z _ -, and a
// browser's header ("Mozilla" without "compatible;") are a *TokenError
// (ErrInvalidToken) whose message says what was passed: pass the
// crawler's own token then.
func ProductToken(userAgent string) (string, error) {
	r := C.go_product_token(cstr(userAgent), C.size_t(len(userAgent)))
	runtime.KeepAlive(userAgent)
	if r.status != C.ROBOTSTXT_STATUS_OK {
		return "", failure("ProductToken", r.status, r.err, userAgent)
	}
	return userAgent[int(r.offset) : int(r.offset)+int(r.len)], nil
}
