/* Unit tests of libbuildgate.  Usage: bg-lib-tests GROUP BG_REPORT_EXE WORKDIR
 * Each assertion is a check: the right value, with the reason beside it. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "buildgate/bg_changepoint.h"
#include "buildgate/bg_check.h"
#include "buildgate/bg_fixtures.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_hex.h"
#include "buildgate/bg_host.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_parse.h"
#include "buildgate/bg_runner.h"
#include "buildgate/bg_stats.h"

static bg_checks *C;

static void expect_str(const char *name, const char *want, const char *got)
{
    bg_check_emit_str(C, name, strcmp(want, got) == 0 ? BG_PASS : BG_FAIL, want, got, NULL);
}

static void expect_int(const char *name, long want, long got)
{
    char w[32], g[32];
    snprintf(w, sizeof w, "%ld", want);
    snprintf(g, sizeof g, "%ld", got);
    expect_str(name, w, g);
}

static void group_hex(void)
{
    const uint8_t in[4] = {0x00, 0x9f, 0xa0, 0xff};
    char out[9];
    bg_hex_encode(in, 4, out);
    expect_str("hex.encode", "009fa0ff", out);
    uint8_t back[4];
    size_t n = 0;
    expect_int("hex.decode.status", BG_OK, bg_hex_decode("009FA0ff", back, 4, &n));
    expect_int("hex.decode.roundtrip", 0, memcmp(in, back, 4) | (n != 4));
    expect_int("hex.decode.odd_length", BG_E_PARSE, bg_hex_decode("abc", back, 4, &n));
    expect_int("hex.decode.bad_digit", BG_E_PARSE, bg_hex_decode("zz", back, 4, &n));
    expect_int("hex.decode.too_long", BG_E_USAGE, bg_hex_decode("0011223344", back, 4, &n));
}

static void group_parse(void)
{
    uint64_t v = 0;
    expect_int("parse.ok", BG_OK, bg_parse_u64("42", 1, 100, &v));
    expect_int("parse.value", 42, (long)v);
    /* a sign, a suffix, an empty string, out of range, overflow: all refused */
    static const char *const bad[] = {"-5", "+5", " 5", "12x", "", "0", "101", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "parse.refuses.%zu", i);
        expect_int(name, BG_E_USAGE, bg_parse_u64(bad[i], 1, 100, &v));
    }
    /* version ranges (bg_runner.h): the known lists' and expectations' forms
     * are valid; overflow, letters, inverted/empty/duplicated bounds are not
     * (a fresh user adopted ">=99999999999999999999.1", which matched 3.19) */
    static const char *const good_ranges[] = {"*", ">=7.2,<7.3", ">=3.19,<3.20", "=3.19.0", ">=10.0",
                                              "<8", ">=3.19,<=3.19"};
    for (size_t i = 0; i < sizeof good_ranges / sizeof good_ranges[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "parse.range_valid.%zu", i);
        expect_int(name, 1, bg_version_range_valid(good_ranges[i]));
    }
    static const char *const bad_ranges[] = {">=99999999999999999999.1", ">=7.x", ">=3.20,<3.19",
                                             ">=3.19,<3.19", ">=3.19,<3.20,<3.21", "7.2", "", ">=1.2.3.4",
                                             "=3.19,<4", ">=4294967296.19,<4294967296.20"};
    for (size_t i = 0; i < sizeof bad_ranges / sizeof bad_ranges[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "parse.range_refused.%zu", i);
        expect_int(name, 0, bg_version_range_valid(bad_ranges[i]));
        snprintf(name, sizeof name, "parse.range_not_matched.%zu", i);
        expect_int(name, -1, bg_version_in_range("3.19.0", bad_ranges[i]));
    }
    /* a runner's version line (bg_version_line, issue 23): the number that is a
     * version, or none for a log line (box64's " PageSize:4096 ..." gave 4096
     * and proposed ">=4096.0,<4096.1"); "v0.3.2" is 0.3.2, not 3.2 */
    static const char *const lines[][2] = {
        {"qemu-x86_64 version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u7)", "7.2.22"},
        {"valgrind-3.19.0", "3.19.0"},
        {"Box64 arm64 v0.3.2 1234abcd with Dynarec built on Dec  1 2026 10:00:00", "0.3.2"},
        {"FEX-Emu (FEX-2407)", "2407.0.0"},
        {"15", "15.0.0"},
        {"15.1", "15.1.0"},
        {" PageSize:4096 Running on Cortex-A72 with 4 Cores", "none"},
        {"[BOX64] PageSize:4096 Running on Cortex-A72 with 4 Cores", "none"},
        {"Box64 nogit", "none"},
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char name[64], got[48] = "none";
        int w[3];
        if (bg_version_line(lines[i][0], w))
            snprintf(got, sizeof got, "%d.%d.%d", w[0], w[1], w[2]);
        snprintf(name, sizeof name, "parse.version_line.%zu", i);
        expect_str(name, lines[i][1], got);
    }
    int w[3];
    bg_version_parse("Box64 v0.2.8 built on Jun  9 2024", w);
    char got[48];
    snprintf(got, sizeof got, "%d.%d.%d", w[0], w[1], w[2]);
    expect_str("parse.version_v_prefix", "0.2.8", got);
    /* a probe's output that is not JSON (bg_json_explain_invalid): a stray
     * line before the document is quoted with its byte count */
    static const char *const outs[][2] = {
        {"[BOX64] Box64 v0.3.2 built\n{\"arch\": \"x86_64\"}\n",
         "output is not JSON (46 bytes): 27 bytes before the JSON document, which starts on line 2; "
         "first line: '[BOX64] Box64 v0.3.2 built' (26 bytes)"},
        {"{\"arch\": ", "output is not JSON (9 bytes); first line: '{\"arch\": ' (9 bytes)"},
        {"", "output is empty (0 bytes)"},
    };
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        char name[64], buf[400];
        bg_json_explain_invalid(outs[i][0], strlen(outs[i][0]), buf, sizeof buf);
        snprintf(name, sizeof name, "parse.not_json.%zu", i);
        expect_str(name, outs[i][1], buf);
    }
}

