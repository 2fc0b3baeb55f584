/* demo - the first application: says hello and shows its arguments.
 * (The HSA work turns it into a GPU/CPU dispatch demo.) */
#include <stdio.h>

int main(int argc, char **argv) {
  printf("hello from %s on hsa-metal\n", argv[0]);
  for (int i = 1; i < argc; i++) printf("argv[%d] = %s\n", i, argv[i]);
  return 0;
}
