module robotstxt.dev/go/examples

go 1.25

require robotstxt.dev/go/robotstxt v0.0.0

replace robotstxt.dev/go/robotstxt => ../../bindings/go