static void group_slug(void)
{
    /* Host-key slugs documented in bg_host.h and docs/architecture.md "Interfaces". */
    static const char *const cases[][2] = {
        {"AMD EPYC 7B13 64-Core Processor", "amd-epyc"},
        {"Intel(R) Xeon(R) Processor", "intel-xeon"},
        {"Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", "intel-xeon"},
        {"Apple M4", "apple-m4"},
        {"", "unknown-cpu"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[64], name[64];
        bg_cpu_model_slug(cases[i][0], out, sizeof out);
        snprintf(name, sizeof name, "slug.%zu", i);
        expect_str(name, cases[i][1], out);
    }
    bg_host h;
    bg_host_probe(&h);
    char key[160];
    bg_host_key(&h, key, sizeof key);
    char want_prefix[64];
    snprintf(want_prefix, sizeof want_prefix, "%s-%s-", h.os, h.arch);
    expect_int("host_key.prefix", 0, strncmp(key, want_prefix, strlen(want_prefix)) != 0);
}

static void group_verdict(void)
{
    static const char *const names[] = {"pass", "fail", "xfail", "xpass", "skip", "inconclusive"};
    for (int i = 0; i < 6; i++) {
        bg_verdict v = BG_VERDICT_COUNT;
        char n[64];
        snprintf(n, sizeof n, "verdict.roundtrip.%s", names[i]);
        bg_verdict_parse(names[i], &v);
        expect_str(n, names[i], bg_verdict_name(v));
    }
    bg_verdict v;
    expect_int("verdict.parse_unknown", BG_E_PARSE, bg_verdict_parse("PASS", &v));
    expect_int("verdict.bad.fail", 1, bg_verdict_is_bad(BG_FAIL));
    expect_int("verdict.bad.xpass", 1, bg_verdict_is_bad(BG_XPASS));
    expect_int("verdict.bad.xfail", 0, bg_verdict_is_bad(BG_XFAIL));
}

/* Exit code of a private sink that records the given verdicts (no file). */
static int exit_for(const bg_verdict *vs, int n)
{
    char *saved = getenv("BG_CHECKS_FILE") ? strdup(getenv("BG_CHECKS_FILE")) : NULL;
    unsetenv("BG_CHECKS_FILE");
    bg_checks *p = bg_checks_open("scratch");
    for (int i = 0; i < n; i++)
        bg_check_emit(p, "scratch", vs[i], NULL, NULL, NULL);
    int rc = bg_checks_close(p);
    if (saved)
        setenv("BG_CHECKS_FILE", saved, 1);
    free(saved);
    return rc;
}

static void group_check_exit(void)
{
    bg_verdict a[] = {BG_PASS, BG_XFAIL, BG_INCONCLUSIVE};
    bg_verdict b[] = {BG_PASS, BG_XPASS};
    bg_verdict s[] = {BG_SKIP, BG_SKIP};
    bg_verdict f[] = {BG_SKIP, BG_FAIL};
    expect_int("exit.pass_xfail_inconclusive", 0, exit_for(a, 3));
    expect_int("exit.xpass_fails", 1, exit_for(b, 2));
    expect_int("exit.all_skip", 77, exit_for(s, 2));
    expect_int("exit.fail_beats_skip", 1, exit_for(f, 2));
    expect_int("exit.no_checks_fails", 1, exit_for(NULL, 0));
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void group_json(const char *work)
{
    char path[1024];
    cJSON *doc = NULL;
    /* bg_nearest_word: a likely misspelling names its known word; a far word nothing */
    static const char *const known[] = {"band", "seq_max_pairs", "seq_looks", "gates", "margin", NULL};
    const char *n;
    expect_str("json.nearest.dropped_letter", "seq_max_pairs", (n = bg_nearest_word("seq_max_pair", known)) ? n : "-");
    expect_str("json.nearest.swapped_letters", "band", (n = bg_nearest_word("bnad", known)) ? n : "-");
    expect_str("json.nearest.extra_letter", "gates", (n = bg_nearest_word("gatess", known)) ? n : "-");
    expect_str("json.nearest.far", "-", (n = bg_nearest_word("colour", known)) ? n : "-");
    expect_str("json.nearest.short_word", "-", (n = bg_nearest_word("ab", known)) ? n : "-");
    cJSON *ko = cJSON_Parse("{\"band\": 1, \"margn\": 2}");
    expect_int("json.known_keys.unknown_is_parse", BG_E_PARSE, bg_json_known_keys(ko, known, "f.json", "defaults"));
    expect_str("json.known_keys.says_which", "unknown key 'margn' in defaults (did you mean 'margin'?)", bg_last_error());
    cJSON_DeleteItemFromObject(ko, "margn");
    expect_int("json.known_keys.all_known", BG_OK, bg_json_known_keys(ko, known, "f.json", "defaults"));
    cJSON_Delete(ko);
    mkdir(work, 0777);
    snprintf(path, sizeof path, "%s/missing.json", work);
    remove(path);
    expect_int("json.missing_is_io", BG_E_IO, bg_json_load(path, "unit", &doc));
    snprintf(path, sizeof path, "%s/truncated.json", work);
    write_file(path, "{\"a\": [1, 2");
    expect_int("json.truncated_is_parse", BG_E_PARSE, bg_json_load(path, "unit", &doc));
    snprintf(path, sizeof path, "%s/atomic.json", work);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "x", 42);
    expect_int("json.write_atomic", BG_OK, bg_json_write_atomic(path, o));
    cJSON_Delete(o);
    expect_int("json.reload", BG_OK, bg_json_load(path, "unit", &doc));
    expect_int("json.value", 42, (long)bg_json_num(doc, "x", -1));
    cJSON_Delete(doc);
    /* non-UTF-8 bytes in strings and keys become '?'; well-formed sequences stay */
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", "a\xff\xc3\xa9" "b\xe2\x82\xc0\xaf" "z\xed\xa0\x80");
    cJSON_AddStringToObject(o, "k\xfe", "ok");
    expect_int("json.utf8_repaired", 9, (long)bg_json_utf8_repair(o));
    expect_str("json.utf8_value", "a?\xc3\xa9" "b????z???", bg_json_str(o, "name"));
    expect_str("json.utf8_key", "ok", bg_json_str(o, "k?"));
    cJSON_Delete(o);
}

/* expect_has: got contains want (the check's observed is got). */
static void expect_has(const char *name, const char *want, const char *got)
{
    bg_check_emit_str(C, name, strstr(got, want) ? BG_PASS : BG_FAIL, want, got, NULL);
}

/* bg_fixture_hint (bg_fixtures.h): a file in a git work tree's fixtures/ is a
 * git path, a copy elsewhere (even inside that work tree) is not. */
static void group_fixtures(const char *work)
{
    char p[1024], hint[4096];
    mkdir(work, 0777);
    snprintf(p, sizeof p, "%s/repo", work);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/repo/.git", work); /* a worktree's .git is a file */
    write_file(p, "gitdir: elsewhere\n");
    snprintf(p, sizeof p, "%s/repo/fixtures", work);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/repo/fixtures/randomx", work);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/repo/build", work);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/repo/build/randomx", work);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/repo/fixtures/randomx/kat.json", work);
    bg_fixture_hint(BG_FIXTURE_RESTORE, p, "randomx/kat.json", hint, sizeof hint);
    expect_has("fixtures.restore_in_repo", "restore it with `git checkout -- fixtures/randomx/kat.json` (in /", hint);
    bg_fixture_hint(BG_FIXTURE_DIFF, p, "randomx/kat.json", hint, sizeof hint);
    expect_has("fixtures.diff_in_repo", "`git diff -- fixtures/randomx/kat.json`", hint);
    snprintf(p, sizeof p, "%s/repo/build/randomx/kat.json", work);
    bg_fixture_hint(BG_FIXTURE_RESTORE, p, "randomx/kat.json", hint, sizeof hint);
    expect_has("fixtures.restore_copy_in_tree", "/repo/build/randomx/kat.json is not in the fixtures/ folder "
               "of a git repository: copy the repository's fixtures/randomx/kat.json (", hint);
    bg_fixture_hint(BG_FIXTURE_DIFF, p, "randomx/kat.json", hint, sizeof hint);
    expect_has("fixtures.diff_copy", "`diff` it against the repository's fixtures/randomx/kat.json (", hint);
    expect_has("fixtures.names_repo_copy", "/fixtures/randomx/kat.json)", hint);
}

