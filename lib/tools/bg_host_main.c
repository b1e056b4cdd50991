/* bg-host — prints the host key and the host facts buildgate reports.
 * Usage, output, exit codes: usage_text below (`bg-host --help`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_help.h"
#include "buildgate/bg_host.h"

static const char usage_text[] =
    "Usage: bg-host [--key]\n"
    "\n"
    "Prints the host facts buildgate reports.\n"
    "  (no option)  JSON object: key, os, arch, cpu_model, ncpu, page sizes (bytes),\n"
    "               memory (bytes), compiler, CPU features\n"
    "  --key        the host key alone, \"<os>-<arch>-<cpu-model-slug>-<ncpu>c\",\n"
    "               e.g. linux-x86_64-intel-xeon-2c (names per-host baselines)\n"
    "  -h, --help   this text\n"
    "\n"
    "Exit: 0; 2 usage; 8 out of memory.\n"
    "Doc: lib/include/buildgate/bg_host.h, docs/usage.md.\n";

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    int key_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--key") == 0)
            key_only = 1;
        else {
            bg_errorf("bg-host", "unknown option '%s' (see bg-host --help)", argv[i]);
            return BG_EXIT_USAGE;
        }
    }
    bg_host h;
    bg_host_probe(&h);
    if (key_only) {
        char key[160];
        bg_host_key(&h, key, sizeof key);
        puts(key);
        return 0;
    }
    cJSON *o = bg_host_to_json(&h);
    char *s = o ? cJSON_Print(o) : NULL;
    if (!s) {
        bg_errorf("bg-host", "out of memory");
        return BG_EXIT_NOMEM;
    }
    puts(s);
    free(s);
    cJSON_Delete(o);
    return 0;
}
