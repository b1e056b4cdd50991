#define _DEFAULT_SOURCE
#include "buildgate/bg_host.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

static void copy_str(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

#if defined(__linux__)
/* Value of the first "key : value" line of /proc/<file> whose key is key. */
static int proc_field(const char *file, const char *key, char *out, size_t n)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    size_t klen = strlen(key);
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0)
            continue;
        const char *p = line + klen;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != ':')
            continue;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        copy_str(out, n, p);
        out[strcspn(out, "\n")] = '\0';
        found = 1;
    }
    fclose(f);
    return found;
}

static unsigned long long meminfo_kib(const char *key)
{
    char v[64];
    unsigned long long kib = 0;
    if (proc_field("/proc/meminfo", key, v, sizeof v))
        sscanf(v, "%llu", &kib);
    return kib * 1024ULL;
}

static void os_facts(bg_host *h)
{
    copy_str(h->os, sizeof h->os, "linux");
    if (!proc_field("/proc/cpuinfo", "model name", h->cpu_model, sizeof h->cpu_model)) {
        char impl[32] = "", part[32] = "";
        proc_field("/proc/cpuinfo", "CPU implementer", impl, sizeof impl);
        proc_field("/proc/cpuinfo", "CPU part", part, sizeof part);
        if (impl[0])
            snprintf(h->cpu_model, sizeof h->cpu_model, "arm %s:%s", impl, part);
    }
    h->mem_total = meminfo_kib("MemTotal");
    h->mem_available = meminfo_kib("MemAvailable");
    h->huge_page_size = (long)meminfo_kib("Hugepagesize");
}
#elif defined(__APPLE__)
static void os_facts(bg_host *h)
{
    copy_str(h->os, sizeof h->os, "macos");
    size_t n = sizeof h->cpu_model;
    if (sysctlbyname("machdep.cpu.brand_string", h->cpu_model, &n, NULL, 0) != 0)
        h->cpu_model[0] = '\0';
    unsigned long long mem = 0;
    n = sizeof mem;
    if (sysctlbyname("hw.memsize", &mem, &n, NULL, 0) == 0)
        h->mem_total = mem;
    /* macOS has no MemAvailable; the gate treats 0 as "unknown". */
}
#else
static void os_facts(bg_host *h) { copy_str(h->os, sizeof h->os, "unknown"); }
#endif

void bg_cpu_model_slug(const char *model, char *out, unsigned n)
{
    static const char *const drop[] = {"(r)", "(tm)", "cpu", "processor", NULL};
    char buf[256];
    copy_str(buf, sizeof buf, model);
    for (char *p = buf; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    char *at = strchr(buf, '@');
    if (at)
        *at = '\0';
    /* remove "(r)"/"(tm)" wherever they are glued to a word */
    for (int i = 0; i < 2; i++) {
        char *hit;
        while ((hit = strstr(buf, drop[i])) != NULL)
            memmove(hit, hit + strlen(drop[i]), strlen(hit + strlen(drop[i])) + 1);
    }
    unsigned len = 0, words = 0;
    if (n)
        out[0] = '\0';
    for (char *tok = strtok(buf, " \t,"); tok && words < 2; tok = strtok(NULL, " \t,")) {
        int skip = 0;
        for (int i = 2; drop[i]; i++)
            skip |= strcmp(tok, drop[i]) == 0;
        size_t tl = strlen(tok);
        skip |= tl > 5 && strcmp(tok + tl - 5, "-core") == 0;
        if (skip)
            continue;
        for (char *c = tok; *c && len + 2 < n; c++) {
            char ch = isalnum((unsigned char)*c) ? *c : '-';
            if (ch == '-' && (len == 0 || out[len - 1] == '-'))
                continue;
            out[len++] = ch;
        }
        if (len + 2 < n && len && out[len - 1] != '-')
            out[len++] = '-';
        out[len] = '\0';
        words++;
    }
    while (len && out[len - 1] == '-')
        out[--len] = '\0';
    if (len == 0)
        copy_str(out, n, "unknown-cpu");
}

void bg_host_probe(bg_host *h)
{
    memset(h, 0, sizeof *h);
    os_facts(h);
    copy_str(h->arch, sizeof h->arch, bg_cpu_arch());
    if (!h->cpu_model[0])
        copy_str(h->cpu_model, sizeof h->cpu_model, "unknown");
    bg_cpu_model_slug(h->cpu_model, h->cpu_slug, sizeof h->cpu_slug);
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    h->ncpu = nc > 0 ? (int)nc : 1;
    h->page_size = sysconf(_SC_PAGESIZE);
#if defined(__clang__)
    snprintf(h->compiler, sizeof h->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(h->compiler, sizeof h->compiler, "gcc %s", __VERSION__);
#else
    copy_str(h->compiler, sizeof h->compiler, "unknown");
#endif
    bg_cpu_detect(&h->cpu);
}

void bg_host_key(const bg_host *h, char *buf, unsigned n)
{
    snprintf(buf, n, "%s-%s-%s-%dc", h->os, h->arch, h->cpu_slug, h->ncpu);
}

cJSON *bg_host_to_json(const bg_host *h)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    char key[160];
    bg_host_key(h, key, sizeof key);
    cJSON_AddStringToObject(o, "key", key);
    cJSON_AddStringToObject(o, "os", h->os);
    cJSON_AddStringToObject(o, "arch", h->arch);
    cJSON_AddStringToObject(o, "cpu_model", h->cpu_model);
    cJSON_AddNumberToObject(o, "ncpu", h->ncpu);
    cJSON_AddNumberToObject(o, "page_size", (double)h->page_size);
    cJSON_AddNumberToObject(o, "huge_page_size", (double)h->huge_page_size);
    cJSON_AddNumberToObject(o, "mem_total", (double)h->mem_total);
    cJSON_AddNumberToObject(o, "mem_available", (double)h->mem_available);
    cJSON_AddStringToObject(o, "compiler", h->compiler);
    cJSON *f = cJSON_AddObjectToObject(o, "features");
    if (f) {
        cJSON_AddBoolToObject(f, "aes", h->cpu.aes);
        if (strcmp(h->arch, "x86_64") == 0) {
            cJSON_AddBoolToObject(f, "ssse3", h->cpu.ssse3);
            cJSON_AddBoolToObject(f, "sse4_1", h->cpu.sse41);
            cJSON_AddBoolToObject(f, "avx2", h->cpu.avx2);
            cJSON_AddBoolToObject(f, "fma", h->cpu.fma);
        } else {
            cJSON_AddBoolToObject(f, "afp", h->cpu.afp);
        }
    }
    return o;
}
