/* bg-workflow-run — runs a GitHub Actions workflow's jobs on this machine the
 * way GitHub's runner runs their steps (docs/ci.md "Emulating the
 * workflows"), for end-to-end tests of .github/ without GitHub.
 * Usage, options, exit codes: usage_text below (`bg-workflow-run --help`).
 *
 * Sources for the behaviour reproduced: GitHub Docs "Workflow syntax for
 * GitHub Actions" (jobs.<job_id>.steps[*].shell: no shell is `bash -e {0}`,
 * `shell: bash` is `bash --noprofile --norc -eo pipefail {0}`, `sh` is
 * `sh -e {0}`; defaults.run; needs; strategy.matrix; outputs), "Workflow
 * commands for GitHub Actions" (GITHUB_ENV, GITHUB_OUTPUT, GITHUB_PATH,
 * GITHUB_STEP_SUMMARY, the NAME<<DELIMITER form) with the runner's own
 * parser (actions/runner src/Runner.Worker/FileCommandManager.cs: a line is
 * NAME=VALUE when its '=' comes before any "<<"; the last GITHUB_PATH line
 * comes first in PATH; a step summary over 1 MiB is not added), "Evaluate expressions"
 * (wf_expr.c), and the actions' own sources: actions/download-artifact
 * v8.0.1 src/download-artifact.ts (a download by name, with merge-multiple,
 * or of a pattern matching exactly one artifact extracts into `path`
 * itself; several into path/<artifact name>/), actions/upload-artifact
 * v7.0.0 action.yml (name default `artifact`, if-no-files-found, overwrite,
 * hidden files left out), actions/checkout (fetch-depth 1 by default, 0 =
 * the whole history). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buildgate/bg_error.h"
#include "buildgate/bg_file.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_json.h"
#include "wf_expr.h"
#include "wf_yaml.h"

extern char **environ;

#define TOOL "bg-workflow-run"

static const char usage_text[] =
    "Usage: bg-workflow-run --repo DIR --work DIR --event NAME [options] WORKFLOW\n"
    "\n"
    "Runs the jobs of WORKFLOW (a .github/workflows/*.yml file) here, one after\n"
    "the other in the order of their needs:, each matrix combination as its own\n"
    "job, the way GitHub's runner runs their steps:\n"
    "  run:     without shell: `bash -e {0}`; shell: bash `bash --noprofile\n"
    "           --norc -eo pipefail {0}`; sh `sh -e {0}`; a custom `cmd {0}`;\n"
    "           defaults.run (workflow, job) and working-directory\n"
    "  files    GITHUB_ENV, GITHUB_OUTPUT (NAME=VALUE and NAME<<DELIMITER\n"
    "           lines), GITHUB_PATH (prepended to PATH of later steps),\n"
    "           GITHUB_STEP_SUMMARY (a fresh file per step, appended to the\n"
    "           job's summary.md)\n"
    "  ${{ }}   github, inputs, env, matrix, strategy, runner, steps.<id>\n"
    "           (outputs, outcome, conclusion), needs.<job> (outputs, result);\n"
    "           if: with success() failure() always() cancelled()\n"
    "  uses:    ./<local composite action> expanded; actions/checkout (a clone\n"
    "           of --repo at github.sha, fetch-depth), actions/upload-artifact\n"
    "           and actions/download-artifact (folders under\n"
    "           WORK/runs/<run id>/artifacts/<name>/, with the actions' rules),\n"
    "           actions/cache (restores and saves nothing); any other is refused\n"
    "Options:\n"
    "  --repo DIR        the git repository actions/checkout clones (required)\n"
    "  --work DIR        the runner's folders (required): WORK/runs/<run id>/\n"
    "                    jobs/<job>[-<leg>]/{workspace,temp,summary.md},\n"
    "                    artifacts/<name>/, jobs.tsv (job<TAB>result per line)\n"
    "  --event NAME      github.event_name (required)\n"
    "  --payload FILE    github.event, a JSON object (default {})\n"
    "  --sha SHA         github.sha (default: HEAD of --repo)\n"
    "  --ref REF         github.ref (default refs/heads/main)\n"
    "  --input NAME=VAL  inputs.NAME of a workflow_dispatch (repeatable)\n"
    "  --run-id N        github.run_id (default 1), 1..10^12; WORK/runs/N/ is\n"
    "                    emptied first (another run's artifacts stay) when a run\n"
    "                    of this tool made it (its .bg-workflow-run mark); one\n"
    "                    holding files without the mark is refused (exit 6)\n"
    "  --repository O/R  github.repository (default buildgate/buildgate)\n"
    "  -h, --help        this text\n"
    "Each step's output goes to this program's stdout and stderr; each job ends\n"
    "with a line `job <name>: <result>` (success, failure or skipped).\n"
    "The runner facts of a runs-on label (RUNNER_OS, RUNNER_ARCH, ImageOS) are\n"
    "those of GitHub's image of that name; the steps still run on this host.\n"
    "Exit: 0 every job succeeded or was skipped; 1 a job failed; 2 usage;\n"
    "3 I/O; 4 the workflow is not YAML, or uses what is not emulated (one line\n"
    "naming it).\n"
    "Doc: docs/ci.md \"Emulating the workflows\".\n";

/* ---- small helpers ---------------------------------------------------- */

/* snprintf for paths and labels: a text cut at n bytes stays cut (each
 * buffer is PATH_MAX or more, what the paths here never reach). */