/* Runs bg-report on dir into out with extra options (a shell word list). */
static int run_report_with(const char *exe, const char *dir, const char *out, const char *extra)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' --checks-dir '%s' --out-dir '%s' %s >/dev/null 2>&1", exe, dir,
             out, extra);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run_report(const char *exe, const char *dir, const char *out)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' --checks-dir '%s' --out-dir '%s' >/dev/null 2>&1", exe, dir, out);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int file_contains(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strstr(buf, needle) != NULL;
}

/* Lines of path before the first line starting "<details" (all lines when none). */
static int lines_before_details(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[8192];
    int n = 0;
    while (fgets(line, sizeof line, f) && strncmp(line, "<details", 8))
        n++;
    fclose(f);
    return n;
}

/* The table row of report.md that starts with prefix: its unescaped '|' count. */
static int row_pipes(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[8192];
    int n = -1;
    while (n < 0 && fgets(line, sizeof line, f)) {
        if (strncmp(line, prefix, strlen(prefix)))
            continue;
        n = 0;
        for (char *p = line; *p; p++)
            n += *p == '|' && (p == line || p[-1] != '\\');
    }
    fclose(f);
    return n;
}

/* report.md's layout: escaping, causes stated once, the A/A line, changes
 * against a base run. */
static void group_report_layout(const char *exe, const char *dir, const char *out)
{
    char path[1100], md[1200], html[1200], base[1200];
    snprintf(path, sizeof path, "%s/t.jsonl", dir);
    snprintf(md, sizeof md, "%s/report.md", out);
    snprintf(html, sizeof html, "%s/report.html", out);
    /* a name and values with Markdown/HTML syntax; three power checks with
     * one cause (valgrind), one perf ratio */
    write_file(path,
               "{\"suite\":\"s\",\"name\":\"s.a|b`c<script>x\",\"verdict\":\"pass\","
               "\"expected\":\"*x*|y\",\"observed\":\"<img src=x>|[a](b)\",\"details\":null}\n"
               "{\"suite\":\"memory_order\",\"name\":\"mo.valgrind.SB.power\",\"verdict\":"
               "\"inconclusive\",\"expected\":\"e\",\"observed\":\"1:0 not seen in 1000: valgrind "
               "serialises threads\",\"details\":null}\n"
               "{\"suite\":\"memory_order\",\"name\":\"mo.valgrind.MP.power\",\"verdict\":"
               "\"inconclusive\",\"expected\":\"e\",\"observed\":\"0:1 not seen in 2000: valgrind "
               "serialises threads\",\"details\":null}\n"
               "{\"suite\":\"memory_order\",\"name\":\"mo.native.IRIW.power\",\"verdict\":"
               "\"inconclusive\",\"expected\":\"e\",\"observed\":\"power reduced: 4 threads share 2 "
               "CPUs, so ...\",\"details\":null}\n"
               "{\"suite\":\"perf_budgets\",\"name\":\"perf.ab.synth/chain\",\"verdict\":\"pass\","
               "\"expected\":\"e\",\"observed\":\"o\",\"details\":{\"ratio\":1.01,\"interval\":"
               "[0.99,1.02],\"band\":0.01}}\n"
               /* two tests of one runner version judged by its bracket: one cause row */
               "{\"suite\":\"nan_semantics\",\"name\":\"nan.q.main_thread\",\"test\":\"nan.q.main_thread\","
               "\"verdict\":\"xfail\",\"expected\":\"e\",\"observed\":\"o\",\"details\":{\"inferred\":"
               "{\"cause\":\"qemu-x86_64 8.2.2 is between measured 7.2.22 and 10.0.2; not measured: its "
               "verdicts are inferred from that bracket\",\"action\":\"measure and adopt it\"}}}\n"
               "{\"suite\":\"nan_semantics\",\"name\":\"nan.q.pthread\",\"test\":\"nan.q.pthread\","
               "\"verdict\":\"xfail\",\"expected\":\"e\",\"observed\":\"o\",\"details\":{\"inferred\":"
               "{\"cause\":\"qemu-x86_64 8.2.2 is between measured 7.2.22 and 10.0.2; not measured: its "
               "verdicts are inferred from that bracket\",\"action\":\"measure and adopt it\"}}}\n");
    /* no baselines: the source tree's may hold one for this host (CI runners) */
    expect_int("report.layout_exit", 0, run_report_with(exe, dir, out, "--baselines /nonexistent"));
    /* | `s.a\|b``...` | pass | observed |: 4 cell borders, the name's '|' escaped */
    expect_int("report.md_escaped_row", 4, row_pipes(md, "| ``s.a"));
    expect_int("report.html_no_raw_html", 0,
               file_contains(html, "<img src=x>") || file_contains(html, "<script>x"));
    expect_int("report.md_cause_once", 1,
               file_contains(md, "| no power: valgrind serialises threads | 2 |"));
    expect_int("report.md_cause_oversubscribed", 1, file_contains(md, "| oversubscribed: "));
    expect_int("report.md_cannot_decide", 1, file_contains(md, "## What this host cannot decide (3 inconclusive)"));
    expect_int("report.html_inferred_section", 1,
               file_contains(html, "<h2>Verdicts inferred, not measured (1 runner version)</h2>"));
    expect_int("report.md_inferred_section", 1,
               file_contains(md, "## Verdicts inferred, not measured (1 runner version)"));
    expect_int("report.md_inferred_once", 1,
               file_contains(md, "| 1 | qemu-x86\\_64 8.2.2 is between measured 7.2.22 and 10.0.2; not measured: "
                                 "its verdicts are inferred from that bracket | 2 | "));
    expect_int("report.md_aa_line", 1, file_contains(md, "A/A self-check only: this run has no base"));
    expect_int("report.html_aa_line", 1, file_contains(html, "A/A self-check only: this run has no base"));
    expect_int("report.md_mermaid", 1, file_contains(md, "```mermaid\nxychart-beta"));
    expect_int("report.md_short", 1, lines_before_details(md) > 0 && lines_before_details(md) <= 150);
    expect_int("report.html_no_history", 1, file_contains(html, "No baseline for this host"));
    /* a baseline with two approvals: report.html draws the history */
    {
        char bl[1300], blf[1600], key[200], opt[1400];
        bg_host h;
        bg_host_probe(&h);
        bg_host_key(&h, key, sizeof key);
        snprintf(bl, sizeof bl, "%s/baselines", dir);
        mkdir(bl, 0777);
        snprintf(blf, sizeof blf, "%s/%s.json", bl, key);
        write_file(blf, "{\"schema\":1,\"metric\":\"ns\",\"benchmarks\":{\"synth/chain\":[1,2]},"
                        "\"history\":[{\"date\":\"d2\",\"medians\":{\"synth/chain\":1.5}},"
                        "{\"date\":\"d1\",\"medians\":{\"synth/chain\":1.25}}]}");
        snprintf(opt, sizeof opt, "--baselines '%s'", bl);
        expect_int("report.history_exit", 0, run_report_with(exe, dir, out, opt));
        /* oldest left: d1 (1.25) before d2 (1.5) */
        expect_int("report.html_history", 1, file_contains(html, "<title>d1: 1.25</title>"));
        expect_int("report.html_history_order", 1, file_contains(html, "<title>d2: 1.5</title>"));
        remove(blf);
        remove(bl);
    }
    /* with a base commit the A/A line goes; with a base run, the changes */
    snprintf(base, sizeof base, "%s/results.json", out);
    char keep[1300], opts[2800];
    snprintf(keep, sizeof keep, "%s/base.json", dir);
    rename(base, keep);
    remove(path);
    write_file(path, "{\"suite\":\"s\",\"name\":\"s.new\",\"verdict\":\"pass\",\"expected\":1,"
                     "\"observed\":1,\"details\":null}\n"
                     "{\"suite\":\"perf_budgets\",\"name\":\"perf.ab.synth/chain\",\"verdict\":\"fail\","
                     "\"expected\":\"e\",\"observed\":\"o\",\"details\":{\"ratio\":1.1,\"interval\":"
                     "[1.05,1.2],\"band\":0.01}}\n");
    snprintf(opts, sizeof opts, "--meta perf_base=abc123 --base-results '%s'", keep);
    expect_int("report.base_exit", 1, run_report_with(exe, dir, out, opts));
    expect_int("report.md_no_aa_line", 0, file_contains(md, "A/A self-check only"));
    expect_int("report.md_base_commit", 1, file_contains(md, "Against base `abc123`"));
    /* vanished: the three power checks, s.a|b... and the two inferred nan checks */
    expect_int("report.md_base_counts", 1, file_contains(md, ": 1 new, 6 vanished, 1 changed verdict."));
    expect_int("report.md_changed", 1, file_contains(md, "| `perf.ab.synth/chain` | pass | **FAIL** |"));
    remove(keep);
    expect_int("report.base_missing_exit", BG_EXIT_IO, run_report_with(exe, dir, out, opts));
}

