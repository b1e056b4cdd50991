#include "rx_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildgate/bg_hex.h"
#include "buildgate/bg_parse.h"
#include "rx_chain.h"
#include "rx_flags.h"

static bg_status parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (bg_parse_u64(s, lo, hi, out) != BG_OK)
        return bg_fail(BG_E_USAGE, opt, "expected a whole number from %llu to %llu, got '%s'",
                       (unsigned long long)lo, (unsigned long long)hi, s ? s : "");
    return BG_OK;
}

static const char *const value_options[] = {
    "--key", "--key-hex", "--flags", "--n", "--k", "--init-threads", "--dataset-dir",
    "--remove-datasets", "--make-datasets", "--kat", "--chains", "--record", "--reason", NULL,
};

static int is_value_option(const char *a)
{
    for (int i = 0; value_options[i]; i++)
        if (!strcmp(a, value_options[i]))
            return 1;
    return 0;
}

void rx_opts_usage(FILE *out, const char *prog)
{
    fprintf(out,
            "Usage: %s [--key TEXT | --key-hex HEX] [--flags LIST] [--n N] [--k K]\n"
            "       [--init-threads T] [--dataset-dir DIR] [--kat FILE] [--chains FILE]\n"
            "       [--record FILE [--replace --reason TEXT]] [--progress]\n"
            "flags: jit, hard-aes, full-mem, secure, argon2=ref|ssse3|avx2, large-pages, v2, auto\n"
            "defaults: key relay-jit-profile-fixed-key-v1, flags auto, N 64, K N/8\n"
            "see README.md and docs/chain.md\n",
            prog);
}

bg_status rx_opts_parse(int argc, char **argv, rx_opts *o)
{
    memset(o, 0, sizeof *o);
    o->key_text = RX_CHAIN_DEFAULT_KEY;
    o->key_len = strlen(o->key_text);
    memcpy(o->key, o->key_text, o->key_len);
    o->n = 64;
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    o->init_threads = nc > 0 ? (int)nc : 1;
    const char *flags = "auto";
    int key_given = 0;
    bg_status st = BG_OK;
    for (int i = 1; i < argc && !st; i++) {
        const char *a = argv[i];
        uint64_t u;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            rx_opts_usage(stdout, argv[0]);
            o->help = 1;
            return BG_OK;
        }
        if (!strcmp(a, "--progress")) {
            o->progress = 1;
            continue;
        }
        if (!strcmp(a, "--replace")) {
            o->replace = 1;
            continue;
        }
        const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
        if (!is_value_option(a))
            return bg_fail(BG_E_USAGE, prog, "%s: unknown option (see %s --help)", a, prog);
        if (i + 1 >= argc)
            return bg_fail(BG_E_USAGE, prog, "%s: missing value (see %s --help)", a, prog);
        const char *v = argv[++i];
        if (!strcmp(a, "--key") || !strcmp(a, "--key-hex")) {
            if (key_given++)
                return bg_fail(BG_E_USAGE, a, "give the key once, with --key or --key-hex");
        }
        if (!strcmp(a, "--key")) {
            if (!*v || strlen(v) > sizeof o->key)
                return bg_fail(BG_E_USAGE, "--key", "the key must be 1 to %zu bytes", sizeof o->key);
            o->key_text = v;
            o->key_len = strlen(v);
            memcpy(o->key, v, o->key_len);
        } else if (!strcmp(a, "--key-hex")) {
            if (!*v || bg_hex_decode(v, o->key, sizeof o->key, &o->key_len) != BG_OK || !o->key_len)
                return bg_fail(BG_E_USAGE, "--key-hex", "expected 1 to %zu bytes as hex digits",
                               sizeof o->key);
            o->key_text = NULL;
        } else if (!strcmp(a, "--flags")) {
            flags = v;
        } else if (!strcmp(a, "--n")) {
            st = parse_u64("--n", v, 1, 1000000000ULL, &o->n);
        } else if (!strcmp(a, "--k")) {
            st = parse_u64("--k", v, 0, 1000000000ULL, &o->k);
            o->k_given = 1;
        } else if (!strcmp(a, "--init-threads")) {
            st = parse_u64("--init-threads", v, 1, 256, &u);
            o->init_threads = (int)u;
        } else if (!strcmp(a, "--dataset-dir")) {
            o->dataset_dir = v;
        } else if (!strcmp(a, "--remove-datasets")) {
            o->remove_datasets = v;
        } else if (!strcmp(a, "--make-datasets")) {
            o->make_datasets = v;
        } else if (!strcmp(a, "--kat")) {
            o->kat = v;
        } else if (!strcmp(a, "--chains")) {
            o->chains = v;
        } else if (!strcmp(a, "--record")) {
            o->record = v;
        } else {
            o->reason = v;
        }
    }
    if (st)
        return st;
    if (!o->k_given)
        o->k = o->n >= 8 ? o->n / 8 : 0;
    if (o->k > o->n)
        return bg_fail(BG_E_USAGE, "--k", "the checkpoint interval %llu exceeds N = %llu",
                       (unsigned long long)o->k, (unsigned long long)o->n);
    if (o->replace && (!o->reason || !*o->reason))
        return bg_fail(BG_E_USAGE, "--replace", "needs --reason \"why the stored truth changes\"");
    if ((o->replace || o->reason) && !o->record)
        return bg_fail(BG_E_USAGE, o->replace ? "--replace" : "--reason",
                       "only applies with --record FILE");
    const char *fx = getenv("BG_FIXTURES_DIR");
    if (!fx || !*fx)
        fx = "fixtures";
    if (!o->kat) {
        snprintf(o->kat_buf, sizeof o->kat_buf, "%s/randomx/kat.json", fx);
        o->kat = o->kat_buf;
    }
    if (!o->chains) {
        snprintf(o->chains_buf, sizeof o->chains_buf, "%s/randomx/chains.json", fx);
        o->chains = o->chains_buf;
    }
    return rx_flags_parse(flags, &o->flags);
}