static int pf(char *out, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int pf(char *out, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(out, n, fmt, ap);
    va_end(ap);
    return r;
}

static int fatal_rc; /* set by a not-emulated or I/O error: stop everything */

static void die_line(int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void die_line(int rc, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    bg_errorf(TOOL, "%s", buf);
    if (!fatal_rc)
        fatal_rc = rc;
}

static int mkdirs(const char *path)
{
    char tmp[PATH_MAX];
    pf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* The marker of a run folder this tool made (WORK/runs/<id>/): only such a
 * folder, an empty one or none is emptied for a new run. */
#define RUN_MARK ".bg-workflow-run"

/* 1 when dir is missing, empty, or holds RUN_MARK; 0 otherwise (also when
 * it is not a folder). */
static int run_dir_ours(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT;
    int ours = 1;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (!strcmp(e->d_name, RUN_MARK)) {
            ours = 1;
            break;
        }
        ours = 0;
    }
    closedir(d);
    return ours;
}

static int write_file(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    size_t w = fwrite(text, 1, n, f);
    return fclose(f) != 0 || w != n ? -1 : 0;
}

/* Runs argv with env (NULL: ours) in cwd (NULL: ours); stdin /dev/null,
 * stdout and stderr ours.  Returns the exit status, 128+signal, or 127 when
 * it cannot be started. */
static int spawn(char *const argv[], char **env, const char *cwd)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd >= 0) {
            dup2(fd, 0);
            close(fd);
        }
        if (cwd && chdir(cwd) != 0) {
            fprintf(stderr, "buildgate: %s: %s: %s\n", TOOL, cwd, strerror(errno));
            _exit(127);
        }
        if (env)
            environ = env;
        execvp(argv[0], argv);
        fprintf(stderr, "buildgate: %s: cannot run %s: %s\n", TOOL, argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int sh_c(const char *cwd, const char *script, const char *a1, const char *a2)
{
    char *argv[] = {"sh", "-c", (char *)script, "sh", (char *)a1, (char *)a2, NULL};
    return spawn(argv, NULL, cwd);
}

/* ---- the run ----------------------------------------------------------- */

typedef struct run {
    const char *wf_path;
    yaml_document_t doc;
    char *src;
    yaml_node_t *root;
    const char *repo, *event;
    char work[PATH_MAX], dir[PATH_MAX]; /* WORK, WORK/runs/<id> */
    char event_path[PATH_MAX];
    cJSON *github, *inputs, *results; /* results: job id -> {result, outputs} */
    FILE *tsv;
} run;

typedef struct job {
    run *r;
    const char *id;
    char name[256];
    yaml_node_t *node;
    char dir[PATH_MAX], ws[PATH_MAX], tmp[PATH_MAX];
    cJSON *ctx;   /* the contexts of the job (env: the job's env, with GITHUB_ENV) */
    cJSON *paths; /* GITHUB_PATH entries, last first */
    int stepno;
    const char *os, *arch, *image;
} job;

static yaml_node_t *node(yaml_document_t *d, int id)
{
    return id ? yaml_document_get_node(d, id) : NULL;
}

/* Adds the scalars of mapping m (values interpolated) to object env. */
static int add_env(yaml_document_t *d, const yaml_node_t *m, cJSON *env, const wf_expr_env *ee, const char *where)
{
    if (!m)
        return 0;
    if (m->type != YAML_MAPPING_NODE) {
        die_line(BG_EXIT_PARSE, "%s: env: is not a mapping", where);
        return -1;
    }
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const char *k = wf_scalar(node(d, p->key)), *v = wf_scalar(node(d, p->value));
        char err[300];
        char *val = v ? wf_interpolate(v, ee, err, sizeof err) : strdup("");
        if (!k || !val) {
            die_line(BG_EXIT_PARSE, "%s: env %s: %s", where, k ? k : "?", val ? "not a name" : err);
            free(val);
            return -1;
        }
        cJSON_DeleteItemFromObjectCaseSensitive(env, k);
        cJSON_AddStringToObject(env, k, val);
        free(val);
    }
    return 0;
}

/* ---- environment arrays ---- */

typedef struct envv {
    char **v;
    int n, cap;
} envv;

static void envv_set(envv *e, const char *k, const char *val)
{
    size_t kl = strlen(k);
    char *s = malloc(kl + strlen(val) + 2);
    if (!s)
        return;
    sprintf(s, "%s=%s", k, val);
    for (int i = 0; i < e->n; i++)
        if (!strncmp(e->v[i], k, kl) && e->v[i][kl] == '=') {
            free(e->v[i]);
            e->v[i] = s;
            return;
        }
    if (e->n + 2 > e->cap) {
        e->cap = e->cap ? e->cap * 2 : 64;
        char **nv = realloc(e->v, sizeof *nv * (size_t)e->cap);
        if (!nv) {
            free(s);
            return;
        }
        e->v = nv;
    }
    e->v[e->n++] = s;
    e->v[e->n] = NULL;
}

static void envv_free(envv *e)
{
    for (int i = 0; i < e->n; i++)
        free(e->v[i]);
    free(e->v);
}

/* ---- workflow command files ---- */

/* Reads NAME=VALUE and NAME<<DELIMITER lines of path into obj (the runner's
 * parser: a line is NAME=VALUE when its '=' comes before any "<<").
 * Returns 0, or -1 with why (a line without a name, no closing delimiter). */
static int read_kv_file(const char *path, cJSON *obj, char *why, size_t whysz)
{
    char *text = NULL;
    size_t len = 0;
    if (bg_file_read(path, TOOL, &text, &len) != BG_OK) {
        pf(why, whysz, "%s cannot be read", path);
        return -1;
    }
    int rc = 0;
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    /* strtok_r skips empty lines, as the runner does */
    while (line) {
        size_t ll = strlen(line);
        if (ll && line[ll - 1] == '\r')
            line[--ll] = 0;
        char *eq = strchr(line, '='), *hd = strstr(line, "<<");
        if (eq && (!hd || eq < hd)) {
            *eq = 0;
            if (!*line) {
                pf(why, whysz, "%s: a line without a name", path);
                rc = -1;
                break;
            }
            cJSON_DeleteItemFromObjectCaseSensitive(obj, line);
            cJSON_AddStringToObject(obj, line, eq + 1);
        } else if (hd) {
            *hd = 0;
            const char *name = line, *delim = hd + 2;
            if (!*name || !*delim) {
                pf(why, whysz, "%s: a %s<<%s line without a name or delimiter", path, name, delim);
                rc = -1;
                break;
            }
            /* the value: the following lines up to one that is the delimiter */
            char *val = save, *end = NULL;
            for (char *q = save; q && *q;) {
                char *nl = strchr(q, '\n');
                size_t n = nl ? (size_t)(nl - q) : strlen(q);
                size_t m = n && q[n - 1] == '\r' ? n - 1 : n;
                if (m == strlen(delim) && !strncmp(q, delim, m)) {
                    end = q;
                    save = nl ? nl + 1 : q + n;
                    break;
                }
                q = nl ? nl + 1 : q + n;
            }
            if (!end) {
                pf(why, whysz, "%s: no line '%s' ends the value of %s (matching delimiter not found)", path,
                         delim, name);
                rc = -1;
                break;
            }
            size_t vl = (size_t)(end - val);
            if (vl && val[vl - 1] == '\n')
                vl--;
            if (vl && val[vl - 1] == '\r')
                vl--;
            char *v = strndup(val, vl);
            cJSON_DeleteItemFromObjectCaseSensitive(obj, name);
            cJSON_AddStringToObject(obj, name, v ? v : "");
            free(v);
        } else {
            pf(why, whysz, "%s: '%.60s' is neither NAME=VALUE nor NAME<<DELIMITER", path, line);
            rc = -1;
            break;
        }
        line = strtok_r(NULL, "\n", &save);
    }
    free(text);
    return rc;
}

/* ---- actions stood in for ---- */

typedef struct step_io {
    cJSON *with;    /* inputs, interpolated */
    cJSON *outputs; /* the step's outputs */
} step_io;

static const char *in(const step_io *io, const char *k, const char *dflt)
{
    const char *v = bg_json_str(io->with, k);
    return v && *v ? v : dflt;
}

static int in_bool(const step_io *io, const char *k, int dflt)
{
    const char *v = bg_json_str(io->with, k);
    return v && *v ? !strcmp(v, "true") : dflt;
}

static void resolve(const job *j, const char *p, char *out, size_t n)
{
    if (p[0] == '/')
        pf(out, n, "%s", p);
    else
        pf(out, n, "%s/%s", j->ws, p);
}

static int act_checkout(job *j, step_io *io)
{
    const char *repo = in(io, "repository", NULL), *own = bg_json_str(j->r->github, "repository");
    if (repo && strcmp(repo, own)) {
        die_line(BG_EXIT_PARSE, "actions/checkout of another repository (%s) is not emulated", repo);
        return 1;
    }
    const char *ref = in(io, "ref", bg_json_str(j->r->github, "sha"));
    long depth = strtol(in(io, "fetch-depth", "1"), NULL, 10);
    char dest[PATH_MAX], url[PATH_MAX + 8], d[32];
    resolve(j, in(io, "path", "."), dest, sizeof dest);
    pf(url, sizeof url, "file://%s", j->r->repo);
    pf(d, sizeof d, "--depth=%ld", depth);
    if (mkdirs(dest) != 0)
        return 1;
    /* as the action: init, fetch (depth 0: every branch and tag), check out */
    const char *script =
        "set -e; git init -q .; git remote add origin \"$1\" 2>/dev/null || git remote set-url origin \"$1\"\n"
        "if [ \"$2\" = --depth=0 ]; then\n"
        "  git fetch -q --no-tags --prune origin '+refs/heads/*:refs/remotes/origin/*' '+refs/tags/*:refs/tags/*'\n"
        "  git checkout -q --detach \"$3\"\n"
        "else\n"
        "  git -c uploadpack.allowAnySHA1InWant=true fetch -q --no-tags \"$2\" origin \"$3\"\n"
        "  git checkout -q --detach FETCH_HEAD\n"
        "fi\n";
    char *argv[] = {"sh", "-c", (char *)script, "sh", url, d, (char *)ref, NULL};
    int rc = spawn(argv, NULL, dest);
    printf("  actions/checkout: %s at %s, fetch-depth %ld%s\n", j->r->repo, ref, depth,
           rc ? ": failed" : "");
    return rc != 0;
}

static int act_upload(job *j, step_io *io)
{
    const char *name = in(io, "name", "artifact"), *path = in(io, "path", NULL);
    const char *nofiles = in(io, "if-no-files-found", "warn");
    if (!path) {
        fprintf(stderr, "actions/upload-artifact: Input required and not supplied: path\n");
        return 1;
    }
    if (strchr(path, '\n') || strpbrk(path, "*?[") || path[0] == '!') {
        die_line(BG_EXIT_PARSE, "actions/upload-artifact: a path list or wildcard ('%s') is not emulated", path);
        return 1;
    }
    /* the characters upload-artifact refuses in a name */
    if (!*name || strpbrk(name, "\":<>|*?\r\n\\/")) {
        fprintf(stderr, "actions/upload-artifact: The artifact name is not valid: %s\n", name);
        return 1;
    }
    char src[PATH_MAX], dest[PATH_MAX + 300];
    resolve(j, path, src, sizeof src);
    pf(dest, sizeof dest, "%s/artifacts/%s", j->r->dir, name);
    struct stat st;
    if (stat(dest, &st) == 0) {
        if (!in_bool(io, "overwrite", 0)) {
            fprintf(stderr, "actions/upload-artifact: an artifact with the name '%s' already exists (overwrite: false)\n",
                    name);
            return 1;
        }
        sh_c(NULL, "rm -rf \"$1\"", dest, NULL);
    }
    /* copy (a folder: its contents), then drop hidden files unless asked */
    const char *script =
        "set -e; mkdir -p \"$2\"\n"
        "if [ -d \"$1\" ]; then cp -R \"$1/.\" \"$2/\"; elif [ -f \"$1\" ]; then cp \"$1\" \"$2/\"; fi\n"
        "[ \"$3\" = true ] || find \"$2\" -mindepth 1 -name '.*' -prune -exec rm -rf {} +\n"
        "[ -n \"$(find \"$2\" -type f | head -n 1)\" ] || { rm -rf \"$2\"; exit 1; }\n";
    char *argv[] = {"sh", "-c", (char *)script, "sh", src, dest, in_bool(io, "include-hidden-files", 0) ? "true" : "false",
                    NULL};
    if (spawn(argv, NULL, NULL) != 0) {
        int err = !strcmp(nofiles, "error");
        if (strcmp(nofiles, "ignore"))
            fprintf(stderr, "actions/upload-artifact: %s: No files were found with the provided path: %s. No artifacts will be uploaded.\n",
                    err ? "error" : "warning", path);
        return err;
    }
    printf("  actions/upload-artifact: %s -> artifact %s\n", path, name);
    cJSON_AddStringToObject(io->outputs, "artifact-id", name);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int act_download(job *j, step_io *io)
{
    const char *name = in(io, "name", NULL), *pattern = in(io, "pattern", NULL);
    if (in(io, "artifact-ids", NULL)) {
        die_line(BG_EXIT_PARSE, "actions/download-artifact: artifact-ids is not emulated");
        return 1;
    }
    /* run-id counts only with a github-token (action.yml) */
    const char *run_id = in(io, "github-token", NULL) ? in(io, "run-id", NULL) : NULL;
    if (run_id && strspn(run_id, "0123456789") != strlen(run_id)) {
        fprintf(stderr, "actions/download-artifact: run-id '%s' is not a number\n", run_id);
        return 1;
    }
    char store[PATH_MAX + 64], dest[PATH_MAX];
    if (run_id)
        pf(store, sizeof store, "%s/runs/%s/artifacts", j->r->work, run_id);
    else
        pf(store, sizeof store, "%s/artifacts", j->r->dir);
    resolve(j, in(io, "path", "."), dest, sizeof dest);
    char *names[256];
    int n = 0;
    DIR *dir = opendir(store);
    for (struct dirent *e; dir && (e = readdir(dir)) && n < 256;) {
        if (e->d_name[0] == '.')
            continue;
        if (name ? !strcmp(e->d_name, name) : !pattern || fnmatch(pattern, e->d_name, 0) == 0)
            names[n++] = strdup(e->d_name);
    }
    if (dir)
        closedir(dir);
    if (name && n == 0) {
        fprintf(stderr, "actions/download-artifact: Artifact '%s' not found\n", name);
        return 1;
    }
    qsort(names, (size_t)n, sizeof *names, cmp_names);
    int direct = name || in_bool(io, "merge-multiple", 0) || n == 1;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char from[PATH_MAX + 400], to[PATH_MAX + 300];
        pf(from, sizeof from, "%s/%s", store, names[i]);
        pf(to, sizeof to, direct ? "%s" : "%s/%s", dest, names[i]);
        printf("  actions/download-artifact: artifact %s -> %s\n", names[i], to);
        if (sh_c(NULL, "mkdir -p \"$2\" && cp -R \"$1/.\" \"$2/\"", from, to) != 0)
            rc = 1;
        free(names[i]);
    }
    printf("  actions/download-artifact: %d artifact(s)%s\n", n, direct && n ? " extracted into path itself" : "");
    cJSON_AddStringToObject(io->outputs, "download-path", dest);
    return rc;
}

/* ---- steps ---- */

typedef struct scope {
    yaml_document_t *doc;
    cJSON *ctx;        /* contexts seen by this scope's expressions */
    cJSON *steps;      /* its steps context */
    int failed;        /* a step failed (not continue-on-error) */
    int composite;     /* a composite action: shell required, no defaults */
    const char *action_path;
} scope;

static int run_steps(job *j, scope *sc, const yaml_node_t *steps);

static void set_ctx(cJSON *ctx, const char *k, cJSON *v)
{
    cJSON_DeleteItemFromObject(ctx, k);
    cJSON_AddItemToObject(ctx, k, v);
}

/* The default shell command for shell (NULL: none given) into argv. */
static int shell_argv(const char *shell, const char *script, char **argv, char *buf, size_t bufsz)
{
    int n = 0;
    if (!shell) {
        argv[n++] = "bash", argv[n++] = "-e";
    } else if (!strcmp(shell, "bash")) {
        argv[n++] = "bash", argv[n++] = "--noprofile", argv[n++] = "--norc", argv[n++] = "-eo", argv[n++] = "pipefail";
    } else if (!strcmp(shell, "sh")) {
        argv[n++] = "sh", argv[n++] = "-e";
    } else if (!strcmp(shell, "python")) {
        argv[n++] = "python";
    } else if (strstr(shell, "{0}")) {
        pf(buf, bufsz, "%s", shell);
        int has0 = 0;
        for (char *save = NULL, *t = strtok_r(buf, " \t", &save); t && n < 14; t = strtok_r(NULL, " \t", &save)) {
            if (!strcmp(t, "{0}")) {
                argv[n++] = (char *)script;
                has0 = 1;
            } else
                argv[n++] = t;
        }
        argv[n] = NULL;
        return has0 ? 0 : -1;
    } else {
        return -1;
    }
    argv[n++] = (char *)script;
    argv[n] = NULL;
    return 0;
}

/* The environment of a step: ours, the runner's variables, the job's env
 * (with GITHUB_ENV), the step's env, PATH with GITHUB_PATH first. */
static void step_env(job *j, scope *sc, const cJSON *env, const char *files, envv *e)
{
    for (char **p = environ; *p; p++) {
        char *eq = strchr(*p, '=');
        if (!eq)
            continue;
        char *k = strndup(*p, (size_t)(eq - *p));
        if (k)
            envv_set(e, k, eq + 1);
        free(k);
    }
    const cJSON *g = j->r->github;
    static const char *const gvars[][2] = {
        {"GITHUB_WORKFLOW", "workflow"},     {"GITHUB_RUN_ID", "run_id"},   {"GITHUB_RUN_NUMBER", "run_number"},
        {"GITHUB_RUN_ATTEMPT", "run_attempt"}, {"GITHUB_ACTOR", "actor"},   {"GITHUB_REPOSITORY", "repository"},
        {"GITHUB_REPOSITORY_OWNER", "repository_owner"}, {"GITHUB_EVENT_NAME", "event_name"},
        {"GITHUB_SHA", "sha"},               {"GITHUB_REF", "ref"},          {"GITHUB_REF_NAME", "ref_name"},
        {"GITHUB_BASE_REF", "base_ref"},     {"GITHUB_HEAD_REF", "head_ref"}, {"GITHUB_SERVER_URL", "server_url"},
        {"GITHUB_API_URL", "api_url"}};
    for (size_t i = 0; i < sizeof gvars / sizeof *gvars; i++) {
        const char *v = bg_json_str(g, gvars[i][1]);
        envv_set(e, gvars[i][0], v ? v : "");
    }
    char f[PATH_MAX + 32];
    envv_set(e, "CI", "true");
    envv_set(e, "GITHUB_ACTIONS", "true");
    envv_set(e, "GITHUB_JOB", j->id);
    envv_set(e, "GITHUB_WORKSPACE", j->ws);
    envv_set(e, "GITHUB_EVENT_PATH", j->r->event_path);
    envv_set(e, "RUNNER_OS", j->os);
    envv_set(e, "RUNNER_ARCH", j->arch);
    envv_set(e, "RUNNER_TEMP", j->tmp);
    envv_set(e, "RUNNER_TOOL_CACHE", j->tmp);
    envv_set(e, "RUNNER_NAME", "bg-workflow-run");
    envv_set(e, "RUNNER_ENVIRONMENT", "github-hosted");
    envv_set(e, "ImageOS", j->image);
    if (sc->action_path)
        envv_set(e, "GITHUB_ACTION_PATH", sc->action_path);
    static const char *const fvars[][2] = {{"GITHUB_ENV", "env"}, {"GITHUB_OUTPUT", "output"},
                                           {"GITHUB_STEP_SUMMARY", "summary"}, {"GITHUB_PATH", "path"}};
    for (size_t i = 0; i < 4; i++) {
        pf(f, sizeof f, "%s/%s", files, fvars[i][1]);
        envv_set(e, fvars[i][0], f);
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, env) if (cJSON_IsString(it)) envv_set(e, it->string, it->valuestring);
    const char *path = NULL;
    for (int i = 0; i < e->n; i++)
        if (!strncmp(e->v[i], "PATH=", 5))
            path = e->v[i] + 5;
    size_t cap = (path ? strlen(path) : 0) + 2;
    cJSON_ArrayForEach(it, j->paths) cap += strlen(it->valuestring) + 1;
    char *np = calloc(1, cap);
    if (np) {
        cJSON_ArrayForEach(it, j->paths) {
            strcat(np, it->valuestring);
            strcat(np, ":");
        }
        strcat(np, path ? path : "");
        envv_set(e, "PATH", np);
        free(np);
    }
}

/* After a step: its files into the job (env, PATH, summary) and its outputs. */
static int take_files(job *j, const char *files, cJSON *outputs)
{
    char f[PATH_MAX + 32], why[600];
    int rc = 0;
    pf(f, sizeof f, "%s/env", files);
    cJSON *env = cJSON_GetObjectItem(j->ctx, "env");
    if (read_kv_file(f, env, why, sizeof why) != 0) {
        fprintf(stderr, "Error: GITHUB_ENV: %s\n", why);
        rc = 1;
    }
    pf(f, sizeof f, "%s/output", files);
    if (read_kv_file(f, outputs, why, sizeof why) != 0) {
        fprintf(stderr, "Error: GITHUB_OUTPUT: %s\n", why);
        rc = 1;
    }
    pf(f, sizeof f, "%s/path", files);
    char *text = NULL;
    size_t len = 0;
    if (bg_file_read(f, TOOL, &text, &len) == BG_OK) {
        char *save = NULL;
        for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
            size_t ll = strlen(l);
            if (ll && l[ll - 1] == '\r')
                l[--ll] = 0;
            if (ll)
                cJSON_InsertItemInArray(j->paths, 0, cJSON_CreateString(l));
        }
        free(text);
    }
    pf(f, sizeof f, "%s/summary", files);
    text = NULL;
    if (bg_file_read(f, TOOL, &text, &len) == BG_OK && len) {
        if (len > 1024 * 1024) {
            fprintf(stderr, "Error: $GITHUB_STEP_SUMMARY is %zu bytes, over the 1 MiB a step may add: not added\n",
                    len);
        } else {
            char sum[PATH_MAX + 16];
            pf(sum, sizeof sum, "%s/summary.md", j->dir);
            FILE *o = fopen(sum, "a");
            if (!o || fwrite(text, 1, len, o) != len)
                rc = 1;
            if (o)
                fclose(o);
        }
    }
    free(text);
    return rc;
}

