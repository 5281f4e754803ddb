module robotstxt.dev/go/robotstxt

go 1.24

require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/temoto/robotstxt v1.1.2
)
