/* nan_seq_probe.c — `nan-probe --sequences REQUEST`: the guest side of the
 * generated sequences (nan_seq.h).  The request file (written by nan-seq):
 *   pool NAME,NAME,...      the op pool, in the fixture's order (first line)
 *   seeds FIRST COUNT       blocks FIRST..FIRST+COUNT-1, every step
 *   block SEED MASK         one block with the steps of MASK (hex) only
 * Output: one JSON document on stdout,
 *   {"probe":"nan_semantics","schema":1,"sequences":true,
 *    "features":{"sse41":0|1,"fma":0|1,"avx":0|1},"avx_blocks":0|1,
 *    "mutant":"<NAN_SEQ_MUTANT or empty>",
 *    "not_run":"<why>" (only when nothing ran: an op of the pool this CPU
 *                       lacks, or the host refuses executable memory),
 *    "results":[["<seed>","<mask hex>","<state hex, nan_seq.h>"],...]}
 * Exit 0 printed; 2 a malformed request (one line on stderr); 3 I/O.
 */
#include "nan_seq_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_cpu.h"
#include "buildgate/bg_error.h"
#include "nan_cases.h"
#include "nan_seq.h"
#include "nan_seq_jit.h"
#include "nan_table.h"

static int bad_request(const char *path, int line, const char *why)
{
    bg_errorf("nan-probe", "--sequences %s:%d: %s", path, line, why);
    return 2;
}

/* "" when every pool op runs here, else the first that does not and why. */
static void pool_unsupported(const nan_seq_pool *pool, char *why, size_t n)
{
    static const char *const feat[] = {"-", "SSE4.1", "FMA", "AVX"};
    *why = '\0';
    for (int i = 0; i < pool->n; i++) {
        int k = pool->op[i], f = (int)nan_ops[k].feat;
        if (!nan_table_op_supported(k)) {
            snprintf(why, n, "op %s of the pool needs %s, which this CPU (as the runner shows it) lacks",
                     nan_ops[k].name, f >= 0 && f < 4 ? feat[f] : "a CPU feature");
            return;
        }
    }
}

static int pool_needs_avx(const nan_seq_pool *pool)
{
    for (int i = 0; i < pool->n; i++)
        if (nan_ops[pool->op[i]].feat == F_AVX || nan_ops[pool->op[i]].feat == F_FMA)
            return 1;
    return 0;
}

static void json_str(FILE *o, const char *s)
{
    fputc('"', o);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', o);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, o);
    }
    fputc('"', o);
}

/* Runs one block and prints its result; 0, or -1 with why. */
static int one(FILE *o, int *first, const nan_seq_pool *pool, uint64_t seed, uint64_t mask, int avx,
               const nan_seq_mutant *m, char *why, size_t n)
{
    static nan_seq s;
    nan_seq_state st;
    nan_seq_generate(seed, pool, &s);
    if (mask == 0)
        mask = nan_seq_full_mask(s.n);
    if (nan_seq_jit_run(&s, mask, avx, m, &st, why, n) != 0)
        return -1;
    char hex[NAN_SEQ_STATE_HEX + 1];
    nan_seq_state_hex(&st, hex);
    fprintf(o, "%s\n[\"%llu\",\"%llx\",\"%s\"]", *first ? "" : ",", (unsigned long long)seed,
            (unsigned long long)mask, hex);
    *first = 0;
    return 0;
}

int nan_seq_probe_main(const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        bg_errorf("nan-probe", "--sequences %s: cannot read", path);
        return 3;
    }
    static char line[16384];
    static nan_seq_pool pool;
    char why[300] = "", bad[80];
    int lineno = 1;
    if (!fgets(line, sizeof line, in) || strncmp(line, "pool ", 5) != 0) {
        fclose(in);
        return bad_request(path, 1, "the first line must be 'pool NAME,NAME,...'");
    }
    if (nan_seq_pool_parse(line + 5, &pool, bad, sizeof bad) != 0) {
        fclose(in);
        snprintf(why, sizeof why, "unknown op '%s' in the pool", bad);
        return bad_request(path, 1, why);
    }
    nan_seq_mutant m;
    const char *spec = getenv("NAN_SEQ_MUTANT");
    if (nan_seq_mutant_parse(spec, &m, why, sizeof why) != 0) {
        fclose(in);
        bg_errorf("nan-probe", "NAN_SEQ_MUTANT: %s", why);
        return 2;
    }
    bg_cpu_features f;
    bg_cpu_detect(&f);
    int avx = pool_needs_avx(&pool);
    FILE *o = stdout;
    fprintf(o, "{\"probe\":\"nan_semantics\",\"schema\":1,\"sequences\":true,"
               "\"features\":{\"sse41\":%d,\"fma\":%d,\"avx\":%d},\"avx_blocks\":%d,\"mutant\":",
            f.sse41, f.fma, f.avx, avx);
    json_str(o, spec ? spec : "");
    pool_unsupported(&pool, why, sizeof why);
    if (!*why)
        nan_seq_jit_init(why, sizeof why);
    if (*why) {
        fclose(in);
        fputs(",\"not_run\":", o);
        json_str(o, why);
        fputs(",\"results\":[]}\n", o);
        return fflush(o) == 0 ? 0 : 3;
    }
    fputs(",\"results\":[", o);
    int first = 1, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, in)) {
        lineno++;
        unsigned long long a = 0, b = 0;
        if (sscanf(line, "seeds %llu %llu", &a, &b) == 2) {
            for (unsigned long long sd = a; sd < a + b && rc == 0; sd++)
                rc = one(o, &first, &pool, sd, 0, avx, &m, why, sizeof why);
        } else if (sscanf(line, "block %llu %llx", &a, &b) == 2) {
            rc = one(o, &first, &pool, a, b, avx, &m, why, sizeof why);
        } else if (line[0] != '\n' && line[0] != '#') {
            fclose(in);
            return bad_request(path, lineno, "not 'seeds FIRST COUNT' or 'block SEED MASK'");
        }
    }
    fclose(in);
    fputs("]", o);
    if (rc != 0) {
        fputs(",\"not_run\":", o);
        json_str(o, why);
    }
    fputs("}\n", o);
    return fflush(o) == 0 ? 0 : 3;
}