static cJSON *with_inputs(yaml_document_t *d, const yaml_node_t *with, const wf_expr_env *ee, const char *where)
{
    cJSON *o = cJSON_CreateObject();
    if (with && add_env(d, with, o, ee, where) != 0) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static int run_composite(job *j, scope *outer, const char *uses, cJSON *with, cJSON *outputs)
{
    char dir[PATH_MAX], file[PATH_MAX + 16];
    resolve(j, uses, dir, sizeof dir);
    pf(file, sizeof file, "%s/action.yml", dir);
    if (access(file, R_OK) != 0)
        pf(file, sizeof file, "%s/action.yaml", dir);
    yaml_document_t doc;
    char *src = NULL;
    size_t len = 0;
    if (wf_load(file, TOOL, &doc, &src, &len) != 0) {
        if (!fatal_rc)
            fatal_rc = BG_EXIT_PARSE;
        return 1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc), *runs = wf_get(&doc, root, "runs");
    const char *using = wf_scalar(wf_get(&doc, runs, "using"));
    int rc = 1;
    if (!using || strcmp(using, "composite")) {
        die_line(BG_EXIT_PARSE, "%s: runs.using %s: only composite actions are emulated", file, using ? using : "(none)");
        goto out;
    }
    /* inputs: with: values, else the action's defaults */
    cJSON *inputs = cJSON_CreateObject();
    yaml_node_t *decl = wf_get(&doc, root, "inputs");
    wf_expr_env ee = {outer->ctx, outer->failed, 0};
    if (decl && decl->type == YAML_MAPPING_NODE)
        for (yaml_node_pair_t *p = decl->data.mapping.pairs.start; p < decl->data.mapping.pairs.top; p++) {
            const char *k = wf_scalar(node(&doc, p->key));
            const char *dflt = wf_scalar(wf_get(&doc, node(&doc, p->value), "default"));
            char err[300];
            char *v = dflt ? wf_interpolate(dflt, &ee, err, sizeof err) : strdup("");
            if (k)
                cJSON_AddStringToObject(inputs, k, v ? v : "");
            free(v);
        }
    const cJSON *it;
    cJSON_ArrayForEach(it, with) {
        cJSON_DeleteItemFromObject(inputs, it->string);
        cJSON_AddStringToObject(inputs, it->string, it->valuestring);
    }
    scope sc = {.doc = &doc, .ctx = cJSON_Duplicate(outer->ctx, 1), .steps = cJSON_CreateObject(),
                .failed = outer->failed, .composite = 1, .action_path = dir};
    set_ctx(sc.ctx, "inputs", inputs);
    cJSON *gh = cJSON_GetObjectItem(sc.ctx, "github");
    cJSON_DeleteItemFromObject(gh, "action_path");
    cJSON_AddStringToObject(gh, "action_path", dir);
    printf("  composite action %s\n", uses);
    rc = run_steps(j, &sc, wf_get(&doc, runs, "steps"));
    /* outputs: name: {value: ${{ steps.x.outputs.y }}} */
    yaml_node_t *outs = wf_get(&doc, root, "outputs");
    set_ctx(sc.ctx, "steps", sc.steps);
    sc.steps = NULL;
    wf_expr_env ie = {sc.ctx, sc.failed, 0};
    if (outs && outs->type == YAML_MAPPING_NODE)
        for (yaml_node_pair_t *p = outs->data.mapping.pairs.start; p < outs->data.mapping.pairs.top; p++) {
            const char *k = wf_scalar(node(&doc, p->key));
            const char *v = wf_scalar(wf_get(&doc, node(&doc, p->value), "value"));
            char err[300];
            char *s = v ? wf_interpolate(v, &ie, err, sizeof err) : NULL;
            if (k && s)
                cJSON_AddStringToObject(outputs, k, s);
            free(s);
        }
    cJSON_Delete(sc.ctx);
out:
    yaml_document_delete(&doc);
    free(src);
    return rc;
}

/* One step; returns 0 success, 1 failure (its outcome). */
static int run_step(job *j, scope *sc, const yaml_node_t *st, int idx, int *ran, cJSON *outputs)
{
    yaml_document_t *d = sc->doc;
    char err[600], where[400];
    const char *uses = wf_scalar(wf_get(d, st, "uses")), *run = wf_scalar(wf_get(d, st, "run"));
    const char *nm = wf_scalar(wf_get(d, st, "name"));
    pf(where, sizeof where, "job %s step %d", j->name, idx + 1);
    /* the step's env: the job's, then its own */
    cJSON *env = cJSON_Duplicate(cJSON_GetObjectItem(j->ctx, "env"), 1);
    set_ctx(sc->ctx, "env", cJSON_Duplicate(env, 1));
    wf_expr_env ee = {sc->ctx, sc->failed, 0};
    if (add_env(d, wf_get(d, st, "env"), env, &ee, where) != 0) {
        cJSON_Delete(env);
        return 1;
    }
    set_ctx(sc->ctx, "env", cJSON_Duplicate(env, 1));
    int go = wf_eval_if(wf_scalar(wf_get(d, st, "if")), &ee, err, sizeof err);
    char *title = nm ? wf_interpolate(nm, &ee, err, sizeof err) : NULL;
    char label[200];
    if (title)
        pf(label, sizeof label, "%s", title);
    else if (uses)
        pf(label, sizeof label, "%s", uses);
    else
        pf(label, sizeof label, "Run %.*s", (int)strcspn(run ? run : "", "\n"), run ? run : "");
    free(title);
    if (go < 0) {
        die_line(BG_EXIT_PARSE, "%s: if: %s", where, err);
        cJSON_Delete(env);
        return 1;
    }
    if (!go) {
        printf("- step %s: skipped (if)\n", label);
        cJSON_Delete(env);
        *ran = 0;
        return 0;
    }
    *ran = 1;
    printf("- step %s\n", label);
    fflush(stdout);
    int failed = 0;
    char files[PATH_MAX + 32];
    pf(files, sizeof files, "%s/_runner_file_commands/%d", j->tmp, ++j->stepno);
    if (mkdirs(files) != 0) {
        die_line(BG_EXIT_IO, "%s: cannot create %s", where, files);
        cJSON_Delete(env);
        return 1;
    }
    static const char *const names[] = {"env", "output", "summary", "path"};
    for (int i = 0; i < 4; i++) {
        char f[PATH_MAX + 48];
        pf(f, sizeof f, "%s/%s", files, names[i]);
        write_file(f, "", 0);
    }
    if (run) {
        char *script = wf_interpolate(run, &ee, err, sizeof err);
        if (!script) {
            die_line(BG_EXIT_PARSE, "%s: run: %s", where, err);
            cJSON_Delete(env);
            return 1;
        }
        const char *shell = wf_scalar(wf_get(d, st, "shell"));
        const char *wd = wf_scalar(wf_get(d, st, "working-directory"));
        cJSON *defaults = sc->composite ? NULL : cJSON_GetObjectItem(j->ctx, "__defaults_run");
        if (!shell && defaults)
            shell = bg_json_str(defaults, "shell");
        if (!wd && defaults)
            wd = bg_json_str(defaults, "working-directory");
        if (sc->composite && !shell) {
            fprintf(stderr, "Error: %s: a run: step of a composite action needs shell: (Required property is missing: shell)\n",
                    where);
            free(script);
            cJSON_Delete(env);
            return 1;
        }
        char path[PATH_MAX + 64], cwd[PATH_MAX], buf[512];
        pf(path, sizeof path, "%s/step-%d.sh", files, j->stepno);
        write_file(path, script, strlen(script));
        free(script);
        char *argv[16];
        if (shell_argv(shell, path, argv, buf, sizeof buf) != 0) {
            die_line(BG_EXIT_PARSE, "%s: shell: %s is not emulated", where, shell);
            cJSON_Delete(env);
            return 1;
        }
        if (wd)
            resolve(j, wd, cwd, sizeof cwd);
        else
            pf(cwd, sizeof cwd, "%s", j->ws);
        envv e = {0};
        step_env(j, sc, env, files, &e);
        int rc = spawn(argv, e.v, cwd);
        envv_free(&e);
        if (rc != 0) {
            printf("  Error: Process completed with exit code %d.\n", rc);
            failed = 1;
        }
    } else if (uses) {
        cJSON *with = with_inputs(d, wf_get(d, st, "with"), &ee, where);
        if (!with) {
            cJSON_Delete(env);
            return 1;
        }
        step_io io = {with, outputs};
        char act[256];
        pf(act, sizeof act, "%.*s", (int)strcspn(uses, "@"), uses);
        if (!strncmp(uses, "./", 2))
            failed = run_composite(j, sc, uses, with, outputs);
        else if (!strcmp(act, "actions/checkout"))
            failed = act_checkout(j, &io);
        else if (!strcmp(act, "actions/upload-artifact"))
            failed = act_upload(j, &io);
        else if (!strcmp(act, "actions/download-artifact"))
            failed = act_download(j, &io);
        else if (!strcmp(act, "actions/cache")) {
            printf("  actions/cache: stood in for: nothing restored, nothing saved\n");
            cJSON_AddStringToObject(outputs, "cache-hit", "false");
        } else {
            die_line(BG_EXIT_PARSE, "%s: uses: %s is not emulated", where, uses);
            failed = 1;
        }
        cJSON_Delete(with);
    } else {
        die_line(BG_EXIT_PARSE, "%s: neither run: nor uses:", where);
        failed = 1;
    }
    if (take_files(j, files, outputs) != 0)
        failed = 1;
    cJSON_Delete(env);
    return failed;
}

static int run_steps(job *j, scope *sc, const yaml_node_t *steps)
{
    if (!steps || steps->type != YAML_SEQUENCE_NODE)
        return 0;
    int idx = 0;
    for (yaml_node_item_t *it = steps->data.sequence.items.start; it < steps->data.sequence.items.top && !fatal_rc;
         it++, idx++) {
        const yaml_node_t *st = node(sc->doc, *it);
        cJSON *outputs = cJSON_CreateObject();
        set_ctx(sc->ctx, "steps", cJSON_Duplicate(sc->steps, 1));
        int ran = 0, failed = run_step(j, sc, st, idx, &ran, outputs);
        wf_expr_env ee = {sc->ctx, sc->failed, 0};
        char err[300];
        const char *coe = wf_scalar(wf_get(sc->doc, st, "continue-on-error"));
        char *coev = coe ? wf_interpolate(coe, &ee, err, sizeof err) : NULL;
        int cont = coev && !strcmp(coev, "true");
        free(coev);
        const char *outcome = !ran ? "skipped" : failed ? "failure" : "success";
        const char *conclusion = failed && cont ? "success" : outcome;
        if (ran)
            printf("  outcome %s%s\n", outcome, failed && cont ? " (continue-on-error: conclusion success)" : "");
        if (failed && !cont)
            sc->failed = 1;
        const char *id = wf_scalar(wf_get(sc->doc, st, "id"));
        if (id) {
            cJSON *s = cJSON_CreateObject();
            cJSON_AddItemToObject(s, "outputs", outputs);
            cJSON_AddStringToObject(s, "outcome", outcome);
            cJSON_AddStringToObject(s, "conclusion", conclusion);
            cJSON_DeleteItemFromObject(sc->steps, id);
            cJSON_AddItemToObject(sc->steps, id, s);
        } else {
            cJSON_Delete(outputs);
        }
    }
    return sc->failed;
}

/* ---- jobs ---- */

/* GitHub's image facts of a runs-on label (runner-images: the labels and
 * their CPUs). */
static void label_facts(const char *label, const char **os, const char **arch, const char **image)
{
    *os = "Linux", *arch = "X64", *image = "ubuntu24";
    if (!strncmp(label, "macos", 5)) {
        *os = "macOS";
        *image = strstr(label, "14") ? "macos14" : strstr(label, "13") ? "macos13" : "macos15";
        *arch = strstr(label, "intel") || !strcmp(label, "macos-13") ? "X64" : "ARM64";
    } else {
        if (strstr(label, "22.04"))
            *image = "ubuntu22";
        if (strstr(label, "-arm"))
            *arch = "ARM64";
    }
}

static int needs_list(run *r, const yaml_node_t *job, const char **out, int max)
{
    const yaml_node_t *n = wf_get(&r->doc, job, "needs");
    int k = 0;
    if (n && n->type == YAML_SCALAR_NODE)
        out[k++] = wf_scalar(n);
    else if (n && n->type == YAML_SEQUENCE_NODE)
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top && k < max; it++)
            out[k++] = wf_scalar(node(&r->doc, *it));
    return k;
}

