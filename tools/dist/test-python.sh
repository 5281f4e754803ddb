#!/usr/bin/env bash
# test-python.sh PYTHON WHEEL_DIR: installs the wheel of WHEEL_DIR
# (dist/python) into a fresh venv outside the repository, from that
# directory alone (pip --no-index), and runs examples/python/shop.py from
# there, as a user would (run it under tools/dist/without-rust, as `make
# dist-test-python` does). Checks the answers against behaviour §9.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: test-python.sh PYTHON WHEEL_DIR" >&2; exit 2; }
python=$1
wheels=$(realpath "$2")
repo=$(cd "$(dirname "$0")/../.." && pwd)

checks=0
ok() { echo "  ok: $*"; checks=$((checks + 1)); }
fail() { echo "test-python: FAILED: $*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$tmp" in "$repo"/*) fail "$tmp is inside the repository" ;; esac
! command -v cargo >/dev/null && ! command -v rustc >/dev/null || fail "cargo or rustc on PATH"
ok "no cargo or rustc on PATH; working in $tmp"

shopt -s nullglob
found=("$wheels"/*.whl)
[ ${#found[@]} = 1 ] || fail "want one wheel in $wheels, found ${#found[@]}"
wheel=${found[0]}
case "$(basename "$wheel")" in *-abi3-*) ;; *) fail "$(basename "$wheel") is not an abi3 wheel" ;; esac
"$python" -m zipfile -l "$wheel" > "$tmp/wheel.list"
for f in LICENSE-MIT LICENSE-APACHE; do
	grep "\.dist-info/licenses/$f " "$tmp/wheel.list" >/dev/null || fail "the wheel lacks $f"
done
ok "$(basename "$wheel"): abi3, with both licences in its .dist-info/licenses/"

"$python" -m venv "$tmp/venv"
venv=$(realpath "$tmp/venv")
"$venv/bin/pip" install --disable-pip-version-check --no-input --quiet --no-index "$wheel"
ok "pip install --no-index from $wheels into a fresh venv ($("$venv/bin/python" -V))"

# A directory of its own, so that nothing from the source tree is importable.
mkdir "$tmp/run"
cp "$repo/examples/python/shop.py" "$repo/examples/shop/robots.txt" "$tmp/run/"
cd "$tmp/run"
where=$("$venv/bin/python" -c 'import robotstxt; print(robotstxt.__file__)')
case "$(realpath "$where")" in "$venv"/*) ;; *) fail "robotstxt imported from $where" ;; esac
ok "import robotstxt finds the venv's copy: ${where#"$venv"/}"

"$venv/bin/python" shop.py robots.txt > shop.out
sed 's/^/    /' shop.out
# token<TAB>path<TAB>answer, the table of behaviour §9; shop.py prints each as
# TOKEN PATH ANSWER (WHY) in columns, or TOKEN PATH error: MESSAGE.
mapfile -t printed < shop.out
while IFS=$'\t' read -r token path want; do
	if [ "$want" = error ]; then
		prefix=$(printf '%-40s %-32s error: ' "$token" "$path")
	else
		prefix=$(printf '%-40s %-32s %-10s (' "$token" "$path" "$want")
	fi
	found=
	for line in "${printed[@]}"; do
		if [[ $line == "$prefix"* ]]; then found=yes; fi
	done
	[ -n "$found" ] || fail "shop.py: $token $path is not $want"
done <<'EOF'
NimbuBot	/prices/today	allowed
NimbuBot	/prices/history	disallowed
NimbuBot	/guides/size-chart.pdf	disallowed
NimbuBot	/guides/size-chart.pdf?print=1	allowed
NimbuBot	/offers/weekend	allowed
NimbuBot	/drafts/new-range	disallowed
NimbuBot	/account/orders	allowed
OtherBot	/account/orders	disallowed
OtherBot	/products/?sort=price	disallowed
ArchiveBot	/robots.txt	allowed
nimbubot	/%70rices/history	disallowed
Mozilla/5.0 (compatible; NimbuBot/1.0)	/prices/history	error
EOF
grep -x -e 'crawl-delay NimbuBot: 2.5 s' shop.out >/dev/null && grep -x 'crawl-delay OtherBot: 2.0 s' shop.out >/dev/null \
	|| fail "shop.py: crawl delays"
ok "examples/python/shop.py answered the 12 questions and crawl delays as in behaviour §9"

echo "test-python: $checks checks passed: the abi3 wheel installed with --no-index into a fresh venv and ran the shop, without Rust"
