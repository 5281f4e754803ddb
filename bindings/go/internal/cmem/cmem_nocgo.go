//go:build !cgo

package cmem

// InUse returns -1: without cgo there is no C heap to measure.
func InUse() int64 { return -1 }
