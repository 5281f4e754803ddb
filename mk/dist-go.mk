# Go as a user installs it. dist-go writes dist/go, the module tree a
# release tags and pushes to github.com/robotstxt-engine/robotstxt-go: the
# sources of the package and of its sub-package fleet, with the tests that
# need neither the network nor the repository, include/robotstxt.h,
# librobotstxt.a stripped of debug information and bitcode for each
# platform cgo.go names (this one's from c-lib, the others' from
# mk/platforms/go.mk, which also tests them), a go.mod that requires only
# go-redis (for package fleet alone) and what it needs, README.md (the Go
# section of README.md) and the licences. dist-test-go then uses it from a
# temporary folder, without Rust (tools/dist/test-go.sh).

.PHONY: dist-go dist-test-go

DIST_GO := dist/go
# The repository the module is built from, for the links in its README.
DIST_GO_REPO := https://github.com/robotstxt-engine/robotstxt
# The tests that ship: those that need no module the packages do not, no
# network but loopback (httptest), no Redis server and none of the
# repository's files (tests/vectors, the corpus, ../shared); the benchmark,
# the vectors, the corpus-based ones and the fleet's, which start Redis,
# stay here, and so does their runner, internal/vectortest. fleet's example
# is compiled, not run.
DIST_GO_TESTS := agent_test.go api_test.go cache_test.go concurrency_test.go deps_test.go \
	doc_test.go example_test.go export_test.go memory_test.go pacer_test.go fleet/example_test.go \
	core_test.go core_cgo_test.go export_cgo_test.go export_wazero_test.go internal/wasmcore/wasmcore_test.go
# Paths under $(GO_DIR); deferred, as GO_PLATFORM (mk/go.mk) is.
DIST_GO_FILES = $(patsubst $(GO_DIR)/%,%,$(filter-out %_test.go $(GO_DIR)/internal/vectortest/%, \
		$(wildcard $(GO_DIR)/*.go $(GO_DIR)/fleet/*.go $(GO_DIR)/internal/*/*.go))) \
	$(DIST_GO_TESTS) shim.h include/include.go internal/wasmcore/robotstxt.wasm $(foreach l,$(DIST_GO_LIBS),lib/$(call dist_go_dir,$(l))/lib.go)
# The libraries, as <goos>_<goarch>:<archive> (DIST_GO_CROSS_LIBS: mk/platforms/go.mk).
DIST_GO_LIBS = $(GO_PLATFORM):$(C_LIB_A) $(DIST_GO_CROSS_LIBS)
dist_go_dir = $(firstword $(subst :, ,$(1)))
# Most of an archive is LLVM bitcode that rustc embeds for cross-crate LTO
# (.llvmbc in ELF and COFF, __LLVM,__bitcode in Mach-O); no C linker reads
# it, so it goes too (29 MB -> 7 MB). A name a format lacks is ignored.
DIST_GO_STRIP := --strip-debug --remove-section=.llvmbc --remove-section=.llvmcmd \
	--remove-section=__LLVM,__bitcode --remove-section=__LLVM,__cmdline
# The sections that must be gone afterwards, as llvm-objdump -h names them
# (Mach-O's debug information is __DWARF's __debug_* and __apple_*).
DIST_GO_STRIPPED_RE := ^(\.rela)?\.debug_|^\.llvm(bc|cmd)$$|^__(bitcode|cmdline|debug_.*|apple_.*)$$


dist-go: c-lib llvm-tools go-wasm-stage
	@for l in $(DIST_GO_LIBS); do grep -q "lib/$${l%%:*}/librobotstxt.a" $(GO_DIR)/cgo.go || { echo "dist-go:" \
		"$(GO_DIR)/cgo.go has no cgo line for lib/$${l%%:*}: add one first" >&2; exit 1; }; done
	@for f in LICENSE-MIT LICENSE-APACHE; do test -f $$f \
		|| { echo "dist-go: $$f is missing at the repository root" >&2; exit 1; }; done
	rm -rf $(DIST_GO) && mkdir -p $(DIST_GO)/include
	cd $(GO_DIR) && cp --parents $(DIST_GO_FILES) $(abspath $(DIST_GO))/
	cp include/robotstxt.h $(DIST_GO)/include/
	@bin=$(LLVM_BIN); for l in $(DIST_GO_LIBS); do \
		out=$(DIST_GO)/lib/$${l%%:*}/librobotstxt.a; \
		echo "llvm-objcopy $(DIST_GO_STRIP) $${l#*:} $$out"; \
		$$bin/llvm-objcopy $(DIST_GO_STRIP) $${l#*:} $$out || exit 1; \
		left=$$($$bin/llvm-objdump -h $$out | awk '{ print $$2 }' | grep -E '$(DIST_GO_STRIPPED_RE)' | sort -u); \
		[ -z "$$left" ] || { echo "dist-go: $$out still has:" >&2; echo "$$left" >&2; exit 1; }; \
	done
	printf 'module github.com/robotstxt-engine/robotstxt-go\n\ngo %s\n' \
		"$$(sed -n 's/^go //p' $(GO_DIR)/go.mod)" > $(DIST_GO)/go.mod
	@# Package fleet needs go-redis, at the binding's version; tidy adds
	@# what it needs in turn.
	cd $(DIST_GO) && $(GO) mod edit \
		-require=github.com/redis/go-redis/v9@$$(sed -n 's|^\s*github.com/redis/go-redis/v9 ||p' $(abspath $(GO_DIR))/go.mod) \
		&& GOFLAGS=-mod=mod $(GO) mod tidy
	cp LICENSE-MIT LICENSE-APACHE $(DIST_GO)/
	@{ printf '# robotstxt for Go\n\nThe Go binding of robotstxt, a robots.txt engine, built by `make dist-go`\n'; \
		printf 'from [the robotstxt repository](%s): the make steps and paths below are its own.\n' \
			"$(DIST_GO_REPO)"; \
		sed -n '/^## Go$$/,/^## /p' README.md | sed '1d;$$d' \
			| sed -E 's|^### |## |; s|\]\(([^):#][^):]*)\)|]($(DIST_GO_REPO)/blob/HEAD/\1)|g'; \
	} > $(DIST_GO)/README.md
	@for l in $(DIST_GO_LIBS); do \
		printf 'dist-go: lib/%-30s %9s bytes stripped (%9s before)\n' "$${l%%:*}/librobotstxt.a" \
			"$$(stat -c %s $(DIST_GO)/lib/$${l%%:*}/librobotstxt.a)" "$$(stat -c %s $${l#*:})"; \
	done
	@echo "dist-go: wrote $(DIST_GO), $$(du -sb $(DIST_GO) | cut -f1) bytes in all"

dist-test-go: dist-go
	GO=$(GO) tools/dist/test-go.sh $(DIST_GO)
