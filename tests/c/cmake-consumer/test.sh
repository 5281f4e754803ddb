#!/usr/bin/env bash
# test.sh PREFIX VERSION: builds the consumer project, copied outside the
# repository with tests/c/example.c, against the robotstxt installed (or
# unpacked) at PREFIX through find_package(robotstxt CONFIG); runs the
# shared and the static build, and checks that a request for a version
# this one does not satisfy is refused.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: test.sh PREFIX VERSION" >&2; exit 2; }
prefix=$(realpath "$1")
version=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
# shellcheck source=../../../tools/dist/c-tarball.sh
. "$repo/tools/dist/c-tarball.sh"
version_parts "$version"

fail() { echo "cmake-consumer: FAILED: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$tmp" in "$repo"/*) fail "$tmp is inside the repository" ;; esac
mkdir "$tmp/src"
cp "$here/CMakeLists.txt" "$repo/tests/c/example.c" "$tmp/src/"

cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$prefix" \
	-DROBOTSTXT_WANT="$major.$minor" >"$tmp/configure.log" 2>&1 \
	|| { cat "$tmp/configure.log"; fail "configure against $prefix"; }
cmake --build "$tmp/build" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "build"; }

readelf -d "$tmp/build/example-shared" | grep "NEEDED.*\[librobotstxt.so.$abi\]" >/dev/null \
	|| fail "example-shared does not need librobotstxt.so.$abi"
! readelf -d "$tmp/build/example-static" | grep 'NEEDED.*robotstxt' >/dev/null \
	|| fail "example-static needs a robotstxt shared object"
# CMake gives the build an rpath to the imported library's directory.
"$tmp/build/example-shared" >/dev/null || fail "example-shared did not run"
"$tmp/build/example-static" >/dev/null || fail "example-static did not run"
echo "cmake-consumer: robotstxt::robotstxt (librobotstxt.so.$abi) and robotstxt::robotstxt_static linked and ran"

# One minor above: a 0.x release promises nothing across minors, and no
# release satisfies a later version than its own.
want=$major.$((minor + 1))
if cmake -S "$tmp/src" -B "$tmp/too-new" -DCMAKE_PREFIX_PATH="$prefix" \
	-DROBOTSTXT_WANT="$want" >"$tmp/too-new.log" 2>&1; then
	fail "find_package(robotstxt $want) accepted $version"
fi
grep -q "$version" "$tmp/too-new.log" || { cat "$tmp/too-new.log"; fail "the refusal does not name $version"; }
echo "cmake-consumer: find_package(robotstxt $want) refused $version"
