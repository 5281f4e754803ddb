//go:build cgo && !(linux && amd64) && !robotstxt_from_source

package robotstxt

// This module ships a prebuilt librobotstxt.a for linux/amd64 only. On
// any other platform, build the library from source and link it yourself:
//
//  1. git clone https://github.com/robotstxt-engine/robotstxt
//     cd robotstxt
//     git checkout vX.Y.Z   # the version of this module
//  2. make c-lib            # or: cargo build --release -p robotstxt-c (Rust 1.88+)
//  3. export CGO_LDFLAGS="$PWD/target/release/librobotstxt.a -lgcc_s -lutil -lrt -lpthread -lm -ldl"
//     On other systems than Linux, put after the library the system
//     libraries that `cargo rustc --release -p robotstxt-c --crate-type staticlib -- --print native-static-libs`
//     prints instead.
//  4. export GOFLAGS=-tags=robotstxt_from_source
//     then go build, go test or go run in your module as usual.
//
// The tag leaves this file out; the header still comes from this module's
// include/ folder, so build the tag that matches the module's version.
var _ int = "robotstxt: no prebuilt library for this GOOS/GOARCH; build it from source as unsupported_platform.go says"
