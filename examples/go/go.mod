module example.com/robotstxt/examples

go 1.25.0

require (
	github.com/redis/go-redis/v9 v9.22.0
	github.com/robotstxt-engine/robotstxt-go v0.0.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/sys v0.44.0 // indirect
)

replace github.com/robotstxt-engine/robotstxt-go => ../../bindings/go
