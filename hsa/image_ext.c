/*
 * image_ext.c - the images extension (PRM 1.2, 3.3) for agents without
 * image support: capabilities are NOT_SUPPORTED and creating anything
 * answers the extension's "unsupported" status.
 */
#include <hsa/hsa_ext_amd.h>

#include "hsa/agent.h"
#include "hsa/runtime.h"

static hsa_status_t check_agent(hsa_agent_t agent) {
  if (!runtime_initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return agent_from_handle(agent) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_AGENT;
}

#define UNSUPPORTED_IMAGE_OP(status)                                 \
  do {                                                               \
    hsa_status_t st_ = check_agent(agent);                           \
    return st_ != HSA_STATUS_SUCCESS ? st_ : (hsa_status_t)(status); \
  } while (0)

hsa_status_t hsa_ext_image_get_capability(hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
                                          const hsa_ext_image_format_t *image_format,
                                          uint32_t *capability_mask) {
  hsa_status_t st = check_agent(agent);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (!image_format || !capability_mask || (unsigned)geometry > HSA_EXT_IMAGE_GEOMETRY_2DADEPTH)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *capability_mask = HSA_EXT_IMAGE_CAPABILITY_NOT_SUPPORTED;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ext_image_get_capability_with_layout(hsa_agent_t agent,
                                                      hsa_ext_image_geometry_t geometry,
                                                      const hsa_ext_image_format_t *image_format,
                                                      hsa_ext_image_data_layout_t layout,
                                                      uint32_t *capability_mask) {
  (void)layout;
  return hsa_ext_image_get_capability(agent, geometry, image_format, capability_mask);
}

hsa_status_t hsa_ext_image_data_get_info(hsa_agent_t agent, const hsa_ext_image_descriptor_t *d,
                                         hsa_access_permission_t p, hsa_ext_image_data_info_t *i) {
  (void)d, (void)p, (void)i;
  UNSUPPORTED_IMAGE_OP(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
}

hsa_status_t hsa_ext_image_data_get_info_with_layout(hsa_agent_t agent,
                                                     const hsa_ext_image_descriptor_t *d,
                                                     hsa_access_permission_t p,
                                                     hsa_ext_image_data_layout_t l, size_t rp,
                                                     size_t sp, hsa_ext_image_data_info_t *i) {
  (void)d, (void)p, (void)l, (void)rp, (void)sp, (void)i;
  UNSUPPORTED_IMAGE_OP(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
}

hsa_status_t hsa_ext_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *d,
                                  const void *data, hsa_access_permission_t p, hsa_ext_image_t *i) {
  (void)d, (void)data, (void)p, (void)i;
  UNSUPPORTED_IMAGE_OP(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
}

hsa_status_t hsa_ext_image_create_with_layout(hsa_agent_t agent,
                                              const hsa_ext_image_descriptor_t *d, const void *data,
                                              hsa_access_permission_t p,
                                              hsa_ext_image_data_layout_t l, size_t rp, size_t sp,
                                              hsa_ext_image_t *i) {
  (void)d, (void)data, (void)p, (void)l, (void)rp, (void)sp, (void)i;
  UNSUPPORTED_IMAGE_OP(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
}

/* No image was ever created, so every image handle is invalid. */
hsa_status_t hsa_ext_image_destroy(hsa_agent_t agent, hsa_ext_image_t image) {
  (void)image;
  UNSUPPORTED_IMAGE_OP(HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

hsa_status_t hsa_ext_image_copy(hsa_agent_t agent, hsa_ext_image_t s, const hsa_dim3_t *so,
                                hsa_ext_image_t d, const hsa_dim3_t *dof, const hsa_dim3_t *r) {
  (void)s, (void)so, (void)d, (void)dof, (void)r;
  UNSUPPORTED_IMAGE_OP(HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

hsa_status_t hsa_ext_image_import(hsa_agent_t agent, const void *m, size_t rp, size_t sp,
                                  hsa_ext_image_t d, const hsa_ext_image_region_t *r) {
  (void)m, (void)rp, (void)sp, (void)d, (void)r;
  UNSUPPORTED_IMAGE_OP(HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

hsa_status_t hsa_ext_image_export(hsa_agent_t agent, hsa_ext_image_t s, void *m, size_t rp,
                                  size_t sp, const hsa_ext_image_region_t *r) {
  (void)s, (void)m, (void)rp, (void)sp, (void)r;
  UNSUPPORTED_IMAGE_OP(HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

hsa_status_t hsa_ext_image_clear(hsa_agent_t agent, hsa_ext_image_t i, const void *d,
                                 const hsa_ext_image_region_t *r) {
  (void)i, (void)d, (void)r;
  UNSUPPORTED_IMAGE_OP(HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

hsa_status_t hsa_ext_sampler_create(hsa_agent_t agent, const hsa_ext_sampler_descriptor_t *d,
                                    hsa_ext_sampler_t *s) {
  (void)d, (void)s;
  UNSUPPORTED_IMAGE_OP(HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED);
}

hsa_status_t hsa_ext_sampler_destroy(hsa_agent_t agent, hsa_ext_sampler_t sampler) {
  (void)sampler;
  UNSUPPORTED_IMAGE_OP(HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

hsa_status_t hsa_amd_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *d,
                                  const hsa_amd_image_descriptor_t *l, const void *data,
                                  hsa_access_permission_t p, hsa_ext_image_t *i) {
  (void)d, (void)l, (void)data, (void)p, (void)i;
  UNSUPPORTED_IMAGE_OP(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
}

hsa_status_t hsa_amd_image_get_info_max_dim(hsa_agent_t agent, hsa_agent_info_t attribute,
                                            void *value) {
  return hsa_agent_get_info(agent, attribute, value);
}
