# Go without cgo: where cgo is off (CGO_ENABLED=0) or no prebuilt library
# exists for the GOOS/GOARCH, package robotstxt runs the core compiled to
# WebAssembly (wasm-core, mk/platforms/wasm-core.mk) in pure Go, with
# wazero, behind the same API (bindings/go/core.go says how the two
# backends are chosen). The module is embedded from
# bindings/go/internal/wasmcore/robotstxt.wasm, staged there (git-ignored)
# as go-stage stages the static library, which every go step then finds.
#
#   make go-test-nocgo   the Go suite (and fleet's) with CGO_ENABLED=0, vet;
#                        the WebAssembly backend under the race detector;
#                        builds for platforms without a library
#   make go-bench-wasm   the Go benchmarks with CGO_ENABLED=0, for go-bench

.PHONY: go-wasm-stage go-test-nocgo go-bench-wasm

GO_WASM_CORE = $(WASM_CORE)
GO_WASM_EMBED = $(GO_DIR)/internal/wasmcore/robotstxt.wasm

go-wasm-stage: wasm-core
	@cmp -s $(GO_WASM_CORE) $(GO_WASM_EMBED) || cp $(GO_WASM_CORE) $(GO_WASM_EMBED)

# Every build of the module's packages needs it: internal/wasmcore embeds
# it, and the cgo build's tests drive it too (BenchmarkFirstUse).
go-stage: go-wasm-stage

# Platforms with no prebuilt library, and so the WebAssembly core whether
# or not cgo could run there: built, not run, here.
GO_WASM_ONLY_PLATFORMS := freebsd/amd64 linux/riscv64 android/arm64

# The race detector needs cgo: the tag robotstxt_wasm takes the WebAssembly
# core with cgo on. Each platform's build lists core_wazero.go, not
# core_cgo.go, and one with cgo on here lists core_cgo.go.
go-test-nocgo: go-stage redis
	cd $(GO_DIR) && CGO_ENABLED=0 $(GO) vet ./...
	@# Which corpus the tests read (corpus_test.go): go test hides their output.
	@test -f "$(ROBOTSTXT_SHARED)/bench/parse_files.tsv" \
		&& echo "go-test-nocgo corpus: full shared corpus at $(ROBOTSTXT_SHARED)" \
		|| echo "go-test-nocgo corpus: committed sample tests/corpus-sample (no $(ROBOTSTXT_SHARED)/bench)"
	cd $(GO_DIR) && CGO_ENABLED=0 $(GO_TEST) ./...
	cd $(GO_DIR) && $(GO_TEST) -race -tags robotstxt_wasm . ./fleet
	@cd $(GO_DIR) && for p in $(GO_WASM_ONLY_PLATFORMS); do \
		files=$$(GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) list -f '{{.GoFiles}}' .) || exit 1; \
		case "$$files" in *core_wazero.go*) ;; *) echo "go-test-nocgo: $$p builds without core_wazero.go: $$files" >&2; exit 1;; esac; \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) build ./... || exit 1; \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) vet ./... || exit 1; \
		echo "go-test-nocgo: $$p: build and vet passed, backend core_wazero.go (built only: not run here)"; \
	done
	@cd $(GO_DIR) && files=$$(CGO_ENABLED=1 $(GO) list -f '{{.CgoFiles}}' .) && case "$$files" in *core_cgo.go*) ;; \
		*) echo "go-test-nocgo: with cgo on, $$(go env GOOS)/$$(go env GOARCH) builds without core_cgo.go: $$files" >&2; exit 1;; esac
	@echo "go-test-nocgo: vet and go test with CGO_ENABLED=0 passed in $(GO_DIR) (with fleet), the WebAssembly backend under -race too, and $(words $(GO_WASM_ONLY_PLATFORMS)) platforms without a library build it"

# The figures go-bench prints beside the cgo build's, in $(BENCH_DIR)/go-wasm.tsv
# (bench_backend_test.go): the same benchmarks with CGO_ENABLED=0, GO_BENCH_COUNT
# runs of each.
go-bench-wasm: go-stage
	@mkdir -p $(BENCH_DIR)
	cd $(GO_DIR) && CGO_ENABLED=0 ROBOTSTXT_BENCH_WASM_OUT=$(abspath $(BENCH_DIR))/go-wasm.tsv \
		$(GO) test -run '^$$' -bench '^Benchmark(Parse|Check|Allowed)$$/^(robotstxt|serial|parallel|decide)$$' \
		-benchmem -count=$(GO_BENCH_COUNT) .

go-bench: go-bench-wasm

TEST_STEPS += go-test-nocgo
