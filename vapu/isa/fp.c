/*
 * fp.c - exact software FMA and correctly rounded narrowing conversions
 * (IEEE-754-2008 sections 5.4.1 fusedMultiplyAdd, 4.3 rounding-direction
 * attributes; binary16/32/64 formats from section 3.6).
 */
#include "vapu/isa/fp.h"

/* An unpacked finite non-zero binary64: value = mant * 2^exp. */
struct unpacked {
  int neg;
  int exp;
  uint64_t mant;
};

static void unpack64(uint64_t bits, struct unpacked *u) {
  int e = (int)((bits >> 52) & 0x7ff);
  uint64_t m = bits & 0x000fffffffffffffull;
  u->neg = (int)(bits >> 63);
  if (e == 0) { /* denormal */
    u->exp = -1074;
    u->mant = m;
  } else {
    u->exp = e - 1075;
    u->mant = m | 0x0010000000000000ull;
  }
}

static int bitlen128(unsigned __int128 v) {
  uint64_t hi = (uint64_t)(v >> 64);
  if (hi) return 128 - __builtin_clzll(hi);
  uint64_t lo = (uint64_t)v;
  return lo ? 64 - __builtin_clzll(lo) : 0;
}

/* Shift right keeping a sticky bit (any 1 shifted out sets bit 0). */
static unsigned __int128 shr_sticky(unsigned __int128 v, int n) {
  if (n <= 0) return v;
  if (n >= 128) return v != 0;
  unsigned __int128 out = v >> n;
  if (v & (((unsigned __int128)1 << n) - 1)) out |= 1;
  return out;
}

/* Rounds a positive magnitude `v` * 2^`exp` to a binary format with `prec`
 * significand bits, minimum exponent `emin` (of the leading bit, normal) and
 * maximum `emax`, in `mode`; returns the format's bits without sign. `fbits`
 * is the number of fraction bits (prec - 1) and `ebias` the exponent bias. */
static uint64_t round_pack(int neg, unsigned __int128 v, int exp, int prec, int emin, int emax,
                           int mode) {
  int fbits = prec - 1, ebias = emax;
  int len = bitlen128(v);
  int lead = exp + len - 1;         /* exponent of the leading bit */
  int lsb = lead - fbits;           /* exponent of the last kept bit */
  if (lsb < emin - fbits) lsb = emin - fbits; /* denormal range */
  int shift = lsb - exp;
  uint64_t q;
  if (shift <= 0) {
    q = (uint64_t)(v << -shift);    /* exact */
  } else {
    /* Compare the dropped bits with half an ulp: -1 below, 0 equal, 1 above. */
    int vs_half;
    bool inexact;
    if (shift >= 128) { /* v < 2^127 <= half an ulp */
      q = 0;
      inexact = v != 0;
      vs_half = -1;
    } else {
      unsigned __int128 rem = v & (((unsigned __int128)1 << shift) - 1);
      unsigned __int128 half = (unsigned __int128)1 << (shift - 1);
      q = (uint64_t)(v >> shift);
      inexact = rem != 0;
      vs_half = rem < half ? -1 : rem > half;
    }
    bool up = false;
    if (inexact) {
      switch (mode) {
      case FP_RNE: up = vs_half > 0 || (vs_half == 0 && (q & 1)); break;
      case FP_RUP: up = !neg; break;
      case FP_RDN: up = neg; break;
      case FP_ODD:
      case FP_ODD_DOWN: q |= 1; break;
      default: break; /* FP_RTZ */
      }
    }
    if (up) q++;
  }
  /* q * 2^lsb; renormalize a carry out of the significand. */
  if (q >> prec) {
    q >>= 1;
    lsb++;
  }
  uint64_t expfield;
  if (q >> fbits) { /* normal */
    int e = lsb + fbits;
    if (e > emax) { /* overflow */
      bool to_inf = mode == FP_RNE || (mode == FP_RUP && !neg) || (mode == FP_RDN && neg);
      uint64_t inf = (uint64_t)(2 * emax + 1) << fbits;
      return to_inf ? inf : inf - 1;
    }
    expfield = (uint64_t)(e + ebias);
    return expfield << fbits | (q & (((uint64_t)1 << fbits) - 1));
  }
  return q; /* denormal or zero */
}

