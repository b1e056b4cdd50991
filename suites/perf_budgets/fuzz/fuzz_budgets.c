/* fuzz_budgets.c — libFuzzer target: the perf budgets
 * (suites/perf_budgets/budgets.json, perf_budget.h) read and validated by
 * perf_budgets_load, then the budget of a few benchmark names
 * (perf_budget_for) and the metric.  A rejected file is an answer (one line),
 * only a crash, a sanitizer report or a leak is a finding. */
#include "bg_fuzz.h"

#include "perf_budget.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = bg_fuzz_file("budgets.json", data, size);
    cJSON *budgets = NULL;
    if (perf_budgets_load(path, &budgets) == BG_OK) {
        static const char *const names[] = {"synth/chain", "aes/rounds/real_time/threads:1",
                                            "randomx/hash/light-jit-hard", "randomx/v1/release/hash/light-jit-hard",
                                            ""};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            perf_budget b;
            perf_budget_for(budgets, names[i], &b);
        }
        perf_budgets_metric(budgets);
    }
    cJSON_Delete(budgets);
    return 0;
}
