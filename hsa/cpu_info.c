/*
 * cpu_info.c - what a CPU agent reports about its cores, read with CPUID
 * (Intel SDM vol. 2A "CPUID"; AMD APM vol. 3 "CPUID"):
 *   brand string   leaves 0x80000002..4
 *   caches         leaf 4 (Intel) / 0x8000001D (AMD): same register layout:
 *                  EAX[4:0] type (1 data, 2 instruction, 3 unified), EAX[7:5]
 *                  level; size = (EBX[31:22]+1)(EBX[21:12]+1)(EBX[11:0]+1)(ECX+1)
 *   line size      leaf 1 EBX[15:8] x 8 bytes
 *   max clock      leaf 0x16 EBX (MHz; Intel only, else 0 = unknown)
 */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>

#include "hsa/cpu_agent.h"

static void brand_string(char *out, size_t size) {
  unsigned int regs[12] = {0}, max = __get_cpuid_max(0x80000000, NULL);
  if (max < 0x80000004) {
    snprintf(out, size, "x86-64 CPU");
    return;
  }
  for (unsigned i = 0; i < 3; i++)
    __cpuid(0x80000002 + i, regs[i * 4], regs[i * 4 + 1], regs[i * 4 + 2], regs[i * 4 + 3]);
  char brand[49];
  memcpy(brand, regs, 48);
  brand[48] = '\0';
  const char *b = brand;
  while (*b == ' ') b++;
  snprintf(out, size, "%s", b);
}

static void read_caches(struct agent *a) {
  unsigned int eax, ebx, ecx, edx;
  __cpuid(0, eax, ebx, ecx, edx);
  bool amd = ebx == 0x68747541; /* "Auth"enticAMD */
  unsigned leaf = amd ? 0x8000001D : 4;
  if ((amd ? __get_cpuid_max(0x80000000, NULL) : eax) < leaf) return;
  for (unsigned sub = 0; sub < 16 && a->cache_count < AGENT_MAX_CACHES; sub++) {
    __cpuid_count(leaf, sub, eax, ebx, ecx, edx);
    unsigned type = eax & 0x1f, level = (eax >> 5) & 7;
    if (type == 0) break;
    if (type == 2) continue; /* instruction caches are not reported, as in ROCr */
    struct cache_info *c = &a->caches[a->cache_count++];
    c->level = (uint8_t)level;
    c->size = (uint32_t)(((ebx >> 22) + 1) * (((ebx >> 12) & 0x3ff) + 1) * ((ebx & 0xfff) + 1) *
                         (ecx + 1));
    snprintf(c->name, sizeof c->name, "L%u %s", level, type == 1 ? "data" : "unified");
  }
}

void cpu_describe(struct agent *a) {
  unsigned int eax, ebx, ecx, edx;
  brand_string(a->name, sizeof a->name);
  snprintf(a->product_name, sizeof a->product_name, "%s", a->name);
  snprintf(a->vendor_name, sizeof a->vendor_name, "CPU"); /* ROCr's vendor name for CPUs */
  __cpuid(1, eax, ebx, ecx, edx);
  a->cacheline_size = ((ebx >> 8) & 0xff) * 8;
  if (__get_cpuid_max(0, NULL) >= 0x16) {
    __cpuid(0x16, eax, ebx, ecx, edx);
    a->max_clock_mhz = ebx & 0xffff;
  }
  read_caches(a);
}
