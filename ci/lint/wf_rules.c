/* wf_rules.c — the workflow security rules (wf_rules.h, docs/ci.md
 * "Security rules").  Sources: GitHub Docs, "Security hardening for GitHub
 * Actions" (script injection, third-party actions pinned by commit SHA,
 * GITHUB_TOKEN permissions) and GitHub Security Lab, "Keeping your GitHub
 * Actions and workflows secure: Preventing pwn requests" (pull_request_target,
 * workflow_run for commenting on untrusted pull requests). */
#include "wf_rules.h"
#include "wf_yaml.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const rule_names[WF_RULE_COUNT] = {
    "permissions", "pinned", "pull-request-target", "run-expressions", "fork-secrets",
    "comment-workflow-run", "comment-concurrency"};

const char *wf_rule_name(wf_rule r)
{
    return (unsigned)r < WF_RULE_COUNT ? rule_names[r] : "?";
}

typedef struct ctx {
    const char *path;
    yaml_document_t *doc;
    const char *src;
    size_t len;
    wf_findings *f;
    const yaml_node_t *root;
    int on_pr, on_prt, on_wr, n_events;
    const char *other_event; /* first trigger that is not workflow_run */
} ctx;

static yaml_node_t *node(ctx *c, int id)
{
    return id ? yaml_document_get_node(c->doc, id) : NULL;
}

static const char *scalar(const yaml_node_t *n)
{
    return wf_scalar(n);
}

/* The value of key in mapping map, or NULL. */
static yaml_node_t *get(ctx *c, const yaml_node_t *map, const char *key)
{
    return wf_get(c->doc, map, key);
}

static void add(ctx *c, wf_rule r, const yaml_node_t *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void add(ctx *c, wf_rule r, const yaml_node_t *n, const char *fmt, ...)
{
    int i = c->f->count[r]++;
    if (i >= WF_MAX_FINDINGS)
        return;
    char what[WF_FINDING_LEN - 80];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(c->f->line[r][i], WF_FINDING_LEN, "%s:%lu: %s: %s", c->path,
             n ? (unsigned long)n->start_mark.line + 1 : 1UL, wf_rule_name(r), what);
}

/* Calls fn on every scalar under n (keys and values), depth-limited so an
 * alias cycle ends. */
typedef void (*scalar_fn)(ctx *c, const yaml_node_t *n, const char *job, void *arg);
static void walk(ctx *c, const yaml_node_t *n, const char *job, scalar_fn fn, void *arg, int depth)
{
    if (!n || depth > 64)
        return;
    if (n->type == YAML_SCALAR_NODE) {
        fn(c, n, job, arg);
    } else if (n->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
            walk(c, node(c, *it), job, fn, arg, depth + 1);
    } else if (n->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            walk(c, node(c, p->key), job, fn, arg, depth + 1);
            walk(c, node(c, p->value), job, fn, arg, depth + 1);
        }
    }
}

/* ---- triggers ---- */

static void note_event(ctx *c, const char *e)
{
    if (!e)
        return;
    c->n_events++;
    if (!strcmp(e, "pull_request"))
        c->on_pr = 1;
    else if (!strcmp(e, "pull_request_target"))
        c->on_prt = 1;
    if (!strcmp(e, "workflow_run"))
        c->on_wr = 1;
    else if (!c->other_event)
        c->other_event = e;
}

static void read_triggers(ctx *c, const yaml_node_t *on)
{
    if (!on)
        return;
    if (on->type == YAML_SCALAR_NODE) {
        note_event(c, scalar(on));
    } else if (on->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = on->data.sequence.items.start; it < on->data.sequence.items.top; it++)
            note_event(c, scalar(node(c, *it)));
    } else if (on->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = on->data.mapping.pairs.start; p < on->data.mapping.pairs.top; p++)
            note_event(c, scalar(node(c, p->key)));
    }
}

/* ---- permissions ---- */

