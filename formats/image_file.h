/* image_file.h - reading a 2-D image or grid from PGM (P2/P5, 8 or 16 bit), PNG (8 or 16 bit
 * grey, through libpng) or .npy (2-D u8/u16/i32/i64/f32/f64), chosen by the file's first bytes. */
#ifndef PW_IMAGE_FILE_H
#define PW_IMAGE_FILE_H

#include <stdio.h>

#include "peerwave.h"

/* Read path into *img (data malloc'd: free(img->data)).  0, or -1 with a one-line reason that
 * names the file. */
int image_read(const char *path, pw_image *img, char *err, int errlen);

/* The same from an open stream; path only names it in messages. */
int image_read_stream(FILE *f, const char *path, pw_image *img, char *err, int errlen);

/* The format readers, each from a stream positioned at the start of the file. */
int pgm_read_stream(FILE *f, const char *path, pw_image *img, char *err, int errlen);
int png_read_stream(FILE *f, const char *path, pw_image *img, char *err, int errlen);

#endif
