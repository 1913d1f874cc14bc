// The allocator's one tunable that calc sets (Platform.tuneAllocator() in Sources/CalcCLI):
// malloc.h is not part of Swift's Glibc module.
#include "CArguments.h"

// Any header of the C library defines __GLIBC__ for glibc (through <features.h>).
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int calc_set_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
  return mallopt(M_MMAP_THRESHOLD, bytes);
#else
  (void)bytes;
  return 0;
#endif
}
