# Documentation: every code block of README.md and docs/*.md builds and
# runs (tools/snippets/snippets.py says how, block by language, and which
# HTML comments give a block its hidden context or mark it compile-only):
# Rust against the engine, C against librobotstxt.a, Go against
# bindings/go, JavaScript against bindings/node (and through tsc
# --strict), Python against the wheel (and through mypy --strict). Blocks
# that fetch get a local site on 127.0.0.1; none reaches the network.

.PHONY: docs-test

DOCS_OUT := build/snippets
# The wheel and the pinned test packages (httpx, mypy, redis), in a venv
# of its own; made again when the requirements change, the wheel
# reinstalled every run.
DOCS_VENV := $(DOCS_OUT)/venv
DOCS_VENV_STAMP := $(DOCS_VENV)/.installed

# (mk/python.mk is read after this file: its names are spelt out here.)
$(DOCS_VENV_STAMP): bindings/python/requirements-test.txt bindings/python/constraints-test.txt
	rm -rf $(DOCS_VENV)
	$(PYTHON) -m venv $(DOCS_VENV)
	$(DOCS_VENV)/bin/pip install $(PY_PIP) -r $(PY_DIR)/requirements-test.txt -c $(PY_DIR)/constraints-test.txt
	@touch $@

docs-test: c-lib go-stage node-build python $(DOCS_VENV_STAMP)
	$(DOCS_VENV)/bin/pip install $(PY_PIP) --no-index --no-deps --force-reinstall $(PY_WHEEL)
	$(PYTHON) tools/snippets/snippets.py --out $(DOCS_OUT) --python $(DOCS_VENV)/bin/python \
		--tsc $(NODE_DIR)/node_modules/.bin/tsc --c-libs "$(C_NATIVE_LIBS)" --cc "$(CC)" \
		--cargo "$(CARGO)" --go "$(GO)" --node "$(NODE)" --npm "$(NPM)"

TEST_STEPS += docs-test
