#!/usr/bin/env bash
# test-c.sh TARBALL: uses the C release tarball as a user would, in a fresh
# directory outside the repository (run it under tools/dist/without-rust,
# as `make dist-test-c` does): checks its contents, builds tools/dist/c/shop.c
# through pkg-config against the shared and then the static library, builds
# the C++ wrapper's example, runs all three and bin/robotstxt-check, and
# builds a CMake project against the tree through find_package(robotstxt).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: test-c.sh TARBALL" >&2; exit 2; }
tarball=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
shop_txt=$repo/examples/shop/robots.txt
CC=${CC:-cc}
CXX=${CXX:-g++}

checks=0
ok() { echo "  ok: $*"; checks=$((checks + 1)); }
fail() { echo "test-c: FAILED: $*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$tmp" in "$repo"/*) fail "$tmp is inside the repository" ;; esac
! command -v cargo >/dev/null && ! command -v rustc >/dev/null || fail "cargo or rustc on PATH"
ok "no cargo or rustc on PATH; working in $tmp"

# shellcheck source=c-tarball.sh
. "$repo/tools/dist/c-tarball.sh"
unpack_c_tarball "$tarball" "$tmp"
for f in include/robotstxt.h include/robotstxt.hpp lib/librobotstxt.a \
	"lib/librobotstxt.so.$version" lib/pkgconfig/robotstxt.pc lib/pkgconfig/robotstxt-static.pc \
	lib/cmake/robotstxt/robotstxt-config.cmake lib/cmake/robotstxt/robotstxt-config-version.cmake \
	bin/robotstxt-check \
	README.md LICENSE-MIT LICENSE-APACHE; do
	[ -f "$root/$f" ] || fail "$name/$f is missing"
done
[ "$(readlink "$root/lib/librobotstxt.so.$abi")" = "librobotstxt.so.$version" ] \
	&& [ "$(readlink "$root/lib/librobotstxt.so")" = "librobotstxt.so.$abi" ] \
	|| fail "the links librobotstxt.so -> .so.$abi -> .so.$version are wrong"
readelf -d "$root/lib/librobotstxt.so.$version" | grep "SONAME.*\[librobotstxt.so.$abi\]" >/dev/null \
	|| fail "librobotstxt.so.$version has no soname librobotstxt.so.$abi"
ok "$name: headers, librobotstxt.a, .so.$version with its links and soname, pkg-config and CMake files, CLI, README, licences"

# The archive lost .debug_* and .llvmbc; the .so and the CLI .symtab too.
! readelf -S -W "$root/lib/librobotstxt.a" 2>/dev/null | grep -e '\.debug_' -e '\.llvmbc' >/dev/null \
	|| fail "librobotstxt.a has debug info or bitcode"
for f in "lib/librobotstxt.so.$version" bin/robotstxt-check; do
	! readelf -S -W "$root/$f" | grep -e '\.debug_' -e '\.symtab' >/dev/null || fail "$f is not stripped"
done
ok "stripped: librobotstxt.a $(stat -c %s "$root/lib/librobotstxt.a") bytes," \
	".so $(stat -c %s "$root/lib/librobotstxt.so.$version"), CLI $(stat -c %s "$root/bin/robotstxt-check")"

# The .pc places the tree by its own location (${pcfiledir}): no prefix to fix.
export PKG_CONFIG_PATH=$root/lib/pkgconfig
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
[ "$(pkg-config --modversion robotstxt)" = "$version" ] || fail "pkg-config --modversion"
libdir=$(pkg-config --variable=libdir robotstxt)
[ "$(realpath "$libdir")" = "$root/lib" ] || fail "pkg-config puts libdir at $libdir"
[ "$(realpath "$(pkg-config --variable=includedir robotstxt)")" = "$root/include" ] \
	|| fail "pkg-config puts includedir elsewhere"
ok "pkg-config finds robotstxt $version in the unpacked tree: $(pkg-config --static --cflags --libs robotstxt)"

build=$tmp/build
mkdir -p "$build"
src=$repo/tools/dist/c
warn=(-std=c11 -Wall -Wextra -Werror -pedantic -O2)

# Shared: pkg-config's flags, and an rpath to the unpacked lib/.
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
"$CC" "${warn[@]}" $(pkg-config --cflags robotstxt) "$src/shop.c" \
	$(pkg-config --libs robotstxt) -Wl,-rpath,"$root/lib" -o "$build/shop-shared"
readelf -d "$build/shop-shared" | grep "NEEDED.*\[librobotstxt.so.$abi\]" >/dev/null \
	|| fail "shop-shared does not need librobotstxt.so.$abi"
[ "$(ldd "$build/shop-shared" | sed -n 's/.*librobotstxt[^ ]* => \([^ ]*\).*/\1/p')" = \
	"$root/lib/librobotstxt.so.$abi" ] || fail "shop-shared loads another librobotstxt"
"$build/shop-shared" "$shop_txt" | sed 's/^/    /'
ok "shop.c linked through pkg-config --libs to librobotstxt.so.$abi (rpath) answered as in behaviour §9"

# Static: the recipe of docs/c.md, as written. (robotstxt --static would
# still take the .so beside the .a: robotstxt-static names the archive.)
static_libs=$(pkg-config --cflags --libs robotstxt-static)
# shellcheck disable=SC2086
"$CC" "${warn[@]}" "$src/shop.c" $static_libs -o "$build/shop-static"
! readelf -d "$build/shop-static" | grep 'NEEDED.*robotstxt' >/dev/null \
	&& ! ldd "$build/shop-static" | grep robotstxt >/dev/null \
	|| fail "shop-static needs a robotstxt shared object"
"$build/shop-static" "$shop_txt" | sed 's/^/    /'
ok "shop.c linked through pkg-config robotstxt-static ($static_libs) needs no .so, answered as in behaviour §9"

# C++: the wrapper header from include/, against the shared library.
# shellcheck disable=SC2046
"$CXX" -std=c++17 -Wall -Wextra -Werror -pedantic -O2 $(pkg-config --cflags robotstxt) \
	"$src/shop.cpp" $(pkg-config --libs robotstxt) -Wl,-rpath,"$root/lib" -o "$build/shop-cpp"
"$build/shop-cpp" "$shop_txt" | sed 's/^/    /'
ok "shop.cpp built with $CXX -std=c++17 on include/robotstxt.hpp and ran"

# The CLI: allowed exits 0, disallowed 1; linked statically, so no .so.
cli=$root/bin/robotstxt-check
! ldd "$cli" | grep robotstxt >/dev/null || fail "bin/robotstxt-check needs a robotstxt shared object"
out=$("$cli" --explain "$shop_txt" NimbuBot /prices/today)
[ "$out" = "user-agent 'NimbuBot' with URI '/prices/today': ALLOWED (line 10: allow /prices/today)" ] \
	|| fail "robotstxt-check said: $out"
echo "    $out"
set +e
out=$("$cli" "$shop_txt" NimbuBot /prices/history)
rc=$?
set -e
[ $rc = 1 ] && [ "$out" = "user-agent 'NimbuBot' with URI '/prices/history': DISALLOWED" ] \
	|| fail "robotstxt-check exited $rc: $out"
echo "    $out (exit 1)"
ok "bin/robotstxt-check answers the shop (allowed: exit 0, disallowed: exit 1)"

# CMake: find_package(robotstxt CONFIG) on the unpacked tree, both targets.
"$repo/tests/c/cmake-consumer/test.sh" "$root" "$version" | sed 's/^/    /'
ok "a CMake project found robotstxt $version in the unpacked tree and linked both targets"

echo "test-c: $checks checks passed: $name unpacked, linked shared and static through pkg-config and CMake, C++ wrapper and CLI ran, without Rust"
