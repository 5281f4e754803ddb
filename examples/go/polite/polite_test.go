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

	"example.com/robotstxt/examples/polite"
)

const userAgent = "ExampleBot/1.0 (+https://example.test/bot)"

// A local shop: robots.txt disallows /private/ to ExampleBot and asks for
// 1.2 s between requests. The crawler must fetch robots.txt once, never ask
// for /private/, send its whole User-Agent, and start its page requests at
// least 1.2 s apart, one at a time.
func TestCrawl(t *testing.T) {
	var robotsFetches atomic.Int32
	var mu sync.Mutex
	var starts []time.Time
	var private, agents []string
	var inFlight, overlaps atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents = append(agents, r.UserAgent())
		mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			robotsFetches.Add(1)
			fmt.Fprint(w, "User-agent: examplebot\nDisallow: /private/\nCrawl-delay: 1.2\n")
			return
		}
		if inFlight.Add(1) > 1 {
			overlaps.Add(1)
		}
		defer inFlight.Add(-1)
		mu.Lock()
		starts = append(starts, time.Now())
		if strings.HasPrefix(r.URL.Path, "/private/") {
			private = append(private, r.URL.Path)
		}
		mu.Unlock()
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
	err := polite.Crawl(ctx, srv.Client(), userAgent, urls, func(resp *http.Response) {
		mu.Lock()
		defer mu.Unlock()
		status[resp.Request.URL.String()] = resp.StatusCode
	})
	if err != nil {
		t.Fatal(err)
	}

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
	if n := overlaps.Load(); n > 0 {
		t.Errorf("%d page requests overlapped another", n)
	}
	for _, a := range agents {
		if a != userAgent {
			t.Errorf("User-Agent %q, want %q", a, userAgent)
		}
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

// A header that names no crawler is refused before anything is fetched.
func TestCrawlBrowserAgent(t *testing.T) {
	err := polite.Crawl(context.Background(), http.DefaultClient, "Mozilla/5.0 (X11; Linux x86_64)", []string{"http://127.0.0.1:1/"}, func(*http.Response) {
		t.Error("visited")
	})
	if err == nil {
		t.Error("a browser's User-Agent was accepted")
	}
}