/* What ci/gate's report folder promises (issue 12 §6): a failure's message
 * whole, CTest's empty JUnit failure messages filled, the junit path relative
 * to the report dir, a newline in a name kept on its row, host-limited cells
 * not drawn as a pass, and the perf table naming each ratio's source. */
static void group_report_gate(const char *exe, const char *dir, const char *out)
{
    char path[1100], md[1200], html[1200], junit[1200], results[1200], opts[2600];
    snprintf(path, sizeof path, "%s/t.jsonl", dir);
    snprintf(md, sizeof md, "%s/report.md", out);
    snprintf(html, sizeof html, "%s/report.html", out);
    snprintf(junit, sizeof junit, "%s/junit.xml", out);
    snprintf(results, sizeof results, "%s/results.json", out);
    char long_obs[900];
    memset(long_obs, 'x', 600);
    snprintf(long_obs + 600, sizeof long_obs - 600, " near byte 8123: END-OF-MESSAGE");
    char lines[4000];
    snprintf(lines, sizeof lines,
             "{\"suite\":\"s\",\"name\":\"t.fail.check\",\"test\":\"t.fail\",\"verdict\":\"fail\","
             "\"expected\":\"a <valid> fixture\",\"observed\":\"%s\",\"details\":{\"action\":"
             "\"restore it\",\"reproducer\":\"seed 7 mask 3 (2 of 9 steps):\\n  step 0: a\\n  step 1: b\"}}\n"
             "{\"suite\":\"s\",\"name\":\"s.path\",\"verdict\":\"skip\",\"expected\":\"e\","
             "\"observed\":\"see %s/sub/x.txt\",\"details\":null}\n"
             "{\"suite\":\"s\",\"name\":\"s.nl\\nx\",\"verdict\":\"pass\",\"expected\":1,"
             "\"observed\":1,\"details\":null}\n"
             "{\"suite\":\"memory_order\",\"name\":\"mo.valgrind.SB.allowed\",\"verdict\":\"pass\","
             "\"expected\":\"e\",\"observed\":\"o\",\"details\":{\"matrix\":{\"table\":\"T2\","
             "\"row\":\"valgrind\",\"col\":\"SB\"}}}\n"
             "{\"suite\":\"memory_order\",\"name\":\"mo.valgrind.SB.power\",\"verdict\":"
             "\"inconclusive\",\"expected\":\"e\",\"observed\":\"1:0 not seen in 1000: valgrind "
             "serialises threads\",\"details\":{\"matrix\":{\"table\":\"T2\",\"row\":\"valgrind\","
             "\"col\":\"SB\"}}}\n"
             "{\"suite\":\"perf_budgets\",\"name\":\"perf.ab.synth/aa\",\"test\":\"perf.ab.quick\","
             "\"verdict\":\"pass\",\"expected\":\"e\",\"observed\":\"o\",\"details\":{\"ratio\":1.0,"
             "\"interval\":[0.99,1.01],\"band\":0.02}}\n"
             "{\"suite\":\"perf_budgets\",\"name\":\"perf.ab.synth/mb\",\"test\":\"perf.ab.merge_base\","
             "\"verdict\":\"pass\",\"expected\":\"e\",\"observed\":\"o\",\"details\":{\"ratio\":1.0,"
             "\"interval\":[0.99,1.01],\"band\":0.02}}\n",
             long_obs, dir);
    write_file(path, lines);
    write_file(junit, "<testsuite tests=\"2\">\n<testcase name=\"t.fail\" status=\"fail\">\n"
                      "<failure message=\"\"/>\n</testcase>\n<testcase name=\"t.other\" status=\"fail\">"
                      "\n<failure message=\"\"/>\n</testcase>\n</testsuite>\n");
    snprintf(opts, sizeof opts, "--baselines /nonexistent --meta perf_base=abc --junit '%s' "
             "--strip-prefix '%s'", junit, dir);
    expect_int("report.gate_exit", 1, run_report_with(exe, dir, out, opts));
    /* each promise: the file (0 md, 1 html, 2 junit, 3 results) holds the text (want 1) or not (0) */
    static const struct {
        const char *name;
        int file, want;
        const char *text;
    } says[] = {
        {"report.md_failure_whole", 0, 1, "near byte 8123: END-OF-MESSAGE"},
        /* details.reproducer (nan-seq's shrunk steps) as a code block in the entry */
        {"report.md_failure_reproducer", 0, 1, "   reproducer:\n\n   ```\n   seed 7 mask 3 (2 of 9 steps):\n"
                                                "     step 0: a\n     step 1: b\n   ```"},
        {"report.junit_message", 2, 1, "<failure message=\"fail t.fail.check: expected a &lt;valid&gt; fixture"},
        {"report.junit_message_next", 2, 1, "END-OF-MESSAGE. Next: restore it\""},
        {"report.junit_message_no_check", 2, 1, "<failure message=\"exit status not 0, no failing check"},
        {"report.junit_no_empty_message", 2, 0, "<failure message=\"\""},
        {"report.junit_relative", 3, 1, "\"junit\":\t\"junit.xml\""},
        {"report.md_newline_name", 0, 1, "s.nl x"},
        {"report.html_host_limited_cell", 1, 1, "<td class=\"v-limited\""},
        {"report.html_host_limited_legend", 1, 1, "host-limited: what was decided"},
        {"report.md_perf_source_aa", 0, 1, "| `synth/aa` | A/A self-check | ab |"},
        {"report.md_perf_source_mb", 0, 1, "| `synth/mb` | merge-base A/B | ab |"},
        {"report.html_perf_source", 1, 1, "<td>merge-base A/B</td>"},
    };
    const char *files[] = {md, html, junit, results};
    for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
        expect_int(says[i].name, says[i].want, file_contains(files[says[i].file], says[i].text));
    /* --strip-prefix: the check's path relative, the machine's folder gone */
    expect_int("report.md_path_relative", 1, file_contains(md, "see sub/x.txt") && !file_contains(md, dir));
    remove(junit);
    remove(path);
}

