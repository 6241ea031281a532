// What Embedded Swift needs from a C library, for wasm32 with none: memory from the module's own
// linear memory (power-of-two size classes, freed blocks reused, so a page asking for the same sizes
// frame after frame stops growing), and the three memory routines the compiler calls.
#include <stddef.h>
#include <stdint.h>

typedef struct block { struct block *next; } block;
static block *free_lists[40];
static uintptr_t heap_top, heap_end;
extern unsigned char __heap_base;

static int class_of(size_t n) {
    int c = 4;
    while (((size_t)1 << c) < n) c++;
    return c;
}

static void *grab(size_t bytes) {
    if (!heap_top) heap_top = heap_end = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
    while (heap_top + bytes > heap_end) {
        size_t pages = (heap_top + bytes - heap_end + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
        heap_end += pages * 65536;
    }
    void *p = (void *)heap_top;
    heap_top += bytes;
    return p;
}

// Each block starts with 16 bytes holding its class, so the payload stays 16-byte aligned.
void *malloc(size_t n) {
    if (n > ((size_t)1 << 31)) return 0;
    int c = class_of(n + 16);
    block *b = free_lists[c];
    if (b) free_lists[c] = b->next;
    else if (!(b = grab((size_t)1 << c))) return 0;
    *(size_t *)b = (size_t)c;
    return (char *)b + 16;
}

void free(void *p) {
    if (!p) return;
    block *b = (block *)((char *)p - 16);
    int c = (int)*(size_t *)b;
    b->next = free_lists[c];
    free_lists[c] = b;
}

int posix_memalign(void **out, size_t alignment, size_t n) {
    if (alignment > 16) return 22;  // EINVAL: nothing here asks for more
    void *p = malloc(n);
    if (!p) return 12;  // ENOMEM
    *out = p;
    return 0;
}

// Built with bulk memory (-mbulk-memory), these are one memory.fill / memory.copy instruction each.
void *memset(void *d, int v, size_t n) {
    __builtin_memset(d, v, n);
    return d;
}

void *memcpy(void *d, const void *s, size_t n) {
    __builtin_memcpy(d, s, n);
    return d;
}

void *memmove(void *d, const void *s, size_t n) {
    __builtin_memmove(d, s, n);
    return d;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *p = a, *q = b;
    for (; n; n--, p++, q++) if (*p != *q) return *p < *q ? -1 : 1;
    return 0;
}

// Rounding half away from zero (Swift's `rounded()`); wasm has only the ties-to-even `nearest`.
double round(double x) {
    double t = __builtin_trunc(x), d = x - t;
    if (d >= 0.5) t += 1;
    else if (d <= -0.5) t -= 1;
    return t;
}

// The 128-bit product the compiler calls for Swift's full-width multiplications, from 64-bit parts.
typedef unsigned long long u64;
typedef unsigned __int128 u128;
u128 __multi3(u128 a, u128 b) {
    u64 al = (u64)a, ah = (u64)(a >> 64), bl = (u64)b, bh = (u64)(b >> 64);
    u64 a0 = al & 0xffffffffu, a1 = al >> 32, b0 = bl & 0xffffffffu, b1 = bl >> 32;
    u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    u64 mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    u64 lo = (mid << 32) | (p00 & 0xffffffffu);
    u64 hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) + al * bh + ah * bl;
    return ((u128)hi << 64) | lo;
}

// The seed Swift's hashing asks for. There is no entropy here and none is needed: the engine's
// dictionaries hold only its own masks, so a fixed sequence (xorshift) is enough, and deterministic.
void arc4random_buf(void *buffer, size_t n) {
    static u64 state = 0x9e3779b97f4a7c15ull;
    unsigned char *p = buffer;
    while (n--) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *p++ = (unsigned char)state;
    }
}