static void rule_permissions(ctx *c, const yaml_node_t *root)
{
    const yaml_node_t *p = get(c, root, "permissions");
    if (!p) {
        add(c, WF_PERMISSIONS, root,
            "no top-level permissions: (every job gets the repository's default token; "
            "add `permissions: contents: read` and widen per job)");
        return;
    }
    if (p->type == YAML_SCALAR_NODE) {
        const char *v = scalar(p);
        if (strcmp(v, "read-all") && strcmp(v, "{}") && *v)
            add(c, WF_PERMISSIONS, p, "top-level permissions: %s is not read-only (widen per job)", v);
        return;
    }
    if (p->type != YAML_MAPPING_NODE) {
        add(c, WF_PERMISSIONS, p, "top-level permissions: is neither a mapping nor read-all");
        return;
    }
    for (yaml_node_pair_t *q = p->data.mapping.pairs.start; q < p->data.mapping.pairs.top; q++) {
        const char *scope = scalar(node(c, q->key));
        const yaml_node_t *vn = node(c, q->value);
        const char *v = scalar(vn);
        if (!v || (strcmp(v, "read") && strcmp(v, "none")))
            add(c, WF_PERMISSIONS, vn, "top-level permissions: %s: %s is not read-only (widen it in the job that needs it)",
                scope ? scope : "?", v ? v : "(not a scalar)");
    }
}

/* ---- pinned ---- */

static int is_hex40(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!isxdigit((unsigned char)s[n]) || isupper((unsigned char)s[n]))
            return 0;
    return n == 40;
}

/* 1 when the source line of n carries a "# v<digit>" comment after the value. */
static int has_tag_comment(ctx *c, const yaml_node_t *n)
{
    size_t line = n->end_mark.line, pos = 0;
    for (size_t l = 0; l < line && pos < c->len; pos++)
        if (c->src[pos] == '\n')
            l++;
    const char *s = c->src + pos, *end = memchr(s, '\n', c->len - pos);
    if (!end)
        end = c->src + c->len;
    for (const char *h = s; h < end; h++) {
        if (*h != '#' || (h > s && !isspace((unsigned char)h[-1])))
            continue;
        h++;
        while (h < end && *h == ' ')
            h++;
        return end - h >= 2 && h[0] == 'v' && isdigit((unsigned char)h[1]);
    }
    return 0;
}

static void check_uses(ctx *c, const yaml_node_t *n)
{
    const char *u = scalar(n);
    if (!u || !strncmp(u, "./", 2))
        return; /* absent, or a local action/workflow of this repository */
    if (!strncmp(u, "docker://", 9)) {
        if (!strstr(u, "@sha256:"))
            add(c, WF_PINNED, n, "%s: a container image not pinned by its @sha256: digest", u);
        return;
    }
    const char *at = strrchr(u, '@');
    if (!at || !is_hex40(at + 1))
        add(c, WF_PINNED, n, "%s: not pinned by a full 40-hex commit SHA (a tag or branch can be moved)", u);
    else if (!has_tag_comment(c, n))
        add(c, WF_PINNED, n, "%s: no `# vX.Y.Z` comment naming the tag of the pinned commit", u);
}

/* ---- run: expressions ---- */

/* Contexts whose values the workflow's author controls, not a pull request's
 * author: the matrix, the runner, and fixed facts of the run. */
static int allowed_ref(const char *ref, size_t n)
{
    static const char *const prefixes[] = {"matrix", "runner", "strategy"};
    static const char *const exact[] = {
        "github.run_id",     "github.run_number", "github.run_attempt", "github.sha",
        "github.workspace",  "github.repository", "github.server_url",  "github.api_url",
        "github.job",        "github.action_path", "github.event_name", "github.workflow"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
        size_t k = strlen(prefixes[i]);
        if (n >= k && !strncmp(ref, prefixes[i], k) && (n == k || ref[k] == '.' || ref[k] == '['))
            return 1;
    }
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (strlen(exact[i]) == n && !strncmp(ref, exact[i], n))
            return 1;
    return 0;
}

/* First context reference in expression e[0..n) that is not allowed_ref,
 * copied to bad; returns 1 if there is one.  Skips string literals, numbers,
 * true/false/null and function names (hashFiles(...)). */
