/* util.h - the small arithmetic every layer needs, written once. */
#ifndef LIB_UTIL_H
#define LIB_UTIL_H

/* Elements of an array (not of a pointer). */
#define countof(a) (sizeof(a) / sizeof((a)[0]))

/* x is a power of two (0 is not). */
#define IS_POW2(x) ((x) != 0 && ((x) & ((x) - 1)) == 0)

/* x rounded up / down to a multiple of a, a power of two. The mask has the
 * type of x + a, so a 32-bit alignment never clears a 64-bit value's high
 * bits. */
#define ALIGN_MASK_(x, a) ((__typeof__((x) + (a)))(a) - 1)
#define ALIGN_UP(x, a)    (((x) + ALIGN_MASK_(x, a)) & ~ALIGN_MASK_(x, a))
#define ALIGN_DOWN(x, a)  ((x) & ~ALIGN_MASK_(x, a))

#endif
