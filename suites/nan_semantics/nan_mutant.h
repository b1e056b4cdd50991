/* nan_mutant.h — mutant translators for the self-tests (nan-selftest
 * --mutate KIND, behind runners/filter-runner.sh): reads a probe document on
 * stdin, changes records as one faulty translator would, writes it to stdout.
 *   snan-unquieted  an SNaN operand comes back unquieted (where x86 returns
 *                   it quieted, same format; MIN/MAX never quiet) -> only
 *                   snan-quieting
 *   minmax-number   MIN/MAX return the first operand, a number (as DAZ makes
 *                   it: a subnormal is a signed 0 under DAZ), when the second
 *                   is NaN (IEEE minNum/maxNum instead of x86's second
 *                   operand) -> only minmax "NaN operand"
 *   daz-ignored     the "daz" phase computes as if DAZ were off (its records
 *                   are the "default" phase's) -> only daz-ftz "DAZ" groups
 *   value:OP        op OP (a nan_ops.def name) has bit 10 of its first
 *                   destination element flipped wherever that is a finite
 *                   non-zero number -> a value deviation of OP alone
 *   none            unchanged (a control run)
 * Exit: 0; 2 unknown KIND; 4 stdin is not a probe document.
 */
#ifndef NAN_MUTANT_H
#define NAN_MUTANT_H

int nan_mutant_main(const char *kind);

#endif
