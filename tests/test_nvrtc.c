/*
 * test_nvrtc.c - every tile processor compiled at run time by NVRTC from the embedded device
 * headers (src/jit/rtc.h), with the built-in apps' cells and with a sample cell written the way a
 * user writes one: a header that NVRTC cannot compile (a C library include, a host-only function,
 * a missing embedded file) fails here, in CI, where there is no GPU.  Each kernel is also built
 * for the portable target (PTX).  SKIP (77) where the library was built without NVRTC.
 *
 *   test_nvrtc [TARGET]   (default sm_90; the arguments of one case are printed on failure)
 */
#include <stdio.h>
#include <string.h>

#include "test_util.h"

#ifndef PW_HAVE_NVRTC
int main(void)
{
    printf("SKIP: built without NVRTC\n");
    return 77;
}
#else
#include "../src/jit/rtc.h"

/* A cell as a user would write it (edit distance: unit costs, the diagonal free on a match),
 * in the two forms the linear processors take. */
static const char sample_cell[] =
    "#include \"src/core/fixed_width.h\"\n"
    "#include \"src/core/hd.h\"\n"
    "#include \"src/cuda/device/linear_storage.cuh\"\n"
    "#include \"src/cuda/device/reductions.cuh\"\n"
    "#include \"src/cuda/device/tile_steps.cuh\"\n"
    "PW_HD static inline int32_t edit_cell(int32_t cost, int32_t up, int32_t left, int32_t diag)\n"
    "{ int32_t m = diag + cost; m = up + 1 < m ? up + 1 : m; return left + 1 < m ? left + 1 : m; }\n"
    "struct EditApp : pw_linear_storage<int32_t>, pw_no_reduction { /* bus, left, diag; no reduction */\n"
    "    typedef int32_t T;\n"
    "    typedef int32_t Row; typedef int32_t Col; typedef int32_t Pre; /* Col is shuffled: 32-bit words */\n"
    "    const uint8_t *a, *b;\n"
    "    static constexpr bool stages_block = false;\n"
    "    static constexpr bool prunes = false;\n"
    "    __device__ void begin_block() const {}\n"
    "    __device__ T cell(int64_t i, int64_t j, T up, T l, T d) const { return edit_cell(a[i] != b[j], up, l, d); }\n"
    "    __device__ Row row_load(int64_t i) const { return a[i]; }\n"
    "    __device__ Col col_load(int64_t j) const { return b[j]; }\n"
    "    __device__ Pre pre(Row x, Col y) const { return x != y; }\n"
    "    __device__ T cell_pre(Pre c, T up, T l, T d) const { return edit_cell(c, up, l, d); }\n"
    "    __device__ T shfl_up_value(const T &v) const { return __shfl_up_sync(0xffffffffu, v, 1); }\n"
    "    __device__ void row_out(int64_t, int64_t, const T &) const {}\n"
    "};\n";

struct kernel_case {
    const char *includes; /* the device headers, one per line as #include lines, or a cell text */
    const char *proc;     /* the processor type */
    int bounded;          /* its policy has __launch_bounds__ */
};

#define INC(h) "#include \"src/cuda/device/" h "\"\n"

