/*
 * device_sources.h - the device headers, embedded in the library at build time
 * (tools/embed_sources.c), under every name by which device code includes them: NVRTC compiles
 * with no include path, so a kernel compiled at run time needs nothing from the disk.
 */
#ifndef PW_DEVICE_SOURCES_H
#define PW_DEVICE_SOURCES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_source_file {
    const char *name; /* as an #include names it, or its path in the source tree */
    const char *text; /* NUL-terminated */
    size_t size;
} pw_source_file;

extern const pw_source_file pw_device_sources[];
extern const int pw_device_source_count;

#ifdef __cplusplus
}
#endif

#endif
