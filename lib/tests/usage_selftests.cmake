# Usage errors of the generic tools, in the one form of lib bg_help
# (bg_help.h): "buildgate: <tool>: --x: <why> (see <tool> --help)", or
# "unknown option '--x'".  Each case is a command line the tool accepted (or
# described wrongly) before; bg-expect asserts the exit code and the one line.
set(see_check "(see bg-check --help)")
bg_add_selftest(NAME lib.selftest.check_empty_suite SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-check: --suite: must not be empty ${see_check}"
  COMMAND sh -c "exec \"$0\" --suite '' --name x --verdict pass" $<TARGET_FILE:bg-check>)
bg_add_selftest(NAME lib.selftest.check_empty_name SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-check: --name: must not be empty ${see_check}"
  COMMAND sh -c "exec \"$0\" --suite lib --name '' --verdict pass" $<TARGET_FILE:bg-check>)
bg_add_selftest(NAME lib.selftest.check_verdict_twice SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-check: --verdict: given twice ('pass', then 'fail') ${see_check}"
  COMMAND bg-check --suite lib --name x --verdict pass --verdict fail)
bg_add_selftest(NAME lib.selftest.check_missing_value SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-check: --observed: missing value ${see_check}"
  COMMAND bg-check --suite lib --name x --verdict pass --observed)
# bg-expect outside bg-run / ctest would print its check and record nothing.
bg_add_selftest(NAME lib.selftest.expect_no_checks_file SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-expect: BG_CHECKS_FILE is not set, so the check would not be recorded (run it under bg-run or ctest)"
  COMMAND env -u BG_CHECKS_FILE $<TARGET_FILE:bg-expect> --exit 0 -- true)
bg_add_selftest(NAME lib.selftest.expect_empty_name SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-expect: --name: must not be empty (see bg-expect --help)"
  COMMAND sh -c "exec \"$0\" --name '' --exit 0 -- true" $<TARGET_FILE:bg-expect>)
bg_add_selftest(NAME lib.selftest.run_empty_suite SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-run: --suite: must not be empty (see bg-run --help)"
  COMMAND sh -c "exec \"$0\" --checks \"$1\" --suite '' --test t -- true" $<TARGET_FILE:bg-run>
          ${CMAKE_CURRENT_BINARY_DIR}/work-run-empty.jsonl)
# The empty-argument cases go through sh -c: CMake drops an empty "" from a
# command list.
# bg-report read "--b..." as a known option and called a last "--bogus" a
# missing value.
bg_add_selftest(NAME lib.selftest.report_unknown_last SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-report: unknown option '--bogus' (see bg-report --help)"
  COMMAND bg-report --checks-dir . --bogus)
bg_add_selftest(NAME lib.selftest.report_meta_value SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-report: --meta: want KEY=VALUE, got 'x' (see bg-report --help)"
  COMMAND bg-report --meta x)

# JUnit: CTest names its <testsuite> "(empty)"; bg-report gives it the run's
# name ("buildgate: <labels>").  A CTest-shaped file with one test goes in.
set(junit_work ${CMAKE_CURRENT_BINARY_DIR}/work-junit-name)
file(WRITE ${junit_work}/checks/lib.unit.x.jsonl
  "{\"suite\":\"lib\",\"name\":\"lib.unit.x\",\"verdict\":\"pass\",\"expected\":\"1\",\"observed\":\"1\",\"details\":null}\n")
file(WRITE ${junit_work}/ctest-junit.xml
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"(empty)\"\n\ttests=\"1\"\n\tfailures=\"0\"\n>\n\t<testcase name=\"lib.unit.x\" classname=\"lib.unit.x\" time=\"0.1\" status=\"run\">\n\t</testcase>\n</testsuite>\n")
bg_add_selftest(NAME lib.selftest.junit_suite_name SUITE lib
  EXPECT --exit 0 --contains "<testsuite name=\"buildgate: unit selftest\""
  COMMAND sh -c "cp \"$2/ctest-junit.xml\" \"$2/junit.xml\" && \"$0\" --checks-dir \"$2/checks\" --out-dir \"$2/out\" --junit \"$2/junit.xml\" --meta \"labels=$1\" >/dev/null && grep -o '<testsuite name=\"[^\"]*\"' \"$2/junit.xml\""
          $<TARGET_FILE:bg-report> "unit selftest" ${junit_work})
# bg-run's progress limit: --cap needs --stall; --stall takes seconds.
bg_add_selftest(NAME lib.selftest.run_cap_without_stall SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-run: --cap only applies with --stall (see bg-run --help)"
  COMMAND bg-run --checks ${CMAKE_CURRENT_BINARY_DIR}/work-run-cap.jsonl --suite lib --test t
          --cap 10 -- true)
bg_add_selftest(NAME lib.selftest.run_stall_not_seconds SUITE lib
  EXPECT --exit 2 --stderr "buildgate: bg-run: --stall takes a positive number of seconds (see bg-run --help)"
  COMMAND bg-run --checks ${CMAKE_CURRENT_BINARY_DIR}/work-run-stall.jsonl --suite lib --test t
          --stall 0 -- true)
