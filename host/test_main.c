/* test_main.c - the host unit-test program: runs the TEST() cases linked into
 * it. Usage: unit-tests [pattern[,pattern...]] ('*' and '?' wildcards). */
#include <stdio.h>

#include "lib/test.h"

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  return test_run(argc > 1 ? argv[1] : NULL) ? 1 : 0;
}
