/* serial.h - COM1 16550 UART, polled. The console (console.h) is built on it. */
#ifndef KERNEL_SERIAL_H
#define KERNEL_SERIAL_H

#include <stdbool.h>
#include <stddef.h>

/* 115200 8N1, FIFOs on. False when no UART answers at COM1. */
bool serial_init(void);
/* Writes bytes, "\n" as "\r\n". Never blocks for long: a stuck UART drops. */
void serial_write(const char *s, size_t n);
/* A received byte, or -1 when none is waiting. */
int serial_read_byte(void);

#endif
