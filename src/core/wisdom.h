/*
 * wisdom.h - remembered tile-width model fits, in the spirit of FFTW's wisdom.
 *
 * A training run (model_train.h) measures d and tau_s for one kind of work on one machine; the
 * numbers do not depend on the input's size or content, only on the app and its types, the
 * device, the tile height and the worker cap.  Kept under a key naming all of these, they let a
 * later run of the same kind skip the training entirely.  The file is plain text, one fit per
 * line ("key<TAB>d<TAB>tau_s<TAB>workers_available"), written whole to a temporary file and
 * renamed over the old one, so a reader never sees half a file; unreadable or malformed lines
 * are ignored (the run then trains, as without wisdom).
 */
#ifndef PW_WISDOM_H
#define PW_WISDOM_H

#include <stddef.h>

#include "model_train.h"
#include "plan.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PW_WISDOM_KEY_MAX 256

/* Key for `app` (e.g. "sat-u8-i32") run with `plan`: the backend and device ("cpu:4 threads",
 * "cuda:NVIDIA H100 80GB HBM3:132 SMs"), the tile height and the worker cap.  PW_ERR_INVALID_ARGUMENT
 * when it does not fit in size bytes or app holds a tab or newline. */
pw_status pw_wisdom_key(const char *app, const pw_plan *plan, char *key, size_t size);

/* The default file: $PEERWAVE_WISDOM if set ("" or "none": no wisdom), else
 * $XDG_CACHE_HOME/peerwave/wisdom.tsv, else $HOME/.cache/peerwave/wisdom.tsv.  Returns path, or
 * NULL when there is none (no variable set, or it does not fit in size bytes). */
const char *pw_wisdom_default_path(char *path, size_t size);

/* 1 and fit's d, tau_s, workers_available set when the file holds key; 0 otherwise (no file,
 * no such key, a malformed line). */
int pw_wisdom_find(const char *path, const char *key, pw_model_fit *fit);

/* Record fit under key (replacing an older line with the same key), creating the file and its
 * directory (one level) when missing.  0 on success, -1 when it cannot be written (errno set);
 * callers treat that as "not remembered", never as a failed run.  Not written: a file at path
 * that is not a wisdom file (EEXIST: not our header first; a device, a directory).  Writers take turns on a lock file beside it (path.lock).  Reading takes
 * only regular files no larger than the largest we write. */
int pw_wisdom_save(const char *path, const char *key, const pw_model_fit *fit);

#ifdef __cplusplus
}
#endif
#endif