static void record(run *r, const char *name, const char *result)
{
    printf("job %s: %s\n", name, result);
    fprintf(r->tsv, "%s\t%s\n", name, result);
    fflush(r->tsv);
}

/* Runs one matrix leg (or the job); returns 0 success, 1 failure. */
static int run_leg(run *r, const char *id, yaml_node_t *jn, cJSON *needs, cJSON *matrix, int index, int total,
                   cJSON *outputs)
{
    job j = {.r = r, .id = id, .node = jn};
    char err[600];
    cJSON *ctx = cJSON_CreateObject();
    cJSON *gh = cJSON_Duplicate(r->github, 1);
    cJSON_AddStringToObject(gh, "job", id);
    cJSON_AddItemToObject(ctx, "github", gh);
    cJSON_AddItemToObject(ctx, "inputs", cJSON_Duplicate(r->inputs, 1));
    cJSON_AddItemToObject(ctx, "matrix", cJSON_Duplicate(matrix, 1));
    cJSON *strategy = cJSON_AddObjectToObject(ctx, "strategy");
    const yaml_node_t *strat = wf_get(&r->doc, jn, "strategy");
    const char *ff = wf_scalar(wf_get(&r->doc, strat, "fail-fast"));
    cJSON_AddBoolToObject(strategy, "fail-fast", !ff || strcmp(ff, "false"));
    cJSON_AddNumberToObject(strategy, "job-index", index);
    cJSON_AddNumberToObject(strategy, "job-total", total);
    cJSON_AddNumberToObject(strategy, "max-parallel", total);
    cJSON_AddItemToObject(ctx, "needs", cJSON_Duplicate(needs, 1));
    cJSON_AddObjectToObject(ctx, "steps");
    cJSON_AddObjectToObject(ctx, "job");
    cJSON *env = cJSON_AddObjectToObject(ctx, "env");
    cJSON *runner = cJSON_AddObjectToObject(ctx, "runner");
    j.ctx = ctx;
    j.paths = cJSON_CreateArray();
    wf_expr_env ee = {ctx, 0, 0};
    const char *ro = wf_scalar(wf_get(&r->doc, jn, "runs-on"));
    char *label = ro ? wf_interpolate(ro, &ee, err, sizeof err) : NULL;
    const char *nm = wf_scalar(wf_get(&r->doc, jn, "name"));
    char *title = nm ? wf_interpolate(nm, &ee, err, sizeof err) : NULL;
    pf(j.name, sizeof j.name, "%s", title ? title : id);
    free(title);
    int rc = 1;
    if (!label) {
        die_line(BG_EXIT_PARSE, "job %s: runs-on: %s", id, ro ? err : "missing (a single label is emulated)");
        goto out;
    }
    if (!strncmp(label, "windows", 7) || !strncmp(label, "self-hosted", 11)) {
        die_line(BG_EXIT_PARSE, "job %s: runs-on: %s is not emulated (GitHub's Linux and macOS images only)", id, label);
        goto out;
    }
    label_facts(label, &j.os, &j.arch, &j.image);
    if (total > 1)
        pf(j.dir, sizeof j.dir, "%s/jobs/%s-%d", r->dir, id, index + 1);
    else
        pf(j.dir, sizeof j.dir, "%s/jobs/%s", r->dir, id);
    pf(j.ws, sizeof j.ws, "%s/workspace", j.dir);
    pf(j.tmp, sizeof j.tmp, "%s/temp", j.dir);
    if (sh_c(NULL, "rm -rf \"$1\"", j.dir, NULL) != 0 || mkdirs(j.ws) != 0 || mkdirs(j.tmp) != 0) {
        die_line(BG_EXIT_IO, "job %s: cannot create %s", id, j.dir);
        goto out;
    }
    cJSON_AddStringToObject(runner, "os", j.os);
    cJSON_AddStringToObject(runner, "arch", j.arch);
    cJSON_AddStringToObject(runner, "temp", j.tmp);
    cJSON_AddStringToObject(runner, "tool_cache", j.tmp);
    cJSON_AddStringToObject(runner, "name", "bg-workflow-run");
    cJSON_AddStringToObject(runner, "environment", "github-hosted");
    cJSON_DeleteItemFromObject(gh, "workspace");
    cJSON_AddStringToObject(gh, "workspace", j.ws);
    /* env: the workflow's, then the job's */
    if (add_env(&r->doc, wf_get(&r->doc, r->root, "env"), env, &ee, "env") != 0 ||
        add_env(&r->doc, wf_get(&r->doc, jn, "env"), env, &ee, id) != 0)
        goto out;
    /* defaults.run: the job's, else the workflow's */
    cJSON *dr = cJSON_AddObjectToObject(ctx, "__defaults_run");
    static const char *const dkeys[] = {"shell", "working-directory"};
    for (int i = 0; i < 2; i++) {
        const char *v = wf_scalar(wf_get(&r->doc, wf_get(&r->doc, wf_get(&r->doc, jn, "defaults"), "run"), dkeys[i]));
        if (!v)
            v = wf_scalar(wf_get(&r->doc, wf_get(&r->doc, wf_get(&r->doc, r->root, "defaults"), "run"), dkeys[i]));
        if (v)
            cJSON_AddStringToObject(dr, dkeys[i], v);
    }
    const char *envname = wf_scalar(wf_get(&r->doc, jn, "environment"));
    if (!envname)
        envname = wf_scalar(wf_get(&r->doc, wf_get(&r->doc, jn, "environment"), "name"));
    printf("== job %s on %s (%s %s)%s%s%s\n", j.name, label, j.os, j.arch, envname ? ", environment " : "",
           envname ? envname : "", envname ? ": approval assumed" : "");
    if (wf_get(&r->doc, jn, "container") || wf_get(&r->doc, jn, "services")) {
        die_line(BG_EXIT_PARSE, "job %s: container:/services: are not emulated", id);
        goto out;
    }
    if (wf_get(&r->doc, jn, "uses")) {
        die_line(BG_EXIT_PARSE, "job %s: a reusable workflow (uses:) is not emulated", id);
        goto out;
    }
    scope sc = {.doc = &r->doc, .ctx = ctx, .steps = cJSON_CreateObject()};
    rc = run_steps(&j, &sc, wf_get(&r->doc, jn, "steps"));
    /* outputs: evaluated after the steps, failed or not */
    set_ctx(ctx, "steps", sc.steps);
    const yaml_node_t *outs = wf_get(&r->doc, jn, "outputs");
    wf_expr_env oe = {ctx, rc, 0};
    if (outs && outs->type == YAML_MAPPING_NODE)
        for (yaml_node_pair_t *p = outs->data.mapping.pairs.start; p < outs->data.mapping.pairs.top; p++) {
            const char *k = wf_scalar(node(&r->doc, p->key)), *v = wf_scalar(node(&r->doc, p->value));
            char *s = v ? wf_interpolate(v, &oe, err, sizeof err) : NULL;
            if (k && s && *s) { /* a matrix: the last leg with a value wins */
                cJSON_DeleteItemFromObject(outputs, k);
                cJSON_AddStringToObject(outputs, k, s);
            }
            free(s);
        }
out:
    free(label);
    cJSON_Delete(ctx);
    cJSON_Delete(j.paths);
    if (fatal_rc)
        rc = 1;
    return rc;
}

