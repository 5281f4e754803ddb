package polite_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"robotstxt.dev/go/examples/polite"
)

// A local shop: robots.txt disallows /private/ and asks for 1.2 s between
// requests. The crawler must fetch robots.txt once, never ask for /private/,
// and start its page requests at least 1.2 s apart.
func TestCrawl(t *testing.T) {
	var robotsFetches atomic.Int32
	var mu sync.Mutex
	var starts []time.Time
	var private []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robotsFetches.Add(1)
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 1.2\n")
			return
		}
		mu.Lock()
		defer mu.Unlock()
		starts = append(starts, time.Now())
		if strings.HasPrefix(r.URL.Path, "/private/") {
			private = append(private, r.URL.Path)
		}
		fmt.Fprintln(w, "a page")
	}))
	defer srv.Close()

	var urls []string
	for i := range 3 {
		urls = append(urls, fmt.Sprintf("%s/page/%d", srv.URL, i), fmt.Sprintf("%s/private/%d", srv.URL, i))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	status := map[string]int{}
	polite.Crawl(ctx, srv.Client(), "ExampleBot", urls, func(resp *http.Response) {
		mu.Lock()
		defer mu.Unlock()
		status[resp.Request.URL.String()] = resp.StatusCode
	})

	for _, u := range urls {
		want := 200
		if strings.Contains(u, "/private/") {
			want = 0
		}
		if status[u] != want {
			t.Errorf("%s: status %d, want %d", u, status[u], want)
		}
	}
	if n := robotsFetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times", n)
	}
	if len(private) > 0 {
		t.Errorf("fetched disallowed pages %v", private)
	}
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	for i := 1; i < len(starts); i++ {
		// The server sees each request a little after its slot: allow for
		// that jitter, but not for the 1 s floor instead of the crawl delay.
		if gap := starts[i].Sub(starts[i-1]); gap < 1100*time.Millisecond {
			t.Errorf("requests %d and %d arrived %v apart", i-1, i, gap)
		}
	}
	t.Logf("%d pages in %v, robots.txt fetched once", len(starts), starts[len(starts)-1].Sub(starts[0]))
}
