package robotstxt

// Every cgo flag of the package is here, and only here. The package links
// the Rust core statically: make builds ../../target/release/librobotstxt.a
// (make c-lib) before go build or go test runs. The system libraries are
// those Rust's standard library needs on Linux.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo LDFLAGS: ${SRCDIR}/../../target/release/librobotstxt.a -lgcc_s -lutil -lrt -lpthread -lm -ldl
#include "shim.h"
*/
import "C"
