package robotstxt

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
	offset, n, f := coreProductToken(userAgent)
	if f.failed() {
		return "", failure("ProductToken", f, userAgent)
	}
	return userAgent[offset : offset+n], nil
}
