/* nan_seq_diff.c — see nan_seq_diff.h. */
#include "nan_seq_diff.h"

#include <stdio.h>
#include <string.h>

#include "nan_cases.h"
#include "nan_classify.h"

const char *const nan_seq_part_names[NAN_SEQ_PARTS] = {
    "registers", "scratch", "ymm-upper", "memory", "mxcsr-flags", "mxcsr-control", "rax",
};

static int differ(const uint8_t *a, const uint8_t *b, size_t n) { return memcmp(a, b, n) != 0; }

unsigned nan_seq_diff(const nan_seq_state *e, const nan_seq_state *o)
{
    unsigned m = 0;
    m |= (unsigned)differ(e->reg[0], o->reg[0], sizeof e->reg) << 0;
    for (int r = 0; r < NAN_SEQ_SCRATCH; r++) {
        m |= (unsigned)differ(e->scratch[r], o->scratch[r], 16) << 1;
        m |= (unsigned)differ(e->scratch[r] + 16, o->scratch[r] + 16, 16) << 2;
    }
    m |= (unsigned)differ(e->mem, o->mem, sizeof e->mem) << 3;
    m |= (unsigned)(((e->mxcsr ^ o->mxcsr) & 0x3f) != 0) << 4;
    m |= (unsigned)(((e->mxcsr ^ o->mxcsr) & ~0x3fu) != 0) << 5;
    m |= (unsigned)(e->rax != o->rax) << 6;
    return m;
}

/* 16 bytes (little-endian) as 32 hex digits, most significant first. */
static void hex16(const uint8_t *p, char *out)
{
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", p[15 - i]);
}

/* side: NAN_SEQ_BOTH "name expected A observed B", NAN_SEQ_EXPECTED "name A",
 * NAN_SEQ_OBSERVED "name B"; "; " between fields. */
static void add(char *buf, size_t n, int side, const char *fmt_name, const uint8_t *e, const uint8_t *o)
{
    char a[33], b[33];
    size_t len = strlen(buf);
    hex16(e, a), hex16(o, b);
    if (side == NAN_SEQ_BOTH)
        snprintf(buf + len, n - len, "%s%s expected %s observed %s", len ? "; " : "", fmt_name, a, b);
    else
        snprintf(buf + len, n - len, "%s%s %s", len ? "; " : "", fmt_name, side == NAN_SEQ_EXPECTED ? a : b);
}

void nan_seq_diff_text(int p, const nan_seq_state *e, const nan_seq_state *o, char *buf, size_t n)
{
    nan_seq_diff_side(p, e, o, NAN_SEQ_BOTH, buf, n);
}

void nan_seq_diff_side(int p, const nan_seq_state *e, const nan_seq_state *o, int side, char *buf, size_t n)
{
    char name[32];
    buf[0] = '\0';
    switch (p) {
    case 0:
        for (int r = 0; r < NAN_SEQ_REGS; r++)
            if (differ(e->reg[r], o->reg[r], 16))
                snprintf(name, sizeof name, "xmm%d", 8 + r), add(buf, n, side, name, e->reg[r], o->reg[r]);
        break;
    case 1:
    case 2:
        for (int r = 0; r < NAN_SEQ_SCRATCH; r++) {
            int off = p == 1 ? 0 : 16;
            if (differ(e->scratch[r] + off, o->scratch[r] + off, 16)) {
                snprintf(name, sizeof name, p == 1 ? "xmm%d" : "ymm%d[255:128]", r);
                add(buf, n, side, name, e->scratch[r] + off, o->scratch[r] + off);
            }
        }
        break;
    case 3:
        for (int s = 0; s < NAN_SEQ_SLOTS; s++)
            if (differ(e->mem + 16 * s, o->mem + 16 * s, 16))
                snprintf(name, sizeof name, "mem[%d..%d]", 16 * s, 16 * s + 15),
                    add(buf, n, side, name, e->mem + 16 * s, o->mem + 16 * s);
        break;
    case 4:
    case 5: {
        char fe[40], fo[40], te[64], to[64];
        nan_flag_names(e->mxcsr & 0x3f, fe, sizeof fe);
        nan_flag_names(o->mxcsr & 0x3f, fo, sizeof fo);
        snprintf(te, sizeof te, "0x%04x (%s)", (unsigned)e->mxcsr, *fe ? fe : "no flags");
        snprintf(to, sizeof to, "0x%04x (%s)", (unsigned)o->mxcsr, *fo ? fo : "no flags");
        if (side == NAN_SEQ_BOTH)
            snprintf(buf, n, "MXCSR expected %s observed %s", te, to);
        else
            snprintf(buf, n, "MXCSR %s", side == NAN_SEQ_EXPECTED ? te : to);
        break;
    }
    default:
        if (side == NAN_SEQ_BOTH)
            snprintf(buf, n, "rax expected %016llx observed %016llx", (unsigned long long)e->rax,
                     (unsigned long long)o->rax);
        else
            snprintf(buf, n, "rax %016llx", (unsigned long long)(side == NAN_SEQ_EXPECTED ? e->rax : o->rax));
        break;
    }
}

static void line(char *buf, size_t n, const char *text)
{
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s\n", text);
}

void nan_seq_block_text(const nan_seq *s, uint64_t mask, char *buf, size_t n)
{
    unsigned regs = 0, slots = 0;
    for (int i = 0; i < s->n; i++) {
        const nan_seq_step *p = &s->step[i];
        if (!(mask >> i & 1))
            continue;
        if (p->what == S_OP) {
            nan_kind k = nan_ops[p->op].kind;
            regs |= 1u << p->a | 1u << p->b;
            if (k == K_FMA_P32 || k == K_FMA_P64 || k == K_FMA_S32 || k == K_FMA_S64)
                regs |= 1u << p->c;
        }
        else if (p->what == S_STORE)
            regs |= 1u << p->a;
        else if (p->what == S_LOAD)
            slots |= 1u << p->slot;
    }
    char t[160], v[33];
    buf[0] = '\0';
    snprintf(t, sizeof t, "  entry: MXCSR 0x%04x", (unsigned)s->mxcsr0);
    line(buf, n, t);
    for (int r = 0; r < NAN_SEQ_REGS; r++)
        if (regs >> r & 1)
            hex16(s->reg0[r], v), snprintf(t, sizeof t, "  entry: xmm%d = %s", 8 + r, v), line(buf, n, t);
    for (int m = 0; m < NAN_SEQ_SLOTS; m++)
        if (slots >> m & 1)
            hex16(s->mem0 + 16 * m, v), snprintf(t, sizeof t, "  entry: mem[%d..%d] = %s", 16 * m, 16 * m + 15, v),
                line(buf, n, t);
    for (int i = 0; i < s->n; i++) {
        if (!(mask >> i & 1))
            continue;
        char st[120];
        nan_seq_step_text(&s->step[i], st, sizeof st);
        snprintf(t, sizeof t, "  step %d: %s", i, st);
        line(buf, n, t);
    }
}
