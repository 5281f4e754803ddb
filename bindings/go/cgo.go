package robotstxt

// Every cgo flag of the package is here, and only here. The package links
// the Rust core statically from lib/<goos>_<goarch>/librobotstxt.a beside
// this file, with include/robotstxt.h: a released module ships both, and in
// the repository `make go-stage` copies them there from the fresh build, so
// the same lines serve both. The system libraries are those Rust's standard
// library needs on Linux (`rustc --print native-static-libs`). Platforms
// without a prebuilt library: unsupported_platform.go.

/*
#cgo CFLAGS: -I${SRCDIR}/include
#cgo linux,amd64 LDFLAGS: ${SRCDIR}/lib/linux_amd64/librobotstxt.a -lgcc_s -lutil -lrt -lpthread -lm -ldl
#include "shim.h"
*/
import "C"