static int first_bad_ref(const char *e, size_t n, char *bad, size_t badsz)
{
    size_t i = 0;
    while (i < n) {
        unsigned char ch = (unsigned char)e[i];
        if (ch == '\'') {
            for (i++; i < n; i++)
                if (e[i] == '\'' && !(i + 1 < n && e[i + 1] == '\'' && ++i))
                    break;
            i++;
        } else if (isalpha(ch) || ch == '_') {
            size_t j = i;
            while (j < n && (isalnum((unsigned char)e[j]) || strchr("_.-*", e[j]) || e[j] == '[')) {
                if (e[j] == '[') {
                    while (j < n && e[j] != ']')
                        j++;
                }
                j++;
            }
            size_t k = j;
            while (k < n && isspace((unsigned char)e[k]))
                k++;
            size_t len = j - i;
            int literal = (len == 4 && (!strncmp(e + i, "true", 4) || !strncmp(e + i, "null", 4))) ||
                          (len == 5 && !strncmp(e + i, "false", 5));
            if (!(k < n && e[k] == '(') && !literal && !allowed_ref(e + i, len)) {
                snprintf(bad, badsz, "%.*s", (int)(len < 120 ? len : 120), e + i);
                return 1;
            }
            i = j;
        } else if (isdigit(ch)) {
            while (i < n && (isalnum((unsigned char)e[i]) || e[i] == '.'))
                i++;
        } else {
            i++;
        }
    }
    return 0;
}

static void check_run(ctx *c, const yaml_node_t *n)
{
    const char *s = scalar(n);
    for (const char *p = s ? strstr(s, "${{") : NULL; p; p = strstr(p, "${{")) {
        const char *q = strstr(p + 3, "}}");
        size_t len = q ? (size_t)(q - p - 3) : strlen(p + 3);
        char bad[128];
        if (first_bad_ref(p + 3, len, bad, sizeof bad))
            add(c, WF_RUN_EXPRESSIONS, n,
                "${{ %s }} inside run: (an expression is pasted into the script before it runs: pass it through env:)", bad);
        p += 3 + len;
    }
}

/* ---- per job ---- */

static int contains_any(const char *s, const char *const *needles, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        if (strstr(s, needles[i]))
            return 1;
    return 0;
}

/* 1 when a job's if: can only hold on an event that runs no pull request's
 * code: a conjunction (no ||) with github.event_name == 'schedule' (or
 * 'workflow_dispatch' or 'push') in it, and no pull_request anywhere. */
static int non_pr_only(const char *cond)
{
    static const char *const events[] = {"github.event_name == 'schedule'",
                                         "github.event_name == 'workflow_dispatch'",
                                         "github.event_name == 'push'"};
    return cond && !strstr(cond, "||") && !strstr(cond, "pull_request") && contains_any(cond, events, 3);
}

static void secrets_fn(ctx *c, const yaml_node_t *n, const char *job, void *arg)
{
    (void)arg;
    const char *s = scalar(n);
    for (const char *p = strstr(s, "${{"); p; p = strstr(p + 3, "${{")) {
        const char *q = strstr(p, "}}");
        size_t len = q ? (size_t)(q - p) : strlen(p);
        const char *hit = NULL;
        for (const char *t = p; t < p + len && !hit; t++)
            if (!strncmp(t, "secrets.", 8) || !strncmp(t, "github.token", 12))
                hit = t;
        if (hit) {
            add(c, WF_FORK_SECRETS, n,
                "job %s reads %.*s and runs the code of pull requests, forks included (keep secrets out of it)",
                job, (int)strcspn(hit, " })|&,"), hit);
            return;
        }
    }
}

typedef struct comment_scan {
    const yaml_node_t *at; /* first sign of comment posting */
} comment_scan;

static void comment_fn(ctx *c, const yaml_node_t *n, const char *job, void *arg)
{
    (void)c;
    (void)job;
    static const char *const signs[] = {"gh pr comment", "gh issue comment", "/comments",
                                        "createComment", "updateComment"};
    comment_scan *cs = arg;
    if (!cs->at && contains_any(scalar(n), signs, sizeof signs / sizeof *signs))
        cs->at = n;
}

static int is_checkout(const char *u)
{
    return u && !strncmp(u, "actions/checkout@", 17);
}

