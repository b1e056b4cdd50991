#include "rx_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildgate/bg_fixtures.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_hex.h"
#include "buildgate/bg_parse.h"
#include "rx_chain.h"
#include "rx_fixture.h"
#include "rx_flags.h"

static bg_status parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (bg_parse_u64(s, lo, hi, out) != BG_OK)
        return bg_fail(BG_E_USAGE, opt, "expected a whole number from %llu to %llu, got '%s'",
                       (unsigned long long)lo, (unsigned long long)hi, s ? s : "");
    return BG_OK;
}

/* The one option table: the parser accepts exactly these, each for the
 * tools in its mask, and the usage text is printed from it, so --help and the
 * parser cannot disagree. */
typedef struct opt_row {
    const char *name;  /* "--k" */
    const char *value; /* "K", or NULL for a switch */
    unsigned tools;    /* RX_TOOL_* bits */
    const char *help;  /* with the range and the default */
} opt_row;

#define ALL (RX_TOOL_CHAIN | RX_TOOL_DIGEST | RX_TOOL_OTHER)
static const opt_row rows[] = {
    {"--key", "TEXT", ALL, "cache key, 1..256 bytes\n(default relay-jit-profile-fixed-key-v1)"},
    {"--key-hex", "HEX", ALL, "cache key as hex digits, 1..256 bytes"},
    {"--flags", "LIST", ALL, "runtime flags, comma-separated: jit, hard-aes,\n"
                             "full-mem, secure, argon2=ref|ssse3|avx2, large-pages,\n"
                             "v2, auto (default auto)"},
    {"--n", "N", ALL, "chain length in hashes, 1..1000000000 (default 64)"},
    {"--k", "K", ALL, "checkpoint interval, 1..N (default N/8, at least 1)"},
    {"--init-threads", "T", ALL, "threads for the dataset build, 1..256\n(default: online CPUs)"},
    {"--dataset-dir", "DIR", ALL, "full-mem: read DIR/<hex(key)>.rxds, not build it"},
    {"--kat", "FILE", RX_TOOL_DIGEST | RX_TOOL_OTHER,
     "known answers (default $BG_FIXTURES_DIR/randomx/kat.json;\nwith v2: kat-v2.json)"},
    {"--chains", "FILE", RX_TOOL_DIGEST | RX_TOOL_OTHER,
     "stored chains\n(default $BG_FIXTURES_DIR/randomx/chains.json)"},
    {"--make-datasets", "DIR", RX_TOOL_DIGEST | RX_TOOL_OTHER,
     "build the shared full-memory datasets, check\nthem, save them in DIR"},
    {"--dataset-cache", "DIR", RX_TOOL_DIGEST | RX_TOOL_OTHER,
     "with --make-datasets: the host's dataset cache,\nreused when verified, else built into it\n"
     "(docs/digest_agreement.md \"Dataset cache\")"},
    {"--dataset-cache-id", "ID", RX_TOOL_DIGEST | RX_TOOL_OTHER,
     "with --dataset-cache: the RandomX library's identity\n"
     "([0-9a-z.-], CMake's bg_randomx_dataset_id)"},
    {"--items", "N", RX_TOOL_DIGEST | RX_TOOL_OTHER,
     "with --make-datasets: build only the first N items,\n1..all (a self-test's stand-in; default all)"},
    {"--remove-datasets", "DIR", RX_TOOL_DIGEST | RX_TOOL_OTHER,
     "delete the .rxds files in DIR (the fixture cleanup)"},
    {"--record", "FILE", RX_TOOL_CHAIN | RX_TOOL_OTHER,
     "store the chain in this chains.json fixture; an\n"
     "existing entry is refused (exit 6) before any hashing"},
    {"--replace", NULL, RX_TOOL_CHAIN | RX_TOOL_OTHER, "with --record: replace the entry (needs --reason)"},
    {"--reason", "TEXT", RX_TOOL_CHAIN | RX_TOOL_OTHER, "with --replace: why the stored truth changes"},
    {"--progress", NULL, ALL, "progress lines on stderr about once a second"},
    {"--variant", "NAME", RX_TOOL_DIGEST | RX_TOOL_OTHER,
     "the build variant this probe was built for (CMake\npasses it): its checks fill that row of the\nBuild variants table (default: none)"},
    {"--runner", "NAME", RX_TOOL_DIGEST,
     "run the probe under this runner of the registry\n(bg-runner --list; light memory only) and judge\n"
     "what it computed: checks as without --runner, with\nthe runner and its version (a runner this host\n"
     "lacks: a skip naming why)"},
    {"--probe", "PATH", RX_TOOL_DIGEST,
     "with --runner: the x86-64 bg-digest-check to run\n(default: this program)"},
    {"--timeout", "S", RX_TOOL_DIGEST,
     "with --runner: the probe's wall-clock limit,\n1..86400 s (default 1200)"},
    {"--validate-known", "FILE", RX_TOOL_DIGEST,
     "check a known digest list of runners\n(fixtures/randomx/known/<tool>.tsv) and exit"},
    {"--observe", NULL, RX_TOOL_DIGEST,
     "compute only: print the KAT hashes and the chain\nas one JSON object on stdout, record no check\n(what --runner runs under the runner)"},
};
#define NROWS (sizeof rows / sizeof rows[0])

