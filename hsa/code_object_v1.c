/*
 * code_object_v1.c - the deprecated HSA 1.0 code object API (PRM 1.2,
 * appendix "Deprecated"). hsa_code_object_t objects come only from
 * hsa_code_object_deserialize of the HSAIL-era format, which this runtime
 * does not read: use code object readers (hsa_code_object_reader_*).
 */
#include "hsa/runtime.h"

hsa_status_t hsa_code_object_serialize(hsa_code_object_t code_object,
                                       hsa_status_t (*alloc)(size_t, hsa_callback_data_t, void **),
                                       hsa_callback_data_t data, const char *options,
                                       void **serialized, size_t *size) {
  RETURN_IF_NOT_INITIALIZED();
  (void)code_object, (void)alloc, (void)data, (void)options, (void)serialized, (void)size;
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_code_object_deserialize(void *serialized, size_t size, const char *options,
                                         hsa_code_object_t *code_object) {
  RETURN_IF_NOT_INITIALIZED();
  (void)options;
  if (!serialized || size == 0 || !code_object) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_code_object_destroy(hsa_code_object_t code_object) {
  RETURN_IF_NOT_INITIALIZED();
  (void)code_object;
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_code_object_get_info(hsa_code_object_t code_object,
                                      hsa_code_object_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  (void)code_object, (void)attribute, (void)value;
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_executable_load_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                             hsa_code_object_t code_object, const char *options) {
  RETURN_IF_NOT_INITIALIZED();
  (void)executable, (void)agent, (void)code_object, (void)options;
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_code_object_get_symbol(hsa_code_object_t code_object, const char *name,
                                        hsa_code_symbol_t *symbol) {
  RETURN_IF_NOT_INITIALIZED();
  (void)code_object, (void)name, (void)symbol;
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_code_object_get_symbol_from_name(hsa_code_object_t code_object,
                                                  const char *module_name, const char *name,
                                                  hsa_code_symbol_t *symbol) {
  RETURN_IF_NOT_INITIALIZED();
  (void)code_object, (void)module_name, (void)name, (void)symbol;
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_code_symbol_get_info(hsa_code_symbol_t code_symbol,
                                      hsa_code_symbol_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  (void)code_symbol, (void)attribute, (void)value;
  return HSA_STATUS_ERROR_INVALID_CODE_SYMBOL;
}

hsa_status_t hsa_code_object_iterate_symbols(hsa_code_object_t code_object,
                                             hsa_status_t (*callback)(hsa_code_object_t,
                                                                      hsa_code_symbol_t, void *),
                                             void *data) {
  RETURN_IF_NOT_INITIALIZED();
  (void)code_object, (void)callback, (void)data;
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}
