/* bundle.c - choose the code object for an agent out of a clang offload
 * bundle. Layout and entry ID syntax ("<kind>-<arch>-<vendor>-<os>-<env>
 * [-<target ID>]"): clang docs ClangOffloadBundler.rst, "Bundled Binary File
 * Layout" and "Bundle Entry ID". Compressed bundles ("CCOB" magic, same
 * document) need a decompressor we do not carry and are refused by name. */
#include "hsa/loader/bundle.h"

#include <stdio.h>
#include <string.h>

#include "hsa/loader/report.h"

#define BUNDLE_MAGIC      "__CLANG_OFFLOAD_BUNDLE__"
#define BUNDLE_MAGIC_SIZE 24
#define COMPRESSED_MAGIC  "CCOB"
#define AMDGPU_TRIPLE     "amdgcn-amd-amdhsa-"

static uint64_t rd64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

bool loader_bundle_is_bundle(const void *data, size_t size) {
  return size >= BUNDLE_MAGIC_SIZE && memcmp(data, BUNDLE_MAGIC, BUNDLE_MAGIC_SIZE) == 0;
}

/* The target an entry's code object names in its ELF header (e_flags and
 * EI_ABIVERSION: ELF64 header offsets 48 and 8). It is the authority: the
 * entry ID has no room for a generic target's version. */
static bool entry_elf_isa(const uint8_t *code, uint64_t size, struct loader_isa *isa) {
  char why[160];
  if (size < 64 || memcmp(code, "\177ELF", 4) != 0) return false;
  uint32_t e_flags = (uint32_t)code[48] | (uint32_t)code[49] << 8 | (uint32_t)code[50] << 16 |
                     (uint32_t)code[51] << 24;
  return loader_isa_from_elf(e_flags, code[8], isa, why, sizeof why);
}

/* How well an entry fits: 0 = not at all; higher is more specific. */
static int entry_fit(const char *id, size_t id_len, const uint8_t *code, uint64_t code_size,
                     const struct loader_isa *agent) {
  char buf[256];
  if (id_len >= sizeof buf) return 0;
  memcpy(buf, id, id_len);
  buf[id_len] = '\0';

  /* Offload kinds that carry AMDGPU HSA code objects. */
  const char *dash = strchr(buf, '-');
  if (!dash) return 0;
  size_t kind_len = (size_t)(dash - buf);
  bool known_kind = (kind_len == 3 && !memcmp(buf, "hip", 3)) ||
                    (kind_len == 5 && !memcmp(buf, "hipv4", 5)) ||
                    (kind_len == 6 && !memcmp(buf, "openmp", 6));
  const char *triple = dash + 1;
  if (!known_kind || strncmp(triple, AMDGPU_TRIPLE, strlen(AMDGPU_TRIPLE)) != 0) return 0;
  const char *env = triple + strlen(AMDGPU_TRIPLE);
  const char *target = strchr(env, '-'); /* the environment field may be empty */
  if (!target) return 0;

  struct loader_isa named, isa;
  char why[160];
  if (!loader_isa_from_name(target + 1, &named) || !entry_elf_isa(code, code_size, &isa)) return 0;
  if (named.mach != isa.mach || !loader_isa_compatible(&isa, agent, why, sizeof why)) return 0;
  int fit = loader_isa_mach_is_generic(isa.mach) ? 1 : 4;
  fit += isa.xnack == LOADER_FEATURE_ON || isa.xnack == LOADER_FEATURE_OFF;
  fit += isa.sramecc == LOADER_FEATURE_ON || isa.sramecc == LOADER_FEATURE_OFF;
  return fit;
}

typedef int (*entry_fit_fn)(const char *id, size_t id_len, const uint8_t *code, uint64_t code_size,
                            const void *ctx);

static int amdgpu_entry_fit(const char *id, size_t id_len, const uint8_t *code, uint64_t code_size,
                            const void *ctx) {
  return entry_fit(id, id_len, code, code_size, ctx);
}

static int id_entry_fit(const char *id, size_t id_len, const uint8_t *code, uint64_t code_size,
                        const void *ctx) {
  (void)code;
  (void)code_size;
  const char *want = ctx;
  size_t want_len = strlen(want);
  while (want_len && want[want_len - 1] == '-') want_len--;
  while (id_len && id[id_len - 1] == '-') id_len--;
  return id_len == want_len && memcmp(id, want, id_len) == 0;
}

