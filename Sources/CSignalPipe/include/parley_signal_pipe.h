#ifndef PARLEY_SIGNAL_PIPE_H
#define PARLEY_SIGNAL_PIPE_H

/* Signals as bytes on a pipe. The handler only writes the signal number to the pipe
   (async-signal-safe); the program reads the other end and does the work where it may do
   anything. One pipe per process: the write end lives in signal_pipe.c, the only copy of
   that state, whichever modules include this header. */

/// Routes `signo` into the pipe whose write end is `write_fd` (which then belongs to the
/// handler: it must stay open while any signal is routed). Returns 0, or -1 with errno set.
int parley_signal_pipe_route(int write_fd, int signo);

/// Gives `signo` its default disposition back. Returns 0, or -1 with errno set.
int parley_signal_pipe_restore_default(int signo);

#endif
