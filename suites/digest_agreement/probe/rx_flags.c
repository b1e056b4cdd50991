#define _POSIX_C_SOURCE 200809L
#include "rx_flags.h"

#include <stdio.h>
#include <string.h>

#include "buildgate/bg_wx.h"

#if defined(BG_RANDOMX_HAS_V2)
#define RX_V2 ((int)RANDOMX_FLAG_V2)
#else
#define RX_V2 0
#endif

int rx_flags_have_v2(void) { return RX_V2 != 0; }

static const struct {
    const char *name;
    int bit;
} simple[] = {
    {"jit", RANDOMX_FLAG_JIT},       {"hard-aes", RANDOMX_FLAG_HARD_AES},
    {"full-mem", RANDOMX_FLAG_FULL_MEM}, {"secure", RANDOMX_FLAG_SECURE},
    {"large-pages", RANDOMX_FLAG_LARGE_PAGES},
};

static bg_status parse_one(const char *tok, int *flags)
{
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++) {
        if (strcmp(tok, simple[i].name) == 0) {
            *flags |= simple[i].bit;
            return BG_OK;
        }
    }
    if (strcmp(tok, "auto") == 0) {
        int rec = (int)randomx_get_flags();
        bg_wx wx;
        bg_wx_probe(&wx);
        if (!wx.rwx || !wx.w_to_x) /* the host forbids W+X memory: the interpreter */
            rec &= ~(int)RANDOMX_FLAG_JIT;
        *flags |= rec;
        return BG_OK;
    }
    if (strncmp(tok, "argon2=", 7) == 0) {
        const char *v = tok + 7;
        *flags &= ~(int)RANDOMX_FLAG_ARGON2;
        if (strcmp(v, "ssse3") == 0)
            *flags |= RANDOMX_FLAG_ARGON2_SSSE3;
        else if (strcmp(v, "avx2") == 0)
            *flags |= RANDOMX_FLAG_ARGON2_AVX2;
        else if (strcmp(v, "ref") != 0)
            return bg_fail(BG_E_USAGE, "flags", "argon2=%s: expected argon2=ref, ssse3 or avx2", v);
        return BG_OK;
    }
    if (strcmp(tok, "v2") == 0) {
        if (!RX_V2)
            return bg_fail(BG_E_USAGE, "flags",
                           "v2: this RandomX library has no RANDOMX_FLAG_V2 (needs RandomX 2.0)");
        *flags |= RX_V2;
        return BG_OK;
    }
    return bg_fail(BG_E_USAGE, "flags",
                   "unknown flag '%s' (known: jit, hard-aes, full-mem, secure, "
                   "argon2=ref|ssse3|avx2, large-pages, v2, auto)",
                   tok);
}

bg_status rx_flags_parse(const char *list, randomx_flags *out)
{
    char buf[512];
    if (strlen(list) >= sizeof buf)
        return bg_fail(BG_E_USAGE, "flags", "flag list too long");
    strcpy(buf, list);
    int flags = 0, ntok = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok;
         tok = strtok_r(NULL, ", ", &save)) {
        int before = flags;
        bg_status st = parse_one(tok, &flags);
        if (st)
            return st;
        if (flags == before && strcmp(tok, "auto") && strncmp(tok, "argon2=", 7))
            return bg_fail(BG_E_USAGE, "flags", "'%s' is named twice", tok);
        ntok++;
    }
    if (ntok == 0)
        return bg_fail(BG_E_USAGE, "flags", "empty flag list: name flags (e.g. argon2=ref for the "
                                            "interpreter with software AES) or use auto");
    if ((flags & RANDOMX_FLAG_SECURE) && !(flags & RANDOMX_FLAG_JIT))
        return bg_fail(BG_E_USAGE, "flags", "secure applies to the JIT only: add jit or drop secure");
    *out = (randomx_flags)flags;
    return BG_OK;
}

/* The Argon2 implementation the cache will use: AVX2 wins when both bits are
 * set, as randomx_get_flags() sets them (RandomX src/dataset.hpp selectArgonImpl). */
static const char *argon2_name(int flags)
{
    if (flags & RANDOMX_FLAG_ARGON2_AVX2)
        return "avx2";
    if (flags & RANDOMX_FLAG_ARGON2_SSSE3)
        return "ssse3";
    return "ref";
}

void rx_flags_slug(randomx_flags flags, int with_argon2, char *buf, size_t n)
{
    int f = (int)flags;
    snprintf(buf, n, "%s%s+%s-aes+%s%s%s%s%s", (f & RANDOMX_FLAG_JIT) ? "jit" : "interp",
             (f & RANDOMX_FLAG_SECURE) ? "+secure" : "",
             (f & RANDOMX_FLAG_HARD_AES) ? "hard" : "soft",
             (f & RANDOMX_FLAG_FULL_MEM) ? "full" : "light", with_argon2 ? "+argon2-" : "",
             with_argon2 ? argon2_name(f) : "", (f & RANDOMX_FLAG_LARGE_PAGES) ? "+large-pages" : "",
             (RX_V2 && (f & RX_V2)) ? "+v2" : "");
}

void rx_flags_names(randomx_flags flags, char *buf, size_t n)
{
    int f = (int)flags;
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
        if (f & simple[i].bit)
            len += snprintf(buf + len, len < n ? n - len : 0, "%s%s", len ? "," : "",
                            simple[i].name);
    len += snprintf(buf + len, len < n ? n - len : 0, "%sargon2=%s", len ? "," : "",
                    argon2_name(f));
    if (RX_V2 && (f & RX_V2))
        snprintf(buf + len, len < n ? n - len : 0, ",v2");
}

int rx_slug_valid(const char *slug, const char *algorithm)
{
    /* the parts in rx_flags_slug's order: NULL-separated alternatives, optional ones marked */
    static const struct {
        const char *alt[4];
        int optional;
    } part[] = {
        {{"jit", "interp"}, 0},       {{"secure"}, 1},       {{"hard-aes", "soft-aes"}, 0},
        {{"light", "full"}, 0},       {{"argon2-ref", "argon2-ssse3", "argon2-avx2"}, 1},
        {{"large-pages"}, 1},         {{"v2"}, 1},
    };
    const size_t nparts = sizeof part / sizeof part[0];
    char copy[160];
    if (strlen(slug) >= sizeof copy)
        return 0;
    strcpy(copy, slug);
    size_t k = 0;
    int jit = 0, v2 = 0;
    for (char *save = NULL, *tok = strtok_r(copy, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
        int hit = 0;
        for (; k < nparts && !hit; k++) {
            for (int a = 0; a < 4 && part[k].alt[a] && !hit; a++)
                hit = strcmp(tok, part[k].alt[a]) == 0;
            if (!hit && !part[k].optional)
                return 0;
        }
        if (!hit)
            return 0;
        jit |= k == 1 && strcmp(tok, "jit") == 0;
        if (k == 2 && !jit) /* secure applies to the JIT only (rx_flags_parse) */
            return 0;
        v2 |= k == nparts;
    }
    if (k < 4) /* jit|interp, aes and light|full are required */
        return 0;
    return !strcmp(algorithm, "*") || v2 == !strcmp(algorithm, "randomx-v2");
}
