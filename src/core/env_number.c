/* env_number.c - see env_number.h. */
#include "env_number.h"

#include <errno.h>
#include <stdlib.h>

int pw_env_number(const char *name, long long least, long long most, long long *out)
{
    const char *v = getenv(name);
    if (!v) return 0;
    char *end;
    errno = 0;
    const long long x = strtoll(v, &end, 10);
    if (end == v || *end || errno || x < least || x > most) return -1;
    *out = x;
    return 1;
}
