# Release artefacts under dist/: the C tarball (dist-c), the abi3 wheel and
# the source distribution (dist-python), the npm package (dist-node, mk/dist-node.mk) and the Go
# module tree (dist-go, mk/dist-go.mk), then dist/MANIFEST. `make dist-test`
# unpacks and uses each as a user would, with no Rust toolchain on PATH.
# Both reuse the builds `make test` made (c-lib, cli, python, node-build).

.PHONY: dist dist-sweep dist-c dist-python dist-test dist-test-c dist-test-python

DIST := dist
DIST_PARTS := dist-c dist-python dist-node dist-go
DIST_TESTS := dist-test-c dist-test-python dist-test-node dist-test-go
DIST_OUT := build/dist
# The native C tarball's platform, in mk/platforms/table.mk's words: this
# machine's architecture, Linux with glibc.
DIST_PLATFORM := linux-$(patsubst x86_64,x64,$(patsubst aarch64,arm64,$(shell uname -m)))-gnu
# Tarball entries get this date (and gzip none), so the same build packs to
# the same bytes.
DIST_EPOCH := $(or $(SOURCE_DATE_EPOCH),315532800)
DIST_TAR = tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(DIST_EPOCH)

# `make dist` starts from an empty dist/; a part made on its own (`make
# dist-c`) leaves the others' output alone. DIST_FRESH is target-specific:
# set only where the parts are reached through dist.
dist: DIST_FRESH := yes
$(DIST_PARTS): | dist-sweep
dist-sweep:
	$(if $(DIST_FRESH),rm -rf $(DIST))

# PATH SIZE SHA256 for every file under dist/ but MANIFEST, sorted by path
# (dist-all writes it again with the other platforms' files).
define dist_manifest
	@mkdir -p $(DIST_OUT)
	cd $(DIST) && find . -path ./MANIFEST -prune -o ! -type d -print | sed 's|^\./||' | LC_ALL=C sort \
		| while IFS= read -r f; do \
			printf '%s %s %s\n' "$$f" "$$(stat -L -c %s "$$f")" "$$(sha256sum < "$$f" | cut -d' ' -f1)"; \
		done > $(CURDIR)/$(DIST_OUT)/MANIFEST
	mv $(DIST_OUT)/MANIFEST $(DIST)/MANIFEST
	@echo "dist: $$(wc -l < $(DIST)/MANIFEST) files listed in $(DIST)/MANIFEST"
endef

dist: $(DIST_PARTS)
	@for part in c python node go; do \
		[ -d $(DIST)/$$part ] || { echo "dist: $(DIST)/$$part is missing" >&2; exit 1; }; \
	done
	$(dist_manifest)

# --- C: headers, both libraries, robotstxt.pc, the CLI, README, licences ---

DIST_C_NAME := robotstxt-$(C_VERSION)-$(DIST_PLATFORM)
DIST_C_TAR := $(DIST)/c/$(DIST_C_NAME).tar.gz
DIST_C_STAGE := $(DIST_OUT)/$(DIST_C_NAME)
DIST_C_SHIPPED := lib/librobotstxt.a:$(C_LIB_A) lib/librobotstxt.so.$(C_VERSION):$(C_LIB_SO) \
	bin/robotstxt-check:build/robotstxt-check

# Shipped stripped. The archive keeps the symbols a linker needs and loses
# its debug info and the LLVM bitcode rustc embeds in the standard
# library's objects for its own LTO (.llvmbc), which no C linker reads.
DIST_C_STRIP_A := --strip-debug --remove-section=.llvmbc --remove-section=.llvmcmd

