/* A kernel whose CPU code imports a C library function (strlen), for the
 * loader's import tests; the GPU side counts by itself. */
#if defined(__x86_64__)
ulong strlen(__global const char *s);
#endif

__kernel void count_text(__global const char *text, __global uint *out) {
#if defined(__x86_64__)
  out[get_global_id(0)] = (uint)strlen(text + get_global_id(0));
#else
  uint n = 0;
  while (text[get_global_id(0) + n]) n++;
  out[get_global_id(0)] = n;
#endif
}
