/* report_merge.h — `bg-report --merge DIR --out-dir OUT`: cross-host agreement.
 *
 * Reads DIR/<host>/results.json (one folder per host, depth 1: the GitHub
 * job's downloaded artifacts), checks what must be equal on every host and
 * writes OUT/results.json (schema 1, suite "agree") and OUT/report.md (a
 * host x suite matrix, then one line per disagreement).  Checks:
 *   agree.commit                   every host ran the same commit (run.commit)
 *   agree.digest.<variant>.<host>  chain checkpoints, chain digest, KAT and
 *                                  dataset results of one RandomX variant on
 *                                  <host> equal those of a reference host
 *   agree.aes.<host>               the host's digest.aes_flags verdict(s) pass
 *                                  and saw the CPU AES that bg-host reports
 *   agree.nan.<runner>.<host>      the runner's NaN table on <host>: no
 *                                  deviation outside the golden fixture and
 *                                  known lists, and per context the same
 *                                  verdict and deviation groups as a reference
 *                                  host running the same runner version
 * Code: report_merge.c (load, agree.commit, outputs), merge_digest.c (digest,
 * AES), merge_nan.c (NaN), merge_model.h (shared).  Doc: docs/cross-host.md.
 */
#ifndef BG_REPORT_MERGE_H
#define BG_REPORT_MERGE_H

/* 1 when argv holds "--merge" (the merge mode of bg-report), else 0. */
int bg_report_merge_requested(int argc, char **argv);

/* The merge mode's main: parses argv (bg-report --merge DIR --out-dir OUT),
 * returns the process exit code: 0 everything that must agree agrees, 1 a
 * disagreement (a fail check), 2 usage (also: DIR holds no host folder with
 * a results.json), 3 I/O, 4 a results.json that is not JSON or not schema 1
 * (one line: buildgate: merge: <file>...). */
int bg_report_merge_main(int argc, char **argv);

#endif
