/*
 * A test-only bcryptprimitives.dll for Wine 8.0, which lacks it: Go 1.22+ loads ProcessPrng
 * from it at start (Windows 10 and later have it), and without it a Go DLL stops with
 * "fatal error: bcryptprimitives.dll not found". This ProcessPrng fills the buffer from
 * RtlGenRandom (advapi32's SystemFunction036), Windows' older source of the same randomness.
 * test/helpers/wine-prefix.sh builds it with mingw-w64 into the test prefix's system32; it
 * is never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
