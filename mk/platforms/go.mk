# --- Go: the module's prebuilt libraries for the other platforms (into
# dist-go, mk/dist-go.mk), and the module used on each as a user would,
# as far as this machine can: arm64 Linux run under qemu-user, Windows
# under wine, macOS linked and inspected only ---

GO_CROSS := linux-arm64-gnu macos-x64 macos-arm64 windows-x64
# The platform as Go names it, and its folder under lib/.
GO_OSARCH_linux-arm64-gnu := linux/arm64
GO_OSARCH_macos-x64 := darwin/amd64
GO_OSARCH_macos-arm64 := darwin/arm64
GO_OSARCH_windows-x64 := windows/amd64
go_lib_dir = $(subst /,_,$(GO_OSARCH_$(1)))

# The archives lib.mk builds; dist-go strips them into the module.
DIST_GO_CROSS_LIBS = $(foreach p,$(GO_CROSS),$(call go_lib_dir,$(p)):$(call CROSS_LIBDIR,$(p))/librobotstxt.a)
dist-go: $(foreach p,$(GO_CROSS),$(call CROSS_STAMP_LIB,$(p))) go-cgo-check

# cgo.go names each library with the system libraries lib.mk lists for it
# (less -lc, which every C linker adds): checked here, so the two agree.
go-cgo-check:
	@$(foreach p,$(GO_CROSS),grep -q -- '/lib/$(call go_lib_dir,$(p))/librobotstxt\.a $(filter-out -lc,$(CROSS_NATIVE_LIBS_$(p)))$$' \
		$(GO_DIR)/cgo.go || { echo "go-cgo-check: $(GO_DIR)/cgo.go should link lib/$(call go_lib_dir,$(p))" \
		"with $(filter-out -lc,$(CROSS_NATIVE_LIBS_$(p))) (CROSS_NATIVE_LIBS_$(p), mk/platforms/lib.mk)" >&2; exit 1; };)

# cgo's C compiler per platform: the cross compilers from apt, and for
# macOS zig (from the build venv) at the oldest macOS that Rust supports.
GO_CC_linux-arm64-gnu := aarch64-linux-gnu-gcc
GO_CC_windows-x64 := x86_64-w64-mingw32-gcc
GO_CC_macos-x64 = $(abspath $(PY_VENV))/bin/python -m ziglang cc -target x86_64-macos.$(MACOS_TARGET_macos-x64)
GO_CC_macos-arm64 = $(abspath $(PY_VENV))/bin/python -m ziglang cc -target aarch64-macos.$(MACOS_TARGET_macos-arm64)
# How this machine runs the test binaries; none for macOS.
GO_RUN_linux-arm64-gnu := qemu-aarch64-static -L /usr/aarch64-linux-gnu
GO_RUN_windows-x64 := $(CURDIR)/tools/dist/wine/run
# What else a test needs first: wine's prefix, zig's venv.
GO_TEST_NEEDS_windows-x64 := wine-prefix
GO_TEST_NEEDS_macos-x64 := $(PY_VENV_STAMP)
GO_TEST_NEEDS_macos-arm64 := $(PY_VENV_STAMP)

define go_cross_test
dist-test-go-$(1): dist-go cross-tools $(GO_TEST_NEEDS_$(1))
	GO=$(GO) tools/dist/test-go-cross.sh $(DIST_GO) $(GO_OSARCH_$(1)) "$(GO_CC_$(1))" "$(GO_RUN_$(1))"
.PHONY: dist-test-go-$(1)
endef
$(foreach p,$(GO_CROSS),$(eval $(call go_cross_test,$(p))))

.PHONY: go-cgo-check
dist-all: dist-go
dist-all-test: $(addprefix dist-test-go-,$(GO_CROSS))
