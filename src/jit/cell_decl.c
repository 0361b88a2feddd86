/* cell_decl.c - reading, checking and laying out a user cell's declarations (cell_decl.h). */
#include "cell_decl.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/status_detail.h"
#include "../cuda/device/user_args.h"
#include "cell_host.h" /* pw_host_embedded */
#include "peerwave_cell.h" /* PW_CELL_MAX_DEP */

/* the largest pw_ctx fits the kernels' argument words */
_Static_assert(8 * (5 + 2 * PW_CELL_MAX_ITEMS) <= 8 * PW_USER_CTX_WORDS, "pw_ctx fits pw_user_args");

#define PW_STR2(x) #x
#define PW_STR(x) PW_STR2(x)

static const struct {
    const char *name;
    size_t size;
} cell_types[PW_CT_COUNT] = {
    [PW_CT_I8] = {"int8_t", 1},   [PW_CT_U8] = {"uint8_t", 1},   [PW_CT_I16] = {"int16_t", 2},
    [PW_CT_U16] = {"uint16_t", 2}, [PW_CT_I32] = {"int32_t", 4}, [PW_CT_U32] = {"uint32_t", 4},
    [PW_CT_I64] = {"int64_t", 8},  [PW_CT_F32] = {"float", 4},    [PW_CT_F64] = {"double", 8},
};

size_t pw_cell_type_size(pw_cell_type type) { return (unsigned)type < PW_CT_COUNT ? cell_types[type].size : 0; }
const char *pw_cell_type_name(pw_cell_type type) { return (unsigned)type < PW_CT_COUNT ? cell_types[type].name : NULL; }

/* The C name of a parsed (so known) type. */
static const char *tname(pw_cell_type t) { return (unsigned)t < PW_CT_COUNT ? cell_types[t].name : "?"; }

static int type_of(const char *name, pw_cell_type *type)
{
    for (int k = 0; k < PW_CT_COUNT; k++)
        if (!strcmp(name, cell_types[k].name)) {
            *type = (pw_cell_type)k;
            return 1;
        }
    return 0;
}

static int value_type_ok(pw_cell_type t)
{
    return t == PW_CT_I32 || t == PW_CT_U32 || t == PW_CT_I64 || t == PW_CT_F32 || t == PW_CT_F64;
}

/* The text with comments and string/char literals blanked (newlines kept, so lines still count). */
static char *strip_comments(const char *text)
{
    size_t n = strlen(text);
    char *s = malloc(n + 1);
    if (!s) return NULL;
    memcpy(s, text, n + 1);
    for (size_t k = 0; k < n; k++) {
        if (s[k] == '/' && s[k + 1] == '/') {
            while (k < n && s[k] != '\n') s[k++] = ' ';
        } else if (s[k] == '/' && s[k + 1] == '*') {
            s[k] = s[k + 1] = ' ';
            for (k += 2; k < n && !(s[k] == '*' && s[k + 1] == '/'); k++)
                if (s[k] != '\n') s[k] = ' ';
            if (k < n) s[k] = s[k + 1] = ' ', k++;
        } else if (s[k] == '"' || s[k] == '\'') {
            char q = s[k];
            for (k++; k < n && s[k] != q && s[k] != '\n'; k++) {
                if (s[k] == '\\' && k + 1 < n && s[k + 1] != '\n') s[k++] = ' ';
                s[k] = ' ';
            }
        }
    }
    return s;
}

#define MAX_ARGS 3

typedef struct decl_line {
    const char *file;
    int line;
    char args[MAX_ARGS][64];
    int n_args;
} decl_line;

static pw_status bad(const decl_line *l, const char *what)
{
    if (l->line > 0) pw_set_error_detail("%s:%d: %s", l->file, l->line, what);
    else pw_set_error_detail("%s: %s", l->file, what); /* (a check of the whole declaration: no one line) */
    return PW_ERR_BAD_INPUT;
}

/* "(a, b, c)" then only blanks to the end of the line: the trimmed arguments. */
static pw_status split_args(const char *p, const char *end, decl_line *l)
{
    while (p < end && isspace((unsigned char)*p)) p++;
    if (p >= end || *p != '(') return bad(l, "expected '(' after the declaration's name");
    p++;
    const char *close = memchr(p, ')', (size_t)(end - p));
    if (!close) return bad(l, "declaration without ')' on its line");
    for (const char *q = close + 1; q < end; q++)
        if (!isspace((unsigned char)*q) && *q != ';') return bad(l, "text after a declaration on its line");
    l->n_args = 0;
    while (p <= close) {
        const char *comma = memchr(p, ',', (size_t)(close - p));
        const char *stop = comma ? comma : close;
        while (p < stop && isspace((unsigned char)*p)) p++;
        const char *e = stop;
        while (e > p && isspace((unsigned char)e[-1])) e--;
        if (l->n_args == MAX_ARGS) return bad(l, "too many arguments");
        if ((size_t)(e - p) >= sizeof l->args[0]) return bad(l, "argument too long");
        memcpy(l->args[l->n_args], p, (size_t)(e - p));
        l->args[l->n_args][e - p] = 0;
        l->n_args++;
        p = stop + 1;
    }
    if (l->n_args == 1 && !l->args[0][0]) l->n_args = 0;
    return PW_OK;
}

