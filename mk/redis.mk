# Redis for the fleet tests and benchmarks: Debian's redis-server (7.0; the
# redis-tools package holds the binary), fetched by apt-get download and
# unpacked under build/redis with its two libraries. Nothing is installed
# system-wide and no service starts: each test starts its own server on
# 127.0.0.1 and a free port, and stops it by its pid.
# $(REDIS_SERVER) runs it: a wrapper that finds the unpacked libraries.

.PHONY: redis

REDIS_DIR := build/redis
REDIS_SERVER := $(abspath $(REDIS_DIR))/redis-server
REDIS_DEBS := redis-tools libjemalloc2 liblzf1

$(REDIS_SERVER): mk/redis.mk
	rm -rf $(REDIS_DIR) && mkdir -p $(REDIS_DIR)/debs $(REDIS_DIR)/root
	# A machine whose package lists were never fetched needs them once.
	cd $(REDIS_DIR)/debs && { apt-get download $(REDIS_DEBS) \
		|| { apt-get update -qq && apt-get download $(REDIS_DEBS); }; }
	for deb in $(REDIS_DIR)/debs/*.deb; do dpkg-deb -x "$$deb" $(REDIS_DIR)/root || exit 1; done
	# One binary serves as both: the redis-server package is this link.
	ln -s redis-check-rdb $(REDIS_DIR)/root/usr/bin/redis-server
	printf '%s\n' '#!/bin/sh' \
		'root="$$(dirname "$$0")/root"' \
		'LD_LIBRARY_PATH="$$root/usr/lib/x86_64-linux-gnu$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}" exec "$$root/usr/bin/redis-server" "$$@"' \
		> $@.tmp
	chmod +x $@.tmp && mv $@.tmp $@
	$@ --version

redis: $(REDIS_SERVER)

# The suites that start servers find it so.
export ROBOTSTXT_REDIS_SERVER := $(REDIS_SERVER)
rust-test node-test go-test python-test: $(REDIS_SERVER)
