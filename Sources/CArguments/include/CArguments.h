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
#endif
