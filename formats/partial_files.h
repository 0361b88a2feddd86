/* partial_files.h - the outputs being written (io_output's path.partial-PID files), removed when
 * SIGINT, SIGTERM or SIGHUP ends the process while they are open: a Ctrl-C during the write (after
 * the computation, whose own SIGINT handler cancels the run) left OUT.npy.partial-PID behind. */
#ifndef PW_PARTIAL_FILES_H
#define PW_PARTIAL_FILES_H

/* Remember path (a partial file just created); the slot for io_partial_forget, or -1 when every
 * slot is taken (the file is then only left behind by a signal, as before). */
int io_partial_remember(const char *path);

/* The file is renamed into place or removed: a signal no longer removes it. */
void io_partial_forget(int slot);

#endif
