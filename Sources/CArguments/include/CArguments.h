#ifndef CALC_CARGUMENTS_H
#define CALC_CARGUMENTS_H
// The process's arguments as the system passed them, kept before main by a constructor
// (arguments.c): calc_argv() is the NULL-terminated vector, calc_argc() its count (an empty
// vector and 0 before the constructor has run).
char **calc_argv(void);
int calc_argc(void);
#endif