static const opt_row *find_opt(const char *a, unsigned tools)
{
    for (size_t i = 0; i < NROWS; i++)
        if (!strcmp(a, rows[i].name))
            return (rows[i].tools & tools) ? &rows[i] : NULL;
    return NULL;
}

void rx_opts_usage(FILE *out, const char *prog, const rx_tool *tool)
{
    unsigned tools = tool ? tool->tools : ALL;
    fprintf(out, "Usage: %s %s\n", prog,
            tool && tool->synopsis ? tool->synopsis : "[options]");
    if (tool && tool->about)
        fprintf(out, "\n%s", tool->about);
    fputs("\nOptions:\n", out);
    for (size_t i = 0; i < NROWS; i++) {
        if (!(rows[i].tools & tools))
            continue;
        char head[40];
        snprintf(head, sizeof head, "%s%s%s", rows[i].name, rows[i].value ? " " : "",
                 rows[i].value ? rows[i].value : "");
        fprintf(out, "  %-22s ", head);
        for (const char *h = rows[i].help; *h; h++) {
            fputc(*h, out);
            if (*h == '\n')
                fprintf(out, "  %-22s ", "");
        }
        fputc('\n', out);
    }
    fprintf(out, "  %-22s this text\n", "-h, --help");
    if (tool && tool->epilog)
        fprintf(out, "\n%s", tool->epilog);
    else
        fputs("\nSee README.md and docs/chain.md.\n", out);
}

bg_status rx_opts_parse(int argc, char **argv, rx_opts *o)
{
    return rx_opts_parse_tool(argc, argv, NULL, o);
}

