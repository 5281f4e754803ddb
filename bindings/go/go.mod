module github.com/robotstxt-engine/robotstxt-go

go 1.24

require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/temoto/robotstxt v1.1.2
	golang.org/x/net v0.0.0-20201224014010-6772e930b67b
)

require golang.org/x/text v0.3.5 // indirect
