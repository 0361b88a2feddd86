/* rtc_module.cu - device code compiled at run time, loaded (rtc_module.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../jit/cell_cache.h"
#include "../jit/device_sources.h"
#include "../jit/rtc.h"
#include "cuda_check.cuh"
#include "rtc_module.h"

/* A cache entry: the lowered kernel names, each NUL-terminated, an empty name, then the CUBIN. */
static std::string pack(const pw_rtc_image &img)
{
    std::string s;
    for (int k = 0; k < img.n_lowered; k++) s.append(img.lowered[k], strlen(img.lowered[k]) + 1);
    s.push_back('\0');
    s.append(img.code, img.size);
    return s;
}

static bool unpack(const char *data, size_t size, size_t n_names, std::vector<std::string> *names, const char **cubin,
                   size_t *cubin_size)
{
    size_t at = 0;
    for (size_t k = 0; k < n_names; k++) {
        const char *end = (const char *)memchr(data + at, 0, size - at);
        if (!end) return false;
        names->push_back(std::string(data + at, end));
        at = (size_t)(end - data) + 1;
    }
    if (at >= size || data[at] != 0) return false;
    *cubin = data + at + 1;
    *cubin_size = size - at - 1;
    return *cubin_size > 0;
}

pw_status pw_rtc_module_key(const std::string &src, const char *version, int device, std::string *key, char *target)
{
    cudaDeviceProp prop;
    pw_status st = pw_from_cuda(cudaGetDeviceProperties(&prop, device));
    if (st != PW_OK) return st;
    snprintf(target, 32, "sm_%d%d", prop.major, prop.minor);
    pw_hash h;
    pw_hash_init(&h);
    pw_hash_add_str(&h, version);
    pw_hash_add_str(&h, target);
    const int nvrtc = pw_rtc_version();
    pw_hash_add(&h, &nvrtc, sizeof nvrtc);
    for (int k = 0; k < pw_device_source_count; k++) { /* the library's headers the program includes */
        pw_hash_add_str(&h, pw_device_sources[k].name);
        pw_hash_add(&h, pw_device_sources[k].text, pw_device_sources[k].size);
    }
    pw_hash_add_str(&h, src.c_str());
    char hex[PW_CACHE_KEY_CHARS];
    pw_hash_hex(&h, hex);
    *key = hex;
    return PW_OK;
}

pw_status pw_rtc_module_load(const std::string &src, const char *program_name, const char *target,
                             const std::vector<std::string> &names, pw_rtc_module *m, char **log, int *compiled,
                             char *note, size_t note_size)
{
    *log = NULL;
    *compiled = 0;
    char dirbuf[4096];
    const char *why, *dir = pw_cache_dir(dirbuf, sizeof dirbuf, &why);
    pw_cache_note(why, note, note_size);
    void *data = NULL;
    size_t size = 0;
    std::string entry;
    std::vector<std::string> lowered;
    const char *cubin = NULL;
    size_t cubin_size = 0;
    pw_status st = PW_OK;
    if (pw_cache_load(dir, m->key.c_str(), "cubin", &data, &size)) {
        entry.assign((const char *)data, size);
        if (!unpack(entry.data(), entry.size(), names.size(), &lowered, &cubin, &cubin_size)) cubin = NULL;
    }
    if (!cubin) { /* not cached (or damaged): compile */
        lowered.clear();
        std::vector<const char *> exprs;
        for (const std::string &n : names) exprs.push_back(n.c_str());
        pw_rtc_image img;
        memset(&img, 0, sizeof img);
        st = pw_rtc_compile(src.c_str(), program_name, target, exprs.data(), (int)exprs.size(), &img);
        *log = img.log;
        img.log = NULL;
        if (st == PW_OK) {
            entry = pack(img);
            if (!unpack(entry.data(), entry.size(), names.size(), &lowered, &cubin, &cubin_size)) {
                pw_set_error_detail("NVRTC's image lacks some of the %zu kernels asked for", names.size());
                st = PW_ERR_COMPILE;
            } else if (dir) {
                pw_cache_store(dir, m->key.c_str(), "cubin", entry.data(), entry.size());
            }
            *compiled = 1;
        }
        pw_rtc_image_free(&img);
    }
    free(data);
    if (st != PW_OK) return st;
    st = pw_from_cuda(cudaLibraryLoadData(&m->lib, cubin, NULL, NULL, 0, NULL, NULL, 0));
    if (st != PW_OK) return st;
    m->kernels.assign(lowered.size(), NULL);
    for (size_t k = 0; st == PW_OK && k < lowered.size(); k++)
        st = pw_from_cuda(cudaLibraryGetKernel(&m->kernels[k], m->lib, lowered[k].c_str()));
    if (st != PW_OK) pw_rtc_module_unload(m);
    return st;
}

void pw_rtc_module_unload(pw_rtc_module *m)
{
    if (m->lib) cudaLibraryUnload(m->lib);
    m->lib = NULL;
    m->kernels.clear();
}
