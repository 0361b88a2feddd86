/* The README's "Use the library" example: the best local alignment score of two DNA strings.
 *   cc use_library.c $(pkg-config --cflags --libs peerwave)   (or find_package(PeerWave)) */
#include <peerwave.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *a = argc > 2 ? argv[1] : "GATTACAGATTACA", *b = argc > 2 ? argv[2] : "TTACAGAT";
    pw_sw_params p;
    pw_sw_params_init(&p); /* DNA, match 2, mismatch -1, gaps 1 */
    pw_sw_result r;
    pw_status st = pw_sw(a, (int64_t)strlen(a), b, (int64_t)strlen(b), &p, NULL, &r);
    if (st != PW_OK) return fprintf(stderr, "%s: %s\n", pw_status_str(st), pw_error_detail()), 1;
    printf("score %d, ends at a[%lld] and b[%lld] (PeerWave %s)\n", r.score, (long long)r.end_a, (long long)r.end_b, pw_version());
    return 0;
}
