# The platforms the packages are built for, and the tools that build for
# the ones this machine is not: Rust's standard library per target
# (rustup), and zig as the linker (ziglang, in the Python build venv with
# maturin). `make dist-all` builds every platform's packages beside the
# native ones; `make dist-all-test` checks each as far as it can be run
# or inspected here, and says which.
#
# So far: the Python wheels of the Linux (glibc and musl, x64 and arm64),
# macOS (x64 and arm64) and Windows (x64) platforms; the C tarballs of
# Linux with musl (x64 and arm64).

.PHONY: cross-tools dist-all dist-all-test dist-python-all dist-test-python-all

# platform: Rust target, wheel compatibility (maturin --compatibility;
# none for macOS, whose deployment target sets the tag).
PLATFORMS := linux-x64-gnu linux-arm64-gnu linux-x64-musl linux-arm64-musl macos-x64 macos-arm64 \
	windows-x64
TRIPLE_linux-x64-gnu := x86_64-unknown-linux-gnu
TRIPLE_linux-arm64-gnu := aarch64-unknown-linux-gnu
TRIPLE_linux-x64-musl := x86_64-unknown-linux-musl
TRIPLE_linux-arm64-musl := aarch64-unknown-linux-musl
TRIPLE_macos-x64 := x86_64-apple-darwin
TRIPLE_macos-arm64 := aarch64-apple-darwin
TRIPLE_windows-x64 := x86_64-pc-windows-gnu
WHEEL_COMPAT_linux-x64-gnu := manylinux2014
WHEEL_COMPAT_linux-arm64-gnu := manylinux2014
WHEEL_COMPAT_linux-x64-musl := musllinux_1_2
WHEEL_COMPAT_linux-arm64-musl := musllinux_1_2
# The oldest macOS each architecture's Rust supports.
MACOS_TARGET_macos-x64 := 10.12
MACOS_TARGET_macos-arm64 := 11.0
# The linker, where zig is not it: Windows' (mingw-w64 from apt), as
# maturin's zig route cannot export a dotted module's PyInit there.
NO_ZIG_windows-x64 := yes
# The native wheel (make python) is linux-x64-gnu's.
CROSS_PLATFORMS := $(filter-out linux-x64-gnu,$(PLATFORMS))

# Each target's standard library, once (rustup skips what it has); from
# apt: mingw-w64 (the Windows linker), gcc for arm64 Linux (its glibc, to
# run arm64 programs under qemu-user, and its binutils), qemu-user, wine.
CROSS_STAMP := build/tools/cross-targets.stamp
CROSS_APT := gcc-mingw-w64-x86-64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static wine wine64
cross-tools: $(CROSS_STAMP) $(PY_VENV_STAMP)
$(CROSS_STAMP): mk/platforms/table.mk
	rustup target add $(foreach p,$(CROSS_PLATFORMS),$(TRIPLE_$(p)))
	@missing=; for pkg in $(CROSS_APT); do \
		dpkg-query -W -f='$${Status}' $$pkg 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$pkg"; \
	done; [ -z "$$missing" ] || { apt-get update && apt-get install -y --no-install-recommends $$missing; }
	@mkdir -p $(@D) && touch $@

# A private wine prefix for running Windows programs (tools/dist/wine/run):
# Windows 10, as Node requires, and a stand-in for bcryptprimitives.dll,
# which Rust's standard library imports (ProcessPrng) and wine 8 lacks.
# Under target/, which cargo's file walk (cargo package, maturin sdist)
# skips: the prefix's z: drive links to /, and the walk would follow it.
WINE_PREFIX := target/wine/prefix
WINE_STAMP := target/wine/.prefix
wine-prefix: $(WINE_STAMP)
$(WINE_STAMP): tools/dist/wine/bcryptprimitives.c | cross-tools
	rm -rf $(WINE_PREFIX) && mkdir -p $(WINE_PREFIX)
	WINEPREFIX=$(abspath $(WINE_PREFIX)) WINEDEBUG=-all wineboot -i >/dev/null 2>&1
	WINEPREFIX=$(abspath $(WINE_PREFIX)) WINEDEBUG=-all wine winecfg -v win10 >/dev/null 2>&1
	x86_64-w64-mingw32-gcc -O2 -shared -o $(WINE_PREFIX)/drive_c/windows/system32/bcryptprimitives.dll \
		tools/dist/wine/bcryptprimitives.c -ladvapi32
	@touch $@
.PHONY: wine-prefix

# Each part (mk/platforms/*.mk) adds its steps to these two; dist-all then
# lists every file under dist/ in dist/MANIFEST again.
dist-all: dist
	$(dist_manifest)
dist-all-test:

# `make dist TARGET=<platform>`: this machine's set and that platform's
# packages, which each part adds to dist-platform-<platform>.
ifneq ($(TARGET),)
ifeq ($(filter $(TARGET),$(PLATFORMS)),)
$(error TARGET=$(TARGET) is not a platform; the platforms: $(PLATFORMS))
endif
dist: dist-platform-$(TARGET)
endif
$(foreach p,$(PLATFORMS),$(eval dist-platform-$(p):))

TEST_STEPS += dist-all-test