static const struct kernel_case cases[] = {
    {INC("linear_proc.cuh") INC("app_sw.cuh"), "LinearProc<SwApp<SwAffineGaps>, 1>", 0},
    {INC("linear_proc.cuh") INC("app_sw.cuh"), "LinearProc<SwApp<SwLinearGaps>, 4>", 0},
    {INC("linear_proc.cuh") INC("app_dtw.cuh"), "LinearProc<DtwApp<double>, 2>", 0},
    {INC("linear_proc.cuh") INC("app_sat.cuh"), "LinearProc<SatDiagApp<uint16_t, int64_t>, 1>", 0},
    {INC("warp_proc.cuh") INC("app_sw.cuh"), "WarpProc<SwApp<SwAffineGaps>, 2>", 1},
    {INC("warp_proc.cuh") INC("app_sw.cuh"), "WarpProc<SwApp<SwLinearGaps>, 8>", 1},
    {INC("warp_proc.cuh") INC("app_sw.cuh"), "WarpProc<SwApp<SwAffineGaps, false, true>, 2>", 1}, /* block pruning */
    {INC("warp_proc.cuh") INC("app_dtw.cuh"), "WarpProc<DtwApp<float>, 4>", 1},
    {INC("warp_proc.cuh") INC("app_dtw.cuh"), "WarpProc<DtwApp<double, false, false, 1>, 2>", 1}, /* the squared cost fixed */
    {INC("prefix_sum_proc.cuh") INC("prefix_sum_sources.cuh"), "PrefixSumProc<pw_sat_src<uint8_t, int32_t>, int32_t, true>", 1},
    {INC("prefix_sum_proc.cuh") INC("prefix_sum_sources.cuh"), "PrefixSumProc<pw_sat_src<float, double>, double, false>", 1},
    {INC("prefix_sum_proc.cuh") INC("prefix_sum_sources.cuh"), "PrefixSumProc<pw_bin_src<uint8_t>, int32_t, true>", 1},
    {INC("full_proc.cuh") INC("app_sat.cuh"), "FullProc<SatApp<float, float, pw_hybrid>>", 0},
    {INC("full_proc.cuh") INC("app_inthist.cuh"), "FullProc<InthistApp<int32_t, pw_row_major>>", 0},
    {INC("full_proc.cuh") INC("app_stencil.cuh"), "FullProc<StencilApp<double, pw_row_major>>", 0},
    /* waits on every row of the previous sweep a user grid cell's reads reach (pw_wait_tile) */
    {INC("full_proc.cuh") INC("app_stencil.cuh"), "FullProc<StencilApp<float, pw_row_major>, true>", 0},
    {INC("stencil_warp_proc.cuh") INC("app_stencil.cuh"), "StencilWarpProc<float, StencilCell<float, true>, 2>", 0},
    {INC("stencil_warp_proc.cuh") INC("app_stencil.cuh"), "StencilWarpProc<double, StencilCell<double, false>, 4>", 0},
    {INC("stencil_window_proc.cuh") INC("app_stencil.cuh"), "StencilWindowProc<float, StencilCell<float, false>>", 0},
    {INC("linear_proc.cuh"), "LinearProc<EditApp, 2>", 0},
    /* the 3-D processor (peer only: its band kernel trades a band's edges itself) on a sample cell */
    {INC("warp3_proc.cuh") "struct Sum3 { __device__ float operator()(int64_t, int64_t, int64_t, float self, float west,\n"
                           "    float north, float top) const { return 0.5f * self + west + north + top; } };\n",
     "Warp3Proc<float, Sum3, 4, 8>", 1},
    {INC("warp_proc.cuh"), "WarpProc<EditApp, 4>", 1},
};

/* The five kernels of one case for target; checks the image and the lowered names. */
static int compile_case(const struct kernel_case *c, const char *target)
{
    static const char *const schedules[] = {"pw_peer_kernel", "pw_band_kernel", "pw_barrier_kernel", "pw_diagonal_kernel",
                                            "pw_tasks_kernel"};
    enum { N = sizeof schedules / sizeof *schedules };
    char source[8192], names[N][512];
    const char *exprs[N];
    const char *suffix = c->bounded ? "_bounded" : "";
    snprintf(source, sizeof source, INC("schedules.cuh") "%s%s", c->includes, strstr(c->proc, "EditApp") ? sample_cell : "");
    for (int k = 0; k < N; k++) {
        snprintf(names[k], sizeof names[k], "%s%s<%s>", schedules[k], suffix, c->proc);
        exprs[k] = names[k];
    }
    pw_rtc_image img;
    pw_status st = pw_rtc_compile(source, "test_nvrtc.cu", target, exprs, N, &img);
    int ok = st == PW_OK && img.size > 0 && img.n_lowered == N;
    for (int k = 0; ok && k < N; k++) ok = img.lowered[k] && !strncmp(img.lowered[k], "_Z", 2);
    if (ok && !img.is_cubin) ok = strstr(img.code, ".entry") != NULL; /* PTX text with the kernels */
    if (!ok)
        fprintf(stderr, "  %s for %s: %s (%s)\n%s\n", c->proc, target, pw_status_str(st), pw_error_detail(),
                img.log ? img.log : "");
    pw_rtc_image_free(&img);
    return ok;
}