static void group_report(const char *exe, const char *work)
{
    char dir[1024], out[1024], path[1100];
    snprintf(dir, sizeof dir, "%s/checks", work);
    snprintf(out, sizeof out, "%s/out", work);
    mkdir(work, 0777);
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/t.jsonl", dir);
    remove(path);
    /* a run that recorded nothing has tested nothing: it must not pass */
    expect_int("report.no_checks_exit", 1, run_report(exe, dir, out));
    {
        char md[1200];
        snprintf(md, sizeof md, "%s/report.md", out);
        expect_int("report.no_checks_md_fail", 1, file_contains(md, "# buildgate report: FAIL"));
    }
    write_file(path, "{\"suite\":\"s\",\"name\":\"s.a\",\"verdict\":\"pass\",\"expected\":1,"
                     "\"observed\":1,\"details\":null}\n");
    expect_int("report.pass_exit", 0, run_report(exe, dir, out));
    write_file(path, "{\"suite\":\"s\",\"name\":\"s.b\",\"verdict\":\"fail\",\"expected\":\"0xffc00000\","
                     "\"observed\":\"0x7fc00000\",\"details\":{\"matrix\":{\"table\":\"T\",\"row\":\"r1\","
                     "\"col\":\"c1\"}}}\n");
    expect_int("report.fail_exit", 1, run_report(exe, dir, out));
    snprintf(path, sizeof path, "%s/report.md", out);
    /* the failure section must show the exact expected and observed values */
    expect_int("report.md_names_check", 1, file_contains(path, "`s.b`"));
    expect_int("report.md_expected", 1, file_contains(path, "0xffc00000"));
    expect_int("report.md_observed", 1, file_contains(path, "0x7fc00000"));
    expect_int("report.md_matrix", 1, file_contains(path, "| `r1` | ❌ |"));
    /* each failure says where to look and what to do next */
    expect_int("report.md_where", 1, file_contains(path, "where: `docs/writing-a-suite.md#"));
    expect_int("report.md_next", 1, file_contains(path, "Next: "));
    snprintf(path, sizeof path, "%s/report.html", out);
    expect_int("report.html_written", 1, file_contains(path, "0x7fc00000"));
    snprintf(path, sizeof path, "%s/t.jsonl", dir);
    write_file(path, "{\"suite\":\"s\",\"name\":\"s.c\",\"verdict\":\"maybe\"}\n");
    expect_int("report.bad_verdict_exit", BG_EXIT_PARSE, run_report(exe, dir, out));
    group_report_layout(exe, dir, out);
    group_report_gate(exe, dir, out);
}

