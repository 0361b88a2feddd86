/*
 * align_env.c - the alignments' tuning switches in the environment (docs/ALIGN.md): read in one
 * place, strictly (a whole number >= 1), and refused with their name before an alignment starts
 * when set to anything else (1e3, abc, 0, -1 were once taken as "unset" or as 1, silently).
 */
#include <stdint.h>
#include <stdlib.h>

#include "align_internal.h"
#include "../core/env_number.h"
#include "../core/status_detail.h"

/* The alignment's tuning switches: a whole number >= 1, else unset (pw_align_env_check refuses
 * anything else before an alignment starts, so a typo is never a silent default). */
static const char *const env_switches[] = {"PEERWAVE_PATH_ROWS", "PEERWAVE_PATH_STORE_MB", "PEERWAVE_PATH_STRIP_H",
                                            "PEERWAVE_PATH_FULL_CELLS", "PEERWAVE_ALIGN_GPU_CELLS"};

int64_t pw_align_env_int(const char *name, int64_t fallback)
{
    long long x;
    return pw_env_number(name, 1, INT64_MAX, &x) > 0 ? (int64_t)x : fallback;
}

pw_status pw_align_env_check(void)
{
    for (size_t k = 0; k < sizeof env_switches / sizeof env_switches[0]; k++) {
        long long x;
        if (pw_env_number(env_switches[k], 1, INT64_MAX, &x) < 0) {
            pw_set_error_detail("%s='%s': a whole number >= 1 expected (or leave it unset)", env_switches[k],
                                getenv(env_switches[k]));
            return PW_ERR_INVALID_ARGUMENT;
        }
    }
    return PW_OK;
}