/* Sign of an exact zero sum (IEEE-754 6.3): +0 unless rounding down. */
static double zero_sum(int na, int nb, int mode) {
  int neg = (na && nb) || (na != nb && (mode == FP_RDN || mode == FP_ODD_DOWN));
  return neg ? -0.0 : 0.0;
}

double fp_fma64(double a, double b, double c, int scale, int mode) {
  uint64_t ab = f64_bits(a), bb = f64_bits(b), cb = f64_bits(c);
  int pneg = (int)((ab ^ bb) >> 63);
  /* NaNs propagate quieted, first operand first. */
  if (f64_is_nan(ab)) return f64_from_bits(f64_quiet(ab));
  if (f64_is_nan(bb)) return f64_from_bits(f64_quiet(bb));
  if (f64_is_nan(cb)) return f64_from_bits(f64_quiet(cb));
  bool ainf = (ab << 1) == 0xffe0000000000000ull, binf = (bb << 1) == 0xffe0000000000000ull;
  bool cinf = (cb << 1) == 0xffe0000000000000ull;
  bool azero = (ab << 1) == 0, bzero = (bb << 1) == 0, czero = (cb << 1) == 0;
  if ((ainf && bzero) || (binf && azero)) return f64_from_bits(F64_DEFAULT_NAN);
  if (ainf || binf) {
    if (cinf && (int)(cb >> 63) != pneg) return f64_from_bits(F64_DEFAULT_NAN);
    return pneg ? -__builtin_inf() : __builtin_inf();
  }
  if (cinf) return c;
  if (azero || bzero) {
    if (czero) return zero_sum(pneg, (int)(cb >> 63), mode);
    /* The exact product is zero: the result is c (scaled, rounded). */
    struct unpacked uc;
    unpack64(cb, &uc);
    uint64_t r = round_pack(uc.neg, uc.mant, uc.exp + scale, 53, -1022, 1023, mode);
    return f64_from_bits(r | (uint64_t)uc.neg << 63);
  }

  struct unpacked ua, ub, uc;
  unpack64(ab, &ua);
  unpack64(bb, &ub);
  unsigned __int128 p = (unsigned __int128)ua.mant * ub.mant; /* <= 106 bits */
  int pexp = ua.exp + ub.exp + scale;
  if (czero) {
    uint64_t r = round_pack(pneg, p, pexp, 53, -1022, 1023, mode);
    return f64_from_bits(r | (uint64_t)pneg << 63);
  }
  unpack64(cb, &uc);
  int cexp = uc.exp + scale;
  unsigned __int128 cm = uc.mant;

  /* Align both at a common exponent with the larger leading bit at bit 124
   * (room for the carry), the smaller shifted right with a sticky bit. */
  int plead = pexp + bitlen128(p) - 1, clead = cexp + bitlen128(cm) - 1;
  int top = plead > clead ? plead : clead;
  int base = top - 124; /* exponent of bit 0 after alignment */
  unsigned __int128 pa = (pexp - base >= 0) ? p << (pexp - base) : shr_sticky(p, base - pexp);
  unsigned __int128 ca = (cexp - base >= 0) ? cm << (cexp - base) : shr_sticky(cm, base - cexp);
  int neg;
  unsigned __int128 sum;
  if (pneg == uc.neg) {
    sum = pa + ca;
    neg = pneg;
  } else if (pa >= ca) {
    sum = pa - ca;
    neg = pneg;
  } else {
    sum = ca - pa;
    neg = uc.neg;
  }
  if (sum == 0) return zero_sum(pneg, uc.neg, mode);
  uint64_t r = round_pack(neg, sum, base, 53, -1022, 1023, mode);
  return f64_from_bits(r | (uint64_t)neg << 63);
}

