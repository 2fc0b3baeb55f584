/*
 * ksyms.h - the image's symbol table (section .ksyms) and its decoder.
 *
 * kernel/gen_ksyms.py writes the table from `nm` of the first link
 * (mk/image.mk links twice); kernel/backtrace.c looks return addresses up
 * in it. The table holds no pointer, only offsets from its start, so that
 * it needs no relocation and reads the same from a file (the host tests
 * decode the test images' tables, tests/host/ksyms_test.c). Little endian:
 *
 *   header      struct ksym_table (count, then offsets of the parts below)
 *   addr[count] link-time addresses (offsets from ImageBase; the image is
 *               far below 4 GiB), ascending; aliases share an address
 *   markers     uint32 per KSYM_MARKER_EVERY symbols: where the name of
 *               symbol k * KSYM_MARKER_EVERY starts, from `names`
 *   tokens      uint16 index[256]: where each token's text starts, from the
 *               end of the index; then the texts, NUL-terminated
 *   names       per symbol: a length byte n and n tokens; a name is the
 *               concatenation of its tokens' texts (the compression of
 *               Linux's scripts/kallsyms.c: a byte value that no name uses
 *               stands for a frequent substring)
 */
#ifndef KERNEL_KSYMS_H
#define KERNEL_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for the longest name and its NUL; gen_ksyms.py refuses longer ones. */
#define KSYM_NAME_MAX 128
#define KSYM_MARKER_EVERY 256

struct ksym_table {
  uint32_t count;
  uint32_t names;   /* offsets from the start of the table */
  uint32_t markers;
  uint32_t tokens;
  uint32_t addr[];
};

/* Index of the last symbol whose address is <= `addr` (the function that
 * contains it), or -1 when `addr` lies below the first symbol. */
long ksym_table_find(const struct ksym_table *t, uint32_t addr);

/* Writes the name of symbol `index` (< count) into `name`, NUL-terminated.
 * Returns false, with `name` empty, when it does not fit in `size` bytes. */
bool ksym_table_name(const struct ksym_table *t, uint32_t index, char *name, size_t size);

#endif
