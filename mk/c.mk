# C: the generated header, librobotstxt.{a,so}, the C test suite (ASan+UBSan,
# valgrind, static-only link, install + pkg-config), the robotstxt-check
# CLI and its end-to-end test, `make install`, the C demo, and the check
# benchmark through the C ABI.

.PHONY: header header-check c-lib c-test c-valgrind c-static-test \
	c-install-test cpp-test cli cli-test c-install demo-c c-tools polite-crawler \
	polite-crawler-test c-bench

CC ?= cc
CXX ?= c++
PYTHON ?= python3
PREFIX ?= /usr/local
DESTDIR ?=

C_CBINDGEN_VERSION := 0.29.4
# Versioned path: changing the pin installs the new version beside the old.
C_TOOLS := build/tools/cbindgen-$(C_CBINDGEN_VERSION)
C_CBINDGEN := $(C_TOOLS)/bin/cbindgen
# cbindgen reads the C ABI crate (bindings/c) from its root file (no `cargo
# metadata`, so no confusion with the other crates named robotstxt).
C_CBINDGEN_RUN = $(C_CBINDGEN) --quiet --config bindings/c/cbindgen.toml bindings/c/src/lib.rs
C_OUT := build/c
C_LIBDIR := target/release
C_LIB_A := $(C_LIBDIR)/librobotstxt.a
C_LIB_SO := $(C_LIBDIR)/librobotstxt.so
C_VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
C_MAJOR := $(firstword $(subst ., ,$(C_VERSION)))
C_MINOR := $(word 2,$(subst ., ,$(C_VERSION)))
# The ABI's version in the soname: the major from 1.0 on; before it, major
# and minor, as a 0.x minor release may break the ABI (CONTRIBUTING.md).
C_ABI := $(if $(filter 0,$(C_MAJOR)),$(C_MAJOR).$(C_MINOR),$(C_MAJOR))
C_SONAME := librobotstxt.so.$(C_ABI)
# What the Rust standard library needs from the system when the static
# library is linked: `cargo rustc --lib --crate-type staticlib --
# --print native-static-libs`, verbatim. Also robotstxt.pc's Libs.private.
C_NATIVE_LIBS := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
C_WARN := -std=c11 -Wall -Wextra -Werror -pedantic -g
C_FLAGS := $(C_WARN) -Iinclude
C_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
C_TEST_SRC := tests/c/main.c tests/c/test_api.c tests/c/test_cache.c tests/c/test_vectors.c \
	tests/c/test_bad_input.c tests/c/test_threads.c tests/c/test_preferences.c tests/c/test_fleet.c
C_TEST_HDR := tests/c/check.h include/robotstxt.h $(C_OUT)/vectors.h examples/utf8.h
C_VALGRIND := valgrind --error-exitcode=3 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect

build: cli

# --- tools: pinned cbindgen, cached under build/; valgrind when missing ---

$(C_CBINDGEN):
	$(CARGO) install cbindgen --version $(C_CBINDGEN_VERSION) --locked --root $(C_TOOLS)

c-tools:
	@command -v valgrind >/dev/null 2>&1 || { apt-get update && apt-get install -y valgrind; }
	@command -v pkg-config >/dev/null 2>&1 || { apt-get update && apt-get install -y pkg-config; }
	@command -v $(PYTHON) >/dev/null 2>&1 || { apt-get update && apt-get install -y python3; }
	@command -v cmake >/dev/null 2>&1 || { apt-get update && apt-get install -y cmake; }

# --- header ---

header: $(C_CBINDGEN)
	$(C_CBINDGEN_RUN) --output include/robotstxt.h

# Regenerates into a temporary file and fails if the committed header drifts.
header-check: $(C_CBINDGEN)
	@mkdir -p $(C_OUT)
	$(C_CBINDGEN_RUN) --output $(C_OUT)/robotstxt.h.fresh
	@diff -u include/robotstxt.h $(C_OUT)/robotstxt.h.fresh \
		|| { echo "include/robotstxt.h is stale: run 'make header' and commit it" >&2; exit 1; }
	@echo "header-check: include/robotstxt.h matches bindings/c/src/"

# --- libraries: the C ABI crate builds both (its build.rs sets the soname) ---

c-lib:
	$(CARGO) build --release -p robotstxt-c

# --- C test suite ---

