/* nan_seq_probe.h — nan-probe's --sequences mode (nan_seq_probe.c: the
 * request format and the output document). */
#ifndef NAN_SEQ_PROBE_H
#define NAN_SEQ_PROBE_H

/* Runs the blocks of the request file at path; returns the exit code. */
int nan_seq_probe_main(const char *path);

#endif
