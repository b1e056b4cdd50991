/* nan_optable.c — nan-optable: the props column of nan_ops.def checked
 * against each row's instruction text (issue 23 item 7).
 *
 * The checker and the probe read an op's properties only from the props
 * column (nan_cases.h: the class, P_RC_IMM, P_ZERO_UPPER, P_MEM_DST,
 * P_VENDOR_NAN, P_LIG); this program is the one place that looks at the
 * instruction the row executes (its AT&T text: mnemonic, immediate, operands)
 * and says where a column disagrees with it, so a wrong cell in a new row is
 * caught here instead of turning into a wrong verdict.  Built twice: against
 * the table (nan.selftest.optable: exit 0) and against a copy with wrong cells
 * (nan.selftest.optable_mutant, CMakeLists.txt: exit 1 naming each row).
 *
 * Usage: nan-optable (no arguments).  Output: one line per wrong cell on
 * stdout, "<op>: <column> <what the row says>, the instruction <what it is>";
 * exit 0 when none, 1 otherwise, 2 on an argument.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nan_cases.h"

typedef struct row {
    const char *name;
    int vex; /* NAN_VOP / NAN_YOP rows */
    unsigned props;
    const char *text;
} row;

static const row rows[] = {
#define NAN_OP(name, kind, dst, lanes, feat, props, text) {name, 0, props, text},
#define NAN_VOP(name, kind, dst, lanes, feat, props, text) {name, 1, props, text},
#define NAN_YOP(name, kind, dst, lanes, feat, props, text) {name, 1, props, text},
#include "nan_ops.def"
#undef NAN_OP
#undef NAN_VOP
#undef NAN_YOP
};

/* The row's instruction: the line of its text that is not the harness's own
 * (the F16C memory rows move the stack pointer and ymm0 around the store). */
static void instruction(const char *text, char *line, size_t n)
{
    const char *p = text;
    for (;;) {
        const char *e = strstr(p, "\n\t");
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int harness = strncmp(p, "lea ", 4) == 0 || strncmp(p, "vmovdqu ", 8) == 0;
        if (!harness || !e) {
            snprintf(line, n, "%.*s", (int)len, p);
            return;
        }
        p = e + 2;
    }
}

static int starts(const char *m, const char *prefix) { return strncmp(m, prefix, strlen(prefix)) == 0; }

static int ends(const char *m, const char *suffix)
{
    size_t a = strlen(m), b = strlen(suffix);
    return a >= b && strcmp(m + a - b, suffix) == 0;
}

/* The class the mnemonic (without a VEX "v", except FMA's "vf") belongs to. */
static nan_class class_of(const char *mn)
{
    if (starts(mn, "vf"))
        return C_FMA;
    const char *m = mn[0] == 'v' ? mn + 1 : mn;
    static const struct { const char *prefix; nan_class c; } by_prefix[] = {
        {"min", C_MINMAX}, {"max", C_MINMAX}, {"add", C_ARITH}, {"sub", C_ARITH}, {"mul", C_ARITH},
        {"div", C_ARITH}, {"cmp", C_CMP}, {"comi", C_COMI}, {"ucomi", C_COMI}, {"sqrt", C_SQRT},
        {"round", C_ROUND}, {"cvtph2ps", C_F16C}, {"cvtps2ph", C_F16C}, {"cvt", C_CVT}, {"hadd", C_HADD},
        {"hsub", C_HADD}};
    for (size_t i = 0; i < sizeof by_prefix / sizeof by_prefix[0]; i++)
        if (starts(m, by_prefix[i].prefix))
            return by_prefix[i].c;
    for (int c = C_NONE + 1; c < C_COUNT; c++) /* dpps, andps, movmskpd...: the mnemonic itself */
        if (strcmp(m, nan_class_name((nan_class)c)) == 0)
            return (nan_class)c;
    return C_NONE;
}

static int bad;

static void wrong(const char *op, const char *column, const char *says, const char *is)
{
    printf("%s: %s %s, the instruction %s\n", op, column, says, is);
    bad++;
}