/* The matrix legs of a job: a JSON array of objects ([{}] without one). */
static cJSON *matrix_legs(run *r, const char *id, const yaml_node_t *jn)
{
    cJSON *legs = cJSON_CreateArray();
    cJSON_AddItemToArray(legs, cJSON_CreateObject());
    const yaml_node_t *m = wf_get(&r->doc, wf_get(&r->doc, jn, "strategy"), "matrix");
    if (!m)
        return legs;
    if (m->type != YAML_MAPPING_NODE) {
        die_line(BG_EXIT_PARSE, "job %s: a matrix that is not a mapping of lists is not emulated", id);
        return legs;
    }
    const yaml_node_t *inc = NULL;
    cJSON *orig = cJSON_CreateObject(); /* the matrix's own keys, for include's matching */
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const char *k = wf_scalar(node(&r->doc, p->key));
        const yaml_node_t *vals = node(&r->doc, p->value);
        if (k && !strcmp(k, "include") && vals && vals->type == YAML_SEQUENCE_NODE) {
            inc = vals;
            continue;
        }
        if (!k || !strcmp(k, "exclude") || !vals || vals->type != YAML_SEQUENCE_NODE) {
            die_line(BG_EXIT_PARSE, "job %s: matrix key %s: only lists of values and include are emulated (no exclude)",
                     id, k ? k : "?");
            cJSON_Delete(orig);
            return legs;
        }
        cJSON_AddTrueToObject(orig, k);
        cJSON *next = cJSON_CreateArray();
        const cJSON *leg;
        cJSON_ArrayForEach(leg, legs) {
            for (yaml_node_item_t *it = vals->data.sequence.items.start; it < vals->data.sequence.items.top; it++) {
                const char *v = wf_scalar(node(&r->doc, *it));
                cJSON *l = cJSON_Duplicate(leg, 1);
                cJSON_AddStringToObject(l, k, v ? v : "");
                cJSON_AddItemToArray(next, l);
            }
        }
        cJSON_Delete(legs);
        legs = next;
    }
    /* include (GitHub's rule, "Expanding or adding matrix configurations"): an
       entry whose values of the matrix's own keys match a leg adds its other keys
       to every such leg; an entry that matches none is a leg of its own */
    for (yaml_node_item_t *it = inc ? inc->data.sequence.items.start : NULL; inc && it < inc->data.sequence.items.top; it++) {
        const yaml_node_t *e = node(&r->doc, *it);
        if (!e || e->type != YAML_MAPPING_NODE) {
            die_line(BG_EXIT_PARSE, "job %s: matrix include: an entry that is not a mapping is not emulated", id);
            break;
        }
        int matched = 0;
        cJSON *leg;
        cJSON_ArrayForEach(leg, legs) {
            int ok = 1;
            for (yaml_node_pair_t *p = e->data.mapping.pairs.start; ok && p < e->data.mapping.pairs.top; p++) {
                const char *k = wf_scalar(node(&r->doc, p->key)), *v = wf_scalar(node(&r->doc, p->value));
                const cJSON *have = k ? cJSON_GetObjectItemCaseSensitive(leg, k) : NULL;
                if (k && cJSON_HasObjectItem(orig, k))
                    ok = cJSON_IsString(have) && v && !strcmp(have->valuestring, v);
            }
            if (!ok || cJSON_GetArraySize(leg) == 0)
                continue;
            matched = 1;
            for (yaml_node_pair_t *p = e->data.mapping.pairs.start; p < e->data.mapping.pairs.top; p++) {
                const char *k = wf_scalar(node(&r->doc, p->key)), *v = wf_scalar(node(&r->doc, p->value));
                if (k && !cJSON_HasObjectItem(orig, k)) {
                    cJSON_DeleteItemFromObject(leg, k);
                    cJSON_AddStringToObject(leg, k, v ? v : "");
                }
            }
        }
        if (!matched) {
            cJSON *l = cJSON_CreateObject();
            for (yaml_node_pair_t *p = e->data.mapping.pairs.start; p < e->data.mapping.pairs.top; p++) {
                const char *k = wf_scalar(node(&r->doc, p->key)), *v = wf_scalar(node(&r->doc, p->value));
                if (k)
                    cJSON_AddStringToObject(l, k, v ? v : "");
            }
            cJSON_AddItemToArray(legs, l);
        }
    }
    cJSON_Delete(orig);
    return legs;
}

