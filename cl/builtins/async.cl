/*
 * async.cl - async_work_group_copy, async_work_group_strided_copy,
 * wait_group_events and prefetch, OpenCL C 2.0 specification section
 * 6.13.10. Every work-item of the work-group calls the copy with the same
 * arguments (the section requires it); each copies the elements
 * k = its local linear id, + local size, ... at once, and
 * wait_group_events is a work-group barrier with local and global fences,
 * after which every element is in place and visible to the whole group.
 * The event returned is the one passed in. prefetch is a hint: nothing.
 * Calls get_local_linear_id, get_local_size and barrier (the work-item
 * functions of the CPU agents).
 */
#include "clb.h"

CLB_INL size_t clb_group_items(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define CLB_ASYNC_TYPE(T)                                                      \
  CLB_OVL event_t async_work_group_copy(__local T *dst, const __global T *src, \
                                        size_t n, event_t event) {             \
    for (size_t k = get_local_linear_id(), step = clb_group_items(); k < n; k += step) \
      dst[k] = src[k];                                                         \
    return event;                                                              \
  }                                                                            \
  CLB_OVL event_t async_work_group_copy(__global T *dst, const __local T *src, \
                                        size_t n, event_t event) {             \
    for (size_t k = get_local_linear_id(), step = clb_group_items(); k < n; k += step) \
      dst[k] = src[k];                                                         \
    return event;                                                              \
  }                                                                            \
  CLB_OVL event_t async_work_group_strided_copy(__local T *dst, const __global T *src, \
                                                size_t n, size_t stride, event_t event) { \
    for (size_t k = get_local_linear_id(), step = clb_group_items(); k < n; k += step) \
      dst[k] = src[k * stride];                                                \
    return event;                                                              \
  }                                                                            \
  CLB_OVL event_t async_work_group_strided_copy(__global T *dst, const __local T *src, \
                                                size_t n, size_t stride, event_t event) { \
    for (size_t k = get_local_linear_id(), step = clb_group_items(); k < n; k += step) \
      dst[k * stride] = src[k];                                                \
    return event;                                                              \
  }                                                                            \
  CLB_OVL void prefetch(const __global T *p, size_t n) {}
#define CLB_ASYNC_N(N, T) CLB_ASYNC_TYPE(T##N)
#define CLB_ASYNC(T) CLB_ASYNC_TYPE(T) CLB_WIDTHS(CLB_ASYNC_N, T)
CLB_INTS(CLB_ASYNC) CLB_FLOATS(CLB_ASYNC)

CLB_OVL void wait_group_events(int num_events, event_t *events) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
