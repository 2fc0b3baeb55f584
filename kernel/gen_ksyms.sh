#!/bin/sh
# gen_ksyms.sh - turns `nm -n --defined-only image.so` (on stdin) into the
# assembly of the image's symbol table (section .ksyms, read by
# kernel/backtrace.c): a count, then {address, name offset} pairs of 32 bits
# sorted by address (addresses relative to ImageBase, which is 0 at link
# time; a symbol past 4 GiB fails the build), then the names. Only code symbols (nm types t, T, W) are kept. Empty input
# gives an empty table (the first of the two links).
set -eu
awk '
  BEGIN { n = 0 }
  $2 ~ /^[tTW]$/ && NF == 3 {
    if (length($1) > 8 && substr($1, 1, length($1) - 8) ~ /[^0]/) {
      print "gen_ksyms: " $3 " at 0x" $1 " is past 4 GiB: the table holds 32-bit addresses" > "/dev/stderr"
      exit 1
    }
    addr[n] = $1; name[n] = $3; n++
  }
  END {
    print "\t.section .ksyms,\"a\""
    print "\t.balign 8"
    print "\t.globl ksym_table"
    print "\t.hidden ksym_table"
    print "ksym_table:"
    printf "\t.quad %d\n", n
    off = 0
    for (i = 0; i < n; i++) {
      printf "\t.long 0x%s, %d\n", addr[i], off
      off += length(name[i]) + 1
    }
    for (i = 0; i < n; i++) printf "\t.asciz \"%s\"\n", name[i]
  }'
