/* serial.c - the 16550 UART at COM1, polled (no interrupts): the console.
 *
 * Register layout and bits: National Semiconductor PC16550D data sheet,
 * table "Register Addresses" and sections 8.4-8.7 (LCR, LSR, FCR, MCR). */
#include "kernel/serial.h"

#include "kernel/portio.h"

#define COM1                0x3f8
#define REG_DATA            0 /* THR/RBR; DLL when LCR.DLAB = 1 */
#define REG_IER             1 /* interrupt enable; DLM when LCR.DLAB = 1 */
#define REG_FCR             2 /* FIFO control (write) */
#define REG_LCR             3 /* line control */
#define REG_MCR             4 /* modem control */
#define REG_LSR             5 /* line status */
#define REG_SCRATCH         7
#define LCR_DLAB            0x80
#define LCR_8N1             0x03
#define FCR_ENABLE_CLEAR    0x07 /* enable FIFOs, clear RX and TX */
#define MCR_DTR_RTS_OUT2    0x0b
#define LSR_DATA_READY      0x01
#define LSR_THR_EMPTY       0x20
#define BAUD_DIVISOR_115200 1 /* 1.8432 MHz / (16 * 115200) */

/* A UART that never drains (absent on a board) must not hang the kernel:
 * give up on a character after this many status reads (~ms at 1 us each). */
#define TX_SPIN_LIMIT 100000

static bool present;

bool serial_init(void) {
  /* The scratch register exists on every 16450/16550; reading back what we
   * wrote tells that a UART is there at all. */
  outb(COM1 + REG_SCRATCH, 0xa5);
  if (inb(COM1 + REG_SCRATCH) != 0xa5) return present = false;
  outb(COM1 + REG_IER, 0);
  outb(COM1 + REG_LCR, LCR_DLAB);
  outb(COM1 + REG_DATA, BAUD_DIVISOR_115200);
  outb(COM1 + REG_IER, 0);
  outb(COM1 + REG_LCR, LCR_8N1);
  outb(COM1 + REG_FCR, FCR_ENABLE_CLEAR);
  outb(COM1 + REG_MCR, MCR_DTR_RTS_OUT2);
  return present = true;
}

static void put_byte(uint8_t c) {
  for (int i = 0; i < TX_SPIN_LIMIT; i++) {
    if (inb(COM1 + REG_LSR) & LSR_THR_EMPTY) {
      outb(COM1 + REG_DATA, c);
      return;
    }
    __builtin_ia32_pause();
  }
}

void serial_write(const char *s, size_t n) {
  if (!present) return;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\n') put_byte('\r');
    put_byte((uint8_t)s[i]);
  }
}

int serial_read_byte(void) {
  if (!present || !(inb(COM1 + REG_LSR) & LSR_DATA_READY)) return -1;
  return inb(COM1 + REG_DATA);
}
