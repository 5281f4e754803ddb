package robotstxt_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// deps lists the packages pkg depends on outside the standard library and
// this module, with cgo on or off, under build tags. go test puts its own
// go first on PATH.
func deps(t *testing.T, pkg string, cgo bool, tags string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-tags="+tags, "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg)
	env := "CGO_ENABLED=0"
	if cgo {
		env = "CGO_ENABLED=1"
	}
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if e, ok := err.(*exec.ExitError); ok {
			stderr = e.Stderr
		}
		t.Fatalf("go list -deps %s (%s, tags %q): %v\n%s", pkg, env, tags, err, stderr)
	}
	var found []string
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasPrefix(p, "github.com/robotstxt-engine/robotstxt-go") {
			found = append(found, p)
		}
	}
	return found
}

// notIn returns the paths of found under none of the prefixes.
func notIn(found []string, prefixes ...string) (others []string) {
	for _, p := range found {
		if !slices.ContainsFunc(prefixes, func(prefix string) bool { return strings.HasPrefix(p, prefix) }) {
			others = append(others, p)
		}
	}
	return others
}

// The package links no module but wazero, and wazero only where it runs the
// WebAssembly core: the cgo build links none. The fleet's Redis client
// stays in package fleet: a program that imports only this package must
// not link it.
func TestDependencies(t *testing.T) {
	// robotstxt_from_source: the cgo build on any platform.
	if found := deps(t, ".", true, "robotstxt_from_source"); len(found) > 0 {
		t.Errorf("package robotstxt with cgo depends on %v: it should need no module", found)
	}
	wasm := deps(t, ".", false, "")
	if others := notIn(wasm, "github.com/tetratelabs/wazero", "golang.org/x/sys/"); len(others) > 0 {
		t.Errorf("package robotstxt without cgo depends on %v: it should need wazero alone", others)
	}
	if !slices.Contains(wasm, "github.com/tetratelabs/wazero") {
		t.Errorf("package robotstxt without cgo does not depend on wazero (%v): the check sees nothing", wasm)
	}
	// The check sees Redis where it is.
	if fleet := deps(t, "./fleet", false, ""); len(notIn(fleet, "github.com/redis/")) == len(fleet) {
		t.Error("go list -deps ./fleet names no github.com/redis/ package")
	}
}
