/*
 * printf.c - printf for OpenCL C on the CPU agents, OpenCL C 2.0
 * specification section 6.13.13. In C, not OpenCL C: OpenCL C cannot
 * define a variadic function (clang: "variadic arguments are not supported
 * in OpenCL"). The OpenCL caller and this definition are both clang-19 for
 * x86-64, so vector arguments travel through the variadic list as the
 * System V x86-64 psABI 1.0 classifies the same ext_vector_type on both
 * sides.
 *
 * What OpenCL C's printf adds to C99's (section 6.13.13.2): the vector
 * specifier vN (N = 2, 3, 4, 8, 16) before the length modifier, whose
 * elements are printed with the conversion and separated by ','; the
 * length modifiers hh, h, hl (32-bit elements, vectors only) and l (64 bits:
 * an OpenCL long, or a double vector); float scalars arrive as double
 * (default argument promotions), vectors unpromoted. A vector conversion
 * without a length modifier takes 32-bit elements (int or float), and hf
 * takes half elements. %s takes a string, %c an int, %p a pointer.
 *
 * Each conversion is formatted by the C library's snprintf into one buffer;
 * the whole output goes out in one __hsa_cpu_write call (the runtime makes
 * that one write atomic with respect to other work-items). Output beyond
 * CLB_PRINTF_MAX - 1 bytes is cut. Returns 0, or -1 for a malformed format
 * (nothing is written then).
 *
 * puts and putchar are here too, for the calls LLVM makes of them in
 * printf's place (SimplifyLibCalls.cpp, optimizePrintFString: printf of a
 * literal ending in a newline, or of "%s\n", becomes puts; of one
 * character, or of "%c", putchar) when tools/hsacc optimises a kernel
 * linked with this library: the same output through the same hook, in one
 * write, as the printf call would have made.
 */
#include <stdarg.h>
#include <stddef.h>

int snprintf(char *buf, unsigned long size, const char *fmt, ...);
void __hsa_cpu_write(const char *s, unsigned long n);

#define CLB_PRINTF_MAX 1024

typedef char clb_char16 __attribute__((ext_vector_type(16)));
typedef short clb_short16 __attribute__((ext_vector_type(16)));
typedef int clb_int16 __attribute__((ext_vector_type(16)));
typedef long clb_long16 __attribute__((ext_vector_type(16)));
typedef float clb_float16 __attribute__((ext_vector_type(16)));
typedef double clb_double16 __attribute__((ext_vector_type(16)));
typedef _Float16 clb_half16 __attribute__((ext_vector_type(16)));
#define CLB_VEC_TYPES(T, S)                                                    \
  typedef T clb_##S##2 __attribute__((ext_vector_type(2)));                   \
  typedef T clb_##S##3 __attribute__((ext_vector_type(3)));                   \
  typedef T clb_##S##4 __attribute__((ext_vector_type(4)));                   \
  typedef T clb_##S##8 __attribute__((ext_vector_type(8)));
CLB_VEC_TYPES(char, char) CLB_VEC_TYPES(short, short) CLB_VEC_TYPES(int, int)
CLB_VEC_TYPES(long, long) CLB_VEC_TYPES(float, float) CLB_VEC_TYPES(double, double)
CLB_VEC_TYPES(_Float16, half)

struct clb_out {
  char buf[CLB_PRINTF_MAX];
  size_t len;
};

/* Appends n bytes of s, as many as fit before the last byte. */
static void clb_out_text(struct clb_out *o, const char *s, size_t n) {
  size_t room = sizeof o->buf - 1 - o->len;
  if (n > room) n = room;
  for (size_t i = 0; i < n; i++) o->buf[o->len + i] = s[i];
  o->len += n;
}

static void clb_out_fmt(struct clb_out *o, const char *spec, int is_float, long long iv,
                        double fv, const void *pv) {
  size_t room = sizeof o->buf - o->len;
  if (room <= 1) return;
  int n = is_float == 1 ? snprintf(o->buf + o->len, room, spec, fv)
          : is_float == 2 ? snprintf(o->buf + o->len, room, spec, pv)
                          : snprintf(o->buf + o->len, room, spec, iv);
  if (n > 0) o->len += (size_t)n < room ? (size_t)n : room - 1;
}