static int is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_')) return 0;
    return strlen(s) < PW_CELL_NAME_MAX && strncmp(s, "pw_", 3) != 0 && strncmp(s, "PW_", 3) != 0;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!s[0] || *end || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

/* Names an input, parameter (or, the keywords and macros, a field) cannot take: pw_ctx's own members, the GPU glue's, the C keywords,
 * the C++ ones (the cell is C++ under NVRTC; a name that builds on the CPU must build there too)
 * and the macros every cell sees (NULL, the fixed-width limits): such a name would fail in the
 * generated declarations, whose errors name no line of the cell. */
static int reserved(const char *a, int ctx_members)
{
    static const char *const taken[] = {
        "rows", "cols", "planes", "grid", "stride", "i", "j", "k",
        /* C */
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
        "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
        "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
        /* C++ */
        "alignas", "alignof", "and", "asm", "bool", "catch", "class", "concept", "const_cast", "constexpr", "decltype",
        "delete", "dynamic_cast", "explicit", "export", "false", "friend", "mutable", "namespace", "new", "noexcept",
        "not", "nullptr", "operator", "or", "private", "protected", "public", "reinterpret_cast", "requires",
        "static_assert", "static_cast", "template", "this", "throw", "true", "try", "typeid", "typename", "using",
        "virtual", "wchar_t", "xor",
        /* macros */
        "NULL", "INT32_MAX", "INT32_MIN", "INT64_MAX", "INT64_MIN", "UINT32_MAX", "UINT64_MAX", "INFINITY", "NAN"};
    /* (a field is a member of the value's struct: pw_ctx's names are free there, the keywords not) */
    for (size_t q = ctx_members ? 0 : 8; q < sizeof taken / sizeof *taken; q++)
        if (!strcmp(a, taken[q])) return 1;
    return 0;
}

/* A named item (field, input, param): type, name [, axes]. */
static pw_status add_item(const decl_line *l, pw_cell_item *items, int *n, int max, int with_axes, const char *kind)
{
    char msg[256];
    if (l->n_args != (with_axes ? 3 : 2)) {
        snprintf(msg, sizeof msg, "%s takes (type, name%s)", kind, with_axes ? ", axes" : "");
        return bad(l, msg);
    }
    if (*n == max) {
        snprintf(msg, sizeof msg, "more than %d %ss", max, kind);
        return bad(l, msg);
    }
    pw_cell_item *it = &items[*n];
    memset(it, 0, sizeof *it);
    if (!type_of(l->args[0], &it->f.type)) {
        snprintf(msg, sizeof msg, "unknown type '%s' (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, float, double)",
                 l->args[0]);
        return bad(l, msg);
    }
    if (!is_identifier(l->args[1])) {
        snprintf(msg, sizeof msg, "'%s' is not a usable name (a C identifier under %d characters, not starting with pw_)",
                 l->args[1], PW_CELL_NAME_MAX);
        return bad(l, msg);
    }
    const int field = !strcmp(kind, "PW_FIELD");
    if ((field || !strcmp(kind, "PW_INPUT") || !strcmp(kind, "PW_PARAM")) && reserved(l->args[1], !field)) {
        snprintf(msg, sizeof msg, "'%s' is taken (%sC and C++ keywords and the cells' macros cannot name %s)",
                 l->args[1], field ? "" : "pw_ctx has rows, cols, planes, grid and stride; i, j, k, ",
                 field ? "a field" : "an input or a parameter");
        return bad(l, msg);
    }
    strcpy(it->name, l->args[1]);
    it->f.name = it->name;
    if (with_axes) {
        const char *a = l->args[2];
        it->f.axes = !strcmp(a, "i")    ? PW_AXES_I
                     : !strcmp(a, "j")  ? PW_AXES_J
                     : !strcmp(a, "ij") ? PW_AXES_IJ
                     : !strcmp(a, "k")  ? PW_AXES_K
                     : !strcmp(a, "ijk") ? PW_AXES_IJK
                                         : 0;
        char *end = NULL;
        long long count = !it->f.axes && *a >= '1' && *a <= '9' ? strtoll(a, &end, 10) : 0;
        if (count > 0 && *end == '\0' && count <= PW_CELL_MAX_TABLE) {
            it->f.axes = PW_AXES_TABLE;
            it->f.count = count;
        }
        if (!it->f.axes) return bad(l, "axes are i, j, ij (and k, ijk in 3-D), or a table's size 1 .. 16777216");
    }
    (*n)++;
    return PW_OK;
}

/* A line that is a PW_ name in capitals and "(...)" alone: the shape of a declaration. */
static int looks_like_declaration(const char *word, size_t wlen, const char *rest, const char *end)
{
    if (wlen < 4 || memcmp(word, "PW_", 3)) return 0;
    for (size_t k = 3; k < wlen; k++)
        if (!(isupper((unsigned char)word[k]) || isdigit((unsigned char)word[k]) || word[k] == '_')) return 0;
    while (rest < end && isspace((unsigned char)*rest)) rest++;
    if (rest >= end || *rest != '(') return 0;
    const char *close = end;
    while (close > rest && (isspace((unsigned char)close[-1]) || close[-1] == ';')) close--;
    return close > rest && close[-1] == ')' && !memchr(rest, '{', (size_t)(close - rest));
}

