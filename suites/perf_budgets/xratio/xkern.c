/* xkern — x86-64 guest kernels for translator ratio measurements (seed 003's
 * method, written fresh).  Plain C11, no threads, deterministic; libc only
 * (a guest: no libbuildgate, so --help is checked here, not with bg_help).
 * Usage, output, exit codes: usage_text below (`xkern --help`).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest N: 10^11 inner iterations, minutes natively, hours under a
 * slow translator; bg-xratio's sizing stays below it (XKERN_MAX_N there). */
#define XKERN_MAX_N 100000000ULL

static const char usage_text[] =
    "Usage: xkern KERNEL N   prints \"<kernel> <n> <64-bit checksum hex>\\n\"\n"
    "       xkern --list     the kernel names, one per line\n"
    "       xkern -h|--help  this text\n"
    "\n"
    "x86-64 guest kernels for translator ratio measurements (bg-xratio --help).\n"
    "N (1 .. 100000000) scales the work linearly (N outer iterations).  The checksum depends\n"
    "on every result the kernel computed, so a runner that is fast because it\n"
    "computed something else prints different bytes (bg-xratio compares them).\n"
    "Environment: BG_XKERN_CORRUPT (set: flip bit 0 of the checksum; the\n"
    "self-test's fast-wrong-answer mutant).\n"
    "Exit: 0; 2 bad arguments (one line \"buildgate: xkern: ...\" on stderr: an\n"
    "      unknown kernel, N missing or outside 1 .. 100000000).\n"
    "Doc: docs/perf_budgets.md.\n";

typedef uint64_t (*kernel_fn)(uint64_t n);

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

/* indirect calls through a table of small functions */
static uint64_t f_add(uint64_t x) { return x + 0x1234567; }
static uint64_t f_xor(uint64_t x) { return x ^ (x >> 7); }
static uint64_t f_mul(uint64_t x) { return x * 0x2545f4914f6cdd1dULL; }
static uint64_t f_rot(uint64_t x) { return (x << 13) | (x >> 51); }
static uint64_t (*volatile const ftab[4])(uint64_t) = {f_add, f_xor, f_mul, f_rot};

static uint64_t k_icall(uint64_t n)
{
    uint64_t x = 1;
    for (uint64_t i = 0; i < n * 1000; i++)
        x = ftab[(x ^ i) & 3](x);
    return x;
}

/* a dense switch compiled to a jump table */
static uint64_t k_jtab(uint64_t n)
{
    uint64_t x = 7, acc = 0;
    for (uint64_t i = 0; i < n * 1000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        switch ((x >> 59) & 15) {
        case 0: acc += 1; break;
        case 1: acc ^= x; break;
        case 2: acc -= 3; break;
        case 3: acc += x >> 3; break;
        case 4: acc *= 3; break;
        case 5: acc ^= acc >> 5; break;
        case 6: acc += 11; break;
        case 7: acc -= x >> 9; break;
        case 8: acc = (acc << 1) | (acc >> 63); break;
        case 9: acc += i; break;
        case 10: acc ^= i << 3; break;
        case 11: acc -= acc >> 2; break;
        case 12: acc += 0x55; break;
        case 13: acc ^= 0xaa55; break;
        case 14: acc *= 5; break;
        default: acc += x & 0xff; break;
        }
    }
    return acc;
}

/* a dependent integer multiply-add chain */
static uint64_t k_chain(uint64_t n)
{
    uint64_t x = 3;
    for (uint64_t i = 0; i < n * 1000; i++)
        x = x * 0x5851f42d4c957f2dULL + i;
    return x;
}

/* unpredictable branches on pseudo-random bits */
static uint64_t k_branch(uint64_t n)
{
    uint64_t x = 88172645463325252ULL, a = 0, b = 0;
    for (uint64_t i = 0; i < n * 1000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if (x & 1)
            a += x >> 32;
        else
            b ^= x;
    }
    return a ^ b;
}

/* small memcpy of varying lengths and alignments */
static uint64_t k_memcpy(uint64_t n)
{
    static unsigned char src[4096], dst[4096];
    for (int i = 0; i < 4096; i++)
        src[i] = (unsigned char)(i * 131 + 7);
    uint64_t h = 0;
    for (uint64_t i = 0; i < n * 100; i++) {
        size_t len = 1 + (i * 37) % 200, so = (i * 13) % 1800, d = (i * 29) % 1800;
        memcpy(dst + d, src + so, len);
        h = mix(h, dst[d + len / 2]);
    }
    return h;
}

/* short strings: strlen, strcmp, strchr */
static uint64_t k_str(uint64_t n)
{
    static const char *words[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};
    char buf[64];
    uint64_t h = 0;
    for (uint64_t i = 0; i < n * 100; i++) {
        const char *a = words[i & 7], *b = words[(i >> 3) & 7];
        size_t la = strlen(a);
        memcpy(buf, a, la + 1);
        buf[i % la] = (char)('a' + i % 26);
        h = mix(h, (uint64_t)(strcmp(buf, b) + 1000) ^ la ^ (uint64_t)(strchr(buf, 'e') != NULL));
    }
    return h;
}

/* integer division and remainder */
static uint64_t k_div(uint64_t n)
{
    uint64_t acc = 0;
    for (uint64_t i = 1; i <= n * 1000; i++)
        acc += (0xffffffffffffULL + i) / (i | 1) + (acc % (i + 7));
    return acc;
}

