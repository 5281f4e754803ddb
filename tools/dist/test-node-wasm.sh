#!/usr/bin/env bash
# test-node-wasm.sh MAIN.tgz WASM.tgz: installs the npm tarballs of make
# dist-node and make dist-node-wasm as a user on a machine without a
# prebuilt native addon would (npm --cpu=wasm32: the native optional
# dependencies are skipped; --force: npm refuses a direct install of a
# package whose cpu, wasm32, is not this machine's), in a new
# project outside the repository, offline and without Rust (make
# dist-test-node-wasm runs it under tools/dist/without-rust). Then:
# require() and import fall back to the WebAssembly build on their own
# (backend 'wasm'); the Node suite runs against the installed package
# (its tests copied beside it, the Redis tests on the repository's
# redis-server); the shared vectors run in headless Chromium from a page
# bundled against the installed package; and the failures say what they
# are: no WebAssembly (node --jitless), a corrupt native addon (the
# WebAssembly build stands in), a binary for another machine.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: test-node-wasm.sh MAIN.tgz WASM.tgz" >&2; exit 2; }
main=$(realpath "$1")
wasm=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fail() { echo "test-node-wasm: FAILED: $*" >&2; exit 1; }
redis=${ROBOTSTXT_REDIS_SERVER:-build/redis/redis-server}
redis=$(cd "$root" && realpath "$redis")

# shellcheck source-path=SCRIPTDIR source=node-project.sh
. "$here/node-project.sh"
enter_offline_project
# Nor does a choice of build made outside.
unset ROBOTSTXT_BACKEND NAPI_RS_FORCE_WASI

npm init -y >/dev/null
npm install --no-progress --loglevel=http --cpu=wasm32 --force "$main" "$wasm" 2>npm-install.log \
	|| { cat npm-install.log >&2; fail "npm install"; }
! grep 'http fetch' npm-install.log || fail "npm asked a registry"
name=robotstxt-engine-wasm32-wasi
[ -f node_modules/$name/robotstxt.wasm32-wasip1.wasm ] || fail "$name holds no module"
! ls node_modules/robotstxt-engine-linux-* >/dev/null 2>&1 || fail "a native addon was installed"
[ -z "$(ls node_modules | grep -v '^robotstxt-engine')" ] || fail "the packages brought dependencies: $(ls node_modules)"

# The fallback, with no variable set.
got=$(node -p "require('robotstxt-engine').backend")
[ "$got" = wasm ] || fail "require() loaded the $got backend"
got=$(node --input-type=module -e "import { backend, Robots } from 'robotstxt-engine'; \
	console.log(backend, Robots.parse('User-agent: *\nDisallow: /x\n').rulesFor('a').isAllowed('/x/y'))")
[ "$got" = "wasm false" ] || fail "import gave: $got"

# The suite, from a copy beside the installed package: its tests import
# ../index.js and ../lib/index.js, and read ../../../tests/vectors and
# ../../../examples (here: the project). ioredis is the tests' own
# dependency, linked from the repository.
cp -R "$root/bindings/node/__test__" node_modules/robotstxt-engine/__test__
mkdir -p tests examples/shop
cp -R "$root/tests/vectors" tests/vectors
cp "$root/examples/shop/robots.txt" examples/shop/
ln -s "$root/bindings/node/node_modules/ioredis" node_modules/ioredis
(cd node_modules/robotstxt-engine && ROBOTSTXT_TEST_LIMITS=wasm-memory ROBOTSTXT_REDIS_SERVER=$redis \
	node --test __test__/*.test.mjs) > suite.log 2>&1 \
	|| { grep -E -A14 '^ *not ok' suite.log | head -n 150 >&2; tail -n 9 suite.log >&2; fail "the suite"; }
counts=$(grep -E '^# (tests|pass|fail|skipped) ' suite.log | sed 's/^# //' | paste -sd, -)
skipped=$(grep -E '# SKIP' suite.log | sed 's/^ *//' || true)

# Chromium, against the installed package.
node "$root/tools/dist/browser/run.mjs" "$project" "$project/tests/vectors" | tee browser.log

# No WebAssembly in this runtime, and no native addon: one message.
out=$(node --jitless -e "
try { require('robotstxt-engine') } catch (e) { console.log(e.code + ' ' + e.message); process.exit(0) }
console.log('loaded'); process.exit(1)" 2>/dev/null) || fail "node --jitless loaded: $out"
libc=$(node -p "process.report.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl'")
for want in ERR_ROBOTSTXT_NO_BINARY "platform $(node -p process.platform)" "arch $(node -p process.arch)" \
	"libc $libc" 'no WebAssembly' 'build from source' 'make node-build'; do
	[[ $out == *"$want"* ]] || fail "the --jitless error lacks '$want': $out"
done

# A corrupt native addon where npm would put the real one: the
# WebAssembly build stands in, no crash.
plat=$(node -p "process.platform + '-' + process.arch + (process.report.getReport().header.glibcVersionRuntime ? '-gnu' : '-musl')")
mkdir -p "node_modules/robotstxt-engine-$plat"
echo '{"name":"robotstxt-engine-'"$plat"'","version":"0.1.0","main":"robotstxt.'"$plat"'.node"}' \
	> "node_modules/robotstxt-engine-$plat/package.json"
head -c 4096 /dev/zero > "node_modules/robotstxt-engine-$plat/robotstxt.$plat.node"
got=$(node -p "require('robotstxt-engine').backend")
[ "$got" = wasm ] || fail "with a corrupt addon, the $got backend loaded"
# ... and without the WebAssembly build, the error says what was found.
mv "node_modules/$name" "$work/$name"
out=$(node -e "try { require('robotstxt-engine') } catch (e) { console.log(e.message) }")
for want in "is installed but did not load" 'for another platform, architecture or libc' "$name"; do
	[[ $out == *"$want"* ]] || fail "the corrupt-addon error lacks '$want': $out"
done
# A binary for another machine, as node_modules copied from one.
rm -rf "node_modules/robotstxt-engine-$plat"
other=linux-arm64-musl
[ "$plat" != "$other" ] || other=linux-x64-gnu
mkdir -p "node_modules/robotstxt-engine-$other"
echo '{"name":"robotstxt-engine-'"$other"'","version":"0.1.0"}' > "node_modules/robotstxt-engine-$other/package.json"
out=$(node -e "try { require('robotstxt-engine') } catch (e) { console.log(e.message) }")
[[ $out == *"Installed instead: robotstxt-engine-$other, for another machine"* ]] \
	|| fail "the error does not name the other machine's package: $out"

echo "test-node-wasm: outside the repository, offline and without Rust, robotstxt-engine and $name" \
	"installed from their tarballs (--cpu=wasm32, no dependencies) load the WebAssembly build on their own;" \
	"the suite against them: $counts"
[ -z "$skipped" ] || printf 'test-node-wasm: skipped, with the reason:\n%s\n' "$skipped"
echo "test-node-wasm: Chromium passed (above); without WebAssembly, with a corrupt addon and with another" \
	"machine's package, require() says what it found and how to build from source"