/* Whether text has a "#define WORD" line (blanks allowed around the '#'). */
static int defined_in(const char *text, const char *word, size_t wlen)
{
    for (const char *p = strstr(text, "define"); p; p = strstr(p + 1, "define")) {
        const char *q = p;
        while (q > text && (q[-1] == ' ' || q[-1] == '\t')) q--;
        if (q == text || q[-1] != '#') continue;
        const char *n = p + 6;
        while (*n == ' ' || *n == '\t') n++;
        if (!strncmp(n, word, wlen) && !(isalnum((unsigned char)n[wlen]) || n[wlen] == '_')) return 1;
    }
    return 0;
}

/* A macro the cell language header defines (PW_MIN, PW_FN ...): read from the embedded header,
 * so the list never drifts from it. */
static int cell_header_macro(const char *word, size_t wlen)
{
    const char *h = pw_host_embedded("include/peerwave_cell.h");
    return !h || defined_in(h, word, wlen); /* (no header to ask: no check) */
}

static pw_status one_line(pw_cell_decl *d, const char *word, size_t wlen, const char *rest, const char *end,
                          decl_line *l, int *seen_form, int *seen_value, int at_top, const char *cell_text)
{
#define IS(w) (wlen == sizeof(w) - 1 && !memcmp(word, w, wlen))
    if (!(IS("PW_FORM") || IS("PW_VALUE") || IS("PW_FIELD") || IS("PW_INPUT") || IS("PW_PARAM") || IS("PW_DEP") ||
          IS("PW_DEP3") || IS("PW_HALO") || IS("PW_REDUCE"))) {
        /* other code (PW_FN, PW_MIN ...); a line shaped as a declaration under a name the cell
         * language does not have (PW_HAL0(1), PW_INPUTS(...)) is a typo that would otherwise
         * surface as a compiler error in generated code, or as a missing declaration */
        if (at_top && looks_like_declaration(word, wlen, rest, end) && !cell_header_macro(word, wlen) &&
            !defined_in(cell_text, word, wlen)) {
            char msg[200];
            snprintf(msg, sizeof msg, "unknown declaration %.*s (the declarations are PW_FORM, PW_VALUE, PW_FIELD, "
                     "PW_INPUT, PW_PARAM, PW_DEP, PW_DEP3, PW_HALO and PW_REDUCE)", (int)(wlen < 64 ? wlen : 64), word);
            return bad(l, msg);
        }
        return PW_OK;
    }
    pw_status st = split_args(rest, end, l);
    if (st != PW_OK) return st;
    if (IS("PW_FORM")) {
        if (*seen_form) return bad(l, "PW_FORM given twice");
        static const char *forms[] = {"linear", "grid", "stencil", "grid3"};
        int f = -1;
        for (int k = 0; k < 4; k++)
            if (l->n_args == 1 && !strcmp(l->args[0], forms[k])) f = k;
        if (f < 0) return bad(l, "PW_FORM(linear), PW_FORM(grid), PW_FORM(stencil) or PW_FORM(grid3)");
        d->form = f == 0 ? PW_CELL_LINEAR : f == 1 ? PW_CELL_GRID : f == 2 ? PW_CELL_STENCIL : PW_CELL_GRID3;
        *seen_form = 1;
    } else if (IS("PW_VALUE")) {
        if (*seen_value) return bad(l, "PW_VALUE given twice, or with PW_FIELD");
        decl_line v = *l;
        v.n_args = 2;
        strcpy(v.args[1], "value");
        st = add_item(&v, d->fields, &d->n_fields, PW_CELL_MAX_FIELDS, 0, "PW_VALUE");
        if (st != PW_OK) return st;
        d->scalar = 1;
        *seen_value = 1;
    } else if (IS("PW_FIELD")) {
        if (d->scalar) return bad(l, "PW_FIELD with PW_VALUE: a value is one or the other");
        st = add_item(l, d->fields, &d->n_fields, PW_CELL_MAX_FIELDS, 0, "PW_FIELD");
        if (st != PW_OK) return st;
        *seen_value = 2;
    } else if (IS("PW_INPUT")) {
        return add_item(l, d->inputs, &d->n_inputs, PW_CELL_MAX_ITEMS, 1, "PW_INPUT");
    } else if (IS("PW_PARAM")) {
        return add_item(l, d->params, &d->n_params, PW_CELL_MAX_ITEMS, 0, "PW_PARAM");
    } else if (IS("PW_DEP")) {
        int di, dj;
        if (l->n_args != 2 || !parse_int(l->args[0], -PW_CELL_MAX_DEP, PW_CELL_MAX_DEP, &di) ||
            !parse_int(l->args[1], -PW_CELL_MAX_DEP, PW_CELL_MAX_DEP, &dj))
            return bad(l, "PW_DEP(di, dj) with whole numbers of at most " PW_STR(PW_CELL_MAX_DEP) " in size");
        if (!(di > 0 || (di == 0 && dj > 0))) {
            pw_set_error_detail("%s:%d: PW_DEP(%d, %d) is not lexicographically positive (di > 0, or di == 0 and dj > 0): "
                                "a cell cannot wait for itself or for a later one",
                                l->file, l->line, di, dj);
            return PW_ERR_ILLEGAL_DEPENDENCE;
        }
        if (d->n_deps == PW_CELL_MAX_DEPS) return bad(l, "more than " PW_STR(PW_CELL_MAX_DEPS) " dependences");
        d->deps[d->n_deps++] = (pw_dep){di, dj};
    } else if (IS("PW_DEP3")) {
        int v[3];
        if (l->n_args != 3) return bad(l, "PW_DEP3(di, dj, dk)");
        for (int k = 0; k < 3; k++)
            if (!parse_int(l->args[k], -PW_CELL_MAX_DEP, PW_CELL_MAX_DEP, &v[k]))
                return bad(l, "PW_DEP3(di, dj, dk) with whole numbers of at most " PW_STR(PW_CELL_MAX_DEP) " in size");
        if (!(v[0] > 0 || (v[0] == 0 && (v[1] > 0 || (v[1] == 0 && v[2] > 0))))) {
            pw_set_error_detail("%s:%d: PW_DEP3(%d, %d, %d) is not lexicographically positive (di > 0, or di == 0 and "
                                "dj > 0, or di == dj == 0 and dk > 0): a cell cannot wait for itself or for a later one",
                                l->file, l->line, v[0], v[1], v[2]);
            return PW_ERR_ILLEGAL_DEPENDENCE;
        }
        if (d->n_deps3 == PW_CELL_MAX_DEPS) return bad(l, "more than " PW_STR(PW_CELL_MAX_DEPS) " dependences");
        memcpy(d->deps3[d->n_deps3++], v, sizeof v);
    } else if (IS("PW_HALO")) {
        if (d->halo_given) return bad(l, "PW_HALO given twice");
        d->halo_given = 1;
        if (l->n_args != 1 || !parse_int(l->args[0], 0, PW_CELL_MAX_DEP, &d->halo))
            return bad(l, "PW_HALO(n) with 0 <= n <= " PW_STR(PW_CELL_MAX_DEP));
    } else { /* PW_REDUCE */
        if (d->reduce_field != -1) return bad(l, "PW_REDUCE given twice");
        if (l->n_args < 1 || l->n_args > 2 || strcmp(l->args[0], "max")) return bad(l, "PW_REDUCE(max) or PW_REDUCE(max, field)");
        d->reduce_field = -2; /* resolved once the fields are known */
        if (l->n_args == 2) memmove(l->args[0], l->args[1], sizeof l->args[0]); /* the field's name, for the caller */
        else l->args[0][0] = 0;
    }
    return PW_OK;
#undef IS
}

