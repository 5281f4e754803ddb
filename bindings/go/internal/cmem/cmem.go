// Package cmem reports how much C heap memory is in use, for the binding's
// memory-bound test: the core allocates with malloc, which the Go runtime's
// statistics do not see, and the process's RSS also counts what malloc
// keeps cached in its per-thread arenas after a free.
package cmem

/*
#include <stdlib.h> // defines __GLIBC__ on glibc
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
static long long cmem_in_use(void) {
    struct mallinfo2 mi = mallinfo2();
    return (long long)(mi.uordblks + mi.hblkhd);
}
#else
static long long cmem_in_use(void) { return -1; }
#endif
*/
import "C"

// InUse returns the bytes malloc has handed out and not had back (glibc's
// mallinfo2: arena and mmap allocations), or -1 where it cannot tell.
func InUse() int64 { return int64(C.cmem_in_use()) }
