// Package robotstxt answers "may this crawler fetch this URL, and how
// fast" from a robots.txt file, as RFC 9309 or Google's parser reads it.
// It is a binding over the compiled Rust core of the robotstxt project
// (include/robotstxt.h, linked statically from librobotstxt.a through cgo,
// or the same core compiled to WebAssembly where cgo is off; see
// Building), so a Go service gets the same answers as the C and Node.js
// bindings.
//
// Parse once, select the rules for your crawler, then ask as often as you
// like, from any number of goroutines:
//
//	robots, err := robotstxt.Parse(body) // err only for a bad option
//	rules, err := robots.RulesFor("NimbuBot")
//	if rules.Allowed("https://bazaar.nimbu.test/prices/today") { ... }
//	delay, ok := rules.CrawlDelay()
//
// Beyond the file itself (behaviour §6–§8, in docs/behaviour.md):
//
//   - Classify and FromOutcome say what a fetch of /robots.txt means (a
//     404 allows everything, a 503 disallows everything for now, ...).
//   - Entry keeps one origin's copy fresh, as pure functions of the time
//     you pass.
//   - Cache does that for many origins, thread-safe and bounded: its Rules
//     method calls your FetchFunc once per origin, however many goroutines
//     ask at the same moment, and honours context cancellation.
//   - Pacer spaces the requests to each host by its crawl delay and request
//     rate, keeps one request per host in flight, backs off on 429 and 5xx,
//     and honours Retry-After, also for requests already waiting: Wait
//     sleeps until the request may go; Record says when it ended.
//   - ProductToken finds the crawler's product token in a User-Agent
//     header.
//   - Package fleet (github.com/robotstxt-engine/robotstxt-go/fleet):
//     fleet.Cache and fleet.Pacer do the work of Cache and Pacer for a
//     fleet of workers through Redis: one fetch per origin and one pace per
//     host for the whole fleet. It is a package of its own so that this one
//     links no Redis client. It is built on Entry.Encode, DecodeEntry,
//     FleetScript, RobotsOrigin, PacerHost and Rules.WithRetryAt, there too
//     for a crawler that brings its own store.
//
// Usage preferences (behaviour §10): Rules.Preferences says what a URL's
// content may be used for (Content-Usage, such as train-ai=n), and
// Preferences.WithHeader adds a response's own Content-Usage field;
// Rules.ContentSignal gives the crawler's Content-Signal; OtherRecords
// lists the lines the library does not read (Clean-param, LLM-Policy).
// None of them changes an access answer.
//
// # Memory and concurrency
//
// Robots, Rules, Entry, Cache, Lease, Pacer and Ticket hold memory of the
// core. Close frees it at once; Close is idempotent, and a cleanup frees
// what you forget, once the garbage collector notices. Using a value after
// Close, or calling a method on a nil pointer, panics with a message that
// says so. All of them are safe for concurrent use, but Close must not run
// at the same time as another method of the same value. URLs, tokens and
// bodies are passed to the core without copying (the WebAssembly core
// copies them into its memory for the call); the core keeps no pointer to
// them.
//
// # Errors
//
// Bad robots.txt content is never an error: any bytes parse, and odd lines
// are listed by Robots.Diagnostics. Errors are for mistakes a caller can
// make, such as a crawler name that is not a product token (*TokenError,
// ErrInvalidToken), a parse limit out of range (ErrParseLimit) or a URL
// the cache cannot key (ErrInvalidURL); match them with errors.Is. A
// failure that can only come from a bug in the library panics.
//
// # Building
//
// The module ships include/robotstxt.h and prebuilt static libraries for
// the platforms cgo.go names (lib/<goos>_<goarch>/librobotstxt.a), so `go
// get` and a C compiler for cgo are all a build needs; no Rust toolchain.
// With CGO_ENABLED=0, or on another GOOS/GOARCH, the same API runs the core
// compiled to WebAssembly, embedded in the module, in pure Go (wazero):
// the same answers, slower calls, and a first call that loads the module
// (tens of milliseconds). The tag robotstxt_nowasm turns that off (the
// build then fails where no library links; unsupported_platform.go says
// how to build one from source); robotstxt_wasm takes it even where cgo
// could link a library. In the repository, `make go-test` builds the
// library and the module and stages them.
package robotstxt
