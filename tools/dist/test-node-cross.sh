#!/usr/bin/env bash
# test-node-cross.sh [--glibc V] [--macos V] [--preload FILE] MAIN.tgz PLATFORM.tgz PLATFORM [NODE...]
# installs the npm tarballs of make dist-node and dist-node-PLATFORM
# (napi-rs's platform name, e.g. linux-arm64-gnu) as a user on that
# platform would get them, in a new project outside the repository,
# offline and without Rust (make runs it under tools/dist/without-rust).
# npm is told the platform's os, cpu and libc (--os, --cpu, --libc), as
# it finds them there, and picks the platform package by its fields: so
# both tarballs are the project's optional dependencies, the kind npm
# judges by those flags (it judges a required one by this machine only).
# Told nothing, npm must leave the package out here. Then
# tools/dist/node/inspect-addon.py reads what was installed (--glibc and
# --macos: what the addon must state). With NODE (a command that runs the
# platform's Node here: qemu-user, wine), tools/dist/node/check-addon.cjs
# asks the installed package a few questions and checks which addon
# answered, and the Node suite (bindings/node/__test__, all but the fleet
# tests, which need a Redis server) runs against the installed package,
# file by file, as the platform's Node cannot always start the test
# runner's children; ROBOTSTXT_TEST_LIMITS names what that runtime cannot
# do (__test__/limits.mjs), and such tests count as skipped. --preload:
# a script every such Node run loads first (node --require), to work
# around the runtime. Without NODE it says the package was inspected, not
# run, and why.
set -euo pipefail
usage="usage: test-node-cross.sh [--native] [--glibc V] [--macos V] [--preload FILE] MAIN.tgz PLATFORM.tgz PLATFORM [NODE...]"
inspect_args=() preload= native=
while [ $# -gt 0 ]; do
	case "$1" in
	--glibc | --macos) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; inspect_args+=("$1" "$2"); shift 2 ;;
	--preload) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; preload=$(realpath "$2"); shift 2 ;;
	# On the platform's own machine (CI's native runners): npm picks the
	# package by the machine, as it does for a user there.
	--native) native=yes; shift ;;
	*) break ;;
	esac
done
[ $# -ge 3 ] || { echo "$usage" >&2; exit 2; }
main=$(realpath "$1")
tarball=$(realpath "$2")
platform=$3
shift 3
node=("$@")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name=robotstxt-engine-$platform
fail() { echo "test-node-cross: $platform: FAILED: $*" >&2; exit 1; }

# shellcheck source-path=SCRIPTDIR source=node-project.sh
. "$here/node-project.sh"
enter_offline_project

# The platform as npm's flags spell it: linux-arm64-gnu is --os=linux
# --cpu=arm64 --libc=glibc; win32-x64-msvc names no libc.
IFS=- read -r os cpu abi <<< "$platform"
flags=(--os="$os" --cpu="$cpu")
case "$abi" in gnu) flags+=(--libc=glibc) ;; musl) flags+=(--libc=musl) ;; esac

npm init -y >/dev/null
if [ -n "$native" ]; then
	flags=()
else
	# Told nothing, npm judges the package by this machine (Linux, x64, glibc)
	# and leaves it out: its os, cpu and libc fields keep it off the wrong
	# machines.
	npm install --no-progress --save-optional "$main" "$tarball" > left-out.log 2>&1 \
		|| { cat left-out.log >&2; fail "npm install, told nothing of the platform"; }
	[ -d node_modules/robotstxt-engine ] || fail "npm did not install robotstxt-engine"
	[ ! -e "node_modules/$name" ] || fail "npm installed $name on this machine (linux, x64, glibc)"
	rm -rf node_modules package-lock.json
	npm pkg delete optionalDependencies
fi

# One command, as test-node.sh, so the tarball satisfies the main
# package's optional dependency.
npm install --no-progress --loglevel=http --save-optional "${flags[@]}" "$main" "$tarball" 2>npm-install.log \
	|| { cat npm-install.log >&2; fail "npm install ${flags[*]}"; }
