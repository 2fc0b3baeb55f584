/* printf in the forms LLVM rewrites on the CPU side (SimplifyLibCalls.cpp,
 * optimizePrintFString): a literal ending in a newline and "%s\n" (puts),
 * one character and "%c" (putchar), next to a conversion that stays a
 * printf call. Each must reach the runtime's output hook as one whole
 * write. */
__kernel void print_forms(__global const int *values) {
  int v = values[get_global_id(0)];
  printf("a plain line\n");
  printf("%d\n", v);
  printf("%s\n", "a string line");
  printf("!");
  printf("%c", '?');
}
