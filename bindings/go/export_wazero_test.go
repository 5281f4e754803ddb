//go:build (!cgo || !(robotstxt_from_source || (linux && !android && (amd64 || arm64)) || (darwin && !ios && (amd64 || arm64)) || (windows && amd64)) || robotstxt_wasm) && !robotstxt_nowasm

package robotstxt

import "github.com/robotstxt-engine/robotstxt-go/internal/wasmcore"

// Backend names the core layer the tests run against.
const Backend = "wasm"

// SettleCore waits until calls run compiled code (where wazero has a
// compiler): the interpreter that answers first allocates per call.
func SettleCore() { wasmcore.Shared().WaitCompiled() }

// CoreMemory measures the memory the core allocates in: the module's
// linear memory, which grows as it allocates and never shrinks.
var CoreMemory = func() int64 { return int64(wasmcore.Shared().MemorySize()) }