/* Reads element k of a vector of `count` elements of `size` bytes from ap
 * (the vector is one variadic argument). */
#define CLB_VA_VEC(ap, S, count, dst)                                          \
  do {                                                                         \
    switch (count) {                                                           \
    case 2: { clb_##S##2 v = va_arg(ap, clb_##S##2); for (int k = 0; k < 2; k++) dst[k] = v[k]; } break; \
    case 3: { clb_##S##3 v = va_arg(ap, clb_##S##3); for (int k = 0; k < 3; k++) dst[k] = v[k]; } break; \
    case 4: { clb_##S##4 v = va_arg(ap, clb_##S##4); for (int k = 0; k < 4; k++) dst[k] = v[k]; } break; \
    case 8: { clb_##S##8 v = va_arg(ap, clb_##S##8); for (int k = 0; k < 8; k++) dst[k] = v[k]; } break; \
    default: { clb_##S##16 v = va_arg(ap, clb_##S##16); for (int k = 0; k < 16; k++) dst[k] = v[k]; } break; \
    }                                                                          \
  } while (0)

static int clb_is_flag(char c) { return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0'; }
static int clb_is_digit(char c) { return c >= '0' && c <= '9'; }

/* One conversion; *pf points after '%'. Returns 0, or -1 if malformed. */
static int clb_conversion(struct clb_out *o, const char **pf, va_list *ap) {
  const char *f = *pf;
  char spec[64];
  size_t s = 0;
  spec[s++] = '%';
  while (clb_is_flag(*f) && s < 8) spec[s++] = *f++;
  if (clb_is_flag(*f)) return -1;
  int width = -1, precision = -1;
  if (*f == '*') { width = va_arg(*ap, int); f++; }
  else if (clb_is_digit(*f)) { width = 0; while (clb_is_digit(*f)) width = width * 10 + (*f++ - '0'); }
  if (*f == '.') {
    f++;
    precision = 0;
    if (*f == '*') { precision = va_arg(*ap, int); f++; }
    else while (clb_is_digit(*f)) precision = precision * 10 + (*f++ - '0');
  }
  int count = 1;
  if (*f == 'v') {
    f++;
    if (f[0] == '1' && f[1] == '6') { count = 16; f += 2; }
    else if (*f == '2' || *f == '3' || *f == '4' || *f == '8') count = *f++ - '0';
    else return -1;
  }
  /* length: 0 none, 1 hh, 2 h, 3 hl, 4 l */
  int length = 0;
  if (f[0] == 'h' && f[1] == 'h') { length = 1; f += 2; }
  else if (f[0] == 'h' && f[1] == 'l') { length = 3; f += 2; }
  else if (f[0] == 'h') { length = 2; f++; }
  else if (f[0] == 'l') { length = 4; f++; }
  char conv = *f++;
  if (width >= 0) s += (size_t)snprintf(spec + s, sizeof spec - s, "%d", width);
  if (precision >= 0) s += (size_t)snprintf(spec + s, sizeof spec - s, ".%d", precision);
  int is_int = conv == 'd' || conv == 'i' || conv == 'o' || conv == 'u' || conv == 'x' || conv == 'X';
  int is_float = conv == 'f' || conv == 'F' || conv == 'e' || conv == 'E' || conv == 'g' ||
                 conv == 'G' || conv == 'a' || conv == 'A';
  int is_signed = conv == 'd' || conv == 'i';
  if (count == 1 && length == 3) return -1; /* hl is for vectors only */
  if (count > 1 && !is_int && !is_float) return -1;
  if (count > 1 && is_float && length == 1) return -1;
  if (is_int) { spec[s++] = 'l'; spec[s++] = 'l'; }
  spec[s++] = conv;
  spec[s] = 0;
  *pf = f;
  if (conv == 'c') {
    if (length) return -1;
    clb_out_fmt(o, spec, 0, va_arg(*ap, int), 0, 0);
    return 0;
  }
  if (conv == 's' || conv == 'p') {
    if (length) return -1;
    const void *p = va_arg(*ap, const void *);
    clb_out_fmt(o, spec, 2, 0, 0, conv == 's' && !p ? "(null)" : p);
    return 0;
  }
  if (!is_int && !is_float) return -1;
  if (count == 1) {
    if (is_float) {
      if (length && length != 4) return -1;
      clb_out_fmt(o, spec, 1, 0, va_arg(*ap, double), 0);
      return 0;
    }
    long long v = length == 4 ? va_arg(*ap, long) : va_arg(*ap, int);
    if (length == 1) v = is_signed ? (long long)(signed char)v : (long long)(unsigned char)v;
    else if (length == 2) v = is_signed ? (long long)(short)v : (long long)(unsigned short)v;
    else if (length == 0) v = is_signed ? (long long)(int)v : (long long)(unsigned int)v;
    clb_out_fmt(o, spec, 0, v, 0, 0);
    return 0;
  }
  long long iv[16];
  double fv[16];
  if (is_float) {
    if (length == 4) CLB_VA_VEC(*ap, double, count, fv);
    else if (length == 2) CLB_VA_VEC(*ap, half, count, fv);
    else CLB_VA_VEC(*ap, float, count, fv);
  } else if (length == 1) {
    CLB_VA_VEC(*ap, char, count, iv);
    for (int k = 0; k < count; k++) iv[k] = is_signed ? iv[k] : (long long)(unsigned char)iv[k];
  } else if (length == 2) {
    CLB_VA_VEC(*ap, short, count, iv);
    for (int k = 0; k < count; k++) iv[k] = is_signed ? iv[k] : (long long)(unsigned short)iv[k];
  } else if (length == 4) {
    CLB_VA_VEC(*ap, long, count, iv);
  } else {
    CLB_VA_VEC(*ap, int, count, iv);
    for (int k = 0; k < count; k++) iv[k] = is_signed ? iv[k] : (long long)(unsigned int)iv[k];
  }
  for (int k = 0; k < count; k++) {
    if (k) clb_out_fmt(o, ",", 2, 0, 0, 0);
    clb_out_fmt(o, spec, is_float, iv[k], fv[k], 0);
  }
  return 0;
}

/* The OpenCL C declaration is int printf(constant char *restrict, ...);
 * the __constant address space is the default one on x86-64. Hidden: the
 * program's own printf, never the C library's of the process it runs in. */
__attribute__((visibility("hidden"))) int printf(const char *restrict format, ...);
int printf(const char *restrict format, ...) {
  struct clb_out out; /* on the work-item's stack: printf may run on
                         several work-items of several cores at once */
  struct clb_out *o = &out;
  o->len = 0;
  va_list ap;
  va_start(ap, format);
  int status = 0;
  for (const char *f = format; *f && status == 0;) {
    if (*f != '%') {
      const char *start = f;
      while (*f && *f != '%') f++;
      clb_out_text(o, start, (size_t)(f - start));
      continue;
    }
    f++;
    if (*f == '%') {
      clb_out_text(o, f++, 1);
      continue;
    }
    status = clb_conversion(o, &f, &ap);
  }
  va_end(ap);
  if (status != 0) return -1;
  __hsa_cpu_write(o->buf, o->len);
  return 0;
}

/* C11 7.21.7.9: s and a newline; a nonnegative value. */
__attribute__((visibility("hidden"))) int puts(const char *s);
int puts(const char *s) {
  struct clb_out out;
  out.len = 0;
  size_t n = 0;
  while (s[n]) n++;
  clb_out_text(&out, s, n);
  clb_out_text(&out, "\n", 1);
  __hsa_cpu_write(out.buf, out.len);
  return 0;
}

/* C11 7.21.7.8: c as an unsigned char, which it returns. */
__attribute__((visibility("hidden"))) int putchar(int c);
int putchar(int c) {
  char ch = (char)(unsigned char)c;
  __hsa_cpu_write(&ch, 1);
  return (unsigned char)c;
}