static void check(const row *r)
{
    char line[256], mn[64];
    instruction(r->text, line, sizeof line);
    size_t len = 0;
    while (line[len] && !isspace((unsigned char)line[len]) && len + 1 < sizeof mn)
        len++;
    snprintf(mn, sizeof mn, "%.*s", (int)len, line);
    const char *m = mn[0] == 'v' ? mn + 1 : mn;
    unsigned p = r->props;

    nan_class want = class_of(mn), have = (nan_class)(p & P_CLASS_MASK);
    if (want != have) {
        char s[80], i[80];
        snprintf(s, sizeof s, "says class '%s'", nan_class_name(have));
        snprintf(i, sizeof i, "%s is class '%s'", mn, nan_class_name(want));
        wrong(r->name, "class", s, i);
    }

    /* the immediate's rounding direction: ROUNDxx and VCVTPS2PH, imm8 bit 2 clear */
    const char *dollar = strchr(line, '$');
    long imm = dollar ? strtol(dollar + 1, NULL, 0) : -1;
    int rc_want = (starts(m, "round") || starts(m, "cvtps2ph")) && imm >= 0 && !(imm & 4) ? (int)(imm & 3) : -1;
    int rc_have = (p & P_RC_IMM(0)) ? (int)((p >> 7) & 3u) : -1;
    if (rc_want != rc_have) {
        char s[64], i[80];
        snprintf(s, sizeof s, rc_have < 0 ? "has no P_RC_IMM" : "says P_RC_IMM(%d)", rc_have);
        if (rc_want < 0)
            snprintf(i, sizeof i, "takes MXCSR.RC");
        else
            snprintf(i, sizeof i, "has imm8 %ld: P_RC_IMM(%d)", imm, rc_want);
        wrong(r->name, "props", s, i);
    }

    /* CVTPD2PS, CVT(T)PD2DQ zero the elements above their results (Vol.2A) */
    int zu = starts(m, "cvtpd2ps") || starts(m, "cvtpd2dq") || starts(m, "cvttpd2dq");
    if (zu != !!(p & P_ZERO_UPPER))
        wrong(r->name, "props", zu ? "lacks P_ZERO_UPPER" : "has P_ZERO_UPPER", zu ? "zeroes bits 127:64" : "does not");

    /* a memory destination: the last operand is a memory reference */
    const char *comma = strrchr(line, ',');
    int mem = comma && strchr(comma, '(') != NULL;
    if (mem != !!(p & P_MEM_DST))
        wrong(r->name, "props", mem ? "lacks P_MEM_DST" : "has P_MEM_DST", mem ? "stores to memory" : "does not");

    int dpp = starts(m, "dpps") || starts(m, "dppd");
    if (dpp != !!(p & P_VENDOR_NAN))
        wrong(r->name, "props", dpp ? "lacks P_VENDOR_NAN" : "has P_VENDOR_NAN",
              dpp ? "is a dot product (vendor NaN order)" : "is not a dot product");

    /* scalar VEX ops are VEX.LIG (Intel SDM Vol.2 opcode column): VADDSS,
     * VCMPSS, VCOMISS, VROUNDSS, VSQRTSS, VCVTSS2SD, VCVTSS2SI, VCVTSI2SS,
     * VFMADD132SS ... (the cvtsi2ss l/q size suffix dropped) */
    char base[64];
    snprintf(base, sizeof base, "%s", mn);
    size_t bl = strlen(base);
    if (starts(base, "vcvtsi2s") && bl > 0 && (base[bl - 1] == 'l' || base[bl - 1] == 'q'))
        base[bl - 1] = '\0';
    int lig = r->vex && !strstr(line, "ymm") &&
              (ends(base, "ss") || ends(base, "sd") || strstr(base, "2si") != NULL);
    if (lig != !!(p & P_LIG))
        wrong(r->name, "props", lig ? "lacks P_LIG" : "has P_LIG", lig ? "is a scalar VEX op (VEX.LIG)" : "is not VEX.LIG");
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "buildgate: nan-optable: unexpected argument '%s' (it takes none)\n", argv[1]);
        return 2;
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        check(&rows[i]);
    if (bad)
        printf("nan-optable: %d wrong cells in the props column of nan_ops.def (nan_cases.h documents each bit)\n", bad);
    else
        printf("nan-optable: %zu rows: every props cell agrees with its instruction\n", sizeof rows / sizeof rows[0]);
    return bad ? 1 : 0;
}
