/* bg_host.h — facts about the host and its stable host key.
 *
 * Host key (interface): "<os>-<arch>-<cpu-model-slug>-<ncpu>c", e.g.
 * "linux-x86_64-amd-epyc-2c".  The CPU model slug is the first two words of
 * the CPU model string, lower-cased, after dropping "(R)", "(TM)", "CPU",
 * "Processor", "N-Core" and the "@ x.xGHz" suffix: "AMD EPYC 7B13 64-Core
 * Processor" -> "amd-epyc", "Intel(R) Xeon(R) Processor" -> "intel-xeon",
 * "Apple M4" -> "apple-m4".  Coarse on purpose: cloud runners of one family
 * share a baseline.
 *
 * Sources: Linux /proc/cpuinfo ("model name"; on arm64 "CPU implementer" and
 * "CPU part"), /proc/meminfo; macOS sysctl machdep.cpu.brand_string,
 * hw.memsize; sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_PAGESIZE).
 */
#ifndef BG_HOST_H
#define BG_HOST_H

#include <cjson/cJSON.h>

#include "buildgate/bg_cpu.h"
#include "buildgate/bg_error.h"

typedef struct bg_host {
    char os[16];           /* "linux", "macos", ... */
    char arch[16];         /* "x86_64", "arm64" */
    char cpu_model[128];   /* as the OS reports it */
    char cpu_slug[64];     /* see above */
    int ncpu;              /* online logical CPUs */
    long page_size;        /* bytes */
    long huge_page_size;   /* bytes; 0 when unknown */
    unsigned long long mem_total;     /* bytes; 0 when unknown */
    unsigned long long mem_available; /* bytes; 0 when unknown */
    char compiler[96];     /* the compiler that built buildgate */
    bg_cpu_features cpu;
} bg_host;

/* Reads the facts.  Never fails: unknown facts are left empty/zero. */
void bg_host_probe(bg_host *h);

/* Writes the host key into buf[n]. */
void bg_host_key(const bg_host *h, char *buf, unsigned n);

/* Lower-cased two-word slug of a CPU model string (see above) into out[n]. */
void bg_cpu_model_slug(const char *model, char *out, unsigned n);

/* All facts plus "key" as a JSON object (caller deletes); NULL on OOM. */
cJSON *bg_host_to_json(const bg_host *h);

#endif