static void check_job(ctx *c, const char *id, const yaml_node_t *job)
{
    check_uses(c, get(c, job, "uses")); /* a reusable workflow */
    const yaml_node_t *steps = get(c, job, "steps");
    const yaml_node_t *checkout = NULL;
    comment_scan cs = {0};
    if (steps && steps->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = steps->data.sequence.items.start; it < steps->data.sequence.items.top; it++) {
            const yaml_node_t *st = node(c, *it), *uses = get(c, st, "uses"), *run = get(c, st, "run");
            check_uses(c, uses);
            check_run(c, run);
            const char *u = scalar(uses);
            if (is_checkout(u) && !checkout)
                checkout = uses;
            if (u && strstr(u, "comment") && !cs.at)
                cs.at = uses;
            if (c->on_prt) {
                static const char *const pr_refs[] = {"head", "refs/pull/", "merge"};
                static const char *const pr_fetch[] = {"gh pr checkout", "refs/pull/", "pull/${{"};
                const char *ref = scalar(get(c, get(c, st, "with"), "ref"));
                if (is_checkout(u) && contains_any(ref, pr_refs, 3))
                    add(c, WF_PR_TARGET, uses,
                        "job %s checks out the pull request's code (ref: %s) in a pull_request_target workflow, "
                        "which runs with the base repository's token and secrets", id, ref);
                if (contains_any(scalar(run), pr_fetch, 3))
                    add(c, WF_PR_TARGET, run,
                        "job %s fetches the pull request's code in a pull_request_target workflow", id);
            }
        }
    }
    if ((c->on_pr || c->on_prt) && !non_pr_only(scalar(get(c, job, "if")))) {
        walk(c, job, id, secrets_fn, NULL, 0);
        const char *inherit = scalar(get(c, job, "secrets"));
        if (inherit && !strcmp(inherit, "inherit"))
            add(c, WF_FORK_SECRETS, get(c, job, "secrets"),
                "job %s passes secrets: inherit and runs on pull requests, forks included", id);
    }
    walk(c, job, id, comment_fn, &cs, 0);
    if (cs.at) {
        if (!c->on_wr || c->other_event)
            add(c, WF_COMMENT, cs.at,
                "job %s posts a pull-request comment from a workflow on %s: post it from a separate "
                "workflow_run workflow that only reads the artifact", id,
                c->other_event ? c->other_event : "no trigger");
        if (checkout)
            add(c, WF_COMMENT, checkout,
                "job %s posts comments and checks out code: the commenting job reads the artifact only", id);
        /* Two runs finishing close together would both find no comment and
         * both post one: the job (or its workflow) needs a concurrency group,
         * so they run one after the other and the second updates. */
        const yaml_node_t *cc = get(c, job, "concurrency");
        if (!cc)
            cc = get(c, c->root, "concurrency");
        const char *group = cc && cc->type == YAML_MAPPING_NODE ? scalar(get(c, cc, "group")) : scalar(cc);
        if (!group || !*group)
            add(c, WF_COMMENT_CONCURRENCY, cs.at,
                "job %s posts a pull-request comment outside a concurrency group: two runs finishing "
                "close together both find no comment and post two (add concurrency: group:)", id);
    }
}

int wf_check(const char *path, yaml_document_t *doc, const char *src, size_t len, wf_findings *out)
{
    memset(out, 0, sizeof *out);
    ctx c = {.path = path, .doc = doc, .src = src, .len = len, .f = out};
    yaml_node_t *root = yaml_document_get_root_node(doc);
    c.root = root;
    if (!root || root->type != YAML_MAPPING_NODE)
        return -1;
    const yaml_node_t *jobs = get(&c, root, "jobs");
    const yaml_node_t *runs = get(&c, root, "runs");
    if (jobs && jobs->type == YAML_MAPPING_NODE) {
        for (int r = 0; r < WF_RULE_COUNT; r++)
            out->applies[r] = 1;
        read_triggers(&c, get(&c, root, "on"));
        rule_permissions(&c, root);
        for (yaml_node_pair_t *p = jobs->data.mapping.pairs.start; p < jobs->data.mapping.pairs.top; p++) {
            const char *id = scalar(node(&c, p->key));
            check_job(&c, id ? id : "?", node(&c, p->value));
        }
        return 0;
    }
    if (runs && runs->type == YAML_MAPPING_NODE) {
        /* a composite action: its steps, as a job's, for the rules that apply */
        out->applies[WF_PINNED] = out->applies[WF_RUN_EXPRESSIONS] = 1;
        c.root = NULL; /* a composite action has no concurrency of its own */
        check_job(&c, "(composite action)", runs);
        return 0;
    }
    return -1;
}

