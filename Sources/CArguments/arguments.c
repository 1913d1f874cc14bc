// The process's arguments, kept by a constructor: for calc's command line
// (`CalcCommand.processArguments`), and for Swift's `CommandLine` in the static calc.
//
// On Linux the Swift runtime finds argv without help from main: a static constructor in its
// CommandLine.cpp opens /proc/self/maps, reads it with fgets and sscanf to find the stack, and
// walks back from `environ`. In the fully static calc that constructor ran at every start: 58 K of
// a start's 356 K instructions, and glibc's scanf and stdio code (about 50 KB) among the pages a
// start touches (Documentation/Performance.md, "Start-up memory toward 1.25× bc").
//
// glibc calls every ELF constructor with argc, argv and envp, in static and dynamic programs
// alike. This file keeps them, and defines the runtime's entry point
// `_swift_stdlib_getUnsafeArgvArgc` (the standard library's only way to its arguments) from them:
// with the symbol defined here, the static link never takes CommandLine.cpp's object out of
// libswiftCore.a, so its constructor is not in the binary (a duplicate definition, should a later
// runtime put more in that object, fails the link rather than a start). In a dynamic build the
// runtime's shared library keeps its own definition and this one goes unused.

static char *no_arguments[] = {0};
static char **kept_argv = no_arguments;
static int kept_argc = 0;

__attribute__((constructor)) static void keep_arguments(int argc, char **argv, char **envp) {
  (void)envp;
  if (argv) {
    kept_argv = argv;
    kept_argc = argc;
  }
}

char **calc_argv(void) { return kept_argv; }

int calc_argc(void) { return kept_argc; }

// The runtime's signature (swift/shims/RuntimeStubs.h): the vector, its count through
// `outArgLen`. Its override (`_swift_stdlib_overrideUnsafeArgvArgc`) is for the interpreter's
// JIT only, which never runs a static executable.
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
  *outArgLen = kept_argc;
  return kept_argv;
}