static int run_job(run *r, const char *id, yaml_node_t *jn)
{
    const char *nl[32];
    int nn = needs_list(r, jn, nl, 32);
    cJSON *needs = cJSON_CreateObject();
    int all_ok = 1, any_fail = 0;
    for (int i = 0; i < nn; i++) {
        const cJSON *res = cJSON_GetObjectItemCaseSensitive(r->results, nl[i]);
        cJSON_AddItemToObject(needs, nl[i], cJSON_Duplicate(res, 1));
        const char *v = bg_json_str(res, "result");
        all_ok &= v && !strcmp(v, "success");
        any_fail |= v && !strcmp(v, "failure");
    }
    cJSON *ctx = cJSON_CreateObject();
    cJSON_AddItemToObject(ctx, "github", cJSON_Duplicate(r->github, 1));
    cJSON_AddItemToObject(ctx, "inputs", cJSON_Duplicate(r->inputs, 1));
    cJSON_AddItemToObject(ctx, "needs", cJSON_Duplicate(needs, 1));
    /* a job's success(): every job it needs succeeded; failure(): one failed */
    wf_expr_env ee = {ctx, any_fail, !all_ok};
    char err[600];
    int go = wf_eval_if(wf_scalar(wf_get(&r->doc, jn, "if")), &ee, err, sizeof err);
    cJSON_Delete(ctx);
    cJSON *res = cJSON_CreateObject(), *outputs = cJSON_CreateObject();
    const char *result = "skipped";
    if (go < 0) {
        die_line(BG_EXIT_PARSE, "job %s: if: %s", id, err);
    } else if (go > 0) {
        cJSON *legs = matrix_legs(r, id, jn);
        int total = cJSON_GetArraySize(legs), failed = 0;
        for (int i = 0; i < total && !fatal_rc; i++) {
            int rc = run_leg(r, id, jn, needs, cJSON_GetArrayItem(legs, i), i, total, outputs);
            char leg[300];
            pf(leg, sizeof leg, total > 1 ? "%s-%d" : "%s", id, i + 1);
            if (total > 1)
                record(r, leg, rc ? "failure" : "success");
            failed |= rc;
        }
        cJSON_Delete(legs);
        result = failed ? "failure" : "success";
    }
    cJSON_AddStringToObject(res, "result", result);
    cJSON_AddItemToObject(res, "outputs", outputs);
    cJSON_AddItemToObject(r->results, id, res);
    cJSON_Delete(needs);
    record(r, id, result);
    return strcmp(result, "failure") ? 0 : 1;
}

