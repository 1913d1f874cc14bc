#ifndef CALC_CREADLINE_SHIM_H
#define CALC_CREADLINE_SHIM_H
// readline.h uses FILE without including stdio.h itself.
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// readline's own record of what it drew (display.c, declared in its private rlprivate.h but
// exported by every build since readline 4): the cursor's row and column and the last row of
// the prompt and line, counted from the prompt's row. calc draws its live rows below that last
// row. And the stream readline writes to during a read, which calc points at a buffer while a
// frame is drawn, so that the frame reaches the terminal in one write.
extern int _rl_last_v_pos;
extern int _rl_last_c_pos;
extern int _rl_vis_botlin;
extern FILE *_rl_out_stream;

// A signal readline has caught and not yet handled (signals.c, exported like the above): calc
// checks it with signals blocked before it waits for a key, so that none is left waiting.
extern volatile int _rl_caught_signal;

// glibc's ppoll, which Swift's Glibc module does not export (it is a GNU extension): a wait
// for input that unblocks signals only while it waits, so that a signal arriving just before
// the wait ends it instead of waiting for the next key.
#include <poll.h>
#include <signal.h>
#include <time.h>
int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);
#endif
