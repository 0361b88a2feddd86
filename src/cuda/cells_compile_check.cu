/* cells_compile_check.cu - instantiate every shared cell in device code (compile check only). */
#include <stdint.h>

#include "../../apps/dtw_cell.h"
#include "../../apps/sat_cell.h"
#include "../../apps/stencil_cell.h"
#include "../../apps/sw_cell.h"

extern "C" __global__ void pw_cells_compile_check(int32_t *i32, float *f32, double *f64)
{
    pw_sw_cell b = pw_sw_boundary();
    pw_sw_cell c = pw_sw_step(i32[0], i32[1], i32[2], b, b, b);
    i32[3] = c.h + c.e + c.f;
    i32[4] = pw_sat_step_i32(i32[0], i32[1], i32[2], i32[3]);
    f32[0] = pw_dtw_step_f32(f32[1], f32[2], 1, f32[3], f32[4], f32[5]);
    f64[0] = pw_dtw_step_f64(f64[1], f64[2], 0, f64[3], f64[4], f64[5]);
    f32[6] = pw_sat_step_f32(f32[1], f32[2], f32[3], f32[4]);
    f64[6] = pw_sat_step_f64(f64[1], f64[2], f64[3], f64[4]);
    f32[7] = pw_heat_step_f32(f32[1], f32[2], f32[3], f32[4]);
    f64[7] = pw_sor_step_f64(f64[1], f64[2], f64[3], f64[4], f64[5], f64[6], f64[7]);
}
