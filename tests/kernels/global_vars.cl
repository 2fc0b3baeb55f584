/* global_vars: program-scope variables the host finds by symbol name, a
 * pointer initialised to the address of another (an R_AMDGPU_RELATIVE64
 * relocation) and an external variable the application must define before
 * loading (hsa_executable_agent_global_variable_define; an R_AMDGPU_ABS64
 * relocation). out[i] = table[i % 4] * scale + *bias_ptr + ext_offset. */
__attribute__((visibility("protected"))) __global int table[4] = {1, 2, 3, 4};
__attribute__((visibility("protected"))) __global int scale = 10;
__attribute__((visibility("protected"))) __global int bias = 5;
__attribute__((visibility("protected"))) __global int *bias_ptr = &bias;
extern __attribute__((visibility("default"))) __global int ext_offset;

__kernel void global_vars(__global int *out) {
  size_t i = get_global_id(0);
  out[i] = table[i % 4] * scale + *bias_ptr + ext_offset;
}
