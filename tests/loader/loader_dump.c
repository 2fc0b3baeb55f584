/*
 * loader_dump.c - prints what the loader reads from code objects, one fact
 * per line, in the form tests/loader/check_readelf.sh also derives from
 * llvm-readelf-19's view of the same file, so that the two can be compared:
 *
 *   file e_flags=0x12d abi_version=3
 *   kernel vector_add.kd name=vector_add vaddr=0x800 kernarg_size=280 ...
 *   arg vector_add.kd 0 offset=0 size=8 kind=global_buffer
 *   variable table vaddr=0x3a00 size=16
 *
 * Usage: loader-dump FILE...   (exit status 1 if any file is refused)
 */
#include <stdio.h>
#include <stdlib.h>

#include "hsa/loader/loader.h"
#include "lib/plat.h"

static void dump(const struct loader_code_object *co) {
  printf("file e_flags=0x%x abi_version=%u\n", co->e_flags, co->version - 2);
  for (uint32_t i = 0; i < co->symbol_count; i++) {
    const struct loader_symbol *s = &co->symbols[i];
    if (s->kind == LOADER_SYMBOL_VARIABLE) {
      printf("variable %s vaddr=0x%llx size=%llu\n", s->name, (unsigned long long)s->vaddr,
             (unsigned long long)s->size);
      continue;
    }
    const struct loader_kernel_meta *k = s->meta;
    printf(
        "kernel %s name=%s vaddr=0x%llx kernarg_size=%u kernarg_align=%u group=%u private=%u "
        "wavefront=%u sgpr=%u vgpr=%u max_flat=%u dynamic_stack=%s\n",
        s->name, k->name, (unsigned long long)s->vaddr, k->kernarg_segment_size,
        k->kernarg_segment_align, k->group_segment_fixed_size, k->private_segment_fixed_size,
        k->wavefront_size, k->sgpr_count, k->vgpr_count, k->max_flat_workgroup_size,
        k->uses_dynamic_stack ? "true" : "false");
    for (uint32_t a = 0; a < k->arg_count; a++)
      printf("arg %s %u offset=%u size=%u kind=%s\n", s->name, a, k->args[a].offset,
             k->args[a].size, k->args[a].kind_name);
  }
}

int main(int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc; i++) {
    size_t size;
    void *image = plat_file_load(argv[i], &size);
    struct loader_code_object *co = NULL;
    char why[256];
    if (!image) {
      fprintf(stderr, "loader-dump: cannot read %s\n", argv[i]);
      status = 1;
      continue;
    }
    if (loader_code_object_parse(image, size, argv[i], &co, why, sizeof why) != LOADER_OK) {
      fprintf(stderr, "loader-dump: %s\n", why);
      status = 1;
    } else {
      dump(co);
    }
    loader_code_object_destroy(co);
    free(image);
  }
  return status;
}
