package robotstxt_test

// The corpus the tests read: the full shared data ($ROBOTSTXT_SHARED, or
// ../shared beside the repository) when it is there, and the committed
// sample tests/corpus-sample (same layout; tools/sample-corpus.py)
// otherwise, so that a bare clone tests too. The benchmarks
// (bench_test.go) need the full data.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

type testData struct {
	root  string // holds corpus/files/ and bench/
	full  bool
	files []map[string]string // parse_files.tsv
	err   error
}

var (
	testDataOnce sync.Once
	loadedData   testData
)

// corpus chooses the data once and prints which it is. go test shows what
// a passing package prints only with -v, so mk/go.mk says which as well.
func corpus(t *testing.T) testData {
	t.Helper()
	testDataOnce.Do(func() {
		shared, _ := filepath.Abs(sharedDir())
		d := &loadedData
		d.root = shared
		// The Makefile exports ROBOTSTXT_SHARED even when it does not exist.
		if _, err := os.Stat(filepath.Join(shared, "bench", "parse_files.tsv")); err == nil {
			d.full = true
		} else {
			d.root, _ = filepath.Abs(filepath.Join("..", "..", "tests", "corpus-sample"))
		}
		d.files, d.err = readTSV(filepath.Join(d.root, "bench", "parse_files.tsv"))
		if d.full {
			fmt.Printf("corpus: full shared corpus (%d files) at %s\n", len(d.files), d.root)
		} else {
			fmt.Printf("corpus: committed sample tests/corpus-sample (%d files); "+
				"the full corpus is in ../shared (none at %s)\n", len(d.files), shared)
		}
	})
	if loadedData.err != nil {
		t.Fatalf("corpus: %v", loadedData.err)
	}
	return loadedData
}

// largestRobots reads the largest file of kind robots: 3.7 MB in the full
// corpus, 514 KB in the sample; both exceed the parse limit.
func (d testData) largestRobots(t *testing.T) (string, []byte) {
	t.Helper()
	var name string
	most := -1
	for _, r := range d.files {
		if n, _ := strconv.Atoi(r["bytes"]); r["kind"] == "robots" && n > most {
			name, most = r["file"], n
		}
	}
	body, err := os.ReadFile(filepath.Join(d.root, "corpus", name))
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	if len(body) != most {
		t.Fatalf("%s: %d bytes, parse_files.tsv says %d", name, len(body), most)
	}
	return name, body
}
