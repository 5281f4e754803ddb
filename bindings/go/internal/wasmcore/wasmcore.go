// Package wasmcore runs the robotstxt core compiled to WebAssembly
// (bindings/c for wasm32-unknown-unknown: no imports, the C ABI's
// robotstxt_* functions as exports) inside pure Go, with wazero. It is the
// engine under package robotstxt where cgo or a prebuilt library is
// missing; package robotstxt turns its calls into the same answers the cgo
// build gives.
//
// An Instance is one instantiation of the module: its linear memory holds
// every object made in it, so a handle (an address in that memory) is only
// good with the Instance that made it. An Instance is not safe for
// concurrent calls (one shadow stack, one allocator); Lock serialises them.
//
// Shared is the process's Instance. Its first use compiles the module with
// wazero's interpreter (tens of ms, where the compiler takes hundreds) and
// starts the compiler in the background; once that is done, the next call
// moves the instance onto the compiled module by copying its memory, so
// every handle stays valid and later calls run compiled code.
package wasmcore

import (
	"context"
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// module is the core: `make go-wasm-stage` copies it here from the wasm
// build, and a released module ships it.
//
//go:embed robotstxt.wasm
var module []byte

// Engine is how wazero runs the module.
type Engine int

const (
	// Interpreter compiles fast and runs slowly (and allocates per call).
	Interpreter Engine = iota
	// Compiler compiles to machine code: slow to compile, fast to run.
	// Where wazero has no compiler (other than amd64 and arm64, or old
	// CPUs), it is the interpreter.
	Compiler
)

// String returns "interpreter" or "compiler".
func (e Engine) String() string {
	if e == Compiler {
		return "compiler"
	}
	return "interpreter"
}

func (e Engine) config() wazero.RuntimeConfig {
	if e == Compiler {
		return wazero.NewRuntimeConfig() // the compiler where wazero has one
	}
	return wazero.NewRuntimeConfigInterpreter()
}

// Instance is the module instantiated once: its memory, its exports, and a
// scratch block in its memory for what a call passes in and reads back.
// Lock it around each use.
type Instance struct {
	mu     sync.Mutex
	ctx    context.Context
	engine Engine
	rt     wazero.Runtime
	mod    api.Module
	mem    api.Memory
	fns    [numFuncs]api.Function
	stack  [8]uint64 // CallWithStack's arguments and result, reused

	// scratch is a block of scratchSize bytes at this address; used is how
	// much of it the current call took. Bigger inputs get blocks of their
	// own (temps), freed at Unlock.
	scratch uint32
	used    uint32
	temps   [4]block
	ntemps  int
	more    []block

	// upgrade, when set, is a compiled module to move onto at the next
	// Lock; compiling is closed once Shared's background compile ended.
	upgrade   atomic.Pointer[compiled]
	compiling chan struct{}
}

type block struct{ addr, len uint32 }

type compiled struct {
	rt  wazero.Runtime
	mod wazero.CompiledModule
}

// scratchSize holds a call's outputs and most URLs, tokens and headers;
// bodies are copied into blocks of their own.
const scratchSize = 16 << 10

var (
	sharedOnce sync.Once
	shared     *Instance
	sharedErr  error
)

// Shared returns the process's instance: the first call compiles the
// module with the interpreter and instantiates it, and where wazero has a
// compiler, compiles it with that in the background to move onto. It
// panics if the embedded module does not load, which only a broken build
// can cause.
func Shared() *Instance {
	sharedOnce.Do(func() {
		shared, sharedErr = New(Interpreter)
		if sharedErr == nil && compilerAvailable {
			shared.compiling = make(chan struct{})
			go shared.prepareUpgrade()
		}
	})
	if sharedErr != nil {
		panic("robotstxt: the embedded WebAssembly core does not load: " + sharedErr.Error())
	}
	return shared
}

// New compiles the module with engine and instantiates it: an instance of
// its own, for measuring a first use or testing; package robotstxt uses
// Shared. Close it when done.
func New(engine Engine) (*Instance, error) {
	ctx := context.Background()
	c, err := compile(ctx, engine)
	if err != nil {
		return nil, err
	}
	in := &Instance{ctx: ctx}
	if err := in.instantiate(c, engine); err != nil {
		c.rt.Close(ctx)
		return nil, err
	}
	return in, nil
}

func compile(ctx context.Context, engine Engine) (*compiled, error) {
	rt := wazero.NewRuntimeWithConfig(ctx, engine.config())
	mod, err := rt.CompileModule(ctx, module)
	if err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("compiling the core with the %s: %w", engine, err)
	}
	return &compiled{rt: rt, mod: mod}, nil
}

