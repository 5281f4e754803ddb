#!/usr/bin/env bash
# test-go.sh DIST: uses the Go module tree DIST (make dist-go) as a user
# would, outside the repository and without Rust: a new module in a
# temporary folder requires it, replaced by DIST, with no module proxy;
# it vets and runs tools/dist/go (the practice shop, behaviour §9, against
# examples/shop/robots.txt), vets the module and runs its shipped tests.
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
echo "test-go: outside the repository, without Rust or a module proxy, $mod from $dist" \
	"vetted, built, answered the practice shop and passed its tests"
