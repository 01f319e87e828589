/* The C samplers' random streams (ranged_mc.c, stud_mc.c): xoshiro256** seeded per chunk
 * through SplitMix64, as the Numba kernels' (pokereval.kernels.rng), and several unbiased
 * bounded draws from 32 random bits (Lemire's method, batched). */
#ifndef POKEREVAL_XOSHIRO_H
#define POKEREVAL_XOSHIRO_H
#include <stdint.h>

#define XO_GOLDEN 0x9E3779B97F4A7C15ull

static inline uint64_t splitmix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

typedef struct { uint64_t s0, s1, s2, s3; } xo_t;

/* pokereval.kernels.rng.seed_stream */
static inline void seed_stream(xo_t *st, uint64_t seed, uint64_t stream) {
    uint64_t x = splitmix64(seed ^ splitmix64(stream * XO_GOLDEN + XO_GOLDEN)), s[4];
    for (int i = 0; i < 4; i++) { x += XO_GOLDEN; s[i] = splitmix64(x); }
    st->s0 = s[0]; st->s1 = s[1]; st->s2 = s[2]; st->s3 = s[3];
}

static inline uint64_t xo_next(xo_t *st) {
    uint64_t result = rotl(st->s1 * 5, 7) * 9, t = st->s1 << 17;
    st->s2 ^= st->s0; st->s3 ^= st->s1; st->s1 ^= st->s2; st->s0 ^= st->s3;
    st->s2 ^= t; st->s3 = rotl(st->s3, 45);
    return result;
}

/* Batched ranged draws (Brackett-Rozinsky and Lemire, "Batched ranged random integer
 * generation", 2024) from 32 random bits x: uniform integers below bounds b1..bk whose
 * product P is at most 2^32, by xo_digit with each bound in turn (x * b: the digit is
 * the high half, x becomes the low half).  The digits are those of floor(x * P / 2^32)
 * in the mixed radix of the bounds, and x ends as x * P mod 2^32: rejecting x when that
 * is below xo_batch_threshold(P) (Lemire's rule, xo_batch_ok) leaves each k-tuple the
 * same number of values of x, so the draws are unbiased.  A product up to 2^24 rejects at
 * most one x in 256. */
static inline uint32_t xo_digit(uint32_t *x, uint32_t bound) {
    uint64_t m = (uint64_t)*x * bound;
    *x = (uint32_t)m;
    return (uint32_t)(m >> 32);
}

static inline uint32_t xo_batch_threshold(uint32_t product) { return (0u - product) % product; }

static inline int xo_batch_ok(uint32_t x, uint32_t product, uint32_t threshold) {
    return (uint32_t)(x * product) >= threshold;
}

#endif
