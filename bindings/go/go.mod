module github.com/robotstxt-engine/robotstxt-go

go 1.25.0

require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/redis/go-redis/v9 v9.22.0
	github.com/temoto/robotstxt v1.1.2
	github.com/tetratelabs/wazero v1.12.0
	golang.org/x/net v0.0.0-20201224014010-6772e930b67b
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/sys v0.44.0 // indirect
	golang.org/x/text v0.3.5 // indirect
)
