# The GitHub workflows (.github/workflows: ci.yml, release.yml), checked by
# actionlint: syntax, expressions and their types, the pinned actions'
# inputs, needs, permissions and matrices; and every run: script through
# shellcheck. actionlint is pinned and built from its Go module into
# build/tools (go install, GOBIN); shellcheck comes from apt when missing.

.PHONY: workflow-lint

ACTIONLINT_VERSION := v1.7.12
ACTIONLINT := build/tools/actionlint-$(ACTIONLINT_VERSION)/actionlint
WORKFLOWS := $(wildcard .github/workflows/*.yml)

$(ACTIONLINT):
	GOBIN=$(abspath $(@D)) $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

# -shellcheck names the command, so that a missing one fails here rather
# than being skipped without a word.
workflow-lint: $(ACTIONLINT)
	@command -v shellcheck >/dev/null 2>&1 || { apt-get update && apt-get install -y --no-install-recommends shellcheck; }
	$(ACTIONLINT) -shellcheck=$$(command -v shellcheck) $(WORKFLOWS)
	@echo "workflow-lint: $(words $(WORKFLOWS)) workflows pass actionlint $(ACTIONLINT_VERSION)" \
		"with shellcheck $$(shellcheck --version | sed -n 's/^version: //p')"

TEST_STEPS += workflow-lint
