/*
 * edu_dma.h - QEMU's edu device as a DMA master for the IOMMU image tests
 * (tests/image/iommu_*_test.c). Its DMA engine (QEMU hw/misc/edu.c) copies
 * between its 4 KiB buffer at device address 0x40000 and RAM, through
 * QEMU's amd-iommu model, which translates and blocks as the driver's
 * tables say. A refused DMA leaves memory unchanged.
 *
 * edu registers (hw/misc/edu.c): 0x80 source, 0x88 destination, 0x90
 * count, 0x98 command (bit 0 run, bit 1 direction: 1 = edu buffer to RAM);
 * the command reads back with bit 0 clear when the transfer is done. Its
 * DMA mask is 28 bits: RAM above EDU_DMA_LIMIT cannot be a target.
 * Transfers are EDU_DMA_LEN bytes: QEMU 7.2's edu_check_range() stops the
 * machine (hw_error) for a range that ends exactly at the end of the
 * 4 KiB buffer, so a whole-buffer transfer is not possible there.
 */
#ifndef TESTS_IMAGE_EDU_DMA_H
#define TESTS_IMAGE_EDU_DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/iommu/iommu.h"

#define EDU_VENDOR         0x1234
#define EDU_DEVICE         0x11e8
#define EDU_DMA_SRC        0x80
#define EDU_DMA_DST        0x88
#define EDU_DMA_COUNT      0x90
#define EDU_DMA_CMD        0x98
#define EDU_DMA_RUN        1u
#define EDU_DMA_TO_RAM     2u
#define EDU_BUFFER         0x40000u
#define EDU_DMA_LIMIT      (1ull << 28)
#define EDU_DMA_LEN        2048u
#define EDU_DMA_TIMEOUT_NS 5000000000ull /* a transfer takes 100 ms of QEMU's virtual time */

/* The edu's IOMMU attachment (NULL before edu_fresh or after a detach). */
extern struct iommu_device *edu_dev;

/* The edu with a new, empty domain (the previous test's is dropped). */
void edu_fresh(void);
/* Runs one transfer of `count` bytes between the edu's buffer and `ram`
 * and waits for it (bounded: a test failure after 5 s). */
void edu_dma(uint64_t ram, bool to_ram, uint32_t count);
/* Loads the edu's buffer with fill()'s pattern for `seed`, from a page
 * mapped for the transfer only. */
void load_edu_buffer(uint8_t seed);
/* A fresh page-aligned buffer below EDU_DMA_LIMIT (frames_alloc_below). */
uint8_t *low_buffer(size_t size);
/* True when the IOMMU confines devices (iommu=on), false for
 * iommu=passthrough or off, where every DMA lands. */
bool confined(void);

void fill(uint8_t *p, size_t n, uint8_t seed);
bool filled(const uint8_t *p, size_t n, uint8_t seed);
bool all(const uint8_t *p, size_t n, uint8_t v);

#endif
