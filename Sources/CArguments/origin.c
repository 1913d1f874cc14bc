// glibc's start of a static program asks the kernel for the program's own path
// (readlink("/proc/self/exe"), `_dl_get_origin` in dl-origin.o, called by `_dl_non_dynamic_init`),
// for `$ORIGIN` in the search paths of libraries that a static program dlopens. calc dlopens
// none of its own, and the system's (NSS modules, through static glibc) are found by absolute
// paths. This file defines `_dl_get_origin` with glibc's answer for an origin it cannot tell,
// `(char *)-1`, so that the static link never takes dl-origin.o out of libc.a: one system call
// and about 10 µs less at every start (Documentation/Performance.md, "Start-up, session 20").
//
// A libc whose other objects define more in that object, or that names the function otherwise,
// fails the link on the duplicate or leaves this definition unused; it does not change a start.
// In a dynamic build the dynamic loader keeps its own and this one, hidden, goes unused.
#if defined(__linux__)
__attribute__((visibility("hidden"))) const char *_dl_get_origin(void) { return (const char *)-1; }
#endif