$(C_OUT)/vectors.h: tests/c/gen_vectors.py $(wildcard tests/vectors/*.json)
	@mkdir -p $(C_OUT)
	$(PYTHON) tests/c/gen_vectors.py tests/vectors $@

# Every vector and every error path through the C ABI, under ASan + UBSan,
# linked against the static library.
c-test: c-lib c-tools $(C_OUT)/vectors.h
	$(CC) $(C_FLAGS) $(C_SAN) -Itests/c -I$(C_OUT) $(C_TEST_SRC) $(C_LIB_A) $(C_NATIVE_LIBS) \
		-o $(C_OUT)/tests-asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		$(C_OUT)/tests-asan

# The same suite, unsanitised, against the shared library (staged with its
# soname link, as installed), under valgrind.
c-valgrind: c-lib c-tools cli $(C_OUT)/vectors.h
	@rm -rf $(C_OUT)/shared && mkdir -p $(C_OUT)/shared
	cp $(C_LIB_SO) $(C_OUT)/shared/librobotstxt.so.$(C_VERSION)
	ln -sf librobotstxt.so.$(C_VERSION) $(C_OUT)/shared/$(C_SONAME)
	ln -sf $(C_SONAME) $(C_OUT)/shared/librobotstxt.so
	$(CC) $(C_FLAGS) -Itests/c -I$(C_OUT) $(C_TEST_SRC) -L$(C_OUT)/shared -lrobotstxt \
		-Wl,-rpath,$(abspath $(C_OUT)/shared) -lpthread -lm -o $(C_OUT)/tests-shared
	$(C_VALGRIND) $(C_OUT)/tests-shared
	$(C_VALGRIND) -q build/robotstxt-check --explain --crawl-delay --sitemaps --lint \
		examples/shop/robots.txt NimbuBot /prices/today /offers/weekend

# Vendoring: a C program linked against librobotstxt.a alone (no .so in
# sight), run, and checked to need no robotstxt shared object. (The C
# blocks of README.md and docs/c.md build against the archive in docs-test,
# mk/docs.mk.)
c-static-test: c-lib
	@rm -rf $(C_OUT)/static && mkdir -p $(C_OUT)/static
	cp $(C_LIB_A) include/robotstxt.h $(C_OUT)/static/
	$(CC) $(C_WARN) -I$(C_OUT)/static tests/c/example.c -L$(C_OUT)/static -lrobotstxt \
		$(C_NATIVE_LIBS) -o $(C_OUT)/static/example
	@! ldd $(C_OUT)/static/example | grep -q robotstxt \
		|| { echo "example links a robotstxt shared object" >&2; exit 1; }
	$(C_OUT)/static/example
	@echo "c-static-test: tests/c/example.c linked against librobotstxt.a alone and ran"

# `make install` into a scratch prefix, then build the example with
# pkg-config against the installed shared library and, by the static
# recipe, against the archive; and a CMake project outside the
# repository through find_package(robotstxt CONFIG), both targets.
c-install-test: c-lib c-tools
	@rm -rf $(C_OUT)/prefix
	$(MAKE) --no-print-directory c-install PREFIX=$(abspath $(C_OUT)/prefix) DESTDIR=
	PKG_CONFIG_PATH=$(abspath $(C_OUT)/prefix)/lib/pkgconfig; export PKG_CONFIG_PATH; \
		$(CC) $(C_WARN) $$(pkg-config --cflags robotstxt) tests/c/example.c \
		$$(pkg-config --libs robotstxt) -o $(C_OUT)/example-pkgconfig
	@readelf -d $(C_OUT)/example-pkgconfig | grep -q 'NEEDED.*\[$(C_SONAME)\]' \
		|| { echo "example does not need $(C_SONAME)" >&2; exit 1; }
	LD_LIBRARY_PATH=$(abspath $(C_OUT)/prefix)/lib $(C_OUT)/example-pkgconfig
	PKG_CONFIG_PATH=$(abspath $(C_OUT)/prefix)/lib/pkgconfig; export PKG_CONFIG_PATH; \
		$(CC) $(C_WARN) tests/c/example.c $$(pkg-config --cflags --libs robotstxt-static) \
		-o $(C_OUT)/example-pkgconfig-static
	@! readelf -d $(C_OUT)/example-pkgconfig-static | grep -q 'NEEDED.*robotstxt' \
		|| { echo "example-pkgconfig-static needs a robotstxt shared object" >&2; exit 1; }
	$(C_OUT)/example-pkgconfig-static
	tests/c/cmake-consumer/test.sh $(C_OUT)/prefix $(C_VERSION)
	$(C_OUT)/prefix/bin/robotstxt-check examples/shop/robots.txt NimbuBot /prices/today
	test -f $(C_OUT)/prefix/include/robotstxt.hpp
	@echo "c-install-test: installed; found by pkg-config (robotstxt: $(C_SONAME); robotstxt-static: the archive) and by CMake; each link ran"

# The optional C++ wrapper, header-only, under ASan + UBSan.
cpp-test: c-lib
	@mkdir -p $(C_OUT)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -pedantic -g $(C_SAN) -Iinclude -Ibindings/cpp \
		tests/c/test_cpp.cpp $(C_LIB_A) $(C_NATIVE_LIBS) -o $(C_OUT)/test-cpp
	$(C_OUT)/test-cpp

# --- the robotstxt-check CLI (statically linked: the binary stands alone) ---

cli: build/robotstxt-check

build/robotstxt-check: examples/robotstxt-check.c examples/utf8.h include/robotstxt.h c-lib
	@mkdir -p build
	$(CC) $(C_FLAGS) -O2 examples/robotstxt-check.c $(C_LIB_A) $(C_NATIVE_LIBS) -o $@

cli-test: cli
	sh tests/c/cli_test.sh build/robotstxt-check

# --- examples/polite-crawler.c: cache + pacer + rules against a loopback
# server (tests/c/polite_server.py); the test runs it under ASan + UBSan ---

polite-crawler: build/polite-crawler

build/polite-crawler: examples/polite-crawler.c include/robotstxt.h c-lib
	@mkdir -p build
	$(CC) $(C_FLAGS) -O2 examples/polite-crawler.c $(C_LIB_A) $(C_NATIVE_LIBS) -o $@

polite-crawler-test: c-lib c-tools
	@mkdir -p $(C_OUT)
	$(CC) $(C_FLAGS) $(C_SAN) examples/polite-crawler.c $(C_LIB_A) $(C_NATIVE_LIBS) \
		-o $(C_OUT)/polite-crawler-asan
	ASAN_OPTIONS=detect_leaks=1 PYTHON=$(PYTHON) sh tests/c/polite_test.sh $(C_OUT)/polite-crawler-asan

# --- benchmark: the check workload through the C ABI (benches/c/bench_check.c,
# -O2 against the static library), robotstxt_rules_can_fetch and
# robotstxt_rules_decide, beside the Rust figures of $(BENCH_DIR)/rust.md
# (written by `make bench` before this step) to show what the boundary
# costs per call. Prints Markdown; asserts no time. ---

C_BENCH := $(C_OUT)/bench-check

c-bench: c-lib
	@mkdir -p $(C_OUT)
	$(CC) $(C_FLAGS) -O2 benches/c/bench_check.c $(C_LIB_A) $(C_NATIVE_LIBS) -o $(C_BENCH)
	$(C_BENCH) --rounds $(ROUNDS) --rust $(BENCH_DIR)/rust.md $(if $(BENCH_MD),--out $(BENCH_DIR)/c.md)

# --- install ---

C_PKG := bindings/c/pkgconfig
C_CMAKE := bindings/c/cmake
# A platform's kind of binaries (mk/platforms/table.mk's names; the native
# tree's, with no platform, is ELF).
C_KIND = $(if $(filter windows-%,$(1)),pe,$(if $(filter macos-%,$(1)),macho,elf))
# Per kind: where the shared library lies in the tree; the CMake property
# that says how a program links it (the soname or install name the program
# records, or Windows' import library); a program's suffix.
C_TREE_SHARED_elf := lib/librobotstxt.so.$(C_VERSION)
C_TREE_SHARED_macho := lib/librobotstxt.dylib
C_TREE_SHARED_pe := bin/robotstxt.dll
C_TREE_IMPLIB := lib/librobotstxt.dll.a
C_CMAKE_LINK_elf := IMPORTED_SONAME "$(C_SONAME)"
C_CMAKE_LINK_macho := IMPORTED_SONAME "@rpath/librobotstxt.dylib"
C_CMAKE_LINK_pe := IMPORTED_IMPLIB "$${_robotstxt_prefix}/$(C_TREE_IMPLIB)"
C_TREE_EXE_pe := .exe
# A space, for $(subst): the system libraries as a CMake list (-lgcc_s;...).
C_EMPTY :=
C_TREE_LIBS = $(or $(CROSS_NATIVE_LIBS_$(1)),$(C_NATIVE_LIBS))
C_FILL = sed -e 's|@PREFIX@|$(2)|g' -e 's|@VERSION@|$(C_VERSION)|g' \
	-e 's|@MAJOR@|$(C_MAJOR)|g' -e 's|@MINOR@|$(C_MINOR)|g' -e 's|@ABI@|$(C_ABI)|g' \
	-e 's|@POINTER_BYTES@|8|g' \
	-e 's|@NATIVE_LIBS@|$(call C_TREE_LIBS,$(3))|g' \
	-e 's|@NATIVE_LIBS_LIST@|$(subst $(C_EMPTY) $(C_EMPTY),;,$(strip $(call C_TREE_LIBS,$(3))))|g' \
	-e 's|@SHARED@|$(C_TREE_SHARED_$(call C_KIND,$(3)))|g' \
	-e 's|@SHARED_LINK@|$(C_CMAKE_LINK_$(call C_KIND,$(3)))|g'

# The installed tree under $(1), its pkg-config files saying prefix=$(2):
# what `make install` puts under PREFIX and the release tarball
# (mk/dist.mk) holds. The CMake package finds its prefix itself.
# Documentation goes where each wants it. Another platform's tree, $(3)
# (mk/platforms/c.mk), takes its archive, shared library, CLI and, on
# Windows, import library from C_A_<p>, C_SO_<p>, C_CLI_<p>, C_IMPLIB_<p>,
# its system libraries from CROSS_NATIVE_LIBS_<p>, and lays out the shared
# library as its kind wants: ELF's soname links, macOS's one dylib (found
# through @rpath), Windows' DLL in bin/ beside the programs.
define c_install_tree
	install -d $(1)/bin $(1)/include $(1)/lib/pkgconfig $(1)/lib/cmake/robotstxt
	install -m 644 include/robotstxt.h bindings/cpp/robotstxt.hpp $(1)/include/
	install -m 644 $(or $(C_A_$(3)),$(C_LIB_A)) $(1)/lib/librobotstxt.a
	install -m 755 $(or $(C_SO_$(3)),$(C_LIB_SO)) $(1)/$(C_TREE_SHARED_$(call C_KIND,$(3)))
	$(if $(filter elf,$(call C_KIND,$(3))),ln -sf librobotstxt.so.$(C_VERSION) $(1)/lib/$(C_SONAME))
	$(if $(filter elf,$(call C_KIND,$(3))),ln -sf $(C_SONAME) $(1)/lib/librobotstxt.so)
	$(if $(filter pe,$(call C_KIND,$(3))),install -m 644 $(C_IMPLIB_$(3)) $(1)/$(C_TREE_IMPLIB))
	install -m 755 $(or $(C_CLI_$(3)),build/robotstxt-check) $(1)/bin/robotstxt-check$(C_TREE_EXE_$(call C_KIND,$(3)))
	for pc in robotstxt robotstxt-static; do \
		$(C_FILL) $(C_PKG)/$$pc.pc.in > $(1)/lib/pkgconfig/$$pc.pc; done
	for f in robotstxt-config robotstxt-config-version; do \
		$(C_FILL) $(C_CMAKE)/$$f.cmake.in > $(1)/lib/cmake/robotstxt/$$f.cmake; done
endef

install: c-install

c-install: c-lib cli
	$(call c_install_tree,$(DESTDIR)$(PREFIX),$(PREFIX))
	install -d $(DESTDIR)$(PREFIX)/share/doc/robotstxt
	install -m 644 README.md LICENSE-MIT LICENSE-APACHE $(DESTDIR)$(PREFIX)/share/doc/robotstxt/

# --- demo: the practice shop of behaviour §9, answered by the C CLI ---

# token<TAB>path, one row of the behaviour §9 table per line.
define C_SHOP_ROWS
NimbuBot	/prices/today
NimbuBot	/prices/history
NimbuBot	/guides/size-chart.pdf
NimbuBot	/guides/size-chart.pdf?print=1
NimbuBot	/offers/weekend
NimbuBot	/drafts/new-range
NimbuBot	/account/orders
OtherBot	/account/orders
OtherBot	/products/?sort=price
ArchiveBot	/robots.txt
nimbubot	/%70rices/history
Mozilla/5.0 (compatible; NimbuBot/1.0)	/prices/history
endef
export C_SHOP_ROWS

demo-c: cli
	@echo "== C: build/robotstxt-check --explain examples/shop/robots.txt TOKEN PATH (behaviour §9) =="
	@printf '%s\n' "$$C_SHOP_ROWS" | while IFS='	' read -r token path; do \
		out=$$(build/robotstxt-check --explain examples/shop/robots.txt "$$token" "$$path" 2>&1); \
		printf '[exit %s] %s\n' "$$?" "$$out"; \
	done
	@for token in NimbuBot OtherBot; do \
		printf '%s ' "$$token"; build/robotstxt-check --crawl-delay examples/shop/robots.txt "$$token"; \
	done
	@build/robotstxt-check --sitemaps examples/shop/robots.txt

TEST_STEPS += header-check c-test c-valgrind c-static-test c-install-test cpp-test cli-test \
	polite-crawler-test
DEMO_STEPS += demo-c
