# Go: the cgo binding in bindings/go (module
# github.com/robotstxt-engine/robotstxt-go), linked statically against
# target/release/librobotstxt.a (c-lib, in mk/c.mk) as staged by go-stage;
# its tests under the race detector, also with GOGC=1 and cgocheck, with
# those of its sub-package fleet (bindings/go/fleet: the shared cache and
# pacer, over a Redis server of mk/redis.mk), the only package that links
# go-redis (deps_test.go fails when the root package does); the examples
# in examples/go; the benchmark against temoto/robotstxt and
# jimsmart/grobotstxt; and the demo. Modules come from go.sum through the
# Go module proxy (go test downloads what is missing).

.PHONY: go-stage go-test go-docs-check go-bench demo-go

GO ?= go
GO_DIR := bindings/go
GO_EXAMPLES := examples/go
# -count=1: a test result must never come from the cache, since go does not
# see librobotstxt.a change.
GO_TEST := $(GO) test -count=1

# bindings/go/cgo.go links lib/<goos>_<goarch>/librobotstxt.a and includes
# include/robotstxt.h, both beside the sources, as a released module ships
# them (mk/dist-go.mk); this copies the fresh build there (git-ignored), and
# only when it changed. Deferred (=): go env runs only when a step needs it.
GO_PLATFORM = $(shell $(GO) env GOOS)_$(shell $(GO) env GOARCH)
GO_LIB_A = $(GO_DIR)/lib/$(GO_PLATFORM)/librobotstxt.a
GO_HEADER := $(GO_DIR)/include/robotstxt.h

go-stage: c-lib
	@mkdir -p $(dir $(GO_LIB_A)) $(dir $(GO_HEADER))
	@cmp -s $(C_LIB_A) $(GO_LIB_A) || cp $(C_LIB_A) $(GO_LIB_A)
	@cmp -s include/robotstxt.h $(GO_HEADER) || cp include/robotstxt.h $(GO_HEADER)

go-test: go-stage
	@unformatted=$$(gofmt -l $(GO_DIR) $(GO_EXAMPLES) tools/dist/go); test -z "$$unformatted" \
		|| { echo "gofmt: $$unformatted" >&2; exit 1; }
	cd $(GO_DIR) && $(GO) vet ./...
	@# Which corpus the tests read (corpus_test.go): go test hides their output.
	@test -f "$(ROBOTSTXT_SHARED)/bench/parse_files.tsv" \
		&& echo "go-test corpus: full shared corpus at $(ROBOTSTXT_SHARED)" \
		|| echo "go-test corpus: committed sample tests/corpus-sample (no $(ROBOTSTXT_SHARED)/bench)"
	cd $(GO_DIR) && $(GO_TEST) -race ./...
	cd $(GO_DIR) && GOGC=1 GODEBUG=cgocheck=1 $(GO_TEST) -race ./...
	cd $(GO_EXAMPLES) && $(GO) vet ./... && $(GO_TEST) -race ./...
	$(MAKE) --no-print-directory go-docs-check
	@echo "go-test: vet, go test -race (and with GOGC=1 GODEBUG=cgocheck=1) passed in $(GO_DIR) (with fleet) and $(GO_EXAMPLES), gofmt clean"

# README.md shows the polite crawler as it is in examples/go (fails when
# they drift apart), and its complete example builds and runs.
GO_DOCS := build/go/docs
go-docs-check: go-stage
	@rm -rf $(GO_DOCS) && mkdir -p $(GO_DOCS)/example
	@sed -n '/^```go polite$$/,/^```$$/p' README.md | sed '1d;$$d' > $(GO_DOCS)/polite.go
	@diff -u $(GO_EXAMPLES)/polite/polite.go $(GO_DOCS)/polite.go \
		|| { echo "README.md: the polite crawler differs from $(GO_EXAMPLES)/polite/polite.go" >&2; exit 1; }
	@sed -n '/^```go example$$/,/^```$$/p' README.md | sed '1d;$$d' > $(GO_DOCS)/example/main.go
	@printf 'module example\n\ngo 1.25\n\nrequire github.com/robotstxt-engine/robotstxt-go v0.0.0\n\nreplace github.com/robotstxt-engine/robotstxt-go => %s\n' \
		"$(abspath $(GO_DIR))" > $(GO_DOCS)/example/go.mod
	@cp $(GO_EXAMPLES)/go.sum $(GO_DOCS)/example/go.sum
	@# -mod=mod: the module's go.mod names only the binding; go adds what
	@# the packages it uses require in turn, from the go.sum copied above
	@# (package robotstxt itself requires none: go-redis is fleet's).
	cd $(GO_DOCS)/example && $(GO) vet -mod=mod . && $(GO) run -mod=mod .
	@echo "go-docs-check: README.md shows examples/go/polite as it is, and its example runs"

# Parse throughput and checks per second against temoto/robotstxt and
# jimsmart/grobotstxt on $(ROBOTSTXT_SHARED)/corpus and bench, with ratios;
# GO_BENCH_COUNT runs of each (`make bench` sets ROUNDS), and with BENCH_MD
# also as Markdown in $(BENCH_DIR)/go.md, the first-answer figures beside
# the Rust ones of $(BENCH_DIR)/rust.md (written by `make bench` before this
# step).
GO_BENCH_COUNT ?= 1
go-bench: go-stage
	$(if $(BENCH_MD),@mkdir -p $(BENCH_DIR))
	cd $(GO_DIR) && $(if $(BENCH_MD),ROBOTSTXT_BENCH_MARKDOWN=$(abspath $(BENCH_DIR))/go.md) \
		ROBOTSTXT_BENCH_RUST=$(abspath $(BENCH_DIR))/rust.md ROBOTSTXT_BENCH_WASM=$(abspath $(BENCH_DIR))/go-wasm.tsv \
		$(GO) test -run '^$$' -bench . -benchmem -count=$(GO_BENCH_COUNT) .

# The practice shop (behaviour §9) through the Go binding.
demo-go: go-stage
	cd $(GO_EXAMPLES) && $(GO) run ./shop ../shop/robots.txt

TEST_STEPS += go-test
DEMO_STEPS += demo-go
