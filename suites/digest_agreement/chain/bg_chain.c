/* bg-chain — the digest-chain probe (docs/chain.md).
 *
 * Usage: bg-chain [options of rx_opts.h]; `bg-chain --help` (tool below).
 * Prints one JSON object on stdout:
 *   {"variant": slug, "algorithm": "randomx-v1", "randomx": library version,
 *    "flags": {"value": int, "names": "jit,hard-aes,..."}, "key": text | "key_hex": hex,
 *    "n": N, "k": K, "digest": hex64, "checkpoints": [hex64 ...],
 *    "init_threads": T, "init_seconds": s, "hashing_seconds": s,
 *    "hashes_per_second": N / hashing_seconds}   (setup excluded from H/s)
 * With --record FILE it also stores the chain in that chains.json fixture
 * (refusing to overwrite an entry without --replace --reason, checked before
 * any hashing).
 * Exit: 0; 2 usage; 3 I/O; 5 fixture; 6 entry exists; 7 RandomX failed
 *       ("buildgate: bg-chain: RandomX failed: <call>: <why>", also for a C++
 *       exception or abort inside RandomX, bg_guard.h); 77 the host cannot run
 *       these flags (the reason on stderr; a JIT on a host that forbids W+X
 *       memory: "this host forbids W+X memory; the JIT cannot run").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_guard.h"
#include "buildgate/bg_host.h"
#include "buildgate/bg_json.h"
#include "rx_chain.h"
#include "rx_fixture.h"
#include "rx_flags.h"
#include "rx_opts.h"
#include "rx_session.h"

static const rx_tool tool = {
    "bg-chain", RX_TOOL_CHAIN,
    "[--key TEXT | --key-hex HEX] [--flags LIST] [--n N] [--k K]\n"
    "                [--init-threads T] [--dataset-dir DIR] [--progress]\n"
    "                [--record FILE [--replace --reason TEXT]]",
    "Computes a RandomX digest chain (N hashes, a checkpoint every K) and prints\n"
    "it as one JSON object on stdout (docs/chain.md); bg-digest-check checks\n"
    "stored chains.\n",
    "Exit: 0 ok; 2 usage (one line \"buildgate: bg-chain: ...\"); 3 I/O (--record\n"
    "      FILE cannot be written); 5 fixture (--record FILE is not a chains.json);\n"
    "      6 --record FILE already has this chain (without --replace --reason);\n"
    "      7 RandomX failed; 77 this host cannot run these flags (the reason on\n"
    "      stderr, e.g. \"this host forbids W+X memory; the JIT cannot run\").\n"
    "Doc: docs/chain.md, README.md.\n",
};

static void progress(uint64_t done, uint64_t n)
{
    fprintf(stderr, "bg-chain: %llu/%llu hashes\n", (unsigned long long)done,
            (unsigned long long)n);
}

static cJSON *result_json(const rx_opts *o, const rx_session *s, const rx_chain_result *r)
{
    char buf[256];
    cJSON *j = cJSON_CreateObject();
    rx_flags_slug(s->flags, !o->dataset_dir, buf, sizeof buf);
    cJSON_AddStringToObject(j, "variant", buf);
    cJSON_AddStringToObject(j, "algorithm", rx_algorithm((int)s->flags));
    cJSON_AddStringToObject(j, "randomx", BG_RANDOMX_VERSION);
    cJSON *fl = cJSON_AddObjectToObject(j, "flags");
    cJSON_AddNumberToObject(fl, "value", (int)s->flags);
    rx_flags_names(s->flags, buf, sizeof buf);
    cJSON_AddStringToObject(fl, "names", buf);
    rx_chain_add_json(j, o->key_text, o->key, o->key_len, r);
    cJSON_AddNumberToObject(j, "init_threads", s->init_threads);
    cJSON_AddNumberToObject(j, "init_seconds", s->init_seconds);
    cJSON_AddNumberToObject(j, "hashing_seconds", r->seconds);
    cJSON_AddNumberToObject(j, "hashes_per_second", r->seconds > 0 ? r->n / r->seconds : 0);
    return j;
}

static bg_status record(const rx_opts *o, const rx_session *s, const rx_chain_result *r)
{
    bg_host h; /* main checked that the key is text */
    bg_host_probe(&h);
    char key[160], slug[256], now[32];
    bg_host_key(&h, key, sizeof key);
    rx_flags_slug(s->flags, !o->dataset_dir, slug, sizeof slug);
    bg_utc_now(now);
    cJSON *p = cJSON_CreateObject();
    char cmd[256];
    snprintf(cmd, sizeof cmd, "bg-chain --key '%s' --n %llu --k %llu --flags %s --record FILE",
             o->key_text, (unsigned long long)r->n, (unsigned long long)r->k, "<variant flags>");
    cJSON_AddStringToObject(p, "command", cmd);
    cJSON_AddStringToObject(p, "variant", slug);
    cJSON_AddNumberToObject(p, "flags", (int)s->flags);
    cJSON_AddStringToObject(p, "host", key);
    cJSON_AddStringToObject(p, "cpu_model", h.cpu_model);
    cJSON_AddStringToObject(p, "randomx", BG_RANDOMX_VERSION);
    cJSON_AddStringToObject(p, "date", now);
    return rx_chain_fixture_record(o->record, rx_algorithm((int)s->flags), o->key_text, r, p,
                                   o->replace, o->reason);
}

int main(int argc, char **argv)
{
    bg_guard_set_tool("bg-chain");
    rx_opts o;
    bg_status st = rx_opts_parse_tool(argc, argv, &tool, &o);
    if (st || o.help)
        return bg_exit_code(st);
    if (o.record && !o.key_text)
        return bg_exit_code(
            bg_fail(BG_E_USAGE, "--record", "fixtures store text keys: use --key, not --key-hex"));
    /* the fixture, and whether it already has this chain: before the hashing */
    if (o.record && (st = rx_chain_fixture_precheck(o.record, rx_algorithm((int)o.flags),
                                                    o.key_text, o.n, o.k, o.replace)) != BG_OK)
        return bg_exit_code(st);
    rx_session s;
    st = rx_session_open(&s, o.flags, o.key, o.key_len, o.init_threads, o.dataset_dir);
    if (st)
        return bg_exit_code(st);
    rx_chain_result r;
    st = rx_chain_run(s.vm, o.n, o.k, o.progress ? progress : NULL, &r);
    if (!st) {
        cJSON *j = result_json(&o, &s, &r);
        char *text = cJSON_Print(j);
        puts(text ? text : "{}");
        free(text);
        cJSON_Delete(j);
        if (o.record)
            st = record(&o, &s, &r);
        if (!st && o.record)
            fprintf(stderr, "bg-chain: recorded n=%llu k=%llu in %s\n", (unsigned long long)r.n,
                    (unsigned long long)r.k, o.record);
    }
    rx_chain_free(&r);
    rx_session_close(&s);
    return bg_exit_code(st);
}
