# The fleet test (tests/fleet/run_fleet.py): 3 Node, 3 Go and 2 Python
# workers (examples/node/fleet-worker.mjs, examples/go/fleetworker,
# examples/python/fleet_worker.py) crawl a local four-host site through one
# real Redis, and the site's log must show one polite crawler: then again
# with a worker killed while it holds a fetch lease, and with Redis
# restarted empty mid-crawl. Each worker binary or venv is built here.

.PHONY: fleet-test

FLEET_DIR := build/fleet
FLEET_GO_WORKER := $(FLEET_DIR)/fleetworker
FLEET_VENV := $(FLEET_DIR)/venv

# The stamps are defined by files included later: expanded a second time.
.SECONDEXPANSION:
fleet-test: node-build $$(NODE_EXAMPLE_STAMP) go-stage python $$(REDIS_SERVER)
	@mkdir -p $(FLEET_DIR)
	cd $(GO_EXAMPLES) && $(GO) build -o $(abspath $(FLEET_GO_WORKER)) ./fleetworker
	rm -rf $(FLEET_VENV) && $(PYTHON) -m venv $(FLEET_VENV)
	$(FLEET_VENV)/bin/pip install $(PY_PIP) -r $(PY_DIR)/requirements-test.txt -c $(PY_DIR)/constraints-test.txt
	$(FLEET_VENV)/bin/pip install $(PY_PIP) --no-index --no-deps $(PY_WHEEL)
	rm -rf $(FLEET_DIR)/runs
	$(PYTHON) tests/fleet/run_fleet.py --redis-server $(REDIS_SERVER) --redis-cli $(REDIS_CLI) \
		--node "$(NODE) $(abspath $(NODE_EXAMPLE))/fleet-worker.mjs" \
		--go "$(abspath $(FLEET_GO_WORKER))" \
		--python "$(abspath $(FLEET_VENV))/bin/python $(abspath examples/python/fleet_worker.py)" \
		--workdir $(abspath $(FLEET_DIR))/runs

# Added to TEST_STEPS in mk/redis.mk, the last file included: it runs after
# every binding's own suite.
