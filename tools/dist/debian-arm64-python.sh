#!/usr/bin/env bash
# debian-arm64-python.sh DIR: Debian 12's arm64 CPython 3.11, unpacked
# into DIR/root to run under qemu-user (qemu-aarch64-static -L DIR/root),
# with pip as Debian ships it (DIR/root/usr/share/python-wheels). The
# packages come from Debian's archive through apt-get with a private state
# in DIR/apt (its own source list, package lists and cache, arm64 only),
# so the machine's apt setup and installed packages stay as they are.
# Nothing is installed: each .deb is unpacked with dpkg-deb -x.
set -euo pipefail
[ $# = 1 ] || { echo "usage: debian-arm64-python.sh DIR" >&2; exit 2; }
dir=$(realpath -m "$1")
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || { echo "debian-arm64-python: $keyring is missing (apt package debian-archive-keyring)" >&2; exit 1; }

# The interpreter and what it and the stdlib's extension modules load;
# libstdc++ for test dependencies' wheels written in C++; pip's wheel.
packages=(python3.11 python3.11-minimal libpython3.11-minimal libpython3.11-stdlib
	libc6 libgcc-s1 libstdc++6 libexpat1 zlib1g libffi8 libbz2-1.0 liblzma5 libsqlite3-0
	libuuid1 libssl3 libncursesw6 libtinfo6 libreadline8 libdb5.3 libgdbm6 libcrypt1
	libnsl2 libtirpc3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2
	libkeyutils1 media-types python3-pip-whl python3-setuptools-whl)

rm -rf "$dir/apt" "$dir/root" "$dir/debs"
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/apt/parts" "$dir/debs" "$dir/root"
for suite in bookworm bookworm-updates; do
	echo "deb [arch=arm64 signed-by=$keyring] http://deb.debian.org/debian $suite main"
done > "$dir/apt/sources.list"
echo "deb [arch=arm64 signed-by=$keyring] http://deb.debian.org/debian-security bookworm-security main" \
	>> "$dir/apt/sources.list"
# Downloads run as the caller: apt's _apt user may not write into DIR.
apt=(apt-get -q -o "Dir::Etc::SourceList=$dir/apt/sources.list" -o "Dir::Etc::SourceParts=$dir/apt/parts"
	-o Dir::Etc::Preferences=/dev/null -o "Dir::Etc::PreferencesParts=$dir/apt/parts" -o "APT::Sandbox::User=$(id -un)"
	-o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache" -o Dir::State::status=/dev/null
	-o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o Debug::NoLocking=1)
"${apt[@]}" update > "$dir/apt/update.log"
(cd "$dir/debs" && "${apt[@]}" download "${packages[@]}" > "$dir/apt/download.log")
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
# Debian's python3 is a link installed by the python3 package; the
# interpreter itself is all that is needed.
ln -sf python3.11 "$dir/root/usr/bin/python3"
echo "debian-arm64-python: $(find "$dir/debs" -name '*.deb' | wc -l) packages unpacked into $dir/root:" \
	"$(basename "$(find "$dir/debs" -name 'python3.11_*.deb')" .deb)"
