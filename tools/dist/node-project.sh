# shellcheck shell=bash
# Sourced by the Node packaging tests (test-node.sh, test-node-cross.sh,
# test-node-wasm.sh): a project where npm installs as a user's would, and
# what a package installed from its tarball must look like. The sourcing
# script defines root (the repository) and fail.
# shellcheck disable=SC2154 # root comes from the sourcing script

# Makes $work (removed on exit) and $work/project, and enters the project.
# Nothing of the repository's environment reaches node or npm: no module
# path, an npm cache of its own, offline, and a registry that refuses
# connections, should offline be ignored.
enter_offline_project() {
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	case "$work/" in "$root"/*) fail "$work is inside the repository" ;; esac
	if command -v cargo >/dev/null || command -v rustc >/dev/null; then fail "cargo or rustc on PATH"; fi
	project=$work/project
	mkdir "$project"
	cd "$project" || fail "cannot enter $project"
	unset NODE_PATH NODE_OPTIONS
	export npm_config_cache=$work/npm-cache npm_config_offline=true npm_config_registry=http://127.0.0.1:9/ \
		npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
}

# NAME, installed beside robotstxt-engine, came from its tarball, at the
# version robotstxt-engine names (set in got, for the caller's summary);
# and robotstxt-engine names every optional dependency at its own version.
check_from_tarball() {
	node -e "
const lock = require('./package-lock.json').packages['node_modules/$1']
if (!lock || !/^file:/.test(lock.resolved)) process.exit(1)
" || fail "$1 did not come from its tarball"
	local want
	want=$(node -p "require('robotstxt-engine/package.json').optionalDependencies['$1']")
	got=$(node -p "require('$1/package.json').version")
	[ "$want" = "$got" ] || fail "robotstxt-engine wants $1 $want, the tarball is $got"
	node -e "
const main = require('robotstxt-engine/package.json')
const other = Object.entries(main.optionalDependencies).filter(([, version]) => version !== main.version)
if (other.length > 0) { console.error(other.join(' ')); process.exit(1) }
" || fail "robotstxt-engine names optional dependencies at another version than its own"
}
