# Python: one abi3 wheel per platform (maturin, zig as the linker but on
# Windows), and what each is, read from its files.

.PHONY: dist-python-all dist-test-python-all

# One wheel per platform into dist/python, beside dist-python's native wheel
# and source distribution. maturin builds each target in its own folder
# of target/, and finds zig in its venv.
PY_CROSS_OUT = $(PY_OUT)/cross
define wheel_for
	@echo "== wheel for $(1): $(TRIPLE_$(1)) $(WHEEL_COMPAT_$(1))$(MACOS_TARGET_$(1)) =="
	PATH="$(abspath $(PY_VENV))/bin:$$PATH" \
		$(if $(MACOS_TARGET_$(1)),MACOSX_DEPLOYMENT_TARGET=$(MACOS_TARGET_$(1))) \
		$(PY_VENV)/bin/maturin build --release --quiet -m $(PY_DIR)/Cargo.toml \
		-i $(PY_VENV)/bin/python --out $(PY_CROSS_OUT)/$(1) --target $(TRIPLE_$(1)) \
		$(if $(NO_ZIG_$(1)),,--zig) $(if $(WHEEL_COMPAT_$(1)),--compatibility $(WHEEL_COMPAT_$(1)))
	cp $(PY_CROSS_OUT)/$(1)/*.whl $(DIST)/python/

endef

dist-python-all: dist-python cross-tools
	rm -rf $(PY_CROSS_OUT)
	$(foreach p,$(CROSS_PLATFORMS),$(call wheel_for,$(p)))
	@ls $(DIST)/python

# What each wheel is, read from its files: tags, machine, libc, symbol
# versions, minimum macOS (tools/dist/inspect-wheels.py).
dist-test-python-all: dist-python-all
	$(PYTHON) tools/dist/inspect-wheels.py $(DIST)/python

dist-all: dist-python-all
dist-all-test: dist-test-python-all
