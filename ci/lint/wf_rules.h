/* wf_rules.h — the security rules buildgate holds its GitHub Actions
 * workflows to (docs/ci.md "Security rules"), checked on a libyaml document.
 *
 * A workflow (a mapping with `jobs:`) is checked against all seven rules; a
 * composite action (`runs: using: composite`) against the two that apply to
 * its steps (pinned, run-expressions).  Each finding is one line,
 *     <file>:<line>: <rule>: <what>
 * with the 1-based line of the YAML node it is about.
 */
#ifndef WF_RULES_H
#define WF_RULES_H

#include <stddef.h>
#include <yaml.h>

typedef enum wf_rule {
    WF_PERMISSIONS = 0,   /* top-level permissions: present and read-only */
    WF_PINNED,            /* every uses: pinned by a 40-hex commit SHA, "# vX" comment */
    WF_PR_TARGET,         /* no pull_request_target that checks out the PR's code */
    WF_RUN_EXPRESSIONS,   /* no attacker-controllable ${{ }} inside run: */
    WF_FORK_SECRETS,      /* no secrets in jobs a fork's pull request runs */
    WF_COMMENT,           /* PR comments only from workflow_run, without checkout */
    WF_COMMENT_CONCURRENCY, /* a commenting job runs in a concurrency group */
    WF_RULE_COUNT
} wf_rule;

/* The rule's name as in findings and check names ("permissions", ...). */
const char *wf_rule_name(wf_rule r);

/* Findings of one file, per rule: up to WF_MAX_FINDINGS lines each (the
 * count goes on past it). */
#define WF_MAX_FINDINGS 32
#define WF_FINDING_LEN 320
typedef struct wf_findings {
    int applies[WF_RULE_COUNT];      /* 0 when the rule does not apply (an action) */
    int count[WF_RULE_COUNT];
    char line[WF_RULE_COUNT][WF_MAX_FINDINGS][WF_FINDING_LEN];
} wf_findings;

/* Checks the parsed document doc of file path, whose text is src (len bytes,
 * for the "# vX.Y.Z" comment beside a uses:), into *out (overwritten).
 * Returns 0, or -1 when the document is neither a workflow nor a composite
 * action (no finding recorded). */
int wf_check(const char *path, yaml_document_t *doc, const char *src, size_t len,
             wf_findings *out);

/* Writes the script of every run: step whose shell is bash or sh (the
 * default on Linux and macOS runners) to dir/<stem>.<job>.<n>.sh, for
 * shellcheck: a #! line, then "# bg-workflow-lint: <path> <line>" (the
 * 1-based line of the script's first line in path), then the script with each
 * ${{ ... }} replaced by as many '_' (as actionlint does).  Returns the number
 * of files written, or -1 when one cannot be written (an error line printed). */
int wf_extract_runs(const char *path, yaml_document_t *doc, const char *dir, const char *stem);

#endif
