//go:build cgo && (robotstxt_from_source || (linux && !android && (amd64 || arm64)) || (darwin && !ios && (amd64 || arm64)) || (windows && amd64)) && !robotstxt_wasm

package robotstxt

// Every cgo flag of the package is here, and only here. The package links
// the Rust core statically from lib/<goos>_<goarch>/librobotstxt.a beside
// this file, with include/robotstxt.h: a released module ships both, and in
// the repository `make go-stage` copies this platform's there from the
// fresh build, so the same lines serve both. After each library come the
// system libraries Rust's standard library needs on that platform (`rustc
// --print native-static-libs`, less libc, which every C linker adds).
//
// android and ios also satisfy the linux and darwin constraints but are
// other systems, so they are left out. The robotstxt_from_source tag drops
// the prebuilt library, for a build of it in CGO_LDFLAGS instead. Platforms
// without a prebuilt library: core_wazero.go (the core as WebAssembly), or
// unsupported_platform.go with the tag robotstxt_nowasm.

/*
#cgo CFLAGS: -I${SRCDIR}/include
#cgo linux,amd64,!android,!robotstxt_from_source LDFLAGS: ${SRCDIR}/lib/linux_amd64/librobotstxt.a -lgcc_s -lutil -lrt -lpthread -lm -ldl
#cgo linux,arm64,!android,!robotstxt_from_source LDFLAGS: ${SRCDIR}/lib/linux_arm64/librobotstxt.a -lgcc_s -lutil -lrt -lpthread -lm -ldl
#cgo darwin,amd64,!ios,!robotstxt_from_source LDFLAGS: ${SRCDIR}/lib/darwin_amd64/librobotstxt.a -lSystem -lm
#cgo darwin,arm64,!ios,!robotstxt_from_source LDFLAGS: ${SRCDIR}/lib/darwin_arm64/librobotstxt.a -lSystem -lm
#cgo windows,amd64,!robotstxt_from_source LDFLAGS: ${SRCDIR}/lib/windows_amd64/librobotstxt.a -lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp
#include "shim.h"
*/
import "C"
