/*
 * sat_input.h - instantiate the SAT segments of one input type: define SAT_IN_T and SAT_IN_NAME
 * (an identifier: u8, u16 ...) and SAT_IN_IS_FLOAT (0/1), then include.  Integer inputs get
 * all four outputs; float inputs only float outputs.
 */
#define SAT_SEG(in, out) SAT_CAT(SAT_CAT(SAT_CAT(sat_seg_, in), _), out)

#if !SAT_IN_IS_FLOAT
#define SAT_OUT_T int32_t
#define SAT_OUT_SUFFIX i32
#define SAT_NAME SAT_SEG(SAT_IN_NAME, i32)
#include "sat_full.h"
#define SAT_OUT_T int64_t
#define SAT_OUT_SUFFIX i64
#define SAT_NAME SAT_SEG(SAT_IN_NAME, i64)
#include "sat_full.h"
#endif
#define SAT_OUT_T float
#define SAT_OUT_SUFFIX f32
#define SAT_NAME SAT_SEG(SAT_IN_NAME, f32)
#include "sat_full.h"
#define SAT_OUT_T double
#define SAT_OUT_SUFFIX f64
#define SAT_NAME SAT_SEG(SAT_IN_NAME, f64)
#include "sat_full.h"

#undef SAT_SEG
#undef SAT_IN_T
#undef SAT_IN_NAME
#undef SAT_IN_IS_FLOAT
