//go:build robotstxt_nowasm && cgo && !robotstxt_from_source && !(linux && !android && (amd64 || arm64)) && !(darwin && !ios && (amd64 || arm64)) && !(windows && amd64)

package robotstxt

// This module ships a prebuilt librobotstxt.a for linux/amd64,
// linux/arm64 (glibc), darwin/amd64, darwin/arm64 and windows/amd64
// (MinGW-w64) only: the lines of cgo.go. On any other platform, build the
// library from source and link it yourself:
//
//  1. git clone https://github.com/robotstxt-engine/robotstxt
//     cd robotstxt
//     git checkout vX.Y.Z   # the version of this module
//  2. make c-lib            # or: cargo build --release -p robotstxt-c (Rust 1.88+)
//  3. export CGO_LDFLAGS="$PWD/target/release/librobotstxt.a <system libraries>"
//     where the system libraries are those that
//     `cargo rustc --release -p robotstxt-c --lib -- --print native-static-libs`
//     prints (on Linux: -lgcc_s -lutil -lrt -lpthread -lm -ldl).
//  4. export GOFLAGS=-tags=robotstxt_from_source
//     then go build, go test or go run in your module as usual.
//
// The tag leaves this file and the prebuilt libraries out; the header
// still comes from this module's include/ folder, so build the tag that
// matches the module's version.
var _ int = "robotstxt: no prebuilt library for this GOOS/GOARCH; build it from source as unsupported_platform.go says"
