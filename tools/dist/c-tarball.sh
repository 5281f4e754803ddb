# Sourced by the C packaging tests: what a version and a release tarball
# are called.

# Sets major, minor and abi for VERSION; abi is the soname's version, the
# major from 1.0 on and major.minor before it (CONTRIBUTING.md, "Versions").
version_parts() {
	major=${1%%.*}
	minor=${1#*.}
	minor=${minor%%.*}
	abi=$major
	[ "$major" != 0 ] || abi=$major.$minor
}

# Unpacks TARBALL into DIR and sets root (its one top directory), name
# (robotstxt-<version>-<platform>), version, major, minor and abi.
unpack_c_tarball() {
	tar -xzf "$1" -C "$2"
	root=$(find "$2" -mindepth 1 -maxdepth 1)
	[ "$(echo "$root" | wc -l)" = 1 ] && [ -d "$root" ] || fail "the tarball holds more than one top directory"
	name=$(basename "$root")
	version=${name#robotstxt-}
	version=${version%%-*}
	version_parts "$version"
}
