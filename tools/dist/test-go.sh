#!/usr/bin/env bash
# test-go.sh DIST: uses the Go module tree DIST (make dist-go) as a user
# would, outside the repository and without Rust: a new module in a
# temporary folder requires it, replaced by DIST, with no module proxy;
# it vets and runs tools/dist/go (the practice shop, behaviour §9, against
# examples/shop/robots.txt), vets the module and runs its shipped tests.
# Then, for every platform where Go supports cgo, it checks from go list
# that the package links DIST's library for it where DIST has one and
# takes the WebAssembly core where not (unsupported_platform.go only with
# robotstxt_nowasm); that CGO_ENABLED=0 answers the shop the same; and that
# `go mod vendor` keeps every platform's library and the WebAssembly core. (tools/dist/test-go-cross.sh uses the
# other platforms' libraries.)
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: test-go.sh DIST" >&2; exit 2; }
dist=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mod=github.com/robotstxt-engine/robotstxt-go
go=${GO:-go}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/go/main.go" "$root/examples/shop/robots.txt" "$work/"
cd "$work"

# Nothing from the repository's environment: no extra cgo flags that could
# name target/ or include/, no shared corpus for the tests.
unset CGO_CFLAGS CGO_LDFLAGS ROBOTSTXT_SHARED
export GOFLAGS=-mod=mod GOPROXY=off
run() { "$here/without-rust" "$@"; }

run "$go" mod init example.com/shoptest 2>/dev/null
run "$go" mod edit -require="$mod@v0.0.0" -replace="$mod=$dist"

# The package builds from DIST alone: its folder, and every path its cgo
# flags name, lie inside DIST.
info=$(run "$go" list -f '{{.Dir}} {{join .CgoCFLAGS " "}} {{join .CgoLDFLAGS " "}}' "$mod")
for word in $info; do
	case "$word" in
	/*) case "$word" in "$dist" | "$dist"/*) ;; *)
		echo "test-go: $mod reaches outside $dist: $word" >&2; exit 1 ;; esac ;;
	esac
done

# go.mod is tidy: the shipped package and tests need no other module than
# those it names (go-redis, for the fleet), all in the module cache.
(cd "$dist" && run "$go" mod tidy -diff)

run "$go" vet ./... "$mod/..."
run "$go" build -o shop .
run ./shop robots.txt
run "$go" test -count=1 "$mod/..." >test.log || { cat test.log; exit 1; }

# Which platforms get which library, as go list sees it (it runs no C
# compiler, so every platform can be asked here). android and ios satisfy
# the linux and darwin constraints too, and have no library.
fail() { echo "test-go: $*" >&2; exit 1; }
with_lib=() without_lib=0
for p in $(run "$go" tool dist list -json | sed -n 's/.*"GOOS": "\(.*\)",/\1/p; s/.*"GOARCH": "\(.*\)",/\1/p; s/.*"CgoSupported": \([a-z]*\).*/\1/p' \
	| paste - - - | awk '$3 == "true" { print $1 "_" $2 }'); do
	got=$(GOOS=${p%_*} GOARCH=${p#*_} CGO_ENABLED=1 run "$go" list \
		-f '{{join .GoFiles " "}} {{join .CgoLDFLAGS " "}}' "$mod")
	lib=$dist/lib/$p/librobotstxt.a
	if [ -f "$lib" ]; then
		[[ " $got " == *" $lib "* ]] || fail "$p: $mod does not link $lib: $got"
		[[ " $got " != *" unsupported_platform.go "* ]] || fail "$p has a library but builds unsupported_platform.go"
		with_lib+=("${p/_//}")
	else
		[[ " $got " == *" core_wazero.go "* ]] || fail "$p has no library but skips the WebAssembly core: $got"
		[[ "$got" != *librobotstxt.a* ]] || fail "$p has no library of its own but links one: $got"
		got=$(GOOS=${p%_*} GOARCH=${p#*_} CGO_ENABLED=1 GOFLAGS="$GOFLAGS -tags=robotstxt_nowasm" run "$go" list \
			-f '{{join .GoFiles " "}}' "$mod")
		[[ " $got " == *" unsupported_platform.go "* ]] || fail "$p with robotstxt_nowasm skips unsupported_platform.go: $got"
		without_lib=$((without_lib + 1))
	fi
done
[ ${#with_lib[@]} -eq "$(find "$dist/lib" -name librobotstxt.a | wc -l)" ] \
	|| fail "a library in $dist/lib is for a platform Go does not know: ${with_lib[*]}"
# robotstxt_from_source drops the prebuilt library, for CGO_LDFLAGS' one.
got=$(GOFLAGS="$GOFLAGS -tags=robotstxt_from_source" run "$go" list \
	-f '{{join .GoFiles " "}} {{join .CgoLDFLAGS " "}}' "$mod")
[[ "$got" != *librobotstxt.a* && " $got " != *" unsupported_platform.go "* ]] \
	|| fail "with robotstxt_from_source the package still names a prebuilt library: $got"

# go mod vendor keeps the header and every library, and the shop builds
# from vendor/ alone.
# (vendor wants every module the build needs listed: wazero, for the
# WebAssembly core, comes in through the package.)
run "$go" mod tidy
run "$go" mod vendor
for lib in "$dist"/lib/*/librobotstxt.a include/robotstxt.h internal/wasmcore/robotstxt.wasm; do
	rel=${lib#"$dist"/}
	cmp -s "$dist/$rel" "vendor/$mod/$rel" || fail "go mod vendor did not copy $rel"
done
GOFLAGS=-mod=vendor run "$go" build -o shop-vendored .
# Without cgo: the same answers from the core as WebAssembly.
CGO_ENABLED=0 GOFLAGS=-mod=vendor run "$go" build -o shop-wasm .
[ "$(run ./shop-wasm robots.txt)" = "$(run ./shop robots.txt)" ] || fail "the shop without cgo answers differently"
[ "$(run ./shop-vendored robots.txt)" = "$(run ./shop robots.txt)" ] || fail "the vendored shop answers differently"

echo "test-go: outside the repository, without Rust or a module proxy, $mod from $dist" \
	"vetted, built, answered the practice shop and passed its tests; links its library on" \
	"${with_lib[*]} and takes the WebAssembly core on the $without_lib other cgo platforms (unsupported_platform.go with robotstxt_nowasm);" \
	"without cgo answered the shop the same; go mod vendor keeps all ${#with_lib[@]} libraries and the WebAssembly core"
