/* bench_randomx_none.c — built instead of bench_randomx.c when RandomX is not
 * installed: registers nothing (the configure step says so). */
#include "bench.h"

void perf_register_randomx(void)
{
}
