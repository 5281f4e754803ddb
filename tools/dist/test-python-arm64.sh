#!/usr/bin/env bash
# test-python-arm64.sh ROOT VENV DIST_DIR: the linux-arm64-gnu wheel of
# DIST_DIR (dist/python) run as a user on arm64 Linux runs it, in Debian
# 12's arm64 CPython under qemu-user: ROOT is that Python's unpacked root
# (tools/dist/debian-arm64-python.sh), VENV an arm64 venv made from it
# with the pinned test packages (make dist-test-python-linux-arm64-gnu).
# pip, run by that Python, installs the wheel from DIST_DIR alone
# (--no-index); then the shop example and the binding's pytest suite run
# from a directory outside the repository. Run it under
# tools/dist/without-rust. Tests that the emulation cannot run are skipped
# by the suite itself (ROBOTSTXT_TEST_LIMITS), with the reason printed, and
# its time bounds are stretched for an emulated CPU.
set -euo pipefail
[ $# = 3 ] || { echo "usage: test-python-arm64.sh ROOT VENV DIST_DIR" >&2; exit 2; }
root=$(realpath "$1")
venv=$(realpath "$2")
wheels=$(realpath "$3")
repo=$(cd "$(dirname "$0")/../.." && pwd)
run=(qemu-aarch64-static -L "$root")
python=("${run[@]}" "$venv/bin/python")
pip=("${python[@]}" -m pip --disable-pip-version-check --no-input)

checks=0
ok() { echo "  ok: $*"; checks=$((checks + 1)); }
fail() { echo "test-python-arm64: FAILED: $*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$tmp" in "$repo"/*) fail "$tmp is inside the repository" ;; esac
# shellcheck source=python-shop.sh
. "$repo/tools/dist/python-shop.sh"
! command -v cargo >/dev/null && ! command -v rustc >/dev/null || fail "cargo or rustc on PATH"
[ -x "$root/usr/bin/python3.11" ] && [ -f "$venv/pyvenv.cfg" ] || fail "no arm64 Python at $root or venv at $venv"

shopt -s nullglob
found=("$wheels"/robotstxt_engine-*-abi3-*manylinux_2_17_aarch64.whl)
[ ${#found[@]} = 1 ] || fail "want one manylinux_2_17_aarch64 abi3 wheel in $wheels, found ${#found[@]}"
wheel=${found[0]}
# Only the arm64 wheel in the folder pip may look in, so that its choice
# of wheel is not what is tested.
mkdir "$tmp/wheels" && cp "$wheel" "$tmp/wheels/"
ok "no cargo or rustc on PATH; $(qemu-aarch64-static --version | head -n 1)"

# What a user types, less the index: the venv's pip (Debian's) from the
# folder alone; --force-reinstall replaces the copy of an earlier run.
"${pip[@]}" install --quiet --force-reinstall --no-deps --no-index --find-links "$tmp/wheels" robotstxt-engine
# The interpreter's machine, and where pip put the package and its module.
read -r machine version pip_version location so < <("${python[@]}" -c '
import importlib.metadata as m, platform, sys
d = m.distribution("robotstxt-engine")
so = [str(f) for f in d.files if str(f).startswith("robotstxt/_robotstxt") and str(f).endswith(".so")]
print(platform.machine(), "%d.%d.%d" % sys.version_info[:3], m.version("pip"), d.locate_file(""), *so)')
[ "$machine" = aarch64 ] || fail "the venv's Python says it runs on $machine"
case "$location" in "$venv"/*) ;; *) fail "pip installed it into $location, outside the venv" ;; esac
[ -n "${so:-}" ] && [[ $(readelf -h "$location/$so") == *"Machine:"*AArch64* ]] || fail "no AArch64 module in the install: ${so:-none}"
ok "Debian's arm64 CPython $version: pip $pip_version installed $(basename "$wheel") with --no-index; $so is AArch64"

# A directory of its own, so that nothing from the source tree is importable.
mkdir "$tmp/run"
cp "$repo/examples/python/shop.py" "$repo/examples/shop/robots.txt" "$tmp/run/"
cd "$tmp/run"
where=$("${python[@]}" -c 'import robotstxt; print(robotstxt.__file__)')
case "$(realpath "$where")" in "$venv"/*) ;; *) fail "robotstxt imported from $where" ;; esac
"${python[@]}" shop.py robots.txt > shop.out
sed 's/^/    /' shop.out
check_shop shop.out
ok "import robotstxt finds the venv's copy; examples/python/shop.py answered the 12 questions and crawl delays as in behaviour §9"

# The suite, as make python-test runs it, with what qemu-user cannot do
# named: start a child (spawn), run at a native CPU's speed (slow).
limits=spawn,slow
echo "  pytest under qemu (ROBOTSTXT_TEST_LIMITS=$limits):"
status=0
ROBOTSTXT_REPO=$repo ROBOTSTXT_TEST_LIMITS=$limits "${python[@]}" -m pytest -p no:cacheprovider -q -rs \
	"$repo/bindings/python/tests" > pytest.out 2>&1 || status=$?
sed 's/^/    /' pytest.out | tail -n 25
[ "$status" = 0 ] || fail "pytest exited with $status"
last=$(tail -n 1 pytest.out)
passed=$(grep -o '[0-9]* passed' <<< "$last" | cut -d' ' -f1)
skipped=$(grep -o '[0-9]* skipped' <<< "$last" | cut -d' ' -f1)
[ "${passed:-0}" -gt 0 ] || fail "pytest passed no test: $last"
! grep -Eq '[0-9]+ (failed|error|errors|xpassed)' <<< "$last" || fail "pytest: $last"
# Every skip must be one the runner asked for: "SKIPPED [COUNT] FILE:LINE: REASON".
reasons=$(sed -n 's/^SKIPPED \[\([0-9]*\)\] [^ ]*:[0-9]*: \(.*\)$/\1\t\2/p' pytest.out \
	| awk -F'\t' '{ n[$2] += $1 } END { for (r in n) printf "%d: %s\n", n[r], r }' | sort)
if grep -v '(ROBOTSTXT_TEST_LIMITS)$' <<< "$reasons" | grep -q .; then
	fail "a test was skipped for a reason the runner did not give: $reasons"
fi
[ "$(awk -F: '{ s += $1 } END { print s + 0 }' <<< "$reasons")" = "${skipped:-0}" ] \
	|| fail "pytest skipped ${skipped:-0} tests, -rs gave reasons for others: $reasons"
ok "pytest: $last"
echo "arm64 wheel under qemu: ${passed:-0} passed, ${skipped:-0} skipped${reasons:+ ($(paste -sd';' <<< "$reasons" | sed 's/;/; /g'))}; wall-clock bounds ×10 and 20 ms wake-up slack (emulated CPU)"
