#!/usr/bin/env bash
# test-c-musl.sh TARBALL ZIG_CC MACHINE [RUN]: a Linux musl C tarball,
# unpacked in a fresh directory outside the repository: its contents, the
# C suite linked statically against its librobotstxt.a through its
# robotstxt-static.pc (with ZIG_CC, a `zig cc -target <arch>-linux-musl`)
# and run, and its CLI run through tests/c/cli_test.sh; each program run
# through RUN (qemu-user for another architecture) when given. MACHINE is
# readelf's name for the architecture. The shared library is inspected,
# not run: this machine has no musl dynamic loader.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: test-c-musl.sh TARBALL ZIG_CC MACHINE [RUN]" >&2; exit 2; }
tarball=$(realpath "$1")
read -r -a zig_cc <<< "$2"
machine=$3
read -r -a run <<< "${4:-}"
how=${4:+" under $4"}
repo=$(cd "$(dirname "$0")/../.." && pwd)

checks=0
ok() { echo "  ok: $*"; checks=$((checks + 1)); }
fail() { echo "test-c-musl: FAILED: $*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$tmp" in "$repo"/*) fail "$tmp is inside the repository" ;; esac
# shellcheck source=c-tarball.sh
. "$repo/tools/dist/c-tarball.sh"
unpack_c_tarball "$tarball" "$tmp"
for f in include/robotstxt.h include/robotstxt.hpp lib/librobotstxt.a "lib/librobotstxt.so.$version" \
	lib/pkgconfig/robotstxt.pc lib/pkgconfig/robotstxt-static.pc \
	lib/cmake/robotstxt/robotstxt-config.cmake bin/robotstxt-check README.md LICENSE-MIT LICENSE-APACHE; do
	[ -f "$root/$f" ] || fail "$name/$f is missing"
done
ok "$name: headers, librobotstxt.a, .so.$version, pkg-config and CMake files, CLI, README, licences"

so=$root/lib/librobotstxt.so.$version
[[ $(readelf -h "$so") == *"Machine:"*"$machine"* ]] || fail "the .so is not $machine"
[[ $(readelf -d "$so") == *"(SONAME)"*"[librobotstxt.so.$abi]"* ]] || fail "the .so has no soname librobotstxt.so.$abi"
[ "$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')" = libc.so ] \
	|| fail "the .so needs more than musl's libc.so: $(readelf -d "$so" | grep NEEDED)"
[[ $(readelf -W --dyn-syms "$so") != *"@GLIBC_"* ]] || fail "the .so needs glibc symbols"
ok "librobotstxt.so.$version: $machine, soname librobotstxt.so.$abi, needs musl's libc.so only (inspected, not run: no musl dynamic loader here)"

# (Read whole first: grep -q would end nm early, which pipefail reports.)
symbols=$(nm "$root/lib/librobotstxt.a" 2>/dev/null)
grep -q ' T _Unwind_Resume$' <<< "$symbols" || fail "librobotstxt.a lacks the unwinder a static link needs"
ok "librobotstxt.a carries Rust's unwinder: a static link needs it and libc only"

# The recipe of docs/c.md, with musl's compiler: pkg-config robotstxt-static.
export PKG_CONFIG_PATH=$root/lib/pkgconfig
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
# shellcheck disable=SC2207 # pkg-config's output is a list of flags
flags=($(pkg-config --cflags --libs robotstxt-static))
src=()
for f in main.c test_api.c test_cache.c test_vectors.c test_bad_input.c test_threads.c test_preferences.c; do
	src+=("$repo/tests/c/$f")
done
"${zig_cc[@]}" -static -std=c11 -Wall -Wextra -Werror -pedantic -O1 -I"$repo/tests/c" -I"$repo/build/c" \
	"${src[@]}" "${flags[@]}" -o "$tmp/tests"
[[ $(readelf -l "$tmp/tests") != *INTERP* ]] || fail "the suite is not statically linked"
[[ $(readelf -h "$tmp/tests") == *"Machine:"*"$machine"* ]] || fail "the suite is not built for $machine"
result=$(cd "$repo" && "${run[@]}" "$tmp/tests" 2>&1 | tail -n 1)
case "$result" in *" passed, 0 failed") ;; *) fail "the C suite against the musl archive: $result" ;; esac
ok "the C suite, linked statically through robotstxt-static.pc (${flags[*]}), ran here$how: $result"

cli=$root/bin/robotstxt-check
[[ $(readelf -l "$cli") != *INTERP* ]] || fail "bin/robotstxt-check is not statically linked"
if [ ${#run[@]} -gt 0 ]; then
	# cli_test.sh takes one path: a wrapper that runs the CLI under RUN.
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${run[*]}" "$cli" > "$tmp/robotstxt-check"
	chmod +x "$tmp/robotstxt-check"
	cli=$tmp/robotstxt-check
fi
result=$(cd "$repo" && sh tests/c/cli_test.sh "$cli" 2>&1 | tail -n 1)
case "$result" in *" passed, 0 failed") ;; *) fail "the CLI: $result" ;; esac
ok "bin/robotstxt-check, static, ran tests/c/cli_test.sh here$how: $result"

echo "test-c-musl: $checks checks passed: $name unpacked; the suite and CLI ran statically linked$how; the .so inspected"
