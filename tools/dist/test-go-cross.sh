#!/usr/bin/env bash
# test-go-cross.sh DIST GOOS/GOARCH CC [RUN]: uses the Go module tree DIST
# (make dist-go) for another platform as a user there would, outside the
# repository and without Rust: a new module in a temporary folder requires
# it, replaced by DIST, with no module proxy. cgo's C compiler is CC (a
# command line); the module must link its own lib/<goos>_<goarch> with
# nothing else from this machine. It vets the module's packages for the
# platform and builds their shipped tests into test binaries. With RUN (a
# command that runs the platform's programs here: qemu-user, wine), it runs
# them and counts each top-level test; without, it inspects the Mach-O
# header and says the binaries were linked, not run.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: test-go-cross.sh DIST GOOS/GOARCH CC [RUN]" >&2; exit 2; }
dist=$(cd "$1" && pwd)
goos=${2%/*} goarch=${2#*/}
read -r -a cc <<< "$3"
read -r -a run <<< "${4:-}"
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
mod=github.com/robotstxt-engine/robotstxt-go
go=${GO:-go}
name="$goos/$goarch"

# Top-level tests that cannot apply here, as NAME=why, per platform.
declare -A not_here=(
	[windows]="TestDependencies=it runs the go command, and there is no Windows Go toolchain under wine; dist-test-go runs it"
)

