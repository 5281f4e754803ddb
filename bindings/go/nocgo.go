//go:build robotstxt_nowasm && !cgo

package robotstxt

// The tag robotstxt_nowasm leaves out the WebAssembly core (core_wazero.go),
// so only the cgo build is left, and it needs cgo.
var _ int = "robotstxt: the tag robotstxt_nowasm needs cgo: set CGO_ENABLED=1 and install a C compiler, or drop the tag to run the core as WebAssembly"