/* bg_help_requested: -h/--help anywhere before "--", never after it. */
static void group_help(void)
{
    static const struct {
        const char *name;
        int want;
        char *argv[6];
    } cases[] = {
        {"help.long", 1, {"tool", "--help"}},
        {"help.short", 1, {"tool", "-h"}},
        {"help.after_mode", 1, {"tool", "compare", "--base", "f", "--help"}},
        {"help.none", 0, {"tool", "--base", "f"}},
        {"help.argv0_ignored", 0, {"--help"}},
        {"help.after_dashdash", 0, {"tool", "--test", "t", "--", "cmd", "--help"}},
        {"help.before_dashdash", 1, {"tool", "-h", "--", "cmd"}},
        {"help.not_a_prefix", 0, {"tool", "--helpful", "-hx"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int argc = 0;
        while (argc < 6 && cases[i].argv[argc])
            argc++;
        expect_int(cases[i].name, cases[i].want, bg_help_requested(argc, (char **)cases[i].argv));
    }
}

/* E-Divisive means (bg_changepoint.h): series with known steps and none.
 * Noise: +-1 % from splitmix64, uniform (deterministic: seeded). */
static void noisy(double *x, size_t n, uint64_t seed, const size_t *at, const double *step, size_t nsteps)
{
    bg_rng r = {seed};
    double level = 100;
    for (size_t i = 0, k = 0; i < n; i++) {
        while (k < nsteps && i == at[k])
            level *= 1 + step[k++];
        x[i] = level * (1 + 0.02 * ((double)(bg_rng_next(&r) >> 11) / 9007199254740992.0 - 0.5));
    }
}

static void group_changepoint(void)
{
    bg_changepoint_opts o = {5, 0.01, 199, 7};
    bg_change ch[8];
    size_t n = 99;
    double x[80];
    /* no step: no change */
    noisy(x, 60, 1, NULL, NULL, 0);
    expect_int("changepoint.none.status", BG_OK, bg_edivisive(x, 60, &o, ch, 8, &n));
    expect_int("changepoint.none.count", 0, (long)n);
    /* every value equal: Q = 0, no change */
    for (size_t i = 0; i < 60; i++)
        x[i] = 5;
    bg_edivisive(x, 60, &o, ch, 8, &n);
    expect_int("changepoint.constant.count", 0, (long)n);
    /* one 5 % step at run 30: found there, medians 100 -> 105 */
    size_t at1[] = {30};
    double st1[] = {0.05};
    noisy(x, 60, 2, at1, st1, 1);
    bg_edivisive(x, 60, &o, ch, 8, &n);
    expect_int("changepoint.step.count", 1, (long)n);
    expect_int("changepoint.step.at", 30, n ? (long)ch[0].at : -1);
    expect_int("changepoint.step.after_over_before_pct", 5,
               n ? (long)(100 * (ch[0].after / ch[0].before - 1) + 0.5) : -1);
    expect_int("changepoint.step.p_at_most_sig", 1, n ? ch[0].p <= 0.01 : 0);
    /* two steps (+5 % at 25, -4 % at 55): both, in order */
    size_t at2[] = {25, 55};
    double st2[] = {0.05, -0.04};
    noisy(x, 80, 3, at2, st2, 2);
    bg_edivisive(x, 80, &o, ch, 8, &n);
    expect_int("changepoint.two.count", 2, (long)n);
    expect_int("changepoint.two.first_at", 25, n > 0 ? (long)ch[0].at : -1);
    expect_int("changepoint.two.second_at", 55, n > 1 ? (long)ch[1].at : -1);
    /* a step 3 runs before the end: a change may be reported, never closer
     * to the end than min_size (5) runs */
    size_t at3[] = {57};
    noisy(x, 60, 4, at3, st1, 1);
    bg_edivisive(x, 60, &o, ch, 8, &n);
    long last = 0;
    for (size_t i = 0; i < n; i++)
        last = (long)ch[i].at > last ? (long)ch[i].at : last;
    expect_int("changepoint.near_end.within_min_size", 1, last <= 55);
    /* refusals */
    x[3] = 0.0 / 0.0;
    expect_int("changepoint.nan", BG_E_USAGE, bg_edivisive(x, 60, &o, ch, 8, &n));
    bg_changepoint_opts bad = {1, 0.01, 199, 7};
    expect_int("changepoint.min_size_1", BG_E_USAGE, bg_edivisive(x, 60, &bad, ch, 8, &n));
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        bg_errorf("bg-lib-tests", "usage: bg-lib-tests GROUP BG_REPORT_EXE WORKDIR");
        return BG_EXIT_USAGE;
    }
    C = bg_checks_open("lib");
    const char *g = argv[1];
    if (!strcmp(g, "hex"))
        group_hex();
    else if (!strcmp(g, "parse"))
        group_parse();
    else if (!strcmp(g, "slug"))
        group_slug();
    else if (!strcmp(g, "verdict"))
        group_verdict();
    else if (!strcmp(g, "check_exit"))
        group_check_exit();
    else if (!strcmp(g, "json"))
        group_json(argv[3]);
    else if (!strcmp(g, "help"))
        group_help();
    else if (!strcmp(g, "fixtures"))
        group_fixtures(argv[3]);
    else if (!strcmp(g, "report"))
        group_report(argv[2], argv[3]);
    else if (!strcmp(g, "changepoint"))
        group_changepoint();
    else {
        bg_errorf("bg-lib-tests", "unknown group '%s'", g);
        return BG_EXIT_USAGE;
    }
    return bg_checks_close(C);
}