! grep 'http fetch' npm-install.log || fail "npm asked a registry"
package=node_modules/$name
[ -f "$package/robotstxt.$platform.node" ] || fail "$name holds no robotstxt.$platform.node"
[ ! -e node_modules/robotstxt-engine/node_modules ] || fail "npm nested a second copy under robotstxt-engine"
check_from_tarball "$name"
inspected=$(python3 -B "$here/node/inspect-addon.py" "$package" "$platform" "${inspect_args[@]}") \
	|| fail "the installed package is not what $platform needs"
echo "test-node-cross: $platform: $inspected"

how="npm install --save-optional ${flags[*]}"
if [ ${#node[@]} -eq 0 ]; then
	case "$os" in
	darwin) why="no macOS here" ;;
	linux) why="no musl Node here: npm has none, and this machine's libc is glibc" ;;
	*) why="no $os Node here" ;;
	esac
	echo "test-node-cross: $platform: inspected, not run ($why): robotstxt-engine $got installed outside the" \
		"repository, offline and without Rust ($how); $name's addon and package.json are what $platform needs"
	exit 0
fi

if [ -n "$preload" ]; then
	cp "$preload" .
	node+=(--require "./$(basename "$preload")")
	how="$how; $(basename "$preload") preloaded"
fi
cp "$here/node/check-addon.cjs" .
"${node[@]}" check-addon.cjs "$platform" || fail "check-addon.cjs"
version=$("${node[@]}" -p process.version)

# The suite, beside the installed package's own files: a test's `..` is
# the installed robotstxt-engine (its generated index.js, lib/), and
# `../../..` this project, which gets the repository files the tests read.
suite=node_modules/robotstxt-engine/__test__
cp -R "$root/bindings/node/__test__" "$suite"
mkdir -p examples/shop tests
cp "$root/examples/shop/robots.txt" examples/shop/
cp -R "$root/tests/vectors" "$root/tests/corpus-sample" tests/
total=0 passed=0 skipped=0 failed=0 files=0
for file in "$suite"/*.test.mjs; do
	base=$(basename "$file")
	case "$base" in fleet.test.mjs) continue ;; esac
	files=$((files + 1))
	status=0
	"${node[@]}" --test-reporter=tap "$suite/$base" > "$work/$base.log" 2>&1 || status=$?
	count() { sed -n "s/^# $1 \([0-9]*\)$/\1/p" "$work/$base.log" | tail -n 1; }
	t=$(count tests) p=$(count pass) s=$(count skipped) f=$(count fail)
	[ -n "$t" ] && [ -n "$p" ] || { cat "$work/$base.log" >&2; fail "$base printed no TAP summary (status $status)"; }
	total=$((total + t)) passed=$((passed + p)) skipped=$((skipped + ${s:-0})) failed=$((failed + ${f:-0}))
	echo "test-node-cross: $platform: $base: $p of $t passed, ${s:-0} skipped, ${f:-0} failed"
	if [ "${f:-0}" -ne 0 ] || [ "$status" -ne 0 ]; then
		grep -E '^(not ok|# Subtest| +(error|message|expected|actual):)' "$work/$base.log" | head -n 40 >&2 || true
		fail "$base: ${f:-0} failed, status $status"
	fi
done
[ "$passed" -gt 0 ] && [ $((passed + skipped)) -eq "$total" ] || fail "$passed passed + $skipped skipped of $total"

# Last, without the platform package: the error that says so.
rm -rf "$suite" "$package"
cp "$here/node/missing-cross.cjs" .
"${node[@]}" missing-cross.cjs "$platform" || fail "missing-cross.cjs"

# Each reason once, with how many tests it skipped.
reasons=$(cat "$work"/*.test.mjs.log | sed -n 's/.* # SKIP \(.*\) (ROBOTSTXT_TEST_LIMITS)$/\1/p' | sort | uniq -c \
	| sed 's/^ *\([0-9]*\) \(.*\)/\1: \2/' | paste -sd ';' -)
echo "test-node-cross: $platform: robotstxt-engine $got installed outside the repository, offline and without" \
	"Rust ($how), loads in Node $version and answers; the Node suite ($files files," \
	"fleet excluded: it needs Redis): $passed of $total passed, $skipped skipped${reasons:+ ($reasons)};" \
	"without $name it throws an error that says how to build from source"
