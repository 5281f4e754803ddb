#!/usr/bin/env bash
# test-c-platform.sh TARBALL --platform P --kind elf|macho|pe --machine x86-64|arm64
#     --cc CC [--libc gnu|musl] [--min-os VERSION] [--run CMD | --no-run WHY]
#
# Another platform's C release tarball, used as its user would: unpacked in
# a fresh directory outside the repository (run it under
# tools/dist/without-rust, as `make dist-test-c-<platform>` does). It
# checks the tree; reads each binary's headers (tools/dist/binaries.py):
# machine, what the shared library is called, needs and exports, the
# newest glibc symbol or the minimum macOS, the archive's stripped
# sections; builds the C suite (tests/c) with CC against the archive
# through robotstxt-static.pc and against the shared library through
# robotstxt.pc, and the CMake consumer (tests/c/cmake-consumer) through
# find_package(robotstxt); and runs them and bin/robotstxt-check's tests
# (tests/c/cli_test.sh) here, through RUN (qemu-user, wine) where given.
# What this machine cannot run is linked and inspected only, says so, and
# is not counted as passed.
set -euo pipefail
usage="usage: test-c-platform.sh TARBALL --platform P --kind elf|macho|pe --machine M --cc CC"
usage+=" [--libc gnu|musl] [--min-os VERSION] [--run CMD | --no-run WHY]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
tarball=$(realpath "$1")
shift
platform='' kind='' machine='' cc='' libc='' min_os='' run='' no_run=''
while [ $# -ge 2 ]; do
	case $1 in
	--platform) platform=$2 ;;
	--kind) kind=$2 ;;
	--machine) machine=$2 ;;
	--cc) cc=$2 ;;
	--libc) libc=$2 ;;
	--min-os) min_os=$2 ;;
	--run) run=$2 ;;
	--no-run) no_run=$2 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
	shift 2
done
[ $# = 0 ] && [ -n "$platform" ] && [ -n "$kind" ] && [ -n "$machine" ] && [ -n "$cc" ] \
	|| { echo "$usage" >&2; exit 2; }
read -r -a cc_cmd <<< "$cc"
read -r -a run_cmd <<< "$run"
repo=$(cd "$(dirname "$0")/../.." && pwd)
how=${run:+ under ${run_cmd[0]#"$repo"/tools/dist/}}

checks=0
inspected=0
ok() { echo "  ok: $*"; checks=$((checks + 1)); }
# Linked and read, but not run here: said, and not counted as passed.
seen() { echo "  inspected, not run: $*"; inspected=$((inspected + 1)); }
fail() { echo "test-c-platform: $platform: FAILED: $*" >&2; exit 1; }
# (Read whole, then searched: grep -q would end the reader early, which
# pipefail reports.)
field() { python3 "$repo/tools/dist/binaries.py" "$1" "$2"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$tmp" in "$repo"/*) fail "$tmp is inside the repository" ;; esac
! command -v cargo >/dev/null && ! command -v rustc >/dev/null || fail "cargo or rustc on PATH"
# shellcheck source=c-tarball.sh
. "$repo/tools/dist/c-tarball.sh"
unpack_c_tarball "$tarball" "$tmp"
[ "$name" = "robotstxt-$version-$platform" ] || fail "the tarball's directory is $name"

# --- the tree, laid out as the platform wants ---
exe=''
case $kind in
elf)
	format=elf
	shared=lib/librobotstxt.so.$version
	shared_id=librobotstxt.so.$abi
	[ "$(readlink "$root/lib/librobotstxt.so.$abi")" = "librobotstxt.so.$version" ] \
		&& [ "$(readlink "$root/lib/librobotstxt.so")" = "librobotstxt.so.$abi" ] \
		|| fail "the links librobotstxt.so -> .so.$abi -> .so.$version are wrong"
	;;
macho)
	format=mach-o
	shared=lib/librobotstxt.dylib
	shared_id=@rpath/librobotstxt.dylib
	;;
pe)
	format=pe
	shared=bin/robotstxt.dll
	shared_id=robotstxt.dll
	exe=.exe
	[ -f "$root/lib/librobotstxt.dll.a" ] || fail "$name/lib/librobotstxt.dll.a is missing"
	;;
*) fail "unknown kind $kind" ;;
esac
for f in include/robotstxt.h include/robotstxt.hpp lib/librobotstxt.a "$shared" \
	lib/pkgconfig/robotstxt.pc lib/pkgconfig/robotstxt-static.pc \
	lib/cmake/robotstxt/robotstxt-config.cmake lib/cmake/robotstxt/robotstxt-config-version.cmake \
	"bin/robotstxt-check$exe" README.md LICENSE-MIT LICENSE-APACHE; do
	[ -f "$root/$f" ] || fail "$name/$f is missing"
