// Package lib holds the prebuilt librobotstxt.a for darwin/arm64. It has no
// Go code: being a package keeps it in `go mod vendor` (see vendor.go).
package lib
