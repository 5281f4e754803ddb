#!/usr/bin/env bash
# test-python.sh PYTHON DIST_DIR [--sdist]: installs the wheel of DIST_DIR
# (dist/python) into a fresh venv outside the repository, from that
# directory alone (pip --no-index), and runs examples/python/shop.py from
# there, as a user would (run it under tools/dist/without-rust, as `make
# dist-test-python` does). Checks the answers against behaviour §9.
# With --sdist, builds and installs the source distribution instead, where
# Rust is present, with the pinned maturin (requirements-build.txt).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: test-python.sh PYTHON DIST_DIR [--sdist]" >&2; exit 2; }
python=$1
wheels=$(realpath "$2")
sdist=${3:-}
repo=$(cd "$(dirname "$0")/../.." && pwd)
pip_quiet=(--disable-pip-version-check --no-input --quiet)

checks=0
ok() { echo "  ok: $*"; checks=$((checks + 1)); }
fail() { echo "test-python: FAILED: $*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$tmp" in "$repo"/*) fail "$tmp is inside the repository" ;; esac
shopt -s nullglob
# shellcheck source=python-shop.sh
. "$repo/tools/dist/python-shop.sh"

if [ "$sdist" = --sdist ]; then
	command -v cargo >/dev/null || fail "the source distribution needs cargo on PATH"
	found=("$wheels"/*.tar.gz)
	[ ${#found[@]} = 1 ] || fail "want one source distribution in $wheels, found ${#found[@]}"
	archive=${found[0]}
	name=$(basename "$archive" .tar.gz)
	tar -tzf "$archive" > "$tmp/sdist.list"
	for f in PKG-INFO pyproject.toml Cargo.toml README.md LICENSE-MIT LICENSE-APACHE \
		python/robotstxt/__init__.py; do
		grep -x "$name/$f" "$tmp/sdist.list" >/dev/null || fail "$name lacks $f"
	done
	# The engine crate comes along: the binding builds on it by path.
	grep "^$name/.*src/lib.rs$" "$tmp/sdist.list" | grep -v bindings/python >/dev/null \
		|| fail "$name lacks the engine's sources"
	tar -xzOf "$archive" "$name/PKG-INFO" > "$tmp/PKG-INFO"
	grep -q '^Project-URL: ' "$tmp/PKG-INFO" || fail "PKG-INFO has no project URLs"
	grep -q '^Description-Content-Type: text/markdown' "$tmp/PKG-INFO" || fail "PKG-INFO has no README"
	ok "$name.tar.gz: pyproject, both crates, README, licences; PKG-INFO with project URLs and README"

	"$python" -m venv "$tmp/venv"
	venv=$(realpath "$tmp/venv")
	"$venv/bin/pip" install "${pip_quiet[@]}" -r "$repo/bindings/python/requirements-build.txt"
	# Reuse compiled dependencies when the caller points at a target dir.
	# pip runs the build backend, which runs the maturin of the venv's bin/.
	PATH="$venv/bin:$PATH" "$venv/bin/pip" install "${pip_quiet[@]}" --no-index --no-build-isolation "$archive"
	ok "built from $name.tar.gz with $(cargo --version | cut -d' ' -f1-2) and installed into a fresh venv"
else
	! command -v cargo >/dev/null && ! command -v rustc >/dev/null || fail "cargo or rustc on PATH"
	ok "no cargo or rustc on PATH; working in $tmp"
	found=("$wheels"/*.whl)
	[ ${#found[@]} = 1 ] || fail "want one wheel in $wheels, found ${#found[@]}"
	wheel=${found[0]}
	case "$(basename "$wheel")" in *-abi3-*) ;; *) fail "$(basename "$wheel") is not an abi3 wheel" ;; esac
	"$python" -m zipfile -l "$wheel" > "$tmp/wheel.list"
	for f in LICENSE-MIT LICENSE-APACHE; do
		grep "\.dist-info/licenses/$f " "$tmp/wheel.list" >/dev/null || fail "the wheel lacks $f"
	done
	ok "$(basename "$wheel"): abi3, with both licences in its .dist-info/licenses/"
	# manylinux2014: the tag says glibc 2.17, and so must the extension's
	# symbol versions (the host's glibc is newer).
	case "$(basename "$wheel")" in *manylinux_2_17_x86_64*) ;; *) fail "$(basename "$wheel") is not manylinux_2_17" ;; esac
	mkdir "$tmp/wheel" && "$python" -m zipfile -e "$wheel" "$tmp/wheel"
	newest=$(objdump -T "$tmp"/wheel/robotstxt/_robotstxt*.so | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
	[ "$newest" = GLIBC_2.17 ] || [ "$(printf '%s\n' "$newest" GLIBC_2.17 | sort -V | tail -n 1)" = GLIBC_2.17 ] \
		|| fail "the extension needs $newest, newer than manylinux2014's GLIBC_2.17"
	ok "manylinux2014: the extension needs glibc symbols up to $newest, none newer than 2.17"

	"$python" -m venv "$tmp/venv"
	venv=$(realpath "$tmp/venv")
	"$venv/bin/pip" install "${pip_quiet[@]}" --no-index "$wheel"
	ok "pip install --no-index from $wheels into a fresh venv ($("$venv/bin/python" -V))"
fi

# A directory of its own, so that nothing from the source tree is importable.
mkdir "$tmp/run"
cp "$repo/examples/python/shop.py" "$repo/examples/shop/robots.txt" "$tmp/run/"
cd "$tmp/run"
where=$("$venv/bin/python" -c 'import robotstxt; print(robotstxt.__file__)')
case "$(realpath "$where")" in "$venv"/*) ;; *) fail "robotstxt imported from $where" ;; esac
ok "import robotstxt finds the venv's copy: ${where#"$venv"/}"

"$venv/bin/python" shop.py robots.txt > shop.out
sed 's/^/    /' shop.out
check_shop shop.out
ok "examples/python/shop.py answered the 12 questions and crawl delays as in behaviour §9"

if [ "$sdist" = --sdist ]; then
	echo "test-python: $checks checks passed: the source distribution built and installed into a fresh venv and ran the shop"
else
	echo "test-python: $checks checks passed: the abi3 wheel installed with --no-index into a fresh venv and ran the shop, without Rust"
fi
