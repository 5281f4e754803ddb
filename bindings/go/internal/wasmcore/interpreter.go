//go:build !(((amd64 || arm64) && (linux || darwin || freebsd || netbsd || windows)) || (amd64 && (dragonfly || solaris || illumos)))

package wasmcore

// compilerAvailable: wazero has only its interpreter for this GOOS/GOARCH.
const compilerAvailable = false