static int run_jobs(run *r)
{
    yaml_node_t *jobs = wf_get(&r->doc, r->root, "jobs");
    if (!jobs || jobs->type != YAML_MAPPING_NODE) {
        die_line(BG_EXIT_PARSE, "%s: no jobs:", r->wf_path);
        return fatal_rc;
    }
    int worst = 0, progress = 1;
    while (progress && !fatal_rc) {
        progress = 0;
        for (yaml_node_pair_t *p = jobs->data.mapping.pairs.start; p < jobs->data.mapping.pairs.top && !fatal_rc; p++) {
            const char *id = wf_scalar(node(&r->doc, p->key));
            if (!id || cJSON_GetObjectItemCaseSensitive(r->results, id))
                continue;
            yaml_node_t *jn = node(&r->doc, p->value);
            const char *nl[32];
            int nn = needs_list(r, jn, nl, 32), ready = 1;
            for (int i = 0; i < nn; i++)
                ready &= nl[i] && cJSON_GetObjectItemCaseSensitive(r->results, nl[i]) != NULL;
            if (!ready)
                continue;
            worst |= run_job(r, id, jn);
            progress = 1;
        }
    }
    for (yaml_node_pair_t *p = jobs->data.mapping.pairs.start; p < jobs->data.mapping.pairs.top && !fatal_rc; p++) {
        const char *id = wf_scalar(node(&r->doc, p->key));
        if (id && !cJSON_GetObjectItemCaseSensitive(r->results, id))
            die_line(BG_EXIT_PARSE, "job %s: its needs: name a job that does not exist or a cycle", id);
    }
    return fatal_rc ? fatal_rc : worst ? BG_EXIT_FAIL : 0;
}

/* ---- main ---- */