// instantiate makes an instance of c and takes it as in's module; the
// caller holds in.mu or is the only one to know in.
func (in *Instance) instantiate(c *compiled, engine Engine) error {
	mod, err := c.rt.InstantiateModule(in.ctx, c.mod, wazero.NewModuleConfig().WithStartFunctions().WithName(""))
	if err != nil {
		return fmt.Errorf("instantiating the core: %w", err)
	}
	var fns [numFuncs]api.Function
	for f, name := range funcNames {
		if fns[f] = mod.ExportedFunction(name); fns[f] == nil {
			mod.Close(in.ctx)
			return fmt.Errorf("the core exports no %s: the embedded module is of another version", name)
		}
	}
	old := in.rt
	in.rt, in.mod, in.mem, in.fns, in.engine = c.rt, mod, mod.Memory(), fns, engine
	if old != nil {
		return nil // an upgrade keeps the scratch block, which the copied memory holds
	}
	in.stack[0] = scratchSize
	if err := in.fns[WasmAlloc].CallWithStack(in.ctx, in.stack[:]); err != nil || in.stack[0] == 0 {
		return fmt.Errorf("allocating the scratch block: %v", err)
	}
	in.scratch = uint32(in.stack[0])
	return nil
}

// prepareUpgrade compiles the module with the compiler, for the next Lock
// to move onto. It runs once, in the background.
func (in *Instance) prepareUpgrade() {
	defer close(in.compiling)
	if c, err := compile(in.ctx, Compiler); err == nil {
		in.upgrade.Store(c)
	} // else the interpreter goes on answering
}

// Upgrade compiles the module with the compiler now and moves the instance
// onto it, as Shared's does in the background: for tests.
func (in *Instance) Upgrade() error {
	c, err := compile(in.ctx, Compiler)
	if err != nil {
		return err
	}
	in.upgrade.Store(c)
	in.Lock()
	in.Unlock()
	return nil
}

// WaitCompiled waits for Shared's background compile and moves onto its
// result; it returns the engine the instance then runs on.
func (in *Instance) WaitCompiled() Engine {
	if in.compiling != nil {
		<-in.compiling
		in.Lock()
		in.Unlock()
	}
	return in.Engine()
}

// Engine returns the engine the instance runs on now.
func (in *Instance) Engine() Engine {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.engine
}

// moveTo moves the instance onto the compiled module c: a new instance of
// it, given a copy of the memory. The module keeps all of its state in its
// memory but the shadow stack pointer, which is back at its start between
// calls, so every address stays valid. in.mu is held.
func (in *Instance) moveTo(c *compiled) {
	oldRT, oldMem := in.rt, in.mem
	if err := in.instantiate(c, Compiler); err != nil {
		c.rt.Close(in.ctx)
		return // keep the interpreter
	}
	size := oldMem.Size()
	if grow := size/65536 - in.mem.Size()/65536; grow > 0 {
		if _, ok := in.mem.Grow(grow); !ok {
			panic("robotstxt: the WebAssembly core's memory cannot grow to move onto compiled code")
		}
	}
	data, _ := oldMem.Read(0, size)
	in.mem.Write(0, data)
	oldRT.Close(in.ctx)
}

// Close frees the instance, and every object in it.
func (in *Instance) Close() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if c := in.upgrade.Swap(nil); c != nil {
		c.rt.Close(in.ctx)
	}
	in.rt.Close(in.ctx)
}

// Lock takes the instance for one call, or a few in a row.
func (in *Instance) Lock() {
	in.mu.Lock()
	if in.upgrade.Load() != nil {
		if c := in.upgrade.Swap(nil); c != nil {
			in.moveTo(c)
		}
	}
}

// Unlock frees what the calls since Lock put in memory and lets the next
// caller in.
func (in *Instance) Unlock() {
	if in.ntemps > 0 {
		in.freeTemps()
	}
	in.used = 0
	in.mu.Unlock()
}

func (in *Instance) freeTemps() {
	for _, b := range in.temps[:in.ntemps] {
		in.Free(b.addr, b.len)
	}
	for _, b := range in.more {
		in.Free(b.addr, b.len)
	}
	in.ntemps, in.more = 0, in.more[:0]
}

// Call calls f with args (at most 8) and returns its result (0 for none).
// A trap, which only a bug in the core causes, panics.
func (in *Instance) Call(f Func, args ...uint64) uint64 {
	s := in.stack[:]
	copy(s, args)
	if err := in.fns[f].CallWithStack(in.ctx, s); err != nil {
		panic(fmt.Sprintf("robotstxt: %s failed in the WebAssembly core: %v; this is a bug, please report it",
			funcNames[f], err))
	}
	return s[0]
}

// Status calls f and returns its status.
func (in *Instance) Status(f Func, args ...uint64) uint32 {
	return uint32(in.Call(f, args...))
}

// Alloc allocates n bytes (8-aligned) in the module's memory, for objects
// that outlive a call; Free releases them. It panics when the memory cannot
// grow.
func (in *Instance) Alloc(n uint32) uint32 {
	p := uint32(in.Call(WasmAlloc, uint64(n)))
	if p == 0 && n > 0 {
		panic(fmt.Sprintf("robotstxt: the WebAssembly core is out of memory (%d bytes asked)", n))
	}
	return p
}

