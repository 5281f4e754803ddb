# `make help`: the commands a user or contributor runs, one line each.
# help-check (in `make test`) looks up every target named here in make's
# database, so the list cannot name one that is gone.

.PHONY: help help-check

# target<TAB>what it does; a line without a tab is a heading.
define HELP_TEXT
First steps
demo	run the practice shop (examples/shop) through C, Node, Go and Python
test	everything CI runs: lints, every language's tests, dist-test, dist-all-test (~14 min on 2 cores)
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
rust-lint	rustfmt, clippy, docs, and the engine packaged as crates.io takes it
c-test	the C suite under ASan and UBSan, linked to the static library
c-install-test	make install into a scratch prefix; pkg-config and CMake consumers
node-test	the Node binding's tests, lints and examples
go-test	the Go package's tests (Redis started for the fleet)
python-test	the wheel in a fresh venv: pytest and mypy --strict
docs-test	every code block of README.md and docs/ built and run
fleet-test	Node, Go and Python workers sharing one Redis
Release
dist	release artefacts under dist/ (C tarball, wheel and sdist, npm package, Go module)
dist-test	use each artefact as a user would, without Rust on PATH
dist-all	dist, plus the other platforms' wheels and the musl C tarballs
dist-all-test	check each platform's artefacts as far as this machine can
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
