package robotstxt

import "testing"

// The defaults the core hands out, as the header documents them: read
// through each backend's struct layout (the WebAssembly one reads wasm32
// offsets), they come out alike.
func TestCoreDefaults(t *testing.T) {
	if o := coreOptionsDefault(); o != (coreOptions{profile: 0, parseLimit: 512_000, typos: true}) {
		t.Errorf("options %+v", o)
	}
	policy := corePolicy{freshForMS: 86_400_000, retryMS: 3_600_000, unreachableLimitMS: 30 * 86_400_000,
		options: coreOptions{parseLimit: 512_000, typos: true}}
	if p := corePolicyDefault(); p != policy {
		t.Errorf("freshness policy %+v", p)
	}
	if o := coreCacheOptionsDefault(); o != (coreCacheOptions{capacity: 10_000, leaseMS: 60_000, policy: policy}) {
		t.Errorf("cache options %+v", o)
	}
	pacer := corePacerOptions{floorMS: 1_000, backoffCapMS: 600_000, capacity: 100_000, maxInFlight: 1, inFlightTimeoutMS: 120_000}
	if o := corePacerOptionsDefault(); o != pacer {
		t.Errorf("pacer options %+v", o)
	}
}
