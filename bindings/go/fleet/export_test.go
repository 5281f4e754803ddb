package fleet

import "time"

// SetClock makes now the fleet's clock until restore is called: a test's
// stand-in for the worker's wall clock stepping.
func SetClock(now func() time.Time) (restore func()) {
	clock.Store(&now)
	return func() { clock.Store(nil) }
}
