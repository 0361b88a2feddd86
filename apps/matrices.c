/* matrices.c - looking up the built-in substitution matrices (tables: matrices_data.c, generated
 * from NCBI's files; tests/test_parasail.c compares them with parasail's copies). */
#include <ctype.h>
#include <stddef.h>

#include "matrices_data.h"

const pw_matrix *pw_matrix_by_name(const char *name)
{
    if (!name) return NULL;
    for (int k = 0; k < pw_builtin_matrix_count; k++) {
        const char *a = pw_builtin_matrices[k].name, *b = name;
        while (*a && *b && toupper((unsigned char)*a) == toupper((unsigned char)*b)) a++, b++;
        if (!*a && !*b) return &pw_builtin_matrices[k];
    }
    return NULL;
}

const pw_matrix *pw_matrix_at(int index)
{
    return index >= 0 && index < pw_builtin_matrix_count ? &pw_builtin_matrices[index] : NULL;
}