done
ok "$name: headers, librobotstxt.a, $shared$([ "$kind" = pe ] && echo " with lib/librobotstxt.dll.a")," \
	"pkg-config and CMake files, bin/robotstxt-check$exe, README, licences"

# --- each binary, read from its headers ---

# check_binary FILE TYPE [shipped]: FILE is this platform's TYPE (shared,
# executable) and needs nothing the system lacks but what ALSO_NEEDS
# names; what the tarball ships also keeps to the platform's floor (glibc
# 2.17, the minimum macOS), which a user's own compiler sets for theirs.
check_binary() {
	local file=$1 type=$2 shipped=${3:-} facts
	facts=$(python3 "$repo/tools/dist/binaries.py" "$file")
	[[ $facts == *"format: $format"$'\n'* ]] || fail "${file#"$tmp"/} is not $format: $facts"
	[[ $facts == *"machine: $machine"$'\n'* ]] || fail "${file#"$tmp"/} is not for $machine"
	[[ $facts == *"type: $type"$'\n'* ]] || fail "${file#"$tmp"/} is not a $type file"
	local foreign
	foreign=$(field foreign "$file" | grep -vixF -- "${also_needs:-/}" || true)
	[ -z "$foreign" ] || fail "${file#"$tmp"/} needs what the system lacks: $foreign"
	if [ -n "$min_os" ]; then
		[ "$(field min_os "$file")" = "$min_os" ] \
			|| fail "${file#"$tmp"/} wants macOS $(field min_os "$file"), not $min_os"
	fi
	[ -n "$shipped" ] || return 0
	if [ "$libc" = gnu ]; then
		local glibc
		glibc=$(field glibc "$file")
		[ -z "$glibc" ] || [ "$(printf '%s\n2.17\n' "$glibc" | sort -V | tail -n 1)" = 2.17 ] \
			|| fail "${file#"$tmp"/} needs GLIBC_$glibc, newer than 2.17"
	fi
	if [ "$libc" = musl ]; then
		[ -z "$(field glibc "$file")" ] && ! grep -q '^libc\.so\.6$' <<< "$(field needs "$file")" \
			|| fail "${file#"$tmp"/} needs glibc"
	fi
	if [ "$kind" = macho ]; then
		[ "$(field needs "$file" | grep -vxF -- "${also_needs:-/}")" = /usr/lib/libSystem.B.dylib ] \
			|| fail "${file#"$tmp"/} needs more than libSystem: $(field needs "$file" | paste -sd ' ')"
	fi
}

also_needs=''
check_binary "$root/$shared" shared shipped
[ "$(field id "$root/$shared")" = "$shared_id" ] || fail "$shared calls itself $(field id "$root/$shared")"
needs=$(field needs "$root/$shared" | paste -sd ' ')
floor=${min_os:+, minimum macOS $min_os}
[ "$libc" = gnu ] && floor=", newest glibc symbol GLIBC_$(field glibc "$root/$shared") (at most 2.17)"
# The ABI is the header's functions: all exported, and on ELF and PE
# nothing else (the linkers keep to rustc's export list).
header_functions=$(grep -o '\brobotstxt_[a-z0-9_]*(' "$root/include/robotstxt.h" | tr -d '(' | sort -u)
exports=$(field exports "$root/$shared")
missing=$(comm -23 <(echo "$header_functions") <(echo "$exports"))
[ -z "$missing" ] || fail "$shared does not export: $missing"
others=$(comm -13 <(echo "$header_functions") <(echo "$exports") | wc -l)
if [ "$kind" = macho ]; then
	# zig's Mach-O linker ignores rustc's -exported_symbols_list.
	exported="the header's $(echo "$header_functions" | wc -l) functions (and $others of Rust's own symbols)"
else
	[ "$others" = 0 ] || fail "$shared exports $others symbols beyond the header's functions"
	exported="the header's $(echo "$header_functions" | wc -l) functions and nothing else"
fi
ok "$shared: $format $machine, named $shared_id, needs $needs$floor; exports $exported"

# The archive: this platform's objects, without debug info or bitcode.
objects=$(field objects "$root/lib/librobotstxt.a")
object_format=$format
[ "$kind" = pe ] && object_format=coff
[ -n "$objects" ] && ! grep -qv "^$object_format $machine " <<< "$objects" \
	|| fail "librobotstxt.a holds objects other than $object_format $machine: $objects"