dist-c: c-lib cli
	rm -rf $(DIST_C_STAGE) $(DIST)/c
	$(call c_install_tree,$(DIST_C_STAGE),$${pcfiledir}/../..)
	install -m 644 README.md LICENSE-MIT LICENSE-APACHE $(DIST_C_STAGE)/
	strip $(DIST_C_STRIP_A) $(DIST_C_STAGE)/lib/librobotstxt.a
	strip $(DIST_C_STAGE)/lib/librobotstxt.so.$(C_VERSION) $(DIST_C_STAGE)/bin/robotstxt-check
	@mkdir -p $(DIST)/c
	$(DIST_TAR) -C $(DIST_OUT) -cf $(DIST_C_STAGE).tar $(DIST_C_NAME)
	gzip -9nf $(DIST_C_STAGE).tar && mv $(DIST_C_STAGE).tar.gz $(DIST_C_TAR)
	@for pair in $(DIST_C_SHIPPED); do \
		printf 'dist-c: %-28s %10s bytes, built %10s\n' "$${pair%%:*}" \
			"$$(stat -c %s $(DIST_C_STAGE)/$${pair%%:*})" "$$(stat -c %s $${pair#*:})"; \
	done
	@echo "dist-c: wrote $(DIST_C_TAR) ($$(stat -c %s $(DIST_C_TAR)) bytes)"

# --- Python: the abi3 wheel of `make python`, and the source distribution ---

dist-python: python
	rm -rf $(DIST)/python && mkdir -p $(DIST)/python
	@case "$(notdir $(PY_WHEEL))" in *-abi3-*.whl) ;; \
		*) echo "dist-python: '$(PY_WHEEL)' is not an abi3 wheel" >&2; exit 1 ;; esac
	cp $(PY_WHEEL) $(DIST)/python/
	$(PY_VENV)/bin/maturin sdist -m $(PY_DIR)/Cargo.toml --out $(DIST)/python

# --- dist-test: each artefact, unpacked outside the tree, used without Rust ---

dist-test-c: dist-c
	tools/dist/without-rust bash tools/dist/test-c.sh $(DIST_C_TAR)

# The wheel without Rust; the source distribution built where Rust is, its
# dependencies' compiled work reused from target/ (the engine and the
# binding compile anew from the unpacked sources).
dist-test-python: dist-python
	tools/dist/without-rust bash tools/dist/test-python.sh $(PYTHON) $(DIST)/python
	CARGO_TARGET_DIR=$(CURDIR)/target bash tools/dist/test-python.sh $(PYTHON) $(DIST)/python --sdist

# Seconds since make started, when dist-test is what it was asked for.
DIST_T0 := $(if $(filter dist-test,$(MAKECMDGOALS)),$(shell date +%s))
# dist has built every part: the tests' own prerequisites are not remade.
DIST_TEST_MAKE = $(MAKE) --no-print-directory \
	$(addprefix -o ,dist dist-sweep $(DIST_PARTS) c-lib cli python node-build)

# Runs all four even when one fails, then the summary: each test's last
# line (its one-line summary) and the time.
dist-test: dist
	@mkdir -p $(DIST_OUT); : > $(DIST_OUT)/dist-test.summary; t1=$$(date +%s); failed=0; \
	for t in $(DIST_TESTS); do \
		echo "== $$t =="; \
		{ $(DIST_TEST_MAKE) $$t 2>&1; echo "rc=$$?"; } | tee $(DIST_OUT)/$$t.log | grep -v '^rc=[0-9]*$$'; \
		rc=$$(sed -n 's/^rc=\([0-9]*\)$$/\1/p' $(DIST_OUT)/$$t.log); \
		last=$$(grep -v -e '^rc=[0-9]*$$' -e '^make' $(DIST_OUT)/$$t.log | tail -n 1); \
		if [ "$$rc" = 0 ]; then state=ok; else state=FAILED; failed=$$((failed + 1)); fi; \
		printf '  %-17s %-6s %s\n' "$$t" "$$state" "$$last" >> $(DIST_OUT)/dist-test.summary; \
	done; \
	t2=$$(date +%s); \
	echo "== dist-test summary =="; cat $(DIST_OUT)/dist-test.summary; \
	total=$(if $(DIST_T0),$$((t2 - $(DIST_T0)))); \
	printf 'dist-test: %d of %d failed; the tests took %ds%s\n' $$failed $(words $(DIST_TESTS)) \
		$$((t2 - t1)) "$${total:+, $${total}s with the builds}"; \
	[ $$failed = 0 ]

TEST_STEPS += dist-test