// Free releases a block from Alloc.
func (in *Instance) Free(p, n uint32) {
	if p != 0 {
		in.Call(WasmFree, uint64(p), uint64(n))
	}
}

// Out reserves n zeroed bytes, 8-aligned, for this call's outputs.
func (in *Instance) Out(n uint32) uint32 {
	p := in.take(n)
	b, _ := in.mem.Read(p, n)
	clear(b)
	return p
}

// take reserves n bytes of scratch, 8-aligned, or a block of their own.
func (in *Instance) take(n uint32) uint32 {
	start := (in.used + 7) &^ 7
	if uint64(start)+uint64(n) <= scratchSize {
		in.used = start + n
		return in.scratch + start
	}
	p := in.Alloc(n)
	if in.ntemps < len(in.temps) {
		in.temps[in.ntemps] = block{p, n}
		in.ntemps++
	} else {
		in.more = append(in.more, block{p, n})
	}
	return p
}

// Bytes copies b into memory for this call and returns its address, 0
// for none (the C ABI's (NULL, 0)).
func (in *Instance) Bytes(b []byte) uint32 {
	if len(b) == 0 {
		return 0
	}
	p := in.take(in.length(len(b)))
	in.mem.Write(p, b)
	return p
}

// String copies s into memory for this call, as Bytes does.
func (in *Instance) String(s string) uint32 {
	if len(s) == 0 {
		return 0
	}
	p := in.take(in.length(len(s)))
	in.mem.WriteString(p, s)
	return p
}

// length is n as a wasm32 length; the memory holds at most 4 GiB.
func (in *Instance) length(n int) uint32 {
	if uint64(n) > math.MaxUint32-scratchSize {
		panic(fmt.Sprintf("robotstxt: %d bytes do not fit in the WebAssembly core's memory", n))
	}
	return uint32(n)
}

// View returns the n bytes at p, which stay valid until the memory grows.
func (in *Instance) View(p, n uint32) []byte { return in.view(p, n) }

func (in *Instance) view(p, n uint32) []byte {
	b, ok := in.mem.Read(p, n)
	if !ok {
		panic(fmt.Sprintf("robotstxt: the WebAssembly core pointed outside its memory (%d+%d); this is a bug", p, n))
	}
	return b
}

// U8, U16, U32, U64 and F64 read little-endian values at p.
func (in *Instance) U8(p uint32) uint8   { return in.view(p, 1)[0] }
func (in *Instance) U16(p uint32) uint16 { return binary.LittleEndian.Uint16(in.view(p, 2)) }
func (in *Instance) U32(p uint32) uint32 { return binary.LittleEndian.Uint32(in.view(p, 4)) }
func (in *Instance) U64(p uint32) uint64 { return binary.LittleEndian.Uint64(in.view(p, 8)) }
func (in *Instance) F64(p uint32) float64 {
	return math.Float64frombits(in.U64(p))
}

// Bool reads a C bool at p.
func (in *Instance) Bool(p uint32) bool { return in.U8(p) != 0 }

// PutU8, PutU16, PutU32 and PutU64 write little-endian values at p.
func (in *Instance) PutU8(p uint32, v uint8)   { in.view(p, 1)[0] = v }
func (in *Instance) PutU16(p uint32, v uint16) { binary.LittleEndian.PutUint16(in.view(p, 2), v) }
func (in *Instance) PutU32(p uint32, v uint32) { binary.LittleEndian.PutUint32(in.view(p, 4), v) }
func (in *Instance) PutU64(p uint32, v uint64) { binary.LittleEndian.PutUint64(in.view(p, 8), v) }

// PutBool writes a C bool at p.
func (in *Instance) PutBool(p uint32, v bool) {
	var b uint8
	if v {
		b = 1
	}
	in.PutU8(p, b)
}

// Text copies len bytes at p out of memory ("" for none).
func (in *Instance) Text(p, n uint32) string {
	if n == 0 || p == 0 {
		return ""
	}
	return string(in.view(p, n))
}

// CString copies the NUL-terminated text at p ("" for NULL).
func (in *Instance) CString(p uint32) string {
	if p == 0 {
		return ""
	}
	size := in.mem.Size()
	for end := p; end < size; end++ {
		if in.U8(end) == 0 {
			return string(in.view(p, end-p))
		}
	}
	panic("robotstxt: unterminated string in the WebAssembly core; this is a bug")
}

// MemorySize returns the bytes of memory the instance has: it grows as
// the core allocates, and never shrinks.
func (in *Instance) MemorySize() uint64 {
	in.mu.Lock()
	defer in.mu.Unlock()
	return uint64(in.mem.Size())
}
