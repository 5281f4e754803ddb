//go:build ((amd64 || arm64) && (linux || darwin || freebsd || netbsd || windows)) || (amd64 && (dragonfly || solaris || illumos))

package wasmcore

// compilerAvailable: wazero has a compiler for this GOOS/GOARCH (and, on
// amd64, a CPU with SSE4.1, which wazero checks itself: without it the
// "compiled" module is interpreted too, and moving onto it changes nothing).
const compilerAvailable = true
