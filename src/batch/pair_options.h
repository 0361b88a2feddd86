/* pair_options.h - the options of one pair of a batch run through a single-pair function (pw_sw,
 * pw_dtw_f64) on one CPU thread: the caller's vector set and cancel flag, the fixed default
 * width (no training, no wisdom file: a batch's pairs are small and many). */
#ifndef PW_PAIR_OPTIONS_H
#define PW_PAIR_OPTIONS_H

#include "peerwave.h"

static inline pw_options pw_pair_options(const pw_options *caller)
{
    pw_options o;
    pw_options_init(&o);
    if (caller) {
        o.simd = caller->simd;
        o.cancel = caller->cancel; /* looked at every tile */
    }
    o.backend = PW_BACKEND_CPU;
    o.threads = 1;
    o.wisdom = "none";
    o.width_model = -1;
    return o;
}

#endif
