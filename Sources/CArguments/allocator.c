// The allocator's tunables that calc sets (Platform.tuneAllocator() and
// Platform.adviseHugePagesForScripts() in Sources/CalcCLI): malloc.h is not part of Swift's Glibc
// module.
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

#if defined(__GLIBC__)
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

int calc_advise_heap(unsigned long pad) {
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  const uintptr_t huge = 2ul << 20;
  void *now = sbrk(0);
  if (now == (void *)-1 || pad > (1ul << 30) || mallopt(M_TOP_PAD, (int)pad) != 1) return 0;
  // The heap's next extension takes `pad` more than it needs; a block larger than the room at
  // its top (`keepcost`) makes it now. `volatile`: a block allocated and freed unused may be
  // left out by the compiler.
  void *volatile block = malloc(mallinfo2().keepcost + (1ul << 20));
  free(block);
  uintptr_t start = ((uintptr_t)now + huge - 1) & ~(huge - 1);
  uintptr_t end = (uintptr_t)sbrk(0);
  if (end < start + huge) return 0;
  return madvise((void *)start, end - start, MADV_HUGEPAGE) == 0;
#else
  (void)pad;
  return 0;
#endif
}
