module example.com/robotstxt/examples

go 1.25

require github.com/robotstxt-engine/robotstxt-go v0.0.0

replace github.com/robotstxt-engine/robotstxt-go => ../../bindings/go
