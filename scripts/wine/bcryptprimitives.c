/* A stand-in for Windows 10's bcryptprimitives.dll, for testing under Wine 8 only.
 *
 * Rust's standard library (1.78 and later) asks Windows for random bytes with
 * ProcessPrng, which Wine 8.0 (Debian 12's) does not provide: pebble.exe would not
 * start there. This one function fills the buffer from RtlGenRandom
 * (advapi32's SystemFunction036), which every Wine has. scripts/wine-test.sh puts
 * it beside pebble.exe in a scratch folder; it is never part of what users get
 * (Windows 10 and 11 have the real DLL).
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
