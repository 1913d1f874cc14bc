// Swift's crash backtracer is left out of the static calc: this file defines the one symbol of
// the runtime's Backtrace.cpp that the rest of the runtime reads, so the static link never takes
// that object (nor CrashHandlerLinux.cpp's, which only it calls) out of libswiftCore.a.
//
// That object's constructor ran at every start: it read SWIFT_BACKTRACE, asked whether stdout
// and stderr are terminals, read /proc/self/exe and looked for a `swift-backtrace` program in
// eight folders beside the binary (libexec/swift/linux, bin, …), which an installed calc never
// has (Documentation/Performance.md, "Start-up, session 20"). Without it a crash still prints
// the runtime's message (swift_reportError); the kernel's default action follows.
//
// `_swift_backtraceSettings` is the runtime's BacktraceSettings (swift/Runtime/Backtrace.h, 88
// bytes in Swift 6.3); Errors.cpp reads its `enabled` field, whose zero is Off. Zeroed and
// larger than the struct, every field a runtime reads is zero: off, none, no. A runtime whose
// other objects call into Backtrace.cpp's object would take it in again, and the link fails on
// this duplicate definition rather than a start. In a dynamic build the runtime's shared library
// keeps its own (hidden) definition and this one goes unused.
//
// Every Swift executable's swiftrt.o holds the address of `_swift_backtrace_isThunkFunction`, so
// that the backtracer finds it in a static binary; nothing in the process calls it. Its
// signature is `bool (const char *)` in the Swift calling convention, which for these types
// passes and returns as C does.
//
// Both are hidden: within the static link they stand for the runtime's own, and in a dynamic
// build (tests) they never take the place of the shared runtime's for another library.
#if defined(__linux__)
__attribute__((visibility("hidden"), aligned(16))) char _swift_backtraceSettings[256];

__attribute__((visibility("hidden"))) _Bool _swift_backtrace_isThunkFunction(
    const char *mangledName) {
  (void)mangledName;
  return 0;
}
#endif
