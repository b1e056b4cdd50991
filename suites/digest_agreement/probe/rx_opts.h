/* rx_opts.h — command-line options shared by bg-chain and bg-digest-check.
 *
 *   --key TEXT | --key-hex HEX   cache key (default "relay-jit-profile-fixed-key-v1"); not empty
 *   --flags LIST                 runtime flags by name (rx_flags.h); default "auto"
 *   --n N                        chain length in hashes, 1 .. 1e9 (default 64)
 *   --k K                        checkpoint interval, 1 .. N (default N/8, at least 1)
 *   --init-threads T             threads for the dataset build, 1 .. 256 (default: all CPUs)
 *   --dataset-dir DIR            full-mem: read <DIR>/<hex(key)>.rxds instead of building
 *   --kat FILE, --chains FILE    fixtures (default $BG_FIXTURES_DIR/randomx/{kat,chains}.json)
 *   --record FILE                bg-chain: store the chain in a chains.json fixture
 *   --replace --reason TEXT      allow --record to replace an entry, saying why
 *   --make-datasets DIR          bg-digest-check: build and save the shared datasets
 *   --dataset-cache DIR, --dataset-cache-id ID  bg-digest-check --make-datasets: the
 *                                host's dataset cache (check/dataset_cache.h)
 *   --items N                    bg-digest-check --make-datasets: build the first N items only
 *   --remove-datasets DIR        bg-digest-check: delete the .rxds files in DIR (fixture cleanup)
 *   --progress                   progress lines on stderr about once a second
 *   --variant NAME               the build variant the probe was built for (build_matrix.h)
 *   --runner NAME                bg-digest-check: run the variant's probe under this runner of
 *                                the registry (bg_runner.h) and judge what it computed
 *   --probe PATH                 with --runner: the x86-64 bg-digest-check to run (default: this one)
 *   --timeout S                  with --runner: wall-clock limit of the probe, 1..86400 s (default 1200)
 *   --observe                    bg-digest-check: compute only; print what was computed as one
 *                                JSON object on stdout, record no check (what --runner runs)
 *   --help                       print the usage and set help (exit 0)
 * A bad value prints one line and returns BG_E_USAGE.  The option table in
 * rx_opts.c says which tool takes which option; it drives both the parser and
 * the usage text (an option of another tool is an unknown option).
 */
#ifndef RX_OPTS_H
#define RX_OPTS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <randomx.h>

#include "buildgate/bg_error.h"

typedef struct rx_opts {
    uint8_t key[256];
    size_t key_len;
    const char *key_text; /* NULL when given as hex */
    randomx_flags flags;
    uint64_t n, k;
    int k_given;
    int init_threads;
    const char *dataset_dir, *make_datasets, *remove_datasets;
    const char *dataset_cache, *dataset_cache_id; /* --dataset-cache, --dataset-cache-id */
    unsigned long items;                          /* --items; 0: all */
    const char *kat, *chains;
    const char *record, *reason;
    const char *variant; /* --variant: the build variant, NULL outside one */
    const char *flags_text;         /* --flags as given (passed on to the probe under --runner) */
    const char *runner, *probe;     /* --runner NAME, --probe PATH; NULL when not given */
    unsigned long timeout;          /* --timeout seconds (default 1200) */
    int observe;                    /* --observe */
    const char *validate_known;     /* --validate-known FILE */
    const char *argv0;              /* how the program was started (argv[0]) */
    int replace, progress;
    int help; /* --help was given: usage printed, nothing else to do */
    char kat_buf[4096], chains_buf[4096];
} rx_opts;

/* Which tool parses: the options it takes and the text around them. */
enum { RX_TOOL_CHAIN = 1u, RX_TOOL_DIGEST = 2u, RX_TOOL_OTHER = 4u };
typedef struct rx_tool {
    const char *name;     /* "bg-chain": the prefix of its error lines */
    unsigned tools;       /* RX_TOOL_* bits: the option rows it takes */
    const char *synopsis; /* after "Usage: <name> " */
    const char *about;    /* paragraph(s) before the options, or NULL */
    const char *epilog;   /* output, exit codes, doc; or NULL */
} rx_tool;

/* Parses argv for tool (NULL: every option, the name from argv[0]).  --help
 * prints rx_opts_usage on stdout and sets o->help.  Returns BG_OK or
 * BG_E_USAGE after one line "buildgate: ...". */
bg_status rx_opts_parse_tool(int argc, char **argv, const rx_tool *tool, rx_opts *o);

/* rx_opts_parse_tool(argc, argv, NULL, o) (benchmarks, bg-jit-profile). */
bg_status rx_opts_parse(int argc, char **argv, rx_opts *o);

/* Prints tool's usage (synopsis, about, its options from the table with their
 * ranges and defaults, epilog) to out; tool NULL: every option. */
void rx_opts_usage(FILE *out, const char *prog, const rx_tool *tool);

#endif
