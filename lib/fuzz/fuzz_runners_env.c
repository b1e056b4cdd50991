/* fuzz_runners_env.c — libFuzzer target: the user-runner list BG_X86_RUNNERS
 * ("name=command args;name2=..."), parsed by the runner registry
 * (bg_runner.h).  The input is the variable's value (up to its first NUL);
 * each run forgets the previous parse (bg_runner_registry_reset), lists
 * the rows and resolves each user row (no program is run); a rejected value is an answer (one error line), only a crash, a
 * sanitizer report or a leak is a finding. */
#include "bg_fuzz.h"

#include "buildgate/bg_runner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *spec = bg_fuzz_str(data, size);
    setenv("BG_X86_RUNNERS", spec, 1);
    free(spec);
    bg_runner_registry_reset();
    const bg_runner_row *rows;
    size_t count;
    char why[512];
    if (bg_runner_rows(&rows, &count, why, sizeof why) == BG_OK) {
        /* user rows resolve without running anything (a PATH look-up) */
        for (size_t i = 0; i < count; i++) {
            if (strcmp(rows[i].traits, "user") != 0)
                continue;
            bg_runner r = {0};
            if (bg_runner_resolve(rows[i].name, "x86_64", &r, why, sizeof why) == BG_OK) {
                char *guest[] = {"/bin/true", NULL}, *out[BG_RUNNER_MAX_ARGS + 4];
                bg_runner_argv(&r, guest, out, BG_RUNNER_MAX_ARGS + 4);
                bg_runner_free(&r);
            }
        }
    }
    return 0;
}
