# Fuzzing (fuzz/, cargo-fuzz + libFuzzer, ASan, debug assertions on):
# the targets parse, matching, cache and ffi; their seed corpora; a short
# run of each (`make fuzz-smoke`); and a long run of one
# (`make fuzz FUZZ_TARGET=parse FUZZ_SECONDS=3600`). Not part of
# `make test`: SECURITY.md gives the figures of the long runs. `make
# worst-case` prints the measured cost of the worst checks.
#
# Needs the nightly toolchain (`cargo +nightly`); cargo-fuzz is installed
# under build/tools by `cargo install` when missing.

# fuzz-smoke-<target> is not .PHONY: make looks up no pattern rule for those.
.PHONY: fuzz-tools fuzz-seeds fuzz-build fuzz-smoke fuzz

PYTHON ?= python3
FUZZ_TARGETS := parse matching cache ffi linear
FUZZ_SECONDS ?= 60
FUZZ_TARGET ?= parse
CARGO_FUZZ_VERSION := 0.13.2
FUZZ_TOOLS := build/tools/cargo-fuzz-$(CARGO_FUZZ_VERSION)
CARGO_FUZZ := $(FUZZ_TOOLS)/bin/cargo-fuzz
# -O: optimised; -a: debug assertions (integer overflow is a crash too).
FUZZ_BUILD_FLAGS := -O -a
FUZZ_CORPUS := fuzz/corpus
# Inputs larger than this are cut: big bodies cost time, not coverage
# (the parse target pads one input in 32 past the 500 KiB limit itself).
FUZZ_MAX_LEN_parse := 8192
FUZZ_MAX_LEN_matching := 4096
FUZZ_MAX_LEN_cache := 4096
FUZZ_MAX_LEN_ffi := 4096
FUZZ_MAX_LEN_linear := 4096
# -timeout: an input that takes 10 s is a hang, and a crash.
FUZZ_RUN = PATH="$(abspath $(FUZZ_TOOLS))/bin:$$PATH" $(CARGO) +nightly fuzz run $(FUZZ_BUILD_FLAGS) \
	$(1) $(FUZZ_CORPUS)/$(1) -- -max_total_time=$(2) -max_len=$(FUZZ_MAX_LEN_$(1)) -timeout=10 \
	-print_final_stats=1
FUZZ_LOGS := build/fuzz
# What a run did: executions, speed, and the last coverage line (cov: edges,
# ft: features, corp: corpus).
FUZZ_SUMMARY = grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' $(1); \
	grep -E '^\#[0-9]+[[:space:]].*cov: ' $(1) | tail -n 1

$(CARGO_FUZZ):
	@$(CARGO) +nightly --version >/dev/null 2>&1 \
		|| { echo "fuzzing needs the nightly toolchain (cargo +nightly)" >&2; exit 1; }
	$(CARGO) install cargo-fuzz --version $(CARGO_FUZZ_VERSION) --locked --root $(FUZZ_TOOLS)

fuzz-tools: $(CARGO_FUZZ)

# fuzz/corpus/<target>/ from the shared corpus and tests/vectors (not
# committed; libFuzzer adds what it finds there).
fuzz-seeds:
	$(PYTHON) fuzz/seeds.py $(ROBOTSTXT_SHARED)/corpus/files tests/vectors $(FUZZ_CORPUS)
	@touch $(FUZZ_CORPUS)/.seeded

# Seeded again when the seeds change (a new target gets its own).
$(FUZZ_CORPUS)/.seeded: fuzz/seeds.py
	$(MAKE) --no-print-directory fuzz-seeds

fuzz-build: fuzz-tools
	PATH="$(abspath $(FUZZ_TOOLS))/bin:$$PATH" $(CARGO) +nightly fuzz build $(FUZZ_BUILD_FLAGS)

# Each target for FUZZ_SECONDS (60 by default), one after the other; a
# crash, leak, timeout or failed check fails the step (the input is saved
# under fuzz/artifacts/<target>/, the log under build/fuzz/).
fuzz-smoke: $(addprefix fuzz-smoke-,$(FUZZ_TARGETS))
	@echo "fuzz-smoke: $(FUZZ_TARGETS) ran $(FUZZ_SECONDS) s each without a crash"

fuzz-smoke-%: fuzz-build $(FUZZ_CORPUS)/.seeded
	@mkdir -p $(FUZZ_LOGS)
	@echo "== fuzz $* for $(FUZZ_SECONDS) s (log: $(FUZZ_LOGS)/$*.log) =="
	@$(call FUZZ_RUN,$*,$(FUZZ_SECONDS)) > $(FUZZ_LOGS)/$*.log 2>&1 \
		|| { tail -n 60 $(FUZZ_LOGS)/$*.log; echo "fuzz-smoke: $* failed" >&2; exit 1; }
	@$(call FUZZ_SUMMARY,$(FUZZ_LOGS)/$*.log)

# One target for a long run, e.g. make fuzz FUZZ_TARGET=cache FUZZ_SECONDS=3600
# (follow it with tail -f build/fuzz/cache.log).
fuzz: fuzz-build $(FUZZ_CORPUS)/.seeded
	@mkdir -p $(FUZZ_LOGS)
	@echo "== fuzz $(FUZZ_TARGET) for $(FUZZ_SECONDS) s (log: $(FUZZ_LOGS)/$(FUZZ_TARGET).log) =="
	@$(call FUZZ_RUN,$(FUZZ_TARGET),$(FUZZ_SECONDS)) > $(FUZZ_LOGS)/$(FUZZ_TARGET).log 2>&1 \
		|| { tail -n 60 $(FUZZ_LOGS)/$(FUZZ_TARGET).log; echo "fuzz: $(FUZZ_TARGET) failed" >&2; exit 1; }
	@$(call FUZZ_SUMMARY,$(FUZZ_LOGS)/$(FUZZ_TARGET).log)

# The cost bound of SECURITY.md, measured: the pathological checks (5,000
# `*` against a 1 MB URL, 100,000 rules, a megabyte to percent-encode) and
# the 3.7 MB corpus file, one line each. A printout, not a timed test.
.PHONY: worst-case
worst-case:
	$(CARGO) test --release --test bad_input worst_case -- --nocapture --include-ignored
