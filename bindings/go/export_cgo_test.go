//go:build cgo && (robotstxt_from_source || (linux && !android && (amd64 || arm64)) || (darwin && !ios && (amd64 || arm64)) || (windows && amd64)) && !robotstxt_wasm

package robotstxt

// Backend names the core layer the tests run against.
const Backend = "cgo"

// SettleCore waits until calls run as fast as they will: with cgo they
// already do.
func SettleCore() {}

// CoreMemory measures the memory the core allocates in, or is nil where
// the Go side cannot: with cgo that is the C heap (internal/cmem).
var CoreMemory func() int64