static size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

static void lay_out(pw_cell_decl *d)
{
    size_t off = 0, align = 1;
    for (int k = 0; k < d->n_fields; k++) {
        size_t sz = pw_cell_type_size(d->fields[k].f.type);
        off = align_up(off, sz);
        d->fields[k].f.offset = off;
        off += sz;
        if (sz > align) align = sz;
    }
    d->value_align = align;
    d->value_size = align_up(off, align);
    off = 24; /* rows, cols, planes */
    if (d->form != PW_CELL_LINEAR) {
        d->ctx_grid = off;
        d->ctx_stride = off + 8;
        off += 16;
    }
    for (int k = 0; k < d->n_inputs; k++, off += 8) d->ctx_inputs[k] = off;
    for (int k = 0; k < d->n_params; k++) {
        size_t sz = pw_cell_type_size(d->params[k].f.type);
        off = align_up(off, sz);
        d->ctx_params[k] = off;
        off += sz;
    }
    d->ctx_size = align_up(off, 8);
}

static pw_status check_whole(pw_cell_decl *d, const char *name, const char *reduce_name)
{
    decl_line l = {name, 0, {{0}}, 0};
    if (d->n_fields == 0) return bad(&l, "no value: declare PW_VALUE(type) or PW_FIELD(type, name) lines");
    for (int k = 0; k < d->n_fields; k++) {
        if (!value_type_ok(d->fields[k].f.type)) {
            char what[160];
            snprintf(what, sizeof what, "a value (or field) is int32_t, uint32_t, int64_t, float or double, not %s",
                     pw_cell_type_name(d->fields[k].f.type));
            return bad(&l, what);
        }
        for (int q = 0; q < k; q++)
            if (!strcmp(d->fields[q].name, d->fields[k].name)) return bad(&l, "two fields with one name");
    }
    for (int k = 0; k < d->n_inputs + d->n_params; k++) {
        const char *a = k < d->n_inputs ? d->inputs[k].name : d->params[k - d->n_inputs].name;
        for (int q = 0; q < k; q++) {
            const char *b = q < d->n_inputs ? d->inputs[q].name : d->params[q - d->n_inputs].name;
            if (!strcmp(a, b)) {
                pw_set_error_detail("%s: two inputs or parameters named '%s'", name, a);
                return PW_ERR_BAD_INPUT;
            }
        }
    }
    for (int k = 0; k < d->n_inputs; k++)
        if ((d->inputs[k].f.axes & PW_AXES_K) && d->form != PW_CELL_GRID3)
            return bad(&l, "inputs along k are for PW_FORM(grid3)");
    if ((d->form == PW_CELL_GRID3) != (d->n_deps3 > 0) || (d->form == PW_CELL_GRID3 && d->n_deps))
        return bad(&l, d->form == PW_CELL_GRID3 ? "PW_FORM(grid3) needs its dependences as PW_DEP3(di, dj, dk) lines"
                                                : "PW_DEP3 is for PW_FORM(grid3)");
    if (d->form == PW_CELL_LINEAR && (d->n_deps || d->halo))
        return bad(&l, "PW_DEP and PW_HALO are for PW_FORM(grid): the linear form's dependences are up, left and diag");
    if (d->form == PW_CELL_STENCIL) {
        if (d->n_deps || d->halo) return bad(&l, "PW_FORM(stencil) has its dependences and border: no PW_DEP or PW_HALO");
        if (!d->scalar) return bad(&l, "PW_FORM(stencil) takes a PW_VALUE, not fields");
        if (d->n_inputs) return bad(&l, "PW_FORM(stencil) does not see its position: no PW_INPUT (use PW_FORM(grid))");
        d->deps[d->n_deps++] = (pw_dep){1, 0};
        d->deps[d->n_deps++] = (pw_dep){0, 1};
        d->halo = 1;
    }
    if (d->form == PW_CELL_GRID && d->n_deps == 0)
        return bad(&l, "PW_FORM(grid) needs its dependences: PW_DEP(di, dj) lines (e.g. PW_DEP(1, 0) and PW_DEP(0, 1))");
    if (d->reduce_field == -2) {
        if (d->form != PW_CELL_LINEAR) return bad(&l, "PW_REDUCE is for PW_FORM(linear)");
        if (d->scalar && !reduce_name[0]) d->reduce_field = 0;
        for (int k = 0; !d->scalar && k < d->n_fields; k++)
            if (!strcmp(d->fields[k].name, reduce_name)) d->reduce_field = k;
        if (d->reduce_field < 0) return bad(&l, d->scalar ? "PW_REDUCE(max) names no field for a PW_VALUE"
                                                 : reduce_name[0] ? "PW_REDUCE(max, field): no such field"
                                                                  : "PW_REDUCE(max) on a struct of PW_FIELDs: name the "
                                                                    "field it compares, PW_REDUCE(max, field)");
    }
    lay_out(d);
    if (d->value_size > PW_MAX_CELL_SIZE) return bad(&l, "the value is larger than " PW_STR(PW_MAX_CELL_SIZE) " bytes");
    return PW_OK;
}