int main(int argc, char **argv)
{
    const char *target = argc > 1 ? argv[1] : "sm_90";
    printf("NVRTC %d, target %s and compute_80\n", pw_rtc_version(), target);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const int ok = compile_case(&cases[k], target) && compile_case(&cases[k], "compute_80");
        CHECK(ok, "%s", cases[k].proc);
        printf("%s %s\n", ok ? "ok  " : "FAIL", cases[k].proc);
    }

    /* SW's warp-rows engine (its own kernels, not the four schedules) */
    for (int t = 0; t < 2; t++) {
        const char *names[] = {"pw_swr_kernel<12>", "pw_swr_pairs_kernel<12>", "pw_swr_profile_kernel<12>",
                               "pw_swr_kernel<12, false, false, true>", "pw_swr_pairs_kernel<12, false, false, true>"};
        const char *on = t ? "compute_80" : target;
        pw_rtc_image img;
        pw_status st = pw_rtc_compile(INC("sw_warp_rows_proc.cuh"), "test_nvrtc.cu", on, names, 5, &img);
        CHECK(st == PW_OK && img.n_lowered == 5, "sw_warp_rows_proc.cuh for %s: %s (%s)\n%s", on, pw_status_str(st),
              pw_error_detail(), img.log ? img.log : "");
        printf("%s sw_warp_rows_proc.cuh (%s)\n", st == PW_OK ? "ok  " : "FAIL", on);
        pw_rtc_image_free(&img);
    }

    /* Failures are reported, not crashed on: a compile error, a header that is not embedded, a
     * name expression that names nothing, a bad target. */
    pw_rtc_image img;
    const char *bad_name[] = {"pw_peer_kernel<NoSuchProc>"};
    CHECK(pw_rtc_compile(INC("schedules.cuh") "__global__ void k() { undeclared(); }\n", NULL, target, NULL, 0, &img) ==
          PW_ERR_COMPILE, "a compile error");
    CHECK(img.log && strstr(img.log, "undeclared") && strstr(pw_error_detail(), "error"), "its log: %s", pw_error_detail());
    pw_rtc_image_free(&img);
    /* a form's function the user's cell lacks, called from the generated entry points: named as the
     * CPU's build names it (NVRTC's 'identifier "pw_boundary" is undefined' there before 2026-12-03) */
    CHECK(pw_rtc_compile("#line 1 \"<peerwave: GPU entry points>\"\n__device__ int f() { return pw_boundary(); }\n", NULL,
                         target, NULL, 0, &img) == PW_ERR_COMPILE, "a missing cell function");
    CHECK(strncmp(pw_error_detail(), "the cell uses pw_boundary but does not define it", 48) == 0, "its detail: %s",
          pw_error_detail());
    pw_rtc_image_free(&img);
    CHECK(pw_rtc_compile("#include <stdint.h>\n", NULL, target, NULL, 0, &img) == PW_ERR_COMPILE, "a C library header");
    pw_rtc_image_free(&img);
    CHECK(pw_rtc_compile("#include \"src/cuda/device/no_such.cuh\"\n", NULL, target, NULL, 0, &img) == PW_ERR_COMPILE,
          "a header that is not embedded");
    pw_rtc_image_free(&img);
    CHECK(pw_rtc_compile(INC("schedules.cuh"), NULL, target, bad_name, 1, &img) == PW_ERR_COMPILE, "a kernel that is not there");
    pw_rtc_image_free(&img);
    CHECK(pw_rtc_compile("", NULL, "vax", NULL, 0, &img) == PW_ERR_INVALID_ARGUMENT, "a bad target");
    pw_rtc_image_free(&img);
    CHECK(pw_rtc_compile(NULL, NULL, target, NULL, 0, &img) == PW_ERR_NULL_ARGUMENT, "no source");
    pw_rtc_image_free(&img);
    return test_finish();
}
#endif
