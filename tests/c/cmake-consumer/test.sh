#!/usr/bin/env bash
# test.sh PREFIX VERSION [--toolchain FILE] [--run CMD] [--no-run WHY]
#     [--no-run-shared WHY]: builds the consumer project, copied outside the
# repository with tests/c/example.c, against the robotstxt installed (or
# unpacked) at PREFIX through find_package(robotstxt CONFIG); checks that
# the shared build needs the library by the name it calls itself (its
# soname, install name or DLL) and the static build needs none; runs both
# (through CMD, e.g. qemu-user or wine, when given; WHY says why a build
# is only linked); and checks that a request for a version this one does
# not satisfy is refused. A toolchain file builds for another platform.
set -euo pipefail
usage="usage: test.sh PREFIX VERSION [--toolchain FILE] [--run CMD] [--no-run WHY] [--no-run-shared WHY]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
prefix=$(realpath "$1")
version=$2
shift 2
toolchain='' run='' no_run='' no_run_shared=''
while [ $# -ge 2 ]; do
	case $1 in
	--toolchain) toolchain=$2 ;;
	--run) run=$2 ;;
	--no-run) no_run=$2 ;;
	--no-run-shared) no_run_shared=$2 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
	shift 2
done
[ $# = 0 ] || { echo "$usage" >&2; exit 2; }
read -r -a run_cmd <<< "$run"
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
# shellcheck source=../../../tools/dist/c-tarball.sh
. "$repo/tools/dist/c-tarball.sh"
version_parts "$version"

fail() { echo "cmake-consumer: FAILED: $*" >&2; exit 1; }
# (Read whole, then searched: grep -q would end the reader early, which
# pipefail reports.)
field() { python3 "$repo/tools/dist/binaries.py" "$1" "$2"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$tmp" in "$repo"/*) fail "$tmp is inside the repository" ;; esac
mkdir "$tmp/src"
cp "$here/CMakeLists.txt" "$repo/tests/c/example.c" "$tmp/src/"
configure=(-DCMAKE_PREFIX_PATH="$prefix")
[ -z "$toolchain" ] || configure+=(-DCMAKE_TOOLCHAIN_FILE="$toolchain")

cmake -S "$tmp/src" -B "$tmp/build" "${configure[@]}" \
	-DROBOTSTXT_WANT="$major.$minor" >"$tmp/configure.log" 2>&1 \
	|| { cat "$tmp/configure.log"; fail "configure against $prefix"; }
cmake --build "$tmp/build" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "build"; }

# The shared library as the platform lays it out, and the name a program
# that links it records.
for shared in "lib/librobotstxt.so.$version" lib/librobotstxt.dylib bin/robotstxt.dll; do
	[ -f "$prefix/$shared" ] && break
done
id=$(field id "$prefix/$shared")
shared_exe=$tmp/build/example-shared static_exe=$tmp/build/example-static
[ -f "$shared_exe" ] || { shared_exe+=.exe; static_exe+=.exe; }
grep -qixF "$id" <<< "$(field needs "$shared_exe")" || fail "example-shared does not need $id"
! grep -qi robotstxt <<< "$(field needs "$static_exe")" || fail "example-static needs a robotstxt library"
# CMake gives the build an rpath to the imported library's folder, which
# an install name through @rpath needs.
case $id in
@rpath/*) grep -qxF "$prefix/lib" <<< "$(field rpaths "$shared_exe")" || fail "example-shared has no rpath to $prefix/lib" ;;
esac

ran=()
linked=()
for exe in "$shared_exe" "$static_exe"; do
	why=$no_run
	[ "$exe" != "$shared_exe" ] || why=${why:-$no_run_shared}
	if [ -n "$why" ]; then
		linked+=("$(basename "$exe") ($why)")
	else
		(cd "$tmp/build" && "${run_cmd[@]}" "$exe" >/dev/null 2>"$tmp/run.err") \
			|| { cat "$tmp/run.err"; fail "$(basename "$exe") did not run"; }
		ran+=("$(basename "$exe")")
	fi
done
echo "cmake-consumer: robotstxt::robotstxt (needs $id) and robotstxt::robotstxt_static linked;" \
	"ran: ${ran[*]:-none}${run:+ (under ${run_cmd[0]#"$repo"/tools/dist/})}${linked[*]:+; linked, not run: ${linked[*]}}"

# One minor above: a 0.x release promises nothing across minors, and no
# release satisfies a later version than its own.
want=$major.$((minor + 1))
if cmake -S "$tmp/src" -B "$tmp/too-new" "${configure[@]}" \
	-DROBOTSTXT_WANT="$want" >"$tmp/too-new.log" 2>&1; then
	fail "find_package(robotstxt $want) accepted $version"
fi
grep -q "$version" "$tmp/too-new.log" || { cat "$tmp/too-new.log"; fail "the refusal does not name $version"; }
echo "cmake-consumer: find_package(robotstxt $want) refused $version"
