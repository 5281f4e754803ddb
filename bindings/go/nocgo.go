//go:build !cgo

package robotstxt

// The package calls the Rust core through cgo; without cgo nothing links.
var _ int = "robotstxt: needs cgo: set CGO_ENABLED=1 and install a C compiler"
