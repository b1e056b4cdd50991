/* bg-host — prints the host key and the host facts buildgate reports.
 *
 * Usage: bg-host            JSON object: key, os, arch, cpu_model, ncpu, page sizes
 *                           (bytes), memory (bytes), compiler, CPU features
 *        bg-host --key      the host key alone, e.g. linux-x86_64-intel-xeon-2c
 * Exit: 0, or 2 on a bad argument.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_host.h"

int main(int argc, char **argv)
{
    int key_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--key") == 0)
            key_only = 1;
        else {
            bg_errorf("bg-host", "unknown argument '%s' (usage: bg-host [--key])", argv[i]);
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
