# Python: the PyO3 extension in bindings/python, built by maturin into one
# abi3 wheel for CPython >= 3.10 (build/python/dist); its pytest suite run
# against that wheel installed in a fresh venv; mypy --strict over the
# examples; the benchmark against Protego, urllib.robotparser,
# texting-robots-py and fastrobots; and the demo. Packages come from the
# package index, pinned by bindings/python/requirements-*.txt (and
# constraints-test.txt for what those pull in).

.PHONY: python python-lint python-test python-bench python-bench-venv demo-python

PYTHON ?= python3
PY_DIR := bindings/python
PY_OUT := build/python
PY_DIST := $(PY_OUT)/dist
PY_EXAMPLES := examples/python
# The build venv: maturin (and the demo's install of the wheel).
PY_VENV := $(PY_OUT)/venv
PY_VENV_STAMP := $(PY_VENV)/.installed
# Made anew by every python-test, so that the test proves the wheel installs.
PY_TEST_VENV := $(PY_OUT)/test-venv
# pytest runs from here, outside bindings/python: the package it imports is
# the installed wheel, never the source tree.
PY_TEST_RUN := $(PY_OUT)/test-run
PY_BENCH_VENV := $(PY_OUT)/bench-venv
PY_BENCH_STAMP := $(PY_BENCH_VENV)/.installed
PY_PIP := --disable-pip-version-check --no-input --quiet
PY_WHEEL = $(firstword $(wildcard $(PY_DIST)/robotstxt_engine-*.whl))

$(PY_VENV_STAMP): $(PY_DIR)/requirements-build.txt
	rm -rf $(PY_VENV)
	$(PYTHON) -m venv $(PY_VENV)
	$(PY_VENV)/bin/pip install $(PY_PIP) -r $(PY_DIR)/requirements-build.txt
	@touch $@

# The wheel, built in release (LTO) from the core crate by path.
# manylinux2014: linked by zig against glibc 2.17's symbols, so that it
# installs on any Linux x86_64 with glibc 2.17 or later (the host's gcc
# would need the host's glibc). maturin finds zig in its venv (ziglang).
PY_TARGET := x86_64-unknown-linux-gnu
PY_COMPAT := manylinux2014

python: $(PY_VENV_STAMP)
	@rm -f $(PY_DIST)/robotstxt_engine-*.whl
	PATH="$(abspath $(PY_VENV))/bin:$$PATH" $(PY_VENV)/bin/maturin build --release --quiet -m $(PY_DIR)/Cargo.toml \
		-i $(PY_VENV)/bin/python --out $(PY_DIST) \
		--target $(PY_TARGET) --zig --compatibility $(PY_COMPAT)
	@ls $(PY_DIST)/robotstxt_engine-*.whl

# The binding crate's own lints (rust-lint covers the root crate).
python-lint:
	$(CARGO) fmt -p robotstxt-python -- --check
	$(CARGO) clippy -p robotstxt-python --all-targets -- -D warnings

# A fresh venv, the pinned test packages, the wheel (from build/python/dist,
# nothing else: --no-index); then pytest over bindings/python/tests (the
# shared vectors included), mypy --strict over the examples and a typed
# usage file against the installed wheel's stubs, and over the package's
# own Python sources.
python-test: python-lint python
	rm -rf $(PY_TEST_VENV) $(PY_TEST_RUN)
	$(PYTHON) -m venv $(PY_TEST_VENV)
	$(PY_TEST_VENV)/bin/pip install $(PY_PIP) -r $(PY_DIR)/requirements-test.txt \
		-c $(PY_DIR)/constraints-test.txt
	$(PY_TEST_VENV)/bin/pip install $(PY_PIP) --no-index --no-deps $(PY_WHEEL)
	@mkdir -p $(PY_TEST_RUN)
	cd $(PY_TEST_RUN) && ROBOTSTXT_REPO=$(CURDIR) ../test-venv/bin/python -m pytest \
		-p no:cacheprovider -q $(CURDIR)/$(PY_DIR)/tests
	cd $(PY_TEST_RUN) && ../test-venv/bin/python -m mypy --strict --cache-dir .mypy_cache \
		$(CURDIR)/$(PY_EXAMPLES) $(CURDIR)/$(PY_DIR)/tests/typed_usage.py
	cd $(PY_TEST_RUN) && ../test-venv/bin/python -m mypy --strict --cache-dir .mypy_cache-src \
		$(CURDIR)/$(PY_DIR)/python/robotstxt
	@echo "python-test: the wheel installed in a fresh venv, pytest and mypy --strict passed"

# The benchmark's venv (fastrobots builds from its sdist: a minute or two).
python-bench-venv: $(PY_BENCH_STAMP)

$(PY_BENCH_STAMP): $(PY_DIR)/requirements-bench.txt
	rm -rf $(PY_BENCH_VENV)
	$(PYTHON) -m venv $(PY_BENCH_VENV)
	$(PY_BENCH_VENV)/bin/pip install $(PY_PIP) -r $(PY_DIR)/requirements-bench.txt
	@touch $@

# Parse throughput and ns per check against Protego, urllib.robotparser,
# texting-robots-py and fastrobots on $(ROBOTSTXT_SHARED)/corpus and bench,
# best of $(ROUNDS) passes; with BENCH_MD (`make bench`) also as Markdown in
# $(BENCH_DIR)/python.md.
python-bench: python $(PY_BENCH_STAMP)
	$(PY_BENCH_VENV)/bin/pip install $(PY_PIP) --no-index --no-deps --force-reinstall $(PY_WHEEL)
	$(if $(BENCH_MD),@mkdir -p $(BENCH_DIR))
	cd $(PY_OUT) && bench-venv/bin/python $(CURDIR)/$(PY_DIR)/bench/bench.py --passes $(ROUNDS) \
		$(if $(BENCH_MD),--markdown $(abspath $(BENCH_DIR))/python.md)

# The practice shop (behaviour §9) through `import robotstxt`.
demo-python: python
	@$(PY_VENV)/bin/pip install $(PY_PIP) --no-index --no-deps --force-reinstall $(PY_WHEEL)
	@cd $(PY_OUT) && venv/bin/python $(CURDIR)/$(PY_EXAMPLES)/shop.py $(CURDIR)/examples/shop/robots.txt

TEST_STEPS += python-test
DEMO_STEPS += demo-python