/* ---- run: scripts for shellcheck ---- */

static int write_run(ctx *c, const yaml_node_t *run, const char *shell, const char *dir, const char *stem,
                     const char *job, int n)
{
    const char *s = scalar(run);
    if (!s || (shell && strcmp(shell, "bash") && strcmp(shell, "sh") && strncmp(shell, "bash ", 5) &&
               strncmp(shell, "sh ", 3)))
        return 0;
    char file[1024];
    snprintf(file, sizeof file, "%s/%s.%s.%d.sh", dir, stem, job, n);
    FILE *f = fopen(file, "w");
    if (!f) {
        fprintf(stderr, "buildgate: bg-workflow-lint: %s: cannot write: %s\n", file, strerror(errno));
        return -1;
    }
    /* a block scalar (run: |) starts on the line after its indicator */
    int block = run->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
                run->data.scalar.style == YAML_FOLDED_SCALAR_STYLE;
    fprintf(f, "#!/bin/%s\n# bg-workflow-lint: %s %lu\n", shell && !strncmp(shell, "sh", 2) ? "sh" : "bash",
            c->path, (unsigned long)run->start_mark.line + 1 + (block ? 1 : 0));
    for (const char *p = s; *p;) {
        const char *q = strstr(p, "${{"), *e = q ? strstr(q, "}}") : NULL;
        if (!q || !e) {
            fputs(p, f);
            break;
        }
        fwrite(p, 1, (size_t)(q - p), f);
        for (const char *u = q; u < e + 2; u++)
            fputc(*u == '\n' ? '\n' : '_', f);
        p = e + 2;
    }
    fputc('\n', f);
    return fclose(f) == 0 ? 1 : -1;
}

int wf_extract_runs(const char *path, yaml_document_t *doc, const char *dir, const char *stem)
{
    wf_findings unused;
    ctx c = {.path = path, .doc = doc, .f = &unused};
    yaml_node_t *root = yaml_document_get_root_node(doc);
    const yaml_node_t *jobs = get(&c, root, "jobs"), *runs = get(&c, root, "runs");
    int written = 0;
    const yaml_node_pair_t *p0 = NULL, *p1 = NULL;
    yaml_node_pair_t one;
    if (jobs && jobs->type == YAML_MAPPING_NODE) {
        p0 = jobs->data.mapping.pairs.start;
        p1 = jobs->data.mapping.pairs.top;
    } else if (runs && runs->type == YAML_MAPPING_NODE) {
        one.key = 0; /* a composite action: its steps as one job "composite" */
        one.value = (int)(runs - doc->nodes.start) + 1;
        p0 = &one;
        p1 = &one + 1;
    }
    for (const yaml_node_pair_t *p = p0; p && p < p1; p++) {
        const yaml_node_t *job = node(&c, p->value);
        const char *id = p->key ? scalar(node(&c, p->key)) : "composite";
        const char *job_shell = scalar(get(&c, get(&c, get(&c, job, "defaults"), "run"), "shell"));
        const yaml_node_t *steps = get(&c, job, "steps");
        if (!steps || steps->type != YAML_SEQUENCE_NODE)
            continue;
        int n = 0;
        for (yaml_node_item_t *it = steps->data.sequence.items.start; it < steps->data.sequence.items.top; it++, n++) {
            const yaml_node_t *st = node(&c, *it);
            const char *shell = scalar(get(&c, st, "shell"));
            int rc = write_run(&c, get(&c, st, "run"), shell ? shell : job_shell, dir, stem, id ? id : "job", n);
            if (rc < 0)
                return -1;
            written += rc;
        }
    }
    return written;
}
