/* fuzz_baseline.c — libFuzzer target: a per-host baseline
 * (baselines/<host-key>.json, perf_baseline.h) read by perf_baseline_load.
 * The host key and metric asked for are the document's own "host" and
 * "metric" when they are strings (else "fuzz-host", "real_time"), so that
 * inputs get past those checks; errors are
 * answers, only a crash, a sanitizer report or a leak is a finding. */
#include "bg_fuzz.h"

#include <cjson/cJSON.h>

#include "perf_baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = bg_fuzz_file("baseline.json", data, size);
    char host[256] = "fuzz-host", metric[64] = "real_time";
    cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(doc, "host");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(doc, "metric");
    if (cJSON_IsString(h))
        snprintf(host, sizeof host, "%s", h->valuestring);
    if (cJSON_IsString(m))
        snprintf(metric, sizeof metric, "%s", m->valuestring);
    cJSON_Delete(doc);
    perf_set set = {0};
    perf_baseline_load(path, host, metric, &set);
    perf_set_free(&set);
    return 0;
}
