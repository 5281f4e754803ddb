// Package include holds robotstxt.h for the cgo package above it. It has no
// Go code: being a package keeps it in `go mod vendor` (see vendor.go).
package include