left=$(field sections "$root/lib/librobotstxt.a" | grep -E '^\.debug|^\.llvm(bc|cmd)$|^__DWARF,|^__LLVM,' || true)
[ -z "$left" ] || fail "librobotstxt.a still has $(echo "$left" | paste -sd ' ')"
if [ "$libc" = musl ]; then
	# (Read whole first: grep -q would end nm early, which pipefail reports.)
	symbols=$(nm "$root/lib/librobotstxt.a" 2>/dev/null)
	grep -q ' T _Unwind_Resume$' <<< "$symbols" || fail "librobotstxt.a lacks the unwinder a static link needs"
	unwinder=", Rust's unwinder merged in (a static link needs libc alone)"
fi
ok "librobotstxt.a: $(echo "$objects" | awk '{ n += $3 } END { print n }') $object_format $machine objects," \
	"$(stat -c %s "$root/lib/librobotstxt.a") bytes, no debug info or bitcode${unwinder:-}"

cli=$root/bin/robotstxt-check$exe
check_binary "$cli" executable shipped
if [ "$libc" = musl ]; then
	[ -z "$(field interp "$cli")" ] || fail "bin/robotstxt-check is not statically linked"
fi
! grep -qi robotstxt <<< "$(field needs "$cli")" || fail "bin/robotstxt-check needs a robotstxt library"
ok "bin/robotstxt-check$exe: $format $machine, linked against the archive, needs" \
	"$(field needs "$cli" | paste -sd ' ' | sed 's/^$/nothing (static)/')${floor}"

# --- the C suite, through each pkg-config file ---

export PKG_CONFIG_PATH=$root/lib/pkgconfig
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
[ "$(pkg-config --modversion robotstxt)" = "$version" ] || fail "pkg-config --modversion"
[ "$(realpath "$(pkg-config --variable=libdir robotstxt)")" = "$root/lib" ] || fail "pkg-config's libdir"

src=()
for f in main.c test_api.c test_cache.c test_vectors.c test_bad_input.c test_threads.c test_preferences.c test_fleet.c; do
	src+=("$repo/tests/c/$f")
