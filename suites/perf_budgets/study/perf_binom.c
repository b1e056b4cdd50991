/* perf_binom.c — Clopper-Pearson interval (perf_binom.h). */
#include "perf_binom.h"

#include <math.h>

/* P(X <= x) for X ~ Binomial(n, p), 0 < p < 1. */
static double binom_cdf(size_t x, size_t n, double p)
{
    double s = 0, lp = log(p), lq = log1p(-p), ln = lgamma((double)n + 1);
    for (size_t i = 0; i <= x && i <= n; i++)
        s += exp(ln - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) + (double)i * lp + (double)(n - i) * lq);
    return s > 1 ? 1 : s;
}

/* The p in (0, 1) where binom_cdf(x, n, p) = target (the CDF falls as p grows). */
static double solve(size_t x, size_t n, double target)
{
    double a = 0, b = 1;
    for (int i = 0; i < 200 && b - a > 1e-12; i++) {
        double m = (a + b) / 2;
        if (binom_cdf(x, n, m) > target)
            a = m;
        else
            b = m;
    }
    return (a + b) / 2;
}

int perf_clopper_pearson(size_t x, size_t n, double level, double *lo, double *hi)
{
    if (n == 0 || x > n || !(level > 0 && level < 1)) {
        *lo = *hi = NAN;
        return -1;
    }
    double a = (1 - level) / 2;
    *lo = x == 0 ? 0 : solve(x - 1, n, 1 - a); /* P(X >= x) = a  <=>  P(X <= x-1) = 1 - a */
    *hi = x == n ? 1 : solve(x, n, a);
    return 0;
}
