/* replay.c - run a fuzz target over corpus files without libFuzzer (any compiler): what CTest
 * does with fuzz/corpus/, so every input that ever crashed stays a regression test.
 *   replay FILE_OR_DIR...   prints "N passed, 0 failed"; a crash fails the test by itself. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static long replayed;

static void replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, got);
    free(buf);
    replayed++;
}

int main(int argc, char **argv)
{
    for (int k = 1; k < argc; k++) {
        struct stat st;
        if (stat(argv[k], &st) != 0) continue;
        if (!S_ISDIR(st.st_mode)) {
            replay_file(argv[k]);
            continue;
        }
        DIR *d = opendir(argv[k]);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[k], e->d_name);
            replay_file(path);
        }
        if (d) closedir(d);
    }
    printf("%ld passed, 0 failed\n", replayed);
    return replayed ? 0 : 1;
}
