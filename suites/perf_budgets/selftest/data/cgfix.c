/* cgfix.c: the program whose callgrind 3.19 profile is test data of perf-cgfile-tests
 * (suites/perf_budgets/selftest/data/README). */
#include <stdio.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) sink += (unsigned long)i; }
__attribute__((noinline)) void mid(void) { leaf(1000); leaf(500); }
__attribute__((noinline)) unsigned rec(unsigned n) { leaf(10); return n ? 1 + rec(n - 1) : 0; }
__attribute__((noinline)) void pong(int n);
__attribute__((noinline)) void ping(int n) { leaf(20); if (n) pong(n - 1); }
__attribute__((noinline)) void pong(int n) { leaf(30); if (n) ping(n - 1); }
int main(void)
{
    mid();
    sink += rec(20);
    ping(9);
    return 0;
}
