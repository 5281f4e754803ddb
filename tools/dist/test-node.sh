#!/usr/bin/env bash
# test-node.sh MAIN.tgz PLATFORM.tgz: installs the npm tarballs of make
# dist-node as a user would, in a new project outside the repository,
# offline and without Rust (make dist-test-node runs it under
# tools/dist/without-rust); runs the practice shop (behaviour §9, against
# examples/shop/robots.txt) from CommonJS and from ESM through the package
# name; then removes the platform package and checks the error that
# require() throws names the machine and how to build from source.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: test-node.sh MAIN.tgz PLATFORM.tgz" >&2; exit 2; }
main=$(realpath "$1")
platform=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fail() { echo "test-node: FAILED: $*" >&2; exit 1; }
# shellcheck source-path=SCRIPTDIR source=node-project.sh
. "$here/node-project.sh"

enter_offline_project
cp "$here"/node/shop-check.cjs "$here"/node/shop.cjs "$here"/node/shop.mjs "$here"/node/missing.cjs \
	"$root/examples/shop/robots.txt" "$project/"

npm init -y >/dev/null
# One command: the platform tarball is then what satisfies the main
# package's optional dependency. npm still looks the name up while it
# places the main package first (a prefetch it drops); offline, that reads
# the empty cache and no request goes out, which the http log shows.
npm install --no-progress --loglevel=http "$main" "$platform" 2>npm-install.log \
	|| { cat npm-install.log >&2; fail "npm install"; }
! grep 'http fetch' npm-install.log || fail "npm asked a registry"

name=robotstxt-engine-linux-x64-gnu
[ -f node_modules/$name/robotstxt.linux-x64-gnu.node ] || fail "$name holds no addon"
[ ! -e node_modules/robotstxt-engine/node_modules ] || fail "npm nested a second copy under robotstxt-engine"
[ ! -e node_modules/robotstxt-engine/robotstxt.linux-x64-gnu.node ] || fail "the main package carries an addon"
check_from_tarball "$name"

node shop.cjs | tee shop-cjs.log
node shop.mjs | tee shop-mjs.log
answers=$(sed -n 's/^CommonJS: \([0-9]*\) of .*/\1/p' shop-cjs.log)

rm -rf "node_modules/$name"
node missing.cjs
node missing.cjs riscv64

echo "test-node: outside the repository, offline and without Rust, robotstxt-engine $got" \
	"installed from its two tarballs answered the practice shop ($answers checks) from CommonJS and ESM," \
	"and without $name throws an error that says how to build from source"
