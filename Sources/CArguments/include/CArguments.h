#ifndef CALC_CARGUMENTS_H
#define CALC_CARGUMENTS_H
// The process's arguments as the system passed them, kept before main by a constructor
// (arguments.c): calc_argv() is the NULL-terminated vector, calc_argc() its count (an empty
// vector and 0 before the constructor has run).
char **calc_argv(void);
int calc_argc(void);
// Has glibc's malloc serve blocks below `bytes` from its heap, not from mmap regions of their
// own (mallopt(M_MMAP_THRESHOLD)): 1 when set, 0 where it cannot be or with another C library
// (allocator.c).
int calc_set_mmap_threshold(int bytes);
// Has glibc's heap keep `pad` bytes of address space ahead of what it uses, taken now, and asks
// for transparent huge pages (madvise(MADV_HUGEPAGE)) for that room from the first 2 MiB
// boundary above the present break: 1 when the kernel took the advice, 0 where it did not or
// cannot (less than 2 MiB of room beyond the boundary, a kernel without huge pages, another C
// library) (allocator.c).
int calc_advise_heap(unsigned long pad);
#endif
