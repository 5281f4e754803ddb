# robotstxt: every step has a name here; cargo, npm and go do the work.
# Each language's steps live in mk/<lang>.mk.

CARGO ?= cargo
SHARED ?= ../shared
export ROBOTSTXT_SHARED := $(abspath $(SHARED))

.PHONY: all build test demo bench install clean rust-build rust-test rust-lint rust-bench \
	bench-build miri

# Benchmarks are not tests: they print figures and assert no time, and
# `make test` runs none of them. ROUNDS sets the rounds (passes, -count) of
# each (`make bench ROUNDS=3`); with BENCH_MD=1 each *-bench step also writes
# its Markdown section into BENCH_DIR, as `make bench` does.
ROUNDS ?= 5
BENCH_DIR := build/bench
BENCH_MD ?=

all: build

build: rust-build

rust-build:
	$(CARGO) build --release

# Formatting, lints and docs with every public item documented; and the
# engine and the C ABI crate packaged as crates.io would take them (their
# own files only, each built alone from its package; cargo resolves the C
# crate's pin on the engine against the engine's package).
# cargo package verifies robotstxt-c against the engine it unpacked for
# an earlier `cargo package` of the same version, if one is there: those
# copies go first, so that this tree's engine is the one verified.
rust-lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) clippy -p robotstxt-c --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps
	rm -rf "$${CARGO_HOME:-$$HOME/.cargo}"/registry/src/*/robotstxt-engine-*
	$(CARGO) package -p robotstxt-engine -p robotstxt-c --allow-dirty --quiet

# The fleet tests start their own Redis servers (mk/redis.mk). The
# linear-work test counts steps, so it needs the work-count feature.
rust-test:
	$(CARGO) test --release
	$(CARGO) test --release -p robotstxt-c
	$(CARGO) test --release --features work-count --test linear_work

# The unit tests of the modules with unsafe code that Miri can run, under
# Miri, which stops at undefined behaviour (a misaligned or out-of-bounds
# read, a read of uninitialised bytes). Not part of `make test`: it takes
# minutes and needs the nightly toolchain's miri component (`rustup
# +nightly component add miri`). (scan's test reads /proc/cpuinfo, which
# Miri's isolation refuses.)
MIRI_TESTS := packed:: append:: index::
miri:
	$(CARGO) +nightly miri test --lib -- $(MIRI_TESTS)
	$(CARGO) +nightly miri test -p robotstxt-c --lib

# The side-by-side Rust harness, benches/compare.rs (RUST_BENCH_EXE runs a
# harness built beforehand instead, as `make bench` does), then what the
# cache and the pacer cost as they fill, benches/crawl_state.rs; and what
# usage preferences cost, benches/preferences.rs.
RUST_BENCH_EXE ?=
rust-bench:
	$(if $(BENCH_MD),@mkdir -p $(BENCH_DIR))
	$(or $(RUST_BENCH_EXE),$(CARGO) bench --bench compare --) --rounds $(ROUNDS) \
		$(if $(BENCH_MD),--out $(abspath $(BENCH_DIR))/rust.md)
	$(CARGO) bench --bench crawl_state -- --rounds $(ROUNDS) \
		$(if $(BENCH_MD),--out $(abspath $(BENCH_DIR))/crawl.md)
	$(CARGO) bench --bench preferences -- --rounds $(ROUNDS) \
		$(if $(BENCH_MD),--out $(abspath $(BENCH_DIR))/preferences.md)
	$(CARGO) bench --bench hostile -- --rounds $(ROUNDS) \
		$(if $(BENCH_MD),--out $(abspath $(BENCH_DIR))/hostile.md)

include $(wildcard mk/*.mk)
# The other platforms (mk/platforms/): the table and the libraries first,
# then each language's part.
PLATFORM_BASE_MK := mk/platforms/table.mk mk/platforms/lib.mk
include $(PLATFORM_BASE_MK) $(filter-out $(PLATFORM_BASE_MK),$(wildcard mk/platforms/*.mk))

# TEST_STEPS and DEMO_STEPS grow as mk/*.mk add their languages.
test: rust-lint rust-test $(TEST_STEPS)

demo: $(DEMO_STEPS)

# `make bench`: Rust, C, Node, Go and Python in turn (rust-bench, then
# c-bench, node-bench, go-bench and python-bench from mk/*.mk), each writing its Markdown section
# into $(BENCH_DIR); then BENCHMARKS.md: a header saying on what machine,
# when and how busy it was, and the four sections.
BENCH_STEPS := rust crawl preferences hostile c node go python pyodide fleet

# What the steps run, built back to back first, so that all four measure
# the same tree: the steps then skip c-lib and node-build (-o) and run a
# copy of the Rust harness. The checksums tell whether the libraries were
# rebuilt under the run all the same (someone building in the same tree),
# and during which step.
bench-build: c-lib node-build python python-bench-venv
	@mkdir -p $(BENCH_DIR)
	exe=$$($(CARGO) bench --bench compare --no-run --message-format=json-render-diagnostics \
		| sed -n 's/.*"executable":"\([^"]*\)".*/\1/p'); \
		test -n "$$exe" && cp "$$exe" $(BENCH_DIR)/compare
	sha256sum $(C_LIB_A) $(NODE_DIR)/*.node > $(BENCH_DIR)/built.sha256
BENCH_STEP = $(MAKE) --no-print-directory -o c-lib -o node-build -o python BENCH_MD=1

# Appends one line to $(BENCH_DIR)/samples: the step, the wall clock (s), the
# busy CPU ticks of the whole machine (/proc/stat: user, nice, system, irq,
# softirq, steal), the CPU ticks of this make's finished children, the
# 1-minute load average. The difference tells how much other work ran.
# Then, once bench-build has run, appends the step to $(BENCH_DIR)/rebuilt
# if the libraries no longer match their checksums.
bench_sample = echo $(1) $$(date +%s.%N) \
	$$(awk '/^cpu /{ print $$2 + $$3 + $$4 + $$7 + $$8 + $$9 }' /proc/stat) \
	$$(awk '{ print $$16 + $$17 }' /proc/$$PPID/stat) $$(cut -d' ' -f1 /proc/loadavg) \
	>> $(BENCH_DIR)/samples; \
	test ! -e $(BENCH_DIR)/built.sha256 || sha256sum --quiet -c $(BENCH_DIR)/built.sha256 \
	> /dev/null 2>&1 || echo $(1) >> $(BENCH_DIR)/rebuilt

# The header of BENCHMARKS.md, from the samples.
define BENCH_HEADER_AWK
BEGIN { name["build"] = "builds"; name["rust"] = "Rust"; name["c"] = "C"; name["node"] = "Node"; name["go"] = "Go"; name["python"] = "Python"; name["pyodide"] = "Pyodide"; name["fleet"] = "fleet" }
function dur(s) { return s >= 60 ? sprintf("%dm%02ds", s / 60, s % 60) : sprintf("%ds", s) }
function others(db, dto, dw) { x = (db - dto) / tck / dw; return x < 0 ? 0 : x }
NR == 1 { w0 = $$2; b0 = $$3; o0 = $$4; load0 = $$5; pw = $$2; pb = $$3; po = $$4; next }
{
	steps = steps sep sprintf("%s %s (others %.1f)", name[$$1], dur($$2 - pw), others($$3 - pb, $$4 - po, $$2 - pw))
	sep = ", "; pw = $$2; pb = $$3; po = $$4
}
END {
	busy = others(pb - b0, po - o0, pw - w0)
	printf "# Benchmarks\n\n"
	printf "robotstxt side by side with the libraries a user would otherwise pick: in Rust, through the C ABI, "
	printf "and through the Node, Go and Python bindings, on the shared workload (`../shared/corpus`, `../shared/bench`). "
	printf "Generated by `make bench`; do not edit by hand. Benchmarks are not tests: nothing here is asserted.\n\n"
	printf "- Machine: %s cores (`nproc`), %s (`lscpu`), %s\n", nproc, model, kernel
	printf "- Date: %s\n", date
	printf "- Command: `make bench` (ROUNDS=%s), %s in all: %s\n", rounds, dur(pw - w0), steps
	printf "- Other work on the machine: %.1f of the %s cores on average while it ran (per step in parentheses; ", busy, nproc
	printf "busy CPU time from /proc/stat less this run's own); 1-minute load average %s at the start\n\n", load0
	if (busy >= 0.25)
		printf "**The machine was busy with other work during this run: the figures are noisy.** Ratios within one table come from the same round (Rust, C) or the same pass (Node) and hold better than absolute times (Go runs one library after the other: its ratios are the noisiest); figures from different sections ran minutes apart and compare only roughly.\n"
	else
		printf "The machine was otherwise quiet during this run.\n"
	if (rebuilt != "")
		printf "\n**Other work in this tree rebuilt the libraries during the %s step: from that step on, the figures may come from newer code than those before it.**\n", name[rebuilt]
}
endef
export BENCH_HEADER_AWK

bench:
	@rm -rf $(BENCH_DIR) && mkdir -p $(BENCH_DIR)
	@$(call bench_sample,start)
	$(MAKE) --no-print-directory bench-build
	@$(call bench_sample,build)
	$(BENCH_STEP) rust-bench RUST_BENCH_EXE=$(BENCH_DIR)/compare
	@$(call bench_sample,rust)
	$(BENCH_STEP) c-bench
	@$(call bench_sample,c)
	$(BENCH_STEP) node-bench
	@$(call bench_sample,node)
	$(BENCH_STEP) go-bench GO_BENCH_COUNT=$(ROUNDS)
	@$(call bench_sample,go)
	$(BENCH_STEP) python-bench
	@$(call bench_sample,python)
	$(BENCH_STEP) pyodide-bench
	@$(call bench_sample,pyodide)
	$(BENCH_STEP) fleet-bench
	@$(call bench_sample,fleet)
	@awk -v tck="$$(getconf CLK_TCK)" -v nproc="$$(nproc)" -v rounds="$(ROUNDS)" \
		-v rebuilt="$$(head -n 1 $(BENCH_DIR)/rebuilt 2>/dev/null)" \
		-v model="$$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)" \
		-v kernel="$$(uname -sr)" -v date="$$(date -u '+%Y-%m-%d %H:%M UTC')" \
		"$$BENCH_HEADER_AWK" \
		$(BENCH_DIR)/samples > $(BENCH_DIR)/header.md
	awk 'FNR == 1 && NR > 1 { print "" } { print }' $(BENCH_DIR)/header.md \
		$(foreach s,$(BENCH_STEPS),$(BENCH_DIR)/$(s).md) > BENCHMARKS.md
	@echo "bench: wrote BENCHMARKS.md"

clean:
	$(CARGO) clean
	rm -rf build
