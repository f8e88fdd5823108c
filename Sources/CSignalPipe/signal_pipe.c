#include "parley_signal_pipe.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The pipe's write end for the handler; -1 until a signal is routed. A sig_atomic_t so the
   handler reads it whole. */
static volatile sig_atomic_t write_end = -1;

static void write_signal_number(int signo) {
    int saved = errno;
    unsigned char byte = (unsigned char)signo;
    int fd = write_end;
    if (fd >= 0) {
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
    }
    errno = saved;
}

int parley_signal_pipe_route(int write_fd, int signo) {
    write_end = write_fd;
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = write_signal_number;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signo, &action, NULL);
}

int parley_signal_pipe_restore_default(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    return sigaction(signo, &action, NULL);
}
