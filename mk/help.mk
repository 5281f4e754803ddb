# `make help`: the commands a user or contributor runs, one line each.
# help-check (in `make test`) looks up every target named here in make's
# database, so the list cannot name one that is gone.

.PHONY: help help-check

# target<TAB>what it does; a line without a tab is a heading.
define HELP_TEXT
First steps
demo	run the practice shop (examples/shop) through C, Node, Go and Python
test	everything CI runs: lints, every language's tests, dist-test, dist-all-test (~28 min on 2 cores)
help	this list
Build
build	the engine and the robotstxt-check CLI (build/robotstxt-check)
c-lib	librobotstxt.a and librobotstxt.so (target/release), from bindings/c
header	regenerate include/robotstxt.h from bindings/c/src with cbindgen
node-build	the Node addon (bindings/node)
python	the abi3 wheel (build/python/dist)
go-stage	stage the static library for the Go package (bindings/go/lib)
install	install the C library, header, pkg-config and CMake files, CLI (PREFIX=/usr/local)
Test one part
rust-test	the engine's and the C ABI crate's Rust tests
rust-lint	rustfmt, clippy, docs, and the engine and C crates packaged as crates.io takes them
c-test	the C suite under ASan and UBSan, linked to the static library
c-install-test	make install into a scratch prefix; pkg-config and CMake consumers
node-test	the Node binding's tests, lints and examples
go-test	the Go package's tests (Redis started for the fleet)
python-test	the wheel in a fresh venv: pytest and mypy --strict
docs-test	every code block of README.md and docs/ built and run
fleet-test	Node, Go and Python workers sharing one Redis
Release
dist	release artefacts under dist/ (C tarball, wheel and sdist, npm packages, Go module); TARGET=<platform> adds that platform's
dist-test	use each artefact as a user would, without Rust on PATH
dist-all	dist, plus every other platform's C tarball, npm package and wheel, the WebAssembly packages and Pyodide wheel
dist-all-test	each platform's artefacts installed as a user would: run natively, under qemu-user or wine, or inspected
Other platforms
cross-tools	rustup targets and the cross tools from apt (mingw-w64, aarch64 gcc, qemu-user, wine)
wine-prefix	a private wine prefix for running the Windows builds (target/wine)
cross-lib-windows-x64	the C ABI libraries for one platform (each platform has cross-lib-<platform>)
dist-test-c-windows-x64	one platform's C tarball tested (dist-c-<platform>, dist-test-c-<platform>)
dist-test-go-linux-arm64-gnu	the Go module's shipped tests for linux/arm64 under qemu-user (also -windows-x64, -macos-*)
dist-node-all	the Node addon's npm packages for the other native platforms (dist/node)
dist-test-node-all	each platform's npm package installed as a user; the suite on arm64 (qemu) and Windows (wine)
node-wasm-test	the Node suite against the WebAssembly build (ROBOTSTXT_BACKEND=wasm)
node-wasm-browser-test	the shared vectors in headless Chromium, page not cross-origin isolated
dist-test-node-wasm	the main and WebAssembly npm tarballs installed as a user; suite and Chromium against them
wasm-core	the core as one WebAssembly module for non-JS hosts (build/wasm/robotstxt.wasm; imports nothing)
go-test-nocgo	the Go suite with CGO_ENABLED=0 (the core as WebAssembly through wazero), also under -race
dist-test-pyodide	the Pyodide wheel's vectors and API tests inside Pyodide from npm (no CDN)
pyodide-bench	a check's cost in Pyodide beside the native wheel's
dist-test-python-linux-arm64-gnu	the arm64 Linux wheel, installed by pip in Debian's arm64 Python under qemu-user: pytest
workflow-lint	actionlint (and shellcheck) over .github/workflows
Measure
bench	every benchmark, side by side with the peers; rewrites BENCHMARKS.md (ROUNDS=5)
fuzz-smoke	each fuzz target for FUZZ_SECONDS (60); needs nightly
miri	the unsafe modules' unit tests under Miri; needs nightly
clean	remove target/ and build/
endef
export HELP_TEXT

help:
	@printf '%s\n' "$$HELP_TEXT" | awk -F'\t' 'NF == 1 { printf "\n%s:\n", $$1; next } \
		{ printf "  make %-16s %s\n", $$1, $$2 }'
	@echo
	@echo "Prerequisites and the layout: README.md, CONTRIBUTING.md."

# Every target the help names has a rule: make's database (-p), read with
# nothing built (the goal `:` has no rule, so no recipe runs).
help-check:
	@$(MAKE) --no-print-directory -pRrq -f $(firstword $(MAKEFILE_LIST)) : 2>/dev/null \
		| sed -n 's/^\([a-zA-Z0-9][a-zA-Z0-9_.-]*\):.*/\1/p' | sort -u > build/make-targets
	@printf '%s\n' "$$HELP_TEXT" | awk -F'\t' 'NF == 2 { print $$1 }' | while read -r target; do \
		grep -qx "$$target" build/make-targets \
			|| { echo "help-check: make help names '$$target', which make does not know" >&2; exit 1; }; \
	done
	@echo "help-check: the $$(printf '%s\n' "$$HELP_TEXT" | grep -c '	') targets make help names exist"

TEST_STEPS += help-check