/* scalar SSE double arithmetic (a dependent recurrence) */
static uint64_t k_fpscalar(uint64_t n)
{
    double x = 0.5, y = 1.25;
    for (uint64_t i = 0; i < n * 1000; i++) {
        x = x * 0.999999 + y / (1.0 + x * x);
        y = y * 0.5 + 0.3;
    }
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* packed SSE: a float loop the compiler vectorises (SSE2 on x86-64) */
static uint64_t k_fpvec(uint64_t n)
{
    static float a[1024], b[1024], c[1024];
    for (int i = 0; i < 1024; i++) {
        a[i] = (float)i * 0.25f;
        b[i] = 1.0f / (float)(i + 1);
        c[i] = 0;
    }
    for (uint64_t k = 0; k < n; k++)
        for (int i = 0; i < 1024; i++)
            c[i] = c[i] * 0.5f + a[i] * b[i];
    uint64_t h = 0;
    for (int i = 0; i < 1024; i++) {
        uint32_t bits;
        memcpy(&bits, &c[i], sizeof bits);
        h = mix(h, bits);
    }
    return h;
}

/* pointer chase through a random cyclic permutation (64 KiB of nodes) */
static uint64_t k_chase(uint64_t n)
{
    enum { NODES = 8192 };
    static uint32_t next[NODES];
    for (uint32_t i = 0; i < NODES; i++)
        next[i] = i;
    uint64_t x = 12345;
    for (uint32_t i = NODES - 1; i > 0; i--) { /* Sattolo: one cycle */
        x = x * 6364136223846793005ULL + 1;
        uint32_t j = (uint32_t)((x >> 33) % i), t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    uint32_t p = 0;
    uint64_t h = 0;
    for (uint64_t i = 0; i < n * 1000; i++) {
        p = next[p];
        h += p;
    }
    return h;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* libc qsort of 256 pseudo-random keys, n times */
static uint64_t k_qsort(uint64_t n)
{
    uint32_t v[256];
    uint64_t x = 99, h = 0;
    for (uint64_t k = 0; k < n; k++) {
        for (int i = 0; i < 256; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            v[i] = (uint32_t)(x >> 32);
        }
        qsort(v, 256, sizeof v[0], cmp_u32);
        h = mix(h, v[0] ^ v[128] ^ v[255]);
    }
    return h;
}

/* a bytecode interpreter loop (switch dispatch over a tiny program) */
static uint64_t k_vm(uint64_t n)
{
    enum { PUSH, ADD, MUL, DUP, SWAP, DROP, JNZ, DEC, HALT };
    /* counter = 100; do { acc += 3 * counter; counter--; } while (counter); */
    static const int prog[] = {PUSH, 100, DUP, PUSH, 3, MUL, DROP, DEC, DUP, JNZ, 2, HALT};
    uint64_t h = 0;
    for (uint64_t k = 0; k < n; k++) {
        int64_t st[16];
        int sp = 0, pc = 0;
        uint64_t acc = k;
        for (;;) {
            int op = prog[pc++];
            if (op == HALT)
                break;
            switch (op) {
            case PUSH: st[sp++] = prog[pc++]; break;
            case ADD: sp--; st[sp - 1] += st[sp]; break;
            case MUL: sp--; st[sp - 1] *= st[sp]; acc += (uint64_t)st[sp - 1]; break;
            case DUP: st[sp] = st[sp - 1]; sp++; break;
            case SWAP: { int64_t t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } break;
            case DROP: sp--; break;
            case DEC: st[sp - 1]--; break;
            case JNZ: { int target = prog[pc++]; if (st[--sp] != 0) pc = target; } break;
            }
        }
        h = mix(h, acc);
    }
    return h;
}

static const struct {
    const char *name;
    kernel_fn fn;
} kernels[] = {
    {"icall", k_icall}, {"jtab", k_jtab},         {"chain", k_chain},     {"branch", k_branch},
    {"memcpy", k_memcpy}, {"str", k_str},         {"div", k_div},         {"fpscalar", k_fpscalar},
    {"fpvec", k_fpvec}, {"chase", k_chase},       {"qsort", k_qsort},     {"vm", k_vm},
};

int main(int argc, char **argv)
{
    size_t nk = sizeof kernels / sizeof kernels[0];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
    }
    if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < nk; i++)
            printf("%s\n", kernels[i].name);
        return 0;
    }
    char *end = NULL;
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-') {
            fprintf(stderr, "buildgate: xkern: unknown option '%s' (see xkern --help)\n", argv[i]);
            return 2;
        }
    if (argc != 3) {
        fprintf(stderr, "buildgate: xkern: want KERNEL N or --list (see xkern --help)\n");
        return 2;
    }
    errno = 0;
    unsigned long long n = argv[2][0] >= '0' && argv[2][0] <= '9' ? strtoull(argv[2], &end, 10) : 0;
    if (!end || *end || errno || n == 0 || n > XKERN_MAX_N) {
        fprintf(stderr, "buildgate: xkern: N '%s' is outside 1 .. %llu (see xkern --help)\n",
                argv[2], XKERN_MAX_N);
        return 2;
    }
    for (size_t i = 0; i < nk; i++)
        if (strcmp(argv[1], kernels[i].name) == 0) {
            uint64_t h = kernels[i].fn(n);
            if (getenv("BG_XKERN_CORRUPT")) /* self-test mutant: a wrong answer */
                h ^= 1;
            printf("%s %llu %016llx\n", kernels[i].name, n, (unsigned long long)h);
            return 0;
        }
    fprintf(stderr, "buildgate: xkern: unknown kernel '%s' (xkern --list)\n", argv[1]);
    return 2;
}
