package robotstxt_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The fleet's Redis client stays in package fleet: a program that imports
// only this package must not link it. go test puts its own go first on
// PATH.
func TestNoRedisDependency(t *testing.T) {
	deps := func(pkg string) []string {
		t.Helper()
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
		if err != nil {
			var stderr []byte
			if e, ok := err.(*exec.ExitError); ok {
				stderr = e.Stderr
			}
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr)
		}
		return strings.Fields(string(out))
	}
	redis := func(paths []string) (found []string) {
		for _, p := range paths {
			if strings.HasPrefix(p, "github.com/redis/") {
				found = append(found, p)
			}
		}
		return found
	}
	if found := redis(deps(".")); len(found) > 0 {
		t.Errorf("package robotstxt depends on %v: keep Redis in package fleet", found)
	}
	// The check sees Redis where it is.
	if found := redis(deps("./fleet")); len(found) == 0 {
		t.Error("go list -deps ./fleet names no github.com/redis/ package")
	}
}
