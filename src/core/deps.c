/* deps.c - dependence-vector legality and the skew that makes hyper tiles legal (seed 002). */
#include "peerwave.h"
#include "status_detail.h"

pw_status pw_deps_skew(const pw_dep *deps, int n_deps, int *skew)
{
    if (!deps || !skew) return PW_ERR_NULL_ARGUMENT;
    if (n_deps < 1 || n_deps > PW_MAX_DEPS) return PW_ERR_INVALID_ARGUMENT;
    int f = 0;
    for (int k = 0; k < n_deps; k++) {
        int di = deps[k].di, dj = deps[k].dj;
        if (di < 0 || (di == 0 && dj <= 0)) {
            pw_set_error_detail("dependence (%d, %d) is not lexicographically positive (di > 0, or di == 0 and dj > 0)", di, dj);
            return PW_ERR_ILLEGAL_DEPENDENCE;
        }
        if (di > PW_MAX_DEP_DISTANCE || dj > PW_MAX_DEP_DISTANCE || dj < -PW_MAX_DEP_DISTANCE) {
            pw_set_error_detail("dependence (%d, %d) is outside the window: |di| and |dj| at most %d", di, dj,
                                PW_MAX_DEP_DISTANCE);
            return PW_ERR_ILLEGAL_DEPENDENCE;
        }
        if (di > 0 && dj < 0) {
            int need = (-dj + di - 1) / di; /* ceil(-dj / di): (f+1)di + dj >= 1 */
            if (need > f) f = need;
        }
    }
    *skew = f;
    return PW_OK;
}