pw_status pw_cell_decl_parse(const char *text, const char *name, pw_cell_decl *d)
{
    if (!text || !d) return PW_ERR_NULL_ARGUMENT;
    if (!name) name = "cell";
    memset(d, 0, sizeof *d);
    d->reduce_field = -1;
    char *s = strip_comments(text);
    if (!s) return PW_ERR_OUT_OF_MEMORY;
    int seen_form = 0, seen_value = 0, line = 1, depth = 0; /* depth: braces open (comments and strings blanked) */
    char reduce_name[64] = "";
    pw_status st = PW_OK;
    for (char *p = s; *p && st == PW_OK; line++) {
        char *end = strchr(p, '\n');
        if (!end) end = p + strlen(p);
        const int at_top = depth == 0; /* (declarations stand outside functions: a check only there) */
        for (const char *c = p; c < end; c++) depth += *c == '{' ? 1 : *c == '}' && depth > 0 ? -1 : 0;
        char *w = p;
        while (w < end && (*w == ' ' || *w == '\t' || *w == '\r')) w++;
        char *we = w;
        while (we < end && (isalnum((unsigned char)*we) || *we == '_')) we++;
        decl_line l = {name, line, {{0}}, 0};
        int had_reduce = d->reduce_field != -1;
        st = one_line(d, w, (size_t)(we - w), we, end, &l, &seen_form, &seen_value, at_top, s);
        if (st == PW_OK && !had_reduce && d->reduce_field == -2) strcpy(reduce_name, l.args[0]);
        p = *end ? end + 1 : end;
    }
    free(s);
    if (st != PW_OK) return st;
    if (!seen_form) {
        pw_set_error_detail("%s: no PW_FORM line: declare PW_FORM(linear), PW_FORM(grid), PW_FORM(stencil) or PW_FORM(grid3)", name);
        return PW_ERR_BAD_INPUT;
    }
    return check_whole(d, name, reduce_name);
}

/* ---- generated text ------------------------------------------------------------------------ */

typedef struct text_buf {
    char *s;
    size_t n, cap;
    int failed;
} text_buf;

static void put(text_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_buf *b, const char *fmt, ...)
{
    if (b->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (n < 0) { b->failed = 1; return; }
        if (b->s && b->n + (size_t)n < b->cap) { b->n += (size_t)n; return; }
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *t = realloc(b->s, cap);
        if (!t) { b->failed = 1; return; }
        b->s = t;
        b->cap = cap;
    }
}