float fp_fma32_rne_slow(double p, double c, double s) {
  double bb = s - p;
  double err = (p - (s - bb)) + (c - bb); /* TwoSum: s + err == p + c exactly */
  uint64_t sb = f64_bits(s);
  if (err != 0 && !(sb & 1) && (sb & 0x7ff0000000000000ull) != 0x7ff0000000000000ull)
    sb += ((err > 0) == (s > 0)) ? 1 : -1;
  return (float)f64_from_bits(sb);
}

float fp_f64_to_f32(double d, int mode) {
  uint64_t b = f64_bits(d);
  int neg = (int)(b >> 63);
  if (f64_is_nan(b)) /* keep the top payload bits, quiet */
    return f32_from_bits((uint32_t)neg << 31 | 0x7fc00000u | (uint32_t)((b >> 29) & 0x3fffff));
  if ((b << 1) == 0xffe0000000000000ull) return f32_from_bits((uint32_t)neg << 31 | 0x7f800000u);
  if ((b << 1) == 0) return f32_from_bits((uint32_t)neg << 31);
  if (mode == FP_RNE) return (float)d;
  struct unpacked u;
  unpack64(b, &u);
  uint32_t r = (uint32_t)round_pack(neg, u.mant, u.exp, 24, -126, 127, mode);
  return f32_from_bits(r | (uint32_t)neg << 31);
}

uint16_t fp_f64_to_f16(double d, int mode) {
  uint64_t b = f64_bits(d);
  uint16_t sign = (uint16_t)((b >> 48) & 0x8000);
  if (f64_is_nan(b)) return (uint16_t)(sign | 0x7e00 | ((b >> 42) & 0x1ff));
  if ((b << 1) == 0xffe0000000000000ull) return sign | 0x7c00;
  if ((b << 1) == 0) return sign;
  struct unpacked u;
  unpack64(b, &u);
  return (uint16_t)(sign | round_pack(u.neg, u.mant, u.exp, 11, -14, 15, mode));
}

uint16_t fp_f32_to_f16(float f, int mode) { return fp_f64_to_f16((double)f, mode); }

float fp_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return f32_from_bits(sign | 0x7f800000u | m << 13); /* inf, NaN (payload kept) */
  if (e == 0) { /* zero or denormal: m * 2^-24, exact in float */
    float v = (float)m * 0x1p-24f;
    return f32_from_bits(sign | f32_bits(v));
  }
  return f32_from_bits(sign | (e + 112) << 23 | m << 13);
}

/* Class bits common to the three formats, from the sign and category. */
static unsigned class_bits(int neg, int is_nan, int quiet, int is_inf, int is_zero, int is_den) {
  if (is_nan) return quiet ? 1u << 1 : 1u << 0;
  if (is_inf) return neg ? 1u << 2 : 1u << 9;
  if (is_zero) return neg ? 1u << 5 : 1u << 6;
  if (is_den) return neg ? 1u << 4 : 1u << 7;
  return neg ? 1u << 3 : 1u << 8;
}

unsigned fp_class32(uint32_t x) {
  uint32_t e = x & 0x7f800000u, m = x & 0x007fffffu;
  return class_bits((int)(x >> 31), e == 0x7f800000u && m, (x >> 22) & 1,
                    e == 0x7f800000u && !m, !e && !m, !e && m);
}

unsigned fp_class64(uint64_t x) {
  uint64_t e = x & 0x7ff0000000000000ull, m = x & 0x000fffffffffffffull;
  return class_bits((int)(x >> 63), e == 0x7ff0000000000000ull && m, (int)((x >> 51) & 1),
                    e == 0x7ff0000000000000ull && !m, !e && !m, !e && m);
}

unsigned fp_class16(uint16_t x) {
  unsigned e = x & 0x7c00u, m = x & 0x03ffu;
  return class_bits(x >> 15, e == 0x7c00u && m, (x >> 9) & 1, e == 0x7c00u && !m, !e && !m,
                    !e && m);
}
