/* bg-chain-overhead — does the chain probe add anything measurable?
 *
 * Usage: bg-chain-overhead [--flags LIST] [--n HASHES] [--reps R]
 * Alternates, R times in ABBA order (so drift and position hit both alike), the probe's
 * rx_chain_run() over N hashes and a bare loop of randomx_calculate_hash()
 * over the same N messages, prepared beforehand, on the same VM, and prints per side the
 * median H/s and the ratio probe/bare of the medians (docs/performance.md).
 * Exit 0, 2 usage, 77 the host cannot run the flags.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rx_chain.h"
#include "rx_opts.h"
#include "rx_session.h"

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int reps = 7;
    /* --reps is ours; the rest goes to the shared option parser */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--reps")) {
            reps = atoi(argv[i + 1]);
            if (reps < 1 || reps > 100) {
                fprintf(stderr, "buildgate: --reps: expected 1 to 100\n");
                return 2;
            }
            memmove(argv + i, argv + i + 2, (size_t)(argc - i - 2) * sizeof *argv);
            argc -= 2;
            break;
        }
    rx_opts o;
    bg_status st = rx_opts_parse(argc, argv, &o);
    if (st || o.help)
        return bg_exit_code(st);
    rx_session s;
    st = rx_session_open(&s, o.flags, o.key, o.key_len, o.init_threads, NULL);
    if (st)
        return bg_exit_code(st);
    double probe[100], bare[100];
    /* The bare loop hashes exactly the chain's messages (per-hash cost depends
     * on the input), prepared beforehand from one chain run with K = 1. */
    rx_chain_result all;
    if (rx_chain_run(s.vm, o.n, 1, NULL, &all))
        return 1;
    uint8_t(*msgs)[RX_CHAIN_MSG_LEN] = malloc(o.n * RX_CHAIN_MSG_LEN);
    if (!msgs)
        return BG_EXIT_NOMEM;
    for (uint64_t i = 0; i < o.n; i++)
        rx_chain_message(i, i ? all.checkpoints[i - 1] : NULL, msgs[i]);
    rx_chain_free(&all);
    uint8_t out[32];
    for (int r = 0; r < reps; r++) {
        /* ABBA order: even repetitions run the probe first, odd ones the bare
         * loop first, so a first-or-second position effect cancels out. */
        for (int side = 0; side < 2; side++) {
            if ((side == 0) == (r % 2 == 0)) {
                rx_chain_result res;
                if (rx_chain_run(s.vm, o.n, o.n, NULL, &res))
                    return 1;
                probe[r] = o.n / res.seconds;
                rx_chain_free(&res);
            } else {
                double t0 = rx_now();
                for (uint64_t i = 0; i < o.n; i++)
                    randomx_calculate_hash(s.vm, msgs[i], RX_CHAIN_MSG_LEN, out);
                bare[r] = o.n / (rx_now() - t0);
            }
        }
    }
    double mp = median(probe, reps), mb = median(bare, reps);
    printf("{\"flags\": %d, \"n\": %llu, \"reps\": %d, \"probe_hs_median\": %.2f, "
           "\"bare_hs_median\": %.2f, \"ratio\": %.4f}\n",
           (int)o.flags, (unsigned long long)o.n, reps, mp, mb, mp / mb);
    free(msgs);
    rx_session_close(&s);
    return 0;
}