/* A grid cell's reads are not checked where it runs fast (pw_at is a load, the engines' speed);
 * the CPU's sequential engine, the reference that --check compares with, builds the cell with
 * PW_CHECK_READS: a read outside the grid and its halo is noted (the first one, by the host entry
 * points: cell_host.c) and reads the corner instead, and the run fails with the point. */
#define CHECKED_READS_DECL \
    "#if !PW_CELL_ON_GPU && defined(PW_CHECK_READS)\nvoid pw_host_note_outside(int64_t i, int64_t j, int64_t k);\n#endif\n"

char *pw_cell_decl_types(const pw_cell_decl *d)
{
    text_buf b = {0};
    /* NVRTC has no offsetof: there the sizes are checked (the same fields in the same order
     * under the same alignment rules), the C compiler checks every offset too. */
    put(&b, "#line 1 \"<peerwave: generated types>\"\n"
            "#if defined(__cplusplus)\n#define PW_CELL_ASSERT(c) static_assert(c, #c)\n#else\n"
            "#define PW_CELL_ASSERT(c) _Static_assert(c, #c)\n#endif\n"
            "#ifdef __CUDACC_RTC__\n#define PW_CELL_ASSERT_OFFSET(t, m, o)\n#else\n"
            "#define PW_CELL_ASSERT_OFFSET(t, m, o) PW_CELL_ASSERT(__builtin_offsetof(t, m) == o)\n#endif\n");
    if (d->scalar) {
        put(&b, "typedef %s pw_value;\n", tname(d->fields[0].f.type));
    } else {
        put(&b, "typedef struct pw_value {\n");
        for (int k = 0; k < d->n_fields; k++) put(&b, "    %s %s;\n", tname(d->fields[k].f.type), d->fields[k].name);
        put(&b, "} pw_value;\n");
        for (int k = 0; k < d->n_fields; k++)
            put(&b, "PW_CELL_ASSERT_OFFSET(pw_value, %s, %zu);\n", d->fields[k].name, d->fields[k].f.offset);
    }
    put(&b, "PW_CELL_ASSERT(sizeof(pw_value) == %zu);\n", d->value_size);
    /* The layout the host fills (pw_cell_decl_ctx): pw_ctx itself, except for a linear cell on
     * the GPU, where it is pw_ctx_image and pw_ctx views it (below). */
    const int staged = d->form == PW_CELL_LINEAR;
    if (staged) put(&b, "#if PW_CELL_ON_GPU\n#define PW_CELL_IMAGE pw_ctx_image\n#else\n#define PW_CELL_IMAGE pw_ctx\n#endif\n");
    else put(&b, "#define PW_CELL_IMAGE pw_ctx\n");
    put(&b, "typedef struct PW_CELL_IMAGE {\n    int64_t rows, cols, planes;\n");
    if (d->form != PW_CELL_LINEAR) put(&b, "    pw_value *grid;\n    int64_t stride;\n");
    for (int k = 0; k < d->n_inputs; k++) put(&b, "    const %s *%s;\n", tname(d->inputs[k].f.type), d->inputs[k].name);
    for (int k = 0; k < d->n_params; k++) put(&b, "    %s %s;\n", tname(d->params[k].f.type), d->params[k].name);
    put(&b, "} PW_CELL_IMAGE;\n");
    for (int k = 0; k < d->n_inputs; k++)
        put(&b, "PW_CELL_ASSERT_OFFSET(PW_CELL_IMAGE, %s, %zu);\n", d->inputs[k].name, d->ctx_inputs[k]);
    for (int k = 0; k < d->n_params; k++)
        put(&b, "PW_CELL_ASSERT_OFFSET(PW_CELL_IMAGE, %s, %zu);\n", d->params[k].name, d->ctx_params[k]);
    put(&b, "PW_CELL_ASSERT(sizeof(PW_CELL_IMAGE) == %zu);\n", d->ctx_size);
    if (staged) {
        /* A linear cell on the GPU reads c->a[i] and c->b[j] from registers: the warp processor
         * loads them a step ahead (pw_staged, device/user_cell.cuh), and any other index is an
         * ordinary load, so a cell that reads a[i - 1] is still right. */
        put(&b, "#if PW_CELL_ON_GPU\ntypedef struct pw_ctx {\n    int64_t rows, cols, planes;\n");
        for (int k = 0; k < d->n_inputs; k++) {
            if (d->inputs[k].f.axes == PW_AXES_IJ || d->inputs[k].f.axes == PW_AXES_TABLE)
                put(&b, "    const %s *%s;\n", tname(d->inputs[k].f.type), d->inputs[k].name);
            else
                put(&b, "    pw_staged<%s> %s;\n", tname(d->inputs[k].f.type), d->inputs[k].name);
        }
        for (int k = 0; k < d->n_params; k++) put(&b, "    %s %s;\n", tname(d->params[k].f.type), d->params[k].name);
        put(&b, "} pw_ctx;\n#endif\n");
    }
    if (d->form == PW_CELL_GRID3) {
        int reach[3]; /* (the host's far test: pw_cell_decl_reach3) */
        pw_cell_decl_reach3(d, reach);
        /* On Warp3Proc (the program defines PW_WINDOW3) the processor hands the cell the point's
         * old value and its three upwind neighbours' new ones (device/user_cell.cuh,
         * UserWarp3Cell): pw_at3 returns those for the four points; once the cell is inlined the
         * comparisons are of the cell's own index expressions, and fold away.  A read further
         * downwind than the halo on some axis is flagged (w->far, when the sweeps run pipelined:
         * the previous sweep is only known to be that far ahead; the host then runs them again,
         * one a launch); for the constant offsets cells use, that test folds away too. */
        put(&b, "#if PW_CELL_ON_GPU && defined(PW_WINDOW3)\n"
                "typedef struct pw_window3 {\n    pw_ctx c;\n    int64_t i, j, k;\n    pw_value self, west, north, top;\n"
                "    unsigned *far;\n} pw_window3;\n"
                "#elif !PW_CELL_ON_GPU || defined(PW_WATCH3)\n" /* (the host's rows hand every cell one: cell_host.c; */
                /* on the GPU's flattened engines, with sweeps pipelined: UserGrid3App<C, true>) */
                "typedef struct pw_window3 {\n    pw_ctx c;\n    int64_t i, j, k;\n    unsigned *far;\n} pw_window3;\n"
                "#endif\n");
        put(&b, "%s", CHECKED_READS_DECL);
        put(&b, "PW_FN pw_value pw_at3(const pw_ctx *c, int64_t i, int64_t j, int64_t k)\n{\n"
                "#if PW_CELL_ON_GPU && defined(PW_WINDOW3)\n"
                "    const pw_window3 *w = (const pw_window3 *)c;\n"
                "    if (i == w->i && j == w->j && k == w->k) return w->self;\n"
                "    if (i == w->i - 1 && j == w->j && k == w->k) return w->west;\n"
                "    if (i == w->i && j == w->j - 1 && k == w->k) return w->north;\n"
                "    if (i == w->i && j == w->j && k == w->k - 1) return w->top;\n"
                "    if (w->far && (i - w->i > %d || j - w->j > %d || k - w->k > %d)) *w->far = 1u;\n"
                "#elif !PW_CELL_ON_GPU || defined(PW_WATCH3)\n"
                "    const pw_window3 *w = (const pw_window3 *)c;\n"
                "    if (w->far && (i - w->i > %d || j - w->j > %d || k - w->k > %d))\n"
                "#if PW_CELL_ON_GPU\n        *w->far = 1u;\n#else\n        __atomic_store_n(w->far, 1u, __ATOMIC_RELAXED);\n#endif\n"
                "#endif\n"
                "#if !PW_CELL_ON_GPU && defined(PW_CHECK_READS)\n"
                "    if (i < -%d || i >= c->rows + %d || j < -%d || j >= c->cols + %d || k < -%d || k >= c->planes + %d) {\n"
                "        pw_host_note_outside(i, j, k);\n        i = j = k = -%d;\n    }\n#endif\n"
                "    const pw_value *p = c->grid + (i + %d) * c->stride + (j + %d) * (c->planes + %d) + (k + %d);\n"
                "#if PW_CELL_ON_GPU\n    return pw_load_cg(p);\n#else\n    return *p;\n#endif\n}\n",
            d->halo, d->halo, d->halo, reach[0], reach[1], reach[2], d->halo, d->halo, d->halo, d->halo, d->halo, d->halo,
            d->halo, d->halo, d->halo, 2 * d->halo, d->halo);
    }
    if (d->form == PW_CELL_GRID) {
        /* On the GPU other blocks write the grid while this one runs: loads bypass L1 (ld.cg). */
        put(&b, "%s", CHECKED_READS_DECL);
        put(&b, "PW_FN pw_value pw_at(const pw_ctx *c, int64_t i, int64_t j)\n{\n"
                "#if !PW_CELL_ON_GPU && defined(PW_CHECK_READS)\n"
                "    if (i < -%d || i >= c->rows + %d || j < -%d || j >= c->cols + %d) {\n"
                "        pw_host_note_outside(i, j, 0);\n        i = j = -%d;\n    }\n#endif\n"
                "    const pw_value *p = c->grid + (i + %d) * c->stride + (j + %d);\n"
                "#if PW_CELL_ON_GPU\n    return pw_load_cg(p);\n#else\n    return *p;\n#endif\n}\n",
            d->halo, d->halo, d->halo, d->halo, d->halo, d->halo, d->halo);
    }
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ---- run-time values ------------------------------------------------------------------------ */

static int param_fits(pw_cell_type t, double v)
{
    if (t == PW_CT_F64) return 1;
    /* a finite value past float would be inf; one that is not 0 must not become 0 (1e-50) */
    if (t == PW_CT_F32) return !isfinite(v) || (fabs(v) <= FLT_MAX && (v == 0 || (float)v != 0));
    if (v != floor(v)) return 0;
    switch (t) {
    case PW_CT_I8: return v >= -128 && v <= 127;
    case PW_CT_U8: return v >= 0 && v <= 255;
    case PW_CT_I16: return v >= -32768 && v <= 32767;
    case PW_CT_U16: return v >= 0 && v <= 65535;
    case PW_CT_I32: return v >= -2147483648.0 && v <= 2147483647.0;
    case PW_CT_U32: return v >= 0 && v <= 4294967295.0;
    default: return v >= -9007199254740992.0 && v <= 9007199254740992.0; /* 2^53: exact in a double */
    }
}

static void store_as(pw_cell_type t, double v, unsigned char *p)
{
    switch (t) {
    case PW_CT_I8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
    case PW_CT_U8: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case PW_CT_I16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case PW_CT_U16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case PW_CT_I32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    case PW_CT_U32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    case PW_CT_I64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
    case PW_CT_F32: { float x = (float)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static double load_as(pw_cell_type t, const unsigned char *p)
{
    switch (t) {
    case PW_CT_I32: { int32_t x; memcpy(&x, p, 4); return x; }
    case PW_CT_U32: { uint32_t x; memcpy(&x, p, 4); return x; }
    case PW_CT_I64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
    case PW_CT_F32: { float x; memcpy(&x, p, 4); return x; }
    case PW_CT_F64: { double x; memcpy(&x, p, 8); return x; }
    default: return 0;
    }
}

pw_status pw_cell_decl_ctx(const pw_cell_decl *d, int64_t rows, int64_t cols, int64_t planes, void *grid,
                           int64_t stride, const void *const *inputs, const double *params, unsigned char *ctx)
{
    memset(ctx, 0, d->ctx_size);
    memcpy(ctx, &rows, 8);
    memcpy(ctx + 8, &cols, 8);
    memcpy(ctx + 16, &planes, 8);
    if (d->form != PW_CELL_LINEAR) {
        memcpy(ctx + d->ctx_grid, &grid, sizeof grid);
        memcpy(ctx + d->ctx_stride, &stride, 8);
    }
    for (int k = 0; k < d->n_inputs; k++) memcpy(ctx + d->ctx_inputs[k], &inputs[k], sizeof(void *));
    for (int k = 0; k < d->n_params; k++) {
        if (!param_fits(d->params[k].f.type, params[k])) {
            const pw_cell_type t = d->params[k].f.type;
            if (t == PW_CT_I64 && params[k] == floor(params[k]))
                pw_set_error_detail("parameter %s = %.17g: a 64-bit integer parameter arrives as a double, exact "
                                    "only within +-2^53 (9007199254740992)", d->params[k].name, params[k]);
            else
                pw_set_error_detail("parameter %s = %.17g does not fit %s%s", d->params[k].name, params[k], tname(t),
                                    t == PW_CT_F32 ? (fabs(params[k]) > FLT_MAX ? " (past its largest finite value)"
                                                                                : " (below its smallest: it would be 0)")
                                                   : " exactly");
            return PW_ERR_INVALID_ARGUMENT;
        }
        store_as(d->params[k].f.type, params[k], ctx + d->ctx_params[k]);
    }
    return PW_OK;
}

int64_t pw_cell_decl_input_count(const pw_cell_decl *d, int k, int64_t rows, int64_t cols, int64_t planes)
{
    const pw_cell_axes a = d->inputs[k].f.axes;
    if (a == PW_AXES_TABLE) return d->inputs[k].f.count;
    return (a & PW_AXES_I ? rows : 1) * (a & PW_AXES_J ? cols : 1) * (a & PW_AXES_K ? planes : 1);
}

pw_status pw_cell_decl_flat_deps(const pw_cell_decl *d, int64_t planes, pw_dep *out, int *n)
{
    *n = 0;
    for (int k = 0; k < d->n_deps3; k++) {
        const int *v = d->deps3[k];
        /* |dk| >= planes links no two cells of the space (one end is always in the halo) */
        if (v[2] <= -planes || v[2] >= planes) continue;
        if (planes > PW_MAX_DEP_DISTANCE && v[1] != 0) {
            pw_set_error_detail("PW_DEP3(%d, %d, %d) with %lld planes spans more than %d flattened columns", v[0], v[1], v[2],
                                (long long)planes, PW_MAX_DEP_DISTANCE);
            return PW_ERR_UNSUPPORTED;
        }
        const int64_t dc = (int64_t)v[1] * planes + v[2];
        if (dc > PW_MAX_DEP_DISTANCE || dc < -PW_MAX_DEP_DISTANCE) {
            pw_set_error_detail("PW_DEP3(%d, %d, %d) with %lld planes spans %lld flattened columns (at most %d)", v[0], v[1],
                                v[2], (long long)planes, (long long)dc, PW_MAX_DEP_DISTANCE);
            return PW_ERR_UNSUPPORTED;
        }
        out[(*n)++] = (pw_dep){v[0], (int)dc};
    }
    if (*n == 0) out[(*n)++] = (pw_dep){1, 0}; /* nothing to order: any legal vector will do */
    return PW_OK;
}

void pw_cell_decl_reach3(const pw_cell_decl *d, int reach[3])
{
    for (int a = 0; a < 3; a++) {
        reach[a] = d->halo;
        for (int k = 0; k < d->n_deps3; k++)
            if (d->deps3[k][a] > reach[a]) reach[a] = d->deps3[k][a];
    }
}

double pw_cell_decl_field_value(const pw_cell_decl *d, const void *value, int k)
{
    return load_as(d->fields[k].f.type, (const unsigned char *)value + d->fields[k].f.offset);
}
