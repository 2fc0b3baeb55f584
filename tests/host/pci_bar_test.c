/* Tests of BAR decoding and sizing arithmetic (PCI 3.0, 6.2.5.1), with
 * values as devices return them. */
#include "kernel/pci.h"
#include "lib/test.h"

TEST(pci_bar_decode_mem32) {
  struct pci_bar b;
  /* A 1 MiB non-prefetchable BAR at 0xfea00000 (QEMU edu's BAR0 shape). */
  ASSERT_EQ(pci_bar_decode(0xfea00000u, 0xfff00000u, 0, 0, &b), 1);
  ASSERT_EQ(b.kind, PCI_BAR_MEM32);
  ASSERT_FALSE(b.prefetchable);
  ASSERT_EQ_U(b.base, 0xfea00000u);
  ASSERT_EQ_U(b.size, 1u << 20);
}

TEST(pci_bar_decode_mem64_prefetchable) {
  struct pci_bar b;
  /* 256 MiB prefetchable 64-bit at 0x8_0000_0000: type bits 10b, bit 3. */
  ASSERT_EQ(pci_bar_decode(0x0000000cu, 0xf000000cu, 0x8, 0xffffffffu, &b), 2);
  ASSERT_EQ(b.kind, PCI_BAR_MEM64);
  ASSERT_TRUE(b.prefetchable);
  ASSERT_EQ_U(b.base, 0x800000000ull);
  ASSERT_EQ_U(b.size, 256u << 20);
}

TEST(pci_bar_decode_mem64_larger_than_4g) {
  struct pci_bar b;
  /* 8 GiB: no writable bit in the low half, lowest in the upper half is 1. */
  ASSERT_EQ(pci_bar_decode(0x4u, 0x4u, 0x4, 0xfffffffeu, &b), 2);
  ASSERT_EQ_U(b.size, 8ull << 30);
  ASSERT_EQ_U(b.base, 0x400000000ull);
}

TEST(pci_bar_decode_io) {
  struct pci_bar b;
  /* 32 ports at 0xc040, device decoding 16 address bits only. */
  ASSERT_EQ(pci_bar_decode(0xc041u, 0x0000ffe1u, 0, 0, &b), 1);
  ASSERT_EQ(b.kind, PCI_BAR_IO);
  ASSERT_EQ_U(b.base, 0xc040u);
  ASSERT_EQ_U(b.size, 32);
  /* Full 32-bit I/O decode, 256 ports. */
  ASSERT_EQ(pci_bar_decode(0x1001u, 0xffffff01u, 0, 0, &b), 1);
  ASSERT_EQ_U(b.size, 256);
}

TEST(pci_bar_decode_unimplemented) {
  struct pci_bar b;
  ASSERT_EQ(pci_bar_decode(0, 0, 0, 0, &b), 1);
  ASSERT_EQ(b.kind, PCI_BAR_NONE);
  ASSERT_EQ_U(b.size, 0);
  /* A 64-bit BAR that reads back zero spans both registers, both unused. */
  ASSERT_EQ(pci_bar_decode(0x4u, 0x4u, 0, 0, &b), 2);
  ASSERT_EQ(b.kind, PCI_BAR_NONE);
}

TEST(pci_bar_decode_reserved_type_rejected) {
  struct pci_bar b;
  ASSERT_EQ(pci_bar_decode(0x2u, 0xfff00002u, 0, 0, &b), 0); /* type 01b */
  ASSERT_EQ(b.kind, PCI_BAR_NONE);
  ASSERT_EQ(pci_bar_decode(0x6u, 0xfff00006u, 0, 0, &b), 0); /* type 11b */
}
