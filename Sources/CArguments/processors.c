// The processors that libdispatch counts at every start of the static calc, without reading
// /sys. libdispatch comes with the Swift runtime's concurrency library (through
// swift-argument-parser and FoundationEssentials) and runs nothing in calc, but its constructor
// asks `sysconf` for the processors configured and on line, which glibc reads from
// /sys/devices/system/cpu twice: two opens, reads and closes, about 20 µs of a 0.8 ms start
// (Documentation/Performance.md, "Start-up, session 20").
//
// `make` links the static calc with `--wrap=sysconf`: every call of `sysconf` in the binary
// comes here, and this answers those two questions with the processors the process may run on
// (sched_getaffinity, one system call, the number a thread pool can use), and passes every
// other question to glibc's `sysconf` (`__real_sysconf`). In a build without the option
// (`swift build`, the tests) nothing calls this, and the weak `__real_sysconf` stays unresolved.
#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>

extern long __real_sysconf(int name) __attribute__((weak));

__attribute__((visibility("hidden"))) long __wrap_sysconf(int name) {
  if (name == _SC_NPROCESSORS_CONF || name == _SC_NPROCESSORS_ONLN) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  }
  return __real_sysconf(name);
}
#endif
