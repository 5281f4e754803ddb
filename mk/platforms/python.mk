# Python: one abi3 wheel per platform (maturin, zig as the linker but on
# Windows), and what each is, read from its files; the arm64 Linux wheel
# also installed and its suite run here, in Debian's arm64 CPython under
# qemu-user.

.PHONY: dist-python-all dist-test-python-all python-arm64 dist-test-python-linux-arm64-gnu

# One wheel per platform into dist/python, beside dist-python's native wheel
# and source distribution (`make dist-python-<platform>`). maturin builds
# each target in its own folder of target/, and finds zig in its venv.
PY_CROSS_OUT = $(PY_OUT)/cross
define wheel_for
dist-python-$(1): dist-python cross-tools
	@echo "== wheel for $(1): $(TRIPLE_$(1)) $(WHEEL_COMPAT_$(1))$(MACOS_TARGET_$(1)) =="
	rm -rf $(PY_CROSS_OUT)/$(1)
	PATH="$(abspath $(PY_VENV))/bin:$$$$PATH" \
		$(if $(MACOS_TARGET_$(1)),MACOSX_DEPLOYMENT_TARGET=$(MACOS_TARGET_$(1))) \
		$(PY_VENV)/bin/maturin build --release --quiet -m $(PY_DIR)/Cargo.toml \
		-i $(PY_VENV)/bin/python --out $(PY_CROSS_OUT)/$(1) --target $(TRIPLE_$(1)) \
		$(if $(NO_ZIG_$(1)),,--zig) $(if $(WHEEL_COMPAT_$(1)),--compatibility $(WHEEL_COMPAT_$(1)))
	cp $(PY_CROSS_OUT)/$(1)/*.whl $(DIST)/python/
.PHONY: dist-python-$(1)
endef
$(foreach p,$(CROSS_PLATFORMS),$(eval $(call wheel_for,$(p))))

dist-python-all: $(addprefix dist-python-,$(CROSS_PLATFORMS))
	@ls $(DIST)/python
$(foreach p,$(CROSS_PLATFORMS),$(eval dist-platform-$(p): dist-python-$(p)))

# --- arm64 Linux: Debian 12's arm64 CPython 3.11, unpacked under
# build/python/arm64/root from Debian's archive with a private apt state
# (tools/dist/debian-arm64-python.sh: nothing installed system-wide), run
# by qemu-user. A venv made by it holds the pinned test packages, installed
# by its own pip (Debian's pip wheel) from the package index, aarch64 wheels
# only; both are made once and again when their inputs change ---

PY_ARM64 := $(PY_OUT)/arm64
PY_ARM64_ROOT := $(PY_ARM64)/root
PY_ARM64_VENV := $(PY_ARM64)/venv
PY_ARM64_VENV_STAMP := $(PY_ARM64_VENV)/.installed
PY_ARM64_RUN = qemu-aarch64-static -L $(abspath $(PY_ARM64_ROOT))
DEBIAN_KEYRING := /usr/share/keyrings/debian-archive-keyring.gpg

$(PY_ARM64)/.root: tools/dist/debian-arm64-python.sh | cross-tools
	@[ -f $(DEBIAN_KEYRING) ] || { apt-get update && apt-get install -y --no-install-recommends debian-archive-keyring; }
	tools/dist/debian-arm64-python.sh $(PY_ARM64)
	@touch $@

# ensurepip and `venv` with pip run pip in a child Python, which qemu-user
# cannot start (no binfmt_misc): pip runs from its wheel instead. The
# packages are not compiled to bytecode: under qemu that doubles the time,
# and the suite imports a few of them.
$(PY_ARM64_VENV_STAMP): $(PY_ARM64)/.root $(PY_DIR)/requirements-test.txt $(PY_DIR)/constraints-test.txt
	rm -rf $(PY_ARM64_VENV)
	$(PY_ARM64_RUN) $(PY_ARM64_ROOT)/usr/bin/python3.11 -m venv --without-pip $(abspath $(PY_ARM64_VENV))
	set -- $(PY_ARM64_ROOT)/usr/share/python-wheels/pip-*.whl; \
		$(PY_ARM64_RUN) $(PY_ARM64_VENV)/bin/python "$$1/pip" install $(PY_PIP) --no-index "$$1"
	@echo "python-arm64: the test packages, by pip under qemu (a minute or two)"
	$(PY_ARM64_RUN) $(PY_ARM64_VENV)/bin/python -m pip install $(PY_PIP) --no-compile --only-binary=:all: \
		-r $(PY_DIR)/requirements-test.txt -c $(PY_DIR)/constraints-test.txt
	@touch $@

python-arm64: $(PY_ARM64_VENV_STAMP)

# The wheel installed into that venv by its pip, from dist/python alone,
# then the shop example and the pytest suite, without Rust on PATH; the
# tests that start a child Python are skipped, saying why (spawn,
# bindings/python/tests/conftest.py). The fleet tests' Redis is the host's.
dist-test-python-linux-arm64-gnu: dist-python-linux-arm64-gnu $(PY_ARM64_VENV_STAMP) $(REDIS_SERVER)
	tools/dist/without-rust bash tools/dist/test-python-arm64.sh $(PY_ARM64_ROOT) $(PY_ARM64_VENV) $(DIST)/python

# What each wheel is, read from its files: tags, machine, libc, symbol
# versions, minimum macOS (tools/dist/inspect-wheels.py).
dist-test-python-all: dist-python-all dist-test-python-linux-arm64-gnu
	$(PYTHON) tools/dist/inspect-wheels.py $(DIST)/python

dist-all: dist-python-all
dist-all-test: dist-test-python-all