bg_status rx_opts_parse_tool(int argc, char **argv, const rx_tool *tool, rx_opts *o)
{
    const unsigned tools = tool ? tool->tools : ALL;
    bg_error_set_tool(tool ? tool->name : argv[0]);
    const char *prog = bg_error_tool();
    memset(o, 0, sizeof *o);
    o->key_text = RX_CHAIN_DEFAULT_KEY;
    o->key_len = strlen(o->key_text);
    memcpy(o->key, o->key_text, o->key_len);
    o->n = 64;
    o->timeout = 1200;
    o->argv0 = argv[0];
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    o->init_threads = nc > 0 ? (int)nc : 1;
    const char *flags = "auto";
    int key_given = 0, timeout_given = 0;
    bg_status st = BG_OK;
    for (int i = 1; i < argc && !st; i++) {
        const char *a = argv[i];
        uint64_t u;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            rx_opts_usage(stdout, prog, tool);
            o->help = 1;
            return BG_OK;
        }
        const opt_row *row = find_opt(a, tools);
        if (!row) {
            bg_help_unknown_option(a);
            return BG_E_USAGE;
        }
        if (!strcmp(a, "--progress")) {
            o->progress = 1;
            continue;
        }
        if (!strcmp(a, "--replace")) {
            o->replace = 1;
            continue;
        }
        if (!strcmp(a, "--observe")) {
            o->observe = 1;
            continue;
        }
        if (i + 1 >= argc) {
            bg_help_missing_value(a);
            return BG_E_USAGE;
        }
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
        } else if (!strcmp(a, "--dataset-cache")) {
            o->dataset_cache = v;
        } else if (!strcmp(a, "--dataset-cache-id")) {
            if (!*v || strspn(v, "0123456789abcdefghijklmnopqrstuvwxyz.-") != strlen(v))
                return bg_fail(BG_E_USAGE, "--dataset-cache-id",
                               "expected letters a-z, digits, '.' and '-', got '%s'", v);
            o->dataset_cache_id = v;
        } else if (!strcmp(a, "--items")) {
            st = parse_u64("--items", v, 1, randomx_dataset_item_count(), &u);
            o->items = (unsigned long)u;
        } else if (!strcmp(a, "--kat")) {
            o->kat = v;
        } else if (!strcmp(a, "--chains")) {
            o->chains = v;
        } else if (!strcmp(a, "--record")) {
            o->record = v;
        } else if (!strcmp(a, "--runner")) {
            if (!*v)
                return bg_fail(BG_E_USAGE, "--runner", "expected a runner's name (bg-runner --list), got ''");
            o->runner = v;
        } else if (!strcmp(a, "--validate-known")) {
            o->validate_known = v;
        } else if (!strcmp(a, "--probe")) {
            o->probe = v;
        } else if (!strcmp(a, "--timeout")) {
            st = parse_u64("--timeout", v, 1, 86400, &u);
            o->timeout = (unsigned long)u;
            timeout_given = 1;
        } else if (!strcmp(a, "--variant")) {
            if (!*v)
                return bg_fail(BG_E_USAGE, "--variant", "expected a build variant's name, got ''");
            o->variant = v;
        } else {
            o->reason = v;
        }
    }
    if (st)
        return st;
    if (!o->k_given)
        o->k = o->n >= 8 ? o->n / 8 : 1;
    if (o->k == 0 || o->k > o->n) /* 0 would store a chain without checkpoints */
        return bg_fail(BG_E_USAGE, "--k", "expected a whole number from 1 to N = %llu, got %llu",
                       (unsigned long long)o->n, (unsigned long long)o->k);
    if (o->replace && (!o->reason || !*o->reason))
        return bg_fail(BG_E_USAGE, "--replace", "needs --reason \"why the stored truth changes\"");
    if ((o->replace || o->reason) && !o->record)
        return bg_fail(BG_E_USAGE, o->replace ? "--replace" : "--reason",
                       "only applies with --record FILE");
    if ((o->dataset_cache || o->dataset_cache_id || o->items) && !o->make_datasets)
        return bg_fail(BG_E_USAGE,
                       o->dataset_cache ? "--dataset-cache" : o->items ? "--items" : "--dataset-cache-id",
                       "only applies with --make-datasets DIR");
    if (!o->dataset_cache != !o->dataset_cache_id)
        return bg_fail(BG_E_USAGE, o->dataset_cache ? "--dataset-cache" : "--dataset-cache-id",
                       "--dataset-cache and --dataset-cache-id go together");
    if ((o->probe || timeout_given) && !o->runner)
        return bg_fail(BG_E_USAGE, o->probe ? "--probe" : "--timeout", "only applies with --runner NAME");
    if (o->runner && (o->observe || o->make_datasets || o->remove_datasets || o->dataset_dir))
        return bg_fail(BG_E_USAGE, "--runner",
                       "runs one light-memory variant: not with %s",
                       o->observe ? "--observe" : o->make_datasets ? "--make-datasets"
                       : o->remove_datasets ? "--remove-datasets" : "--dataset-dir");
    if ((st = rx_flags_parse(flags, &o->flags)))
        return st;
    o->flags_text = flags;
    if (o->runner && (o->flags & RANDOMX_FLAG_FULL_MEM))
        return bg_fail(BG_E_USAGE, "--runner", "runs light-memory variants only (--flags without full-mem)");
    const char *fx = bg_fixtures_root();
    if (!o->kat) { /* the flags' algorithm picks the file (v2: kat-v2.json) */
        snprintf(o->kat_buf, sizeof o->kat_buf, "%s/%s", fx, rx_kat_rel(rx_algorithm((int)o->flags)));
        o->kat = o->kat_buf;
    }
    if (!o->chains) {
        snprintf(o->chains_buf, sizeof o->chains_buf, "%s/randomx/chains.json", fx);
        o->chains = o->chains_buf;
    }
    return BG_OK;
}
