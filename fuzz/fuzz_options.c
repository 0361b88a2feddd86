/* fuzz_options.c - libFuzzer target: problem and option validation.  Bytes become options (any
 * value, legal or not), a small shape, dependence vectors and sequences; whatever the library
 * accepts must give the sequential reference's answer (an oracle, not only "no crash"). */
#include <string.h>

#include "fuzz_common.h"
#include "peerwave.h"

typedef struct bytes {
    const uint8_t *p;
    size_t n;
} bytes;

static int take(bytes *b)
{
    if (!b->n) return 0;
    b->n--;
    return *b->p++;
}

static int signed_take(bytes *b) { return (int8_t)take(b); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes b = {data, size};
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU; /* the fuzzer runs where there is no GPU */
    o.strategy = (pw_strategy)(take(&b) % 6 - 1);
    o.shape = (pw_tile_shape)(take(&b) % 4 - 1);
    o.tile_h = signed_take(&b);
    o.tile_w = signed_take(&b) * 3;
    o.threads = take(&b) % 7 - 1;
    o.max_blocks = signed_take(&b);
    o.watchdog_ms = take(&b) ? 0 : -1;
    int64_t rows = take(&b) % 40 - 1, cols = take(&b) % 40 - 1;

    /* Dependence vectors: skew must make every vector point to an earlier diagonal step. */
    pw_dep deps[8];
    int n_deps = take(&b) % 9;
    for (int k = 0; k < n_deps; k++) deps[k] = (pw_dep){signed_take(&b) % 5, signed_take(&b) % 5};
    int skew = -1;
    if (pw_deps_skew(deps, n_deps, &skew) == PW_OK)
        for (int k = 0; k < n_deps; k++)
            if (deps[k].di * (skew + 1) + deps[k].dj <= 0) __builtin_trap();

    /* SAT u8 -> i32 from the remaining bytes vs the sequential reference. */
    uint8_t img[40 * 40];
    int32_t out[40 * 40], ref[40 * 40];
    for (int k = 0; k < 40 * 40; k++) img[k] = (uint8_t)take(&b);
    pw_image in = {PW_U8, rows, cols, 0, img}, o1 = {PW_I32, rows, cols, 0, out}, o2 = o1;
    o2.data = ref;
    pw_options seq;
    pw_options_init(&seq);
    seq.backend = PW_BACKEND_CPU;
    seq.strategy = PW_STRATEGY_SEQUENTIAL;
    pw_status st = pw_sat(&in, &o1, &o, NULL);
    if (st == PW_OK) {
        if (pw_sat(&in, &o2, &seq, NULL) != PW_OK || memcmp(out, ref, sizeof(int32_t) * (size_t)(rows * cols)))
            __builtin_trap();
    } else if (rows >= 1 && cols >= 1 && st != PW_ERR_INVALID_ARGUMENT && st != PW_ERR_INVALID_TILE &&
               st != PW_ERR_UNSUPPORTED) {
        __builtin_trap(); /* a valid image can only be refused for its options */
    }

    /* SW on letters from the input (some invalid) vs the reference. */
    char a[24], c[24];
    int n = take(&b) % 24, m = take(&b) % 24;
    for (int k = 0; k < n; k++) a[k] = "ACGTNacgt*-1"[take(&b) % 12];
    for (int k = 0; k < m; k++) c[k] = "ACGTN"[take(&b) % 5];
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.gap_open = take(&b) % 8;
    p.gap_extend = take(&b) % 8;
    pw_sw_result r1, r2;
    if (pw_sw(a, n, c, m, &p, &o, &r1) == PW_OK) {
        if (pw_sw(a, n, c, m, &p, &seq, &r2) != PW_OK || r1.score != r2.score || r1.end_a != r2.end_a ||
            r1.end_b != r2.end_b)
            __builtin_trap();
    }
    return 0;
}