fail() { echo "test-go-cross: $name: FAILED: $*" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$work" in "$repo"/*) fail "$work is inside the repository" ;; esac
cd "$work"

unset CGO_CFLAGS CGO_LDFLAGS CGO_CPPFLAGS ROBOTSTXT_SHARED
export GOFLAGS=-mod=mod GOPROXY=off
without() { "$here/without-rust" "$@"; }

# cgo's compiler, as one program. zig links for macOS against its own
# stubs of libSystem; Go's standard library also asks for CoreFoundation,
# Security (crypto/x509) and libresolv (net), which zig does not carry,
# so they get stubs too, each exporting exactly the symbols Go's sources
# import from it (//go:cgo_import_dynamic). Any other symbol, such as one
# the archive needs, must still resolve, or the link fails.
ldflags=()
wrapper_args=()
if [ "$goos" = darwin ]; then
	stubs=$work/stubs
	mkdir -p "$stubs"
	tbd_target=$([ "$goarch" = arm64 ] && echo arm64-macos || echo x86_64-macos)
	stub() { # install-name file
		local syms
		syms=$(grep -rhoE "^//go:cgo_import_dynamic [A-Za-z0-9_]+ [A-Za-z0-9_]+ \"$1\"" \
			--include='*.go' "$("$go" env GOROOT)/src" | awk '{ print "_" $3 }' | sort -u | paste -sd, | sed 's/,/, /g')
		[ -n "$syms" ] || fail "Go's sources import nothing from $1: the stubs need another look"
		mkdir -p "$(dirname "$stubs/$2")"
		printf -- "--- !tapi-tbd\ntbd-version: 4\ntargets: [ %s ]\ninstall-name: '%s'\nexports:\n  - targets: [ %s ]\n    symbols: [ %s ]\n...\n" \
			"$tbd_target" "$1" "$tbd_target" "$syms" > "$stubs/$2"
	}
	stub /System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation CoreFoundation.framework/CoreFoundation.tbd
	stub /System/Library/Frameworks/Security.framework/Versions/A/Security Security.framework/Security.tbd
	stub /usr/lib/libresolv.9.dylib libresolv.tbd
	wrapper_args=("-F$stubs" "-L$stubs")
	# No DWARF: merging it would run dsymutil and a Mach-O strip, which
	# this machine lacks.
	ldflags=(-ldflags=-w)
fi
{
	echo '#!/bin/sh'
	printf 'exec'
	printf ' %q' "${cc[@]}" "${wrapper_args[@]}"
	echo ' "$@"'
} > "$work/cc"
chmod +x "$work/cc"

without "$go" mod init example.com/crosstest 2>/dev/null
without "$go" mod edit -require="$mod@v0.0.0" -replace="$mod=$dist"
export GOOS=$goos GOARCH=$goarch CGO_ENABLED=1 CC=$work/cc

# The platform's cgo line links the module's own archive and nothing else
# from a path.
lib=$dist/lib/${goos}_$goarch/librobotstxt.a
[ -f "$lib" ] || fail "$lib is missing"
ldf=$(without "$go" list -f '{{join .CgoLDFLAGS " "}}' "$mod")
[[ " $ldf " == *" $lib "* ]] || fail "$mod's cgo flags do not name $lib: $ldf"
for word in $ldf; do
	case "$word" in /*) [ "$word" = "$lib" ] || fail "$mod reaches outside its own archive: $word" ;; esac
done

without "$go" vet "$mod/..."
mkdir bin
without "$go" test -c "${ldflags[@]}" -o bin/ "$mod" "$mod/fleet"
exe=
[ "$goos" = windows ] && exe=.exe
for pkg in robotstxt-go fleet; do
	[ -f "bin/$pkg.test$exe" ] || fail "go test -c wrote no bin/$pkg.test$exe: $(ls bin)"
done
echo "  ok: go vet and go test -c for $name with ${cc[*]}"

if [ ${#run[@]} -eq 0 ]; then
	# Mach-O header: magic, CPU type, subtype, file type (2: executable).
	want_cpu=$([ "$goarch" = arm64 ] && echo 0100000c || echo 01000007)
	for pkg in robotstxt-go fleet; do
		read -r magic cpu _ filetype < <(od -An -tx4 -N16 "bin/$pkg.test")
		[ "$magic" = feedfacf ] || fail "bin/$pkg.test is not a 64-bit Mach-O file (magic $magic)"
		[ "$cpu" = "$want_cpu" ] || fail "bin/$pkg.test has CPU type 0x$cpu, not 0x$want_cpu ($goarch)"
		[ "$filetype" = 00000002 ] || fail "bin/$pkg.test is not an executable (file type 0x$filetype)"
	done
	echo "  ok: both test binaries are Mach-O executables, CPU type 0x$want_cpu ($goarch)"
	echo "test-go-cross: $name: linked, not run (no macOS here): the module vetted and its tests" \
		"linked against lib/${goos}_$goarch/librobotstxt.a with ${cc[*]}; nothing counted as passed"
	exit 0
fi

# Run each binary from its package's folder, as go test does.
skip=() skipped=()
while IFS= read -r entry; do
	[ -n "$entry" ] || continue
	skip+=("${entry%%=*}")
	skipped+=("${entry%%=*} (${entry#*=})")
done <<< "${not_here[$goos]:-}"
skip_re=
[ ${#skip[@]} -eq 0 ] || skip_re="^($(IFS='|'; echo "${skip[*]}"))\$"
summary=()
for pkg in robotstxt-go fleet; do
	dir=$dist
	[ "$pkg" = fleet ] && dir=$dist/fleet
	log=$work/$pkg.log
	set +e
	(cd "$dir" && without env -u GOOS -u GOARCH -u CC "${run[@]}" "$work/bin/$pkg.test$exe" \
		-test.v -test.count=1 ${skip_re:+-test.skip "$skip_re"}) > "$log" 2>&1
	status=$?
	set -e
	passed=$(grep -c '^--- PASS: ' "$log" || true)
	failed=$(grep -c '^--- FAIL: ' "$log" || true)
	skips=$(grep -c '^--- SKIP: ' "$log" || true)
	if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || ! grep -qx 'PASS' "$log"; then
		cat "$log"
		fail "package $pkg: exit status $status, $passed passed, $failed failed"
	fi
	if [ "$passed" -eq 0 ] && grep -q '^testing: warning: no tests to run' "$log"; then
		summary+=("$pkg: no tests to run (its examples are compiled only)")
	else
		summary+=("$pkg: $passed passed, 0 failed, $skips skipped")
	fi
done
echo "  ok: ran under ${run[*]}: ${summary[0]}; ${summary[1]}"
for s in "${skipped[@]}"; do echo "  not run here: $s"; done
runner=${run[0]}
case "$runner" in */*/*) runner=${runner#"${runner%/*/*}/"} ;; esac
echo "test-go-cross: $name: vetted, built with ${cc[*]} and run under $runner:" \
	"${summary[0]}; ${summary[1]}${skipped:+; ${#skipped[@]} not run here (listed above)}"