static enum loader_status bundle_walk(const void *data, size_t size, const char *source,
                                      const char *wanted, entry_fit_fn fit_fn, const void *ctx,
                                      const void **code, size_t *code_size, char *why,
                                      size_t why_size) {
  const uint8_t *p = data;
  uint64_t count = rd64(p + BUNDLE_MAGIC_SIZE);
  size_t pos = BUNDLE_MAGIC_SIZE + 8;
  /* Each entry header takes at least 24 bytes: a larger count is a lie. */
  if (count > (size - pos) / 24)
    return loader_report(LOADER_ERROR_INVALID_CODE_OBJECT, source, why, why_size,
                         "bundle claims %llu entries, more than its %zu bytes hold",
                         (unsigned long long)count, size);
  int best_fit = 0;
  char seen[200] = "";
  for (uint64_t i = 0; i < count; i++) {
    if (size - pos < 24)
      return loader_report(LOADER_ERROR_INVALID_CODE_OBJECT, source, why, why_size,
                           "bundle entry %llu: header truncated", (unsigned long long)i);
    uint64_t off = rd64(p + pos), len = rd64(p + pos + 8), id_len = rd64(p + pos + 16);
    pos += 24;
    if (id_len > size - pos)
      return loader_report(LOADER_ERROR_INVALID_CODE_OBJECT, source, why, why_size,
                           "bundle entry %llu: ID of %llu bytes runs past the end",
                           (unsigned long long)i, (unsigned long long)id_len);
    const char *id = (const char *)p + pos;
    pos += id_len;
    if (off > size || len > size - off)
      return loader_report(LOADER_ERROR_INVALID_CODE_OBJECT, source, why, why_size,
                           "bundle entry %llu (%.*s): range 0x%llx+0x%llx is outside the %zu bytes",
                           (unsigned long long)i, (int)(id_len < 80 ? id_len : 80), id,
                           (unsigned long long)off, (unsigned long long)len, size);
    size_t used = strlen(seen);
    if (used + 4 < sizeof seen)
      snprintf(seen + used, sizeof seen - used, "%s%.*s", used ? ", " : "",
               (int)(id_len < 60 ? id_len : 60), id);
    int fit = fit_fn(id, (size_t)id_len, p + off, len, ctx);
    if (fit > best_fit && len > 0) {
      best_fit = fit;
      *code = p + off;
      *code_size = (size_t)len;
    }
  }
  if (!*code)
    return loader_report(LOADER_ERROR_INCOMPATIBLE_ISA, source, why, why_size,
                         "no bundle entry for %s (entries: %s)", wanted, seen[0] ? seen : "none");
  return LOADER_OK;
}

static enum loader_status check_bundle(const void *data, size_t size, const char *source,
                                       const void **code, size_t *code_size, char *why,
                                       size_t why_size) {
  *code = NULL;
  *code_size = 0;
  if (size >= 4 && memcmp(data, COMPRESSED_MAGIC, 4) == 0)
    return loader_report(LOADER_ERROR_INVALID_CODE_OBJECT, source, why, why_size,
                         "compressed offload bundle (CCOB) is not supported; bundle without "
                         "compression");
  if (!loader_bundle_is_bundle(data, size) || size < BUNDLE_MAGIC_SIZE + 8)
    return loader_report(LOADER_ERROR_INVALID_CODE_OBJECT, source, why, why_size,
                         "not an offload bundle or truncated header (%zu bytes)", size);
  return LOADER_OK;
}

enum loader_status loader_bundle_select(const void *data, size_t size, const char *source,
                                        const char *agent_isa_name, const void **code,
                                        size_t *code_size, char *why, size_t why_size) {
  enum loader_status st = check_bundle(data, size, source, code, code_size, why, why_size);
  if (st != LOADER_OK) return st;
  struct loader_isa agent;
  if (!agent_isa_name || !loader_isa_from_name(agent_isa_name, &agent))
    return loader_report(LOADER_ERROR_INVALID_ISA_NAME, source, why, why_size,
                         "agent ISA \"%s\" is not a target ID",
                         agent_isa_name ? agent_isa_name : "(null)");
  return bundle_walk(data, size, source, agent_isa_name, amdgpu_entry_fit, &agent, code,
                     code_size, why, why_size);
}

enum loader_status loader_bundle_select_id(const void *data, size_t size, const char *source,
                                           const char *entry_id, const void **code,
                                           size_t *code_size, char *why, size_t why_size) {
  enum loader_status st = check_bundle(data, size, source, code, code_size, why, why_size);
  if (st != LOADER_OK) return st;
  return bundle_walk(data, size, source, entry_id, id_entry_fit, entry_id, code, code_size, why,
                     why_size);
}
