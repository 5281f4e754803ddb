// Package units converts Go's durations, times and HTTP statuses into the
// core's units (whole milliseconds, epoch milliseconds, a uint16 status),
// for the cgo package and for the fleet, which passes the same numbers to
// the core's Lua scripts: one conversion, so both round alike.
package units

import (
	"math"
	"time"
)

// MS is d in whole milliseconds, rounded up (a wait is never shorter than
// asked); a negative d is 0.
func MS(d time.Duration) uint64 {
	if d <= 0 {
		return 0
	}
	ms := d / time.Millisecond
	if d%time.Millisecond != 0 {
		ms++
	}
	return uint64(ms)
}

// UnixMS is t in milliseconds since the Unix epoch, the core's clock;
// times before 1970 are 0.
func UnixMS(t time.Time) uint64 {
	if ms := t.UnixMilli(); ms > 0 {
		return uint64(ms)
	}
	return 0
}

// Status is an HTTP status as the core takes it: one out of range is no
// real status, which the core reads as "anything else".
func Status(status int) uint16 {
	if status < 0 || status > math.MaxUint16 {
		return math.MaxUint16
	}
	return uint16(status)
}