done
# Unoptimised, as mk/c.mk builds the suite natively.
cflags=(-std=c11 -Wall -Wextra -Werror -pedantic -I"$repo/tests/c" -I"$repo/build/c")
# The suite's own libraries (threads, fmax), which the static link's
# system libraries already hold; an rpath to the tree's lib/.
static_extra=()
shared_extra=(-lpthread -lm -Wl,-rpath,"$root/lib")
case $kind/$libc in
elf/musl) static_extra=(-static) ;;
pe/*)
	# The tests' printf attribute wants mingw's own printf (%zu), and
	# their threads winpthread: linked in, so that no mingw DLL is needed.
	# The DLL link keeps to the import library (-static would take
	# librobotstxt.a instead).
	cflags+=(-D__USE_MINGW_ANSI_STDIO=1 -Wno-format)
	static_extra=(-static -lpthread)
	shared_extra=(-static-libgcc -Wl,-Bstatic -lpthread -Wl,-Bdynamic -lm)
	;;
esac

# run_here PROGRAM ARG...: PROGRAM's output, run through RUN from the
# repository (the suite reads nothing else).
run_here() { (cd "$repo" && "${run_cmd[@]}" "$@" 2>&1); }
# suite LABEL PKG EXTRA...: builds the suite against PKG; runs it if it can.
suite() {
	local label=$1 pkg=$2 program=$tmp/tests-$1$exe flags
	shift 2
	# shellcheck disable=SC2207 # pkg-config's output is a list of flags
	flags=($(pkg-config --cflags --libs "$pkg"))
	"${cc_cmd[@]}" "${cflags[@]}" "${src[@]}" "${flags[@]}" "$@" -o "$program"
	also_needs=''
	[ "$label" = shared ] && also_needs=$shared_id
	check_binary "$program" executable
	if [ "$label" = shared ]; then
		grep -qixF "$shared_id" <<< "$(field needs "$program")" || fail "the suite does not need $shared_id"
		[ "$kind" != pe ] || cp "$root/$shared" "$tmp/"
	else
		! grep -qi robotstxt <<< "$(field needs "$program")" || fail "the static suite needs a robotstxt library"
	fi
	what="the C suite, linked through $pkg.pc (${flags[*]//$root/<tree>})"
	if [ -n "$no_run" ]; then
		seen "$what: $format $machine${floor}; $no_run"
	elif [ "$label/$libc" = shared/musl ]; then
		seen "$what: needs $shared_id; no musl dynamic loader here"
	else
		# A suite that exits non-zero still says why: its last lines.
		output=$(run_here "$program") || true
		result=$(tail -n 1 <<< "$output")
		case "$result" in
		*" passed, 0 failed") ;;
		*) fail "$what: exited with$(printf '\n    %s' "$(tail -n 5 <<< "$output")")" ;;
		esac
		ok "$what ran here$how: $result"
	fi
}
suite static robotstxt-static "${static_extra[@]}"
suite shared robotstxt "${shared_extra[@]}"
also_needs=''

# --- the CLI's own tests ---

if [ -n "$no_run" ]; then
	seen "bin/robotstxt-check$exe: tests/c/cli_test.sh not run; $no_run"
else
	# cli_test.sh takes one path: a wrapper that runs the CLI through RUN,
	# passing its standard input on (wine/run reads WINE_STDIN).
	wrapper=$tmp/robotstxt-check
	{
		echo '#!/bin/sh'
		[ "$kind" = pe ] && echo 'WINE_STDIN=/dev/stdin; export WINE_STDIN'
		printf 'exec %s "%s" "$@"\n' "$run" "$cli"
	} > "$wrapper"
	chmod +x "$wrapper"
	cli_os=''
	[ "$kind" = pe ] && cli_os=windows
	log=$tmp/cli_test.log
	(cd "$repo" && CLI_OS=$cli_os sh tests/c/cli_test.sh "$wrapper" > "$log" 2>&1) || { cat "$log"; fail "tests/c/cli_test.sh"; }
	grep '^skip ' "$log" | sed 's/^/    /' || true
	ok "bin/robotstxt-check$exe ran tests/c/cli_test.sh here$how: $(tail -n 1 "$log")"
fi

# --- the CMake package, from a project built for the platform ---

# A compiler CMake can name: one file.
printf '#!/bin/sh\nexec %s "$@"\n' "$cc" > "$tmp/cc"
chmod +x "$tmp/cc"
case $kind in
elf) system=Linux ;;
macho) system=Darwin ;;
pe) system=Windows ;;
esac
cat > "$tmp/toolchain.cmake" <<EOF
set(CMAKE_SYSTEM_NAME $system)
set(CMAKE_SYSTEM_PROCESSOR $([ "$machine" = arm64 ] && echo aarch64 || echo x86_64))
set(CMAKE_C_COMPILER "$tmp/cc")
EOF
# CMake learns the macOS version from sw_vers, which Linux lacks; without
# it, CMake assumes a macOS too old for rpaths: its rules are overridden.
if [ "$kind" = macho ]; then
	echo 'set(CMAKE_SHARED_LIBRARY_RUNTIME_C_FLAG "-Wl,-rpath,")' > "$tmp/macos-rules.cmake"
	echo "set(CMAKE_USER_MAKE_RULES_OVERRIDE \"$tmp/macos-rules.cmake\")" >> "$tmp/toolchain.cmake"
fi
consumer=(--toolchain "$tmp/toolchain.cmake")
if [ -n "$no_run" ]; then
	consumer+=(--no-run "$no_run")
elif [ "$libc" = musl ]; then
	consumer+=(--run "$run" --no-run-shared "no musl dynamic loader here")
else
	consumer+=(--run "$run")
fi
"$repo/tests/c/cmake-consumer/test.sh" "$root" "$version" "${consumer[@]}" > "$tmp/cmake.log" 2>&1 \
	|| { cat "$tmp/cmake.log"; fail "the CMake consumer"; }
sed 's/^/    /' "$tmp/cmake.log"
found="a CMake project found robotstxt $version in the tree and linked both targets for $platform"
if [ -n "$no_run" ]; then
	seen "$found; $no_run"
elif [ "$libc" = musl ]; then
	ok "$found, and ran the static one$how"
	seen "the CMake project's shared build: no musl dynamic loader here"
else
	ok "$found, and ran both$how"
fi

if [ -n "$no_run" ]; then
	echo "test-c-platform: $platform: linked and inspected, not run ($no_run): the tarball's files read ($checks checks), $inspected builds linked and inspected"
else
	also=''
	[ "$inspected" = 0 ] || also=" ($inspected inspected only, not run)"
	echo "test-c-platform: $platform: $checks checks passed$how$also: $name unpacked, the suite and CLI ran, without Rust"
fi
