# Redis for the fleet tests and benchmarks: Debian's redis-server (7.0; the
# redis-tools package holds the binary), fetched by apt-get download and
# unpacked under build/redis with its two libraries. Nothing is installed
# system-wide and no service starts: each test starts its own server on
# 127.0.0.1 and a free port, and stops it by its pid.
# $(REDIS_SERVER) runs it: a wrapper that finds the unpacked libraries;
# $(REDIS_CLI) the client, alike.

.PHONY: redis fleet-bench

REDIS_DIR := build/redis
REDIS_SERVER := $(abspath $(REDIS_DIR))/redis-server
REDIS_CLI := $(abspath $(REDIS_DIR))/redis-cli
REDIS_DEBS := redis-tools libjemalloc2 liblzf1

$(REDIS_SERVER): mk/redis.mk
	rm -rf $(REDIS_DIR) && mkdir -p $(REDIS_DIR)/debs $(REDIS_DIR)/root
	# A machine whose package lists were never fetched needs them once.
	cd $(REDIS_DIR)/debs && { apt-get download $(REDIS_DEBS) \
		|| { apt-get update -qq && apt-get download $(REDIS_DEBS); }; }
	for deb in $(REDIS_DIR)/debs/*.deb; do dpkg-deb -x "$$deb" $(REDIS_DIR)/root || exit 1; done
	# One binary serves as both: the redis-server package is this link.
	ln -s redis-check-rdb $(REDIS_DIR)/root/usr/bin/redis-server
	for tool in redis-server redis-cli; do \
		printf '%s\n' '#!/bin/sh' \
		'root="$$(dirname "$$0")/root"' \
		"LD_LIBRARY_PATH=\"\$$root/usr/lib/x86_64-linux-gnu\$${LD_LIBRARY_PATH:+:\$$LD_LIBRARY_PATH}\" exec \"\$$root/usr/bin/$$tool\" \"\$$@\"" \
		> $(REDIS_DIR)/$$tool.tmp || exit 1; chmod +x $(REDIS_DIR)/$$tool.tmp; done
	mv $(REDIS_DIR)/redis-cli.tmp $(REDIS_CLI)
	mv $@.tmp $@
	$@ --version | sed 's/ sha=.*//' > $(REDIS_DIR)/version.txt
	cat $(REDIS_DIR)/version.txt

redis: $(REDIS_SERVER)

# The fleet test (mk/fleet.mk) runs last, after every binding's suite.
TEST_STEPS += fleet-test

# The suites that start servers find it so, and redis-cli for the
# clusters they start (redis-cli --cluster create).
export ROBOTSTXT_REDIS_SERVER := $(REDIS_SERVER)
export ROBOTSTXT_REDIS_CLI := $(REDIS_CLI)
rust-test node-test go-test python-test: $(REDIS_SERVER)

# What sharing a fleet's state through Redis costs (bindings/node/bench/
# fleet.mjs): slot reservations per second from 1, 4 and 8 processes, copy
# store and load round trips, and a check with the shared cache warm.
fleet-bench: node-build $(REDIS_SERVER)
	$(if $(BENCH_MD),@mkdir -p $(BENCH_DIR))
	cd $(NODE_DIR) && BENCH_PASSES=$(ROUNDS) $(NPM) run --silent bench:fleet \
		$(if $(BENCH_MD),-- --markdown $(abspath $(BENCH_DIR))/fleet.md)
