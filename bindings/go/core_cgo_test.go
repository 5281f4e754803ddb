//go:build cgo && (robotstxt_from_source || (linux && !android && (amd64 || arm64)) || (darwin && !ios && (amd64 || arm64)) || (windows && amd64)) && !robotstxt_wasm

package robotstxt

import (
	"os"
	"regexp"
	"testing"
)

// Every constant the Go side spells out has the header's value, and the
// list misses none of the header's enumeration values: the WebAssembly
// build reads no header and relies on these.
func TestConstantsMatchHeader(t *testing.T) {
	listed := map[string]bool{}
	for _, v := range headerValues() {
		listed[v.name] = true
		if v.header != v.value {
			t.Errorf("%s is %d in the header, %d in Go", v.name, v.header, v.value)
		}
	}
	header, err := os.ReadFile("include/robotstxt.h")
	if err != nil {
		t.Fatal(err)
	}
	enum := regexp.MustCompile(`(?m)^#define (ROBOTSTXT_(?:STATUS|PROFILE|DECISION|CAUSE|USAGE|LINE|FLAG|ACCESS|` +
		`DISPOSITION|AFTER_LIMIT|ANSWER|WHEN_FETCHING|LOOKUP|CONFIRM|HTTP_IGNORED)_\w+) `)
	defined := enum.FindAllStringSubmatch(string(header), -1)
	for _, m := range defined {
		if !listed[m[1]] {
			t.Errorf("%s is in the header but not in headerValues (core_cgo.go)", m[1])
		}
	}
	if len(defined) < 70 {
		t.Errorf("only %d of the header's enumeration values found: the pattern is out of date", len(defined))
	}
}
