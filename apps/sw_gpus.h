/*
 * sw_gpus.h - pw_sw of one long pair on the warp-rows engine over several GPUs of this host
 * (src/cuda/sw_warp_rows_gpus.cu), for `peerwave sw --gpus N / --devices ...`; other runs take
 * the bands of src/dist/.
 */
#ifndef PW_APPS_SW_GPUS_H
#define PW_APPS_SW_GPUS_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pw_sw's answer, the pair's rounds of warps dealt over `devices` (2 .. 16, GPUs of one kind that
 * reach each other's memory; the same GPU named twice runs two halves side by side, when
 * options->max_blocks lets both fit).  PW_ERR_UNSUPPORTED, with nothing run, where the engine
 * does not take the pair (as on one GPU: too short, protein, a trace ...), where the GPUs
 * differ or cannot reach each other, and -- until it has run on several GPUs -- unless
 * PEERWAVE_SW_ENGINE asks for the engine (rows or rows32). */
pw_status pw_sw_on_gpus(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                        const pw_options *options, const int *devices, int n_devices, pw_sw_result *result);

#ifdef __cplusplus
}
#endif

#endif