static int git_head(const char *repo, char *out, size_t n)
{
    char cmd[PATH_MAX + 64];
    pf(cmd, sizeof cmd, "git -C '%s' rev-parse HEAD 2>/dev/null", repo);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int ok = fgets(out, (int)n, p) != NULL;
    pclose(p);
    out[strcspn(out, "\n")] = 0;
    return ok && strlen(out) == 40 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    static const char *const opts[] = {"--repo", "--work", "--event", "--payload", "--sha", "--ref",
                                       "--input", "--run-id", "--repository", NULL};
    const char *repo = NULL, *work = NULL, *event = NULL, *payload = NULL, *sha = NULL, *ref = "refs/heads/main";
    const char *run_id = "1", *repository = "buildgate/buildgate", *wf = NULL;
    run r = {0};
    r.inputs = cJSON_CreateObject();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-') {
            if (!bg_option_in(a, opts))
                return bg_help_unknown_option(a);
            if (i + 1 >= argc)
                return bg_help_missing_value(a);
            const char *v = argv[++i];
            if (!strcmp(a, "--repo"))
                repo = v;
            else if (!strcmp(a, "--work"))
                work = v;
            else if (!strcmp(a, "--event"))
                event = v;
            else if (!strcmp(a, "--payload"))
                payload = v;
            else if (!strcmp(a, "--sha"))
                sha = v;
            else if (!strcmp(a, "--ref"))
                ref = v;
            else if (!strcmp(a, "--run-id"))
                run_id = v;
            else if (!strcmp(a, "--repository"))
                repository = v;
            else {
                const char *eq = strchr(v, '=');
                if (!eq || eq == v)
                    return bg_help_bad_value(a, "'%s' is not NAME=VALUE", v);
                char k[128];
                pf(k, sizeof k, "%.*s", (int)(eq - v), v);
                cJSON_DeleteItemFromObject(r.inputs, k);
                cJSON_AddStringToObject(r.inputs, k, eq + 1);
            }
        } else if (!wf) {
            wf = a;
        } else {
            bg_errorf(TOOL, "one workflow only (see %s --help)", TOOL);
            return BG_EXIT_USAGE;
        }
    }
    if (!wf || !repo || !work || !event) {
        bg_errorf(TOOL, "%s missing (see %s --help)",
                  !wf ? "WORKFLOW" : !repo ? "--repo" : !work ? "--work" : "--event", TOOL);
        return BG_EXIT_USAGE;
    }
    char *end;
    long long id = strtoll(run_id, &end, 10);
    if (*end || id < 1 || id > 1000000000000LL)
        return bg_help_bad_value("--run-id", "'%s' is not a whole number in 1..10^12", run_id);
    char head[64];
    if (!sha) {
        if (git_head(repo, head, sizeof head) != 0) {
            bg_errorf(TOOL, "--repo %s: not a git repository with a HEAD commit", repo);
            return BG_EXIT_IO;
        }
        sha = head;
    }
    cJSON *ev = NULL;
    if (payload) {
        bg_status st = bg_json_load(payload, "event payload", &ev);
        if (st != BG_OK)
            return bg_exit_code(st);
        if (!cJSON_IsObject(ev)) {
            bg_errorf(TOOL, "--payload %s: not a JSON object", payload);
            cJSON_Delete(ev);
            return BG_EXIT_PARSE;
        }
    } else {
        ev = cJSON_CreateObject();
    }
    size_t len = 0;
    int rc = wf_load(wf, TOOL, &r.doc, &r.src, &len);
    if (rc != 0)
        return rc;
    r.root = yaml_document_get_root_node(&r.doc);
    r.wf_path = wf;
    static char repo_abs[PATH_MAX];
    if (!realpath(repo, repo_abs)) {
        bg_errorf(TOOL, "--repo %s: %s", repo, strerror(errno));
        return BG_EXIT_IO;
    }
    r.repo = repo_abs;
    if (mkdirs(work) != 0 || !realpath(work, r.work)) {
        bg_errorf(TOOL, "%s: %s", work, strerror(errno));
        return BG_EXIT_IO;
    }
    pf(r.dir, sizeof r.dir, "%s/runs/%s", r.work, run_id);
    /* a new run: what an earlier run of this id left (jobs, artifacts) goes;
       a folder no run of this tool marked is the user's: refused, kept */
    if (!run_dir_ours(r.dir)) {
        bg_errorf(TOOL, "--work %s: %s holds files no bg-workflow-run wrote (no %s): choose another --work or "
                  "--run-id, or move them away",
                  r.work, r.dir, RUN_MARK);
        return BG_EXIT_EXISTS;
    }
    char mark[PATH_MAX + 32];
    pf(mark, sizeof mark, "%s/%s", r.dir, RUN_MARK);
    FILE *mf = NULL;
    if (sh_c(NULL, "rm -rf \"$1\"", r.dir, NULL) != 0 || mkdirs(r.dir) != 0 || !(mf = fopen(mark, "w"))) {
        bg_errorf(TOOL, "%s: cannot create: %s", r.dir, strerror(errno));
        return BG_EXIT_IO;
    }
    fputs("a bg-workflow-run run folder: the next run of this id empties it\n", mf);
    fclose(mf);
    /* workflow_dispatch inputs: defaults, required ones given */
    const yaml_node_t *decl =
        wf_get(&r.doc, wf_get(&r.doc, wf_get(&r.doc, r.root, "on"), "workflow_dispatch"), "inputs");
    if (decl && decl->type == YAML_MAPPING_NODE && !strcmp(event, "workflow_dispatch"))
        for (yaml_node_pair_t *p = decl->data.mapping.pairs.start; p < decl->data.mapping.pairs.top; p++) {
            const char *k = wf_scalar(node(&r.doc, p->key));
            const yaml_node_t *d = node(&r.doc, p->value);
            if (!k || cJSON_GetObjectItem(r.inputs, k))
                continue;
            const char *dflt = wf_scalar(wf_get(&r.doc, d, "default")), *req = wf_scalar(wf_get(&r.doc, d, "required"));
            if (req && !strcmp(req, "true") && !dflt) {
                bg_errorf(TOOL, "input %s is required (--input %s=VALUE)", k, k);
                return BG_EXIT_USAGE;
            }
            cJSON_AddStringToObject(r.inputs, k, dflt ? dflt : "");
        }
    if (!strcmp(event, "workflow_dispatch") && !cJSON_GetObjectItem(ev, "inputs"))
        cJSON_AddItemToObject(ev, "inputs", cJSON_Duplicate(r.inputs, 1));
    pf(r.event_path, sizeof r.event_path, "%s/event.json", r.dir);
    char *evs = cJSON_Print(ev);
    if (!evs || write_file(r.event_path, evs, strlen(evs)) != 0) {
        bg_errorf(TOOL, "%s: cannot write", r.event_path);
        return BG_EXIT_IO;
    }
    free(evs);
    cJSON *g = r.github = cJSON_CreateObject();
    const char *wname = wf_scalar(wf_get(&r.doc, r.root, "name"));
    char owner[128];
    pf(owner, sizeof owner, "%.*s", (int)strcspn(repository, "/"), repository);
    const char *slash = strrchr(ref, '/');
    cJSON_AddStringToObject(g, "event_name", event);
    cJSON_AddItemToObject(g, "event", ev);
    cJSON_AddStringToObject(g, "sha", sha);
    cJSON_AddStringToObject(g, "ref", ref);
    cJSON_AddStringToObject(g, "ref_name", slash ? slash + 1 : ref);
    cJSON_AddStringToObject(g, "repository", repository);
    cJSON_AddStringToObject(g, "repository_owner", owner);
    cJSON_AddStringToObject(g, "run_id", run_id);
    cJSON_AddStringToObject(g, "run_number", run_id);
    cJSON_AddStringToObject(g, "run_attempt", "1");
    cJSON_AddStringToObject(g, "server_url", "https://github.com");
    cJSON_AddStringToObject(g, "api_url", "https://api.github.com");
    cJSON_AddStringToObject(g, "actor", "bg-workflow-run");
    cJSON_AddStringToObject(g, "workflow", wname ? wname : wf);
    cJSON_AddStringToObject(g, "token", "bg-workflow-run-token");
    cJSON_AddStringToObject(g, "event_path", r.event_path);
    const char *base_ref = bg_json_str(cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "pull_request"), "base"), "ref");
    const char *head_ref = bg_json_str(cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "pull_request"), "head"), "ref");
    cJSON_AddStringToObject(g, "base_ref", base_ref ? base_ref : "");
    cJSON_AddStringToObject(g, "head_ref", head_ref ? head_ref : "");
    r.results = cJSON_CreateObject();
    char tsv[PATH_MAX + 16];
    pf(tsv, sizeof tsv, "%s/jobs.tsv", r.dir);
    r.tsv = fopen(tsv, "w");
    if (!r.tsv) {
        bg_errorf(TOOL, "%s: cannot write", tsv);
        return BG_EXIT_IO;
    }
    printf("bg-workflow-run: %s on %s, run %s, %s at %s\n", wf, event, run_id, repo, sha);
    rc = run_jobs(&r);
    fclose(r.tsv);
    cJSON_Delete(r.github);
    cJSON_Delete(r.inputs);
    cJSON_Delete(r.results);
    yaml_document_delete(&r.doc);
    free(r.src);
    return rc;
}
