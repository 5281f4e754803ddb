/* A stand-in for bcryptprimitives.dll under wine 8, which lacks it: Rust's
 * standard library (1.78 on) imports ProcessPrng from it for its random
 * numbers. Windows 10 and later have the real one. Fills through
 * RtlGenRandom (advapi32's SystemFunction036), which wine has. */
#include <windows.h>
#define SystemFunction036 NTAPI SystemFunction036
#include <ntsecapi.h>
#undef SystemFunction036

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        /* RtlGenRandom takes a ULONG length. */
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
