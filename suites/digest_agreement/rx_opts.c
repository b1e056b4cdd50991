#include "rx_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildgate/bg_hex.h"
#include "rx_chain.h"
#include "rx_flags.h"

static bg_status parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end = NULL;
    if (!s || !*s || *s == '-')
        return bg_fail(BG_E_USAGE, opt, "expected a whole number from %llu to %llu, got '%s'",
                       (unsigned long long)lo, (unsigned long long)hi, s ? s : "");
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || v < lo || v > hi)
        return bg_fail(BG_E_USAGE, opt, "expected a whole number from %llu to %llu, got '%s'",
                       (unsigned long long)lo, (unsigned long long)hi, s);
    *out = v;
    return BG_OK;
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
    bg_status st = BG_OK;
    for (int i = 1; i < argc && !st; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t u;
        if (!strcmp(a, "--progress")) {
            o->progress = 1;
            continue;
        }
        if (!strcmp(a, "--replace")) {
            o->replace = 1;
            continue;
        }
        if (!v)
            return bg_fail(BG_E_USAGE, a, "missing value (see the usage in rx_opts.h / README)");
        i++;
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
        } else if (!strcmp(a, "--reason")) {
            o->reason = v;
        } else {
            return bg_fail(BG_E_USAGE, a, "unknown option");
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
