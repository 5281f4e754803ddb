# robotstxt: every step has a name here; cargo, npm and go do the work.
# Each language's steps live in mk/<lang>.mk.

CARGO ?= cargo
SHARED ?= ../shared
export ROBOTSTXT_SHARED := $(abspath $(SHARED))

.PHONY: all build test demo bench install clean rust-build rust-test rust-lint

all: build

build: rust-build

rust-build:
	$(CARGO) build --release

# Formatting, lints and docs with every public item documented.
rust-lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps

rust-test:
	$(CARGO) test --release

include $(wildcard mk/*.mk)

# TEST_STEPS and DEMO_STEPS grow as mk/*.mk add their languages.
test: rust-lint rust-test $(TEST_STEPS)

demo: $(DEMO_STEPS)

clean:
	$(CARGO) clean
	rm -rf build
