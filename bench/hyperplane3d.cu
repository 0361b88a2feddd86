/*
 * hyperplane3d.cu - seed 004's baseline for 3-D wavefronts on a GPU: one kernel launch per
 * hyperplane i + j + k = d, one thread a point, over the demonstrator's cell (its Listing 1:
 * fmod(result + top + north + west, modulus), the same operations in the same order as
 * examples/cells/demonstrator3d.c, so the grids come out bit-identical; the remainder is the cells'
 * pw_fmodf, fmodf's bits without its data-dependent branches, so that both sides pay the same).
 *
 *   bench_hyperplane3d GRID.npy MODULUS [REPEATS] [--check OURS.npy]
 *
 * GRID.npy: float32, (rows + 2) x (cols + 2) x (planes + 2) with the fixed border (what
 * `peerwave run examples/cells/demonstrator3d.c --grid` takes).  Prints the median kernel time
 * of REPEATS runs (CUDA events over all launches, each run from the same input) and points a
 * second; --check compares the result with OURS.npy (peerwave's output) bit for bit.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "peerwave_cell.h"
#include <string.h>

#define CHECK_CUDA(x) CUDA_CHECK("bench_hyperplane3d", x)

/* A float32 3-D .npy (version 1 or 2 header), its shape in dims. */
static float *read_npy3(const char *path, long long dims[3])
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char head[12];
    if (fread(head, 1, 10, f) != 10 || memcmp(head, "\x93NUMPY", 6)) return fclose(f), (float *)NULL;
    size_t hlen = head[8] | (size_t)head[9] << 8;
    if (head[6] >= 2) {
        if (fread(head + 10, 1, 2, f) != 2) return fclose(f), (float *)NULL;
        hlen |= (size_t)head[10] << 16 | (size_t)head[11] << 24;
    }
    char *h = (char *)calloc(hlen + 1, 1);
    if (!h || fread(h, 1, hlen, f) != hlen || !strstr(h, "'<f4'") || strstr(h, "True")) return fclose(f), free(h), (float *)NULL;
    const char *s = strstr(h, "'shape': (");
    if (!s || sscanf(s, "'shape': (%lld, %lld, %lld)", &dims[0], &dims[1], &dims[2]) != 3) return fclose(f), free(h), (float *)NULL;
    free(h);
    const size_t n = (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2];
    float *g = (float *)malloc(n * sizeof(float));
    if (!g || fread(g, sizeof(float), n, f) != n) return fclose(f), free(g), (float *)NULL;
    fclose(f);
    return g;
}

/* The points of hyperplane d: thread (x, y) is (i, j) = (i_lo + x, j_lo + y), k = d - i - j. */
__global__ void hyperplane(float *g, long long R, long long C, long long P, long long d, long long i_lo, long long j_lo,
                           float modulus)
{
    const long long i = i_lo + blockIdx.y * (long long)blockDim.y + threadIdx.y;
    const long long j = j_lo + blockIdx.x * (long long)blockDim.x + threadIdx.x, k = d - i - j;
    if (i >= R || j >= C || k < 0 || k >= P) return;
    const long long sk = P + 2, sj = (C + 2) * sk;
    float *p = g + (i + 1) * sj + (j + 1) * sk + (k + 1);
    const float result = p[0], top = p[-1], north = p[-sk], west = p[-sj];
    *p = pw_fmodf(result + top + north + west, modulus);
}

static int cmp(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_hyperplane3d GRID.npy MODULUS [REPEATS] [--check OURS.npy]\n");
        return 2;
    }
    long long dims[3], odims[3];
    float *host = read_npy3(argv[1], dims);
    if (!host || dims[0] < 3 || dims[1] < 3 || dims[2] < 3) {
        fprintf(stderr, "bench_hyperplane3d: %s: not a float32 3-D .npy with a border\n", argv[1]);
        return 1;
    }
    const float modulus = (float)atof(argv[2]);
    int repeats = 3;
    const char *check = NULL;
    for (int a = 3; a < argc; a++) {
        if (!strcmp(argv[a], "--check") && a + 1 < argc) check = argv[++a];
        else repeats = atoi(argv[a]) > 0 ? atoi(argv[a]) : 3;
    }
    const long long R = dims[0] - 2, C = dims[1] - 2, P = dims[2] - 2;
    const size_t bytes = (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2] * sizeof(float);
    float *dev = NULL;
    CHECK_CUDA(cudaMalloc(&dev, bytes));
    cudaEvent_t start, stop;
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    float *ms = (float *)calloc((size_t)repeats, sizeof(float));
    for (int r = 0; r < repeats; r++) {
        CHECK_CUDA(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaEventRecord(start));
        for (long long d = 0; d <= R + C + P - 3; d++) {
            /* i and j ranges that meet the hyperplane: k = d - i - j in [0, P) */
            const long long i_lo = d - (C - 1) - (P - 1) > 0 ? d - (C - 1) - (P - 1) : 0, i_hi = d < R - 1 ? d : R - 1;
            const long long j_lo = d - i_hi - (P - 1) > 0 ? d - i_hi - (P - 1) : 0, j_hi = d - i_lo < C - 1 ? d - i_lo : C - 1;
            const dim3 block(32, 8), grid((unsigned)((j_hi - j_lo + 32) / 32), (unsigned)((i_hi - i_lo + 8) / 8));
            hyperplane<<<grid, block>>>(dev, R, C, P, d, i_lo, j_lo, modulus);
        }
        CHECK_CUDA(cudaEventRecord(stop));
        CHECK_CUDA(cudaEventSynchronize(stop));
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaEventElapsedTime(&ms[r], start, stop));
    }
    qsort(ms, (size_t)repeats, sizeof(float), cmp);
    const double s = ms[repeats / 2] / 1e3;
    printf("hyperplanes: %lld\nseconds: %.6f\npoints_per_second: %.4g\n", R + C + P - 2, s, (double)R * C * P / s);
    int rc = 0;
    if (check) {
        float *ours = read_npy3(check, odims);
        float *theirs = (float *)malloc(bytes);
        CHECK_CUDA(cudaMemcpy(theirs, dev, bytes, cudaMemcpyDeviceToHost));
        const bool same = ours && !memcmp(odims, dims, sizeof dims) && !memcmp(ours, theirs, bytes);
        printf("check: %s\n", same ? "identical" : "DIFFERENT");
        rc = same ? 0 : 1;
        free(ours);
        free(theirs);
    }
    cudaFree(dev);
    free(host);
    free(ms);
    return rc;
}
