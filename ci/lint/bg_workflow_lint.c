/* bg-workflow-lint — checks GitHub Actions workflows against buildgate's
 * security rules (wf_rules.h; docs/ci.md "Security rules").
 * Usage, options, exit codes: usage_text below (`bg-workflow-lint --help`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_help.h"
#include "wf_rules.h"
#include "wf_yaml.h"

static const char usage_text[] =
    "Usage: bg-workflow-lint FILE...\n"
    "       bg-workflow-lint --extract-runs DIR FILE...\n"
    "\n"
    "Reads each GitHub Actions workflow (.github/workflows/*.yml) or composite\n"
    "action (.github/actions/*/action.yml) with libyaml and records one check\n"
    "per rule and file, `workflows.<rule>.<file>` (suite ci), in $BG_CHECKS_FILE\n"
    "(bg_check.h); each finding is also one line on stdout:\n"
    "    <file>:<line>: <rule>: <what>\n"
    "Rules (a composite action: pinned and run-expressions only):\n"
    "  permissions           top-level permissions: present and read-only\n"
    "  pinned                every uses: pinned by a full 40-hex commit SHA\n"
    "                        with a `# vX.Y.Z` comment (local ./ actions exempt)\n"
    "  pull-request-target   no pull_request_target job checking out the PR's code\n"
    "  run-expressions       no ${{ }} inside run: but matrix.*, runner.*,\n"
    "                        strategy.* and fixed run facts (github.sha, ...):\n"
    "                        the rest goes through env:\n"
    "  fork-secrets          no secrets.* / github.token / secrets: inherit in a\n"
    "                        workflow that pull requests (forks) trigger, unless\n"
    "                        the job's if: admits only schedule, workflow_dispatch\n"
    "                        or push (github.event_name == '...', no ||)\n"
    "  comment-workflow-run  a job posting PR comments runs only on workflow_run\n"
    "                        and checks out no code\n"
    "  comment-concurrency   a job posting PR comments runs in a concurrency group\n"
    "                        (its own or the workflow's), so two runs finishing\n"
    "                        close together do not both post\n"
    "  --extract-runs DIR    instead, write the script of every bash/sh run:\n"
    "                        step to DIR/<file>.<job>.<n>.sh for shellcheck\n"
    "                        (line 2 names its file and first line; ${{ }}\n"
    "                        replaced by '_'), records no check\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit: 0 no finding; 1 a finding; 2 usage; 3 a file cannot be read;\n"
    "4 a file is not YAML, or neither a workflow nor a composite action\n"
    "(recorded as a failing check `workflows.parse.<file>`).\n"
    "Doc: docs/ci.md \"Security rules\".\n";

/* The file's name without folders and extension: gate.yml -> gate; an
 * action's action.yml -> its folder's name. */
static void stem(const char *path, char *out, size_t n)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    if (!strncmp(b, "action.", 7) && b > path + 1) {
        const char *e = b - 1, *s = e;
        while (s > path && s[-1] != '/')
            s--;
        snprintf(out, n, "action-%.*s", (int)(e - s), s);
        return;
    }
    snprintf(out, n, "%.*s", (int)strcspn(b, "."), b);
}

/* Reads and parses path (wf_yaml.h). */
static int load(const char *path, yaml_document_t *doc, char **src, size_t *len)
{
    return wf_load(path, "bg-workflow-lint", doc, src, len);
}

/* Checks one file; records its checks.  Returns an exit code. */
static int lint_file(bg_checks *checks, const char *path)
{
    char name[200], st[128];
    stem(path, st, sizeof st);
    size_t len = 0;
    char *src = NULL;
    yaml_document_t doc;
    static wf_findings f;
    int rc = load(path, &doc, &src, &len);
    if (rc == 0) {
        if (wf_check(path, &doc, src, len, &f) != 0) {
            bg_errorf("bg-workflow-lint", "%s: neither a workflow (jobs:) nor a composite action (runs:)", path);
            rc = BG_EXIT_PARSE;
        }
        yaml_document_delete(&doc);
        free(src);
    }
    if (rc != 0) {
        snprintf(name, sizeof name, "workflows.parse.%s", st);
        bg_check_emit_str(checks, name, BG_FAIL, "a workflow or composite action in YAML", bg_last_error(), NULL);
        return rc;
    }
    for (int r = 0; r < WF_RULE_COUNT; r++) {
        if (!f.applies[r])
            continue;
        snprintf(name, sizeof name, "workflows.%s.%s", wf_rule_name((wf_rule)r), st);
        int n = f.count[r], kept = n < WF_MAX_FINDINGS ? n : WF_MAX_FINDINGS;
        cJSON *lines = cJSON_CreateArray();
        for (int i = 0; i < kept; i++) {
            printf("%s\n", f.line[r][i]);
            cJSON_AddItemToArray(lines, cJSON_CreateString(f.line[r][i]));
        }
        char obs[WF_FINDING_LEN + 40];
        if (n == 0)
            snprintf(obs, sizeof obs, "no finding");
        else
            snprintf(obs, sizeof obs, "%d finding(s), first: %s", n, f.line[r][0]);
        cJSON *details = cJSON_CreateObject();
        cJSON_AddStringToObject(details, "file", path);
        cJSON_AddItemToObject(details, "findings", lines);
        bg_check_emit_str(checks, name, n ? BG_FAIL : BG_PASS, "no finding", obs, details);
        if (n)
            rc = BG_EXIT_FAIL;
    }
    return rc;
}

/* --extract-runs DIR FILE...: the run: scripts for shellcheck. */
static int extract_runs(const char *dir, int nfiles, char **files)
{
    int total = 0;
    for (int i = 0; i < nfiles; i++) {
        char st[128], *src = NULL;
        size_t len = 0;
        yaml_document_t doc;
        int rc = load(files[i], &doc, &src, &len);
        if (rc != 0)
            return rc;
        stem(files[i], st, sizeof st);
        int n = wf_extract_runs(files[i], &doc, dir, st);
        yaml_document_delete(&doc);
        free(src);
        if (n < 0)
            return BG_EXIT_IO;
        total += n;
    }
    printf("bg-workflow-lint: %d run: script(s) written to %s\n", total, dir);
    return BG_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    if (argc < 2) {
        bg_errorf("bg-workflow-lint", "no workflow file given (see bg-workflow-lint --help)");
        return BG_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--extract-runs")) {
        if (argc < 4) {
            bg_errorf("bg-workflow-lint", "--extract-runs needs DIR and at least one FILE (see bg-workflow-lint --help)");
            return BG_EXIT_USAGE;
        }
        return extract_runs(argv[2], argc - 3, argv + 3);
    }
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-') {
            bg_errorf("bg-workflow-lint", "unknown option '%s' (see bg-workflow-lint --help)", argv[i]);
            return BG_EXIT_USAGE;
        }
    bg_checks *checks = bg_checks_open("ci");
    if (!checks)
        return BG_EXIT_IO;
    int worst = BG_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        int rc = lint_file(checks, argv[i]);
        if (rc > worst)
            worst = rc;
    }
    int close_rc = bg_checks_close(checks);
    return worst != BG_EXIT_OK ? worst : close_rc;
}
