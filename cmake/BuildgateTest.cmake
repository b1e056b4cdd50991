# bg_add_test(NAME <suite>.<group>.<case> SUITE <suite>
#             COMMAND <exe-or-target> [args...]
#             [LABELS l...] [TIMEOUT seconds] [STALL seconds] [ENVIRONMENT VAR=value...]
#             [FIXTURES_SETUP f...] [FIXTURES_REQUIRED f...] [FIXTURES_CLEANUP f...]
#             [RUN_SERIAL])
#
# Registers a CTest test run through bg-run, which exports BG_CHECKS_FILE
# (${BG_CHECKS_DIR}/<NAME>.jsonl) and BG_TEST_NAME, enforces TIMEOUT (default
# 600 s) and records a fail check when the command crashes, hangs or records
# nothing.  Exit code 77 is a skip (interface: docs/architecture.md "Interfaces").
# STALL (a long step whose duration follows the host's load, e.g. building
# RandomX's dataset): bg-run --stall, the limit follows progress: the command
# reports it through $BG_PROGRESS_FILE (bg_progress.h), is killed (fail) after
# STALL seconds without progress, may run past TIMEOUT while progress comes,
# and is stopped at 4 x TIMEOUT as a skip naming the load and the progress
# (docs/architecture.md "Progress of long steps").
#
# Sanitizer builds (asan preset, cmake/BuildgateSanitizers.cmake): every test
# gets the sanitizers' options and BG_SANITIZER_TIMEOUT_FACTOR times its
# TIMEOUT; a test listed in BG_NO_ASAN gets the label
# `no-asan` in every build and, in a sanitizer build, records a skip with the
# reason instead of running.
#
# Cross-built configurations (aarch64-qemu preset): CTest would run the foreign
# bg-run under CMAKE_CROSSCOMPILING_EMULATOR, but bg-run under qemu-user never
# sees its child exit (it times out even on /bin/true), so tests run through a
# host bg-run instead: BG_HOST_RUN, by default built here at configure time
# with the host's cc from lib/host (libbuildgate's one function; needs the
# host's cJSON).
include(BuildgateSanitizers)
if(CMAKE_CROSSCOMPILING)
  set(BG_HOST_RUN "" CACHE FILEPATH "bg-run built for the build host (cross-built configurations)")
  if(NOT BG_HOST_RUN)
    set(bg_host_dir "${PROJECT_BINARY_DIR}/host")
    # no toolchain file, the host's cc: the build host's own bg-run
    execute_process(COMMAND ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR}/lib/host -B ${bg_host_dir}
                            -G ${CMAKE_GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=cc
                            -DCMAKE_TOOLCHAIN_FILE= -DBG_WERROR=${BG_WERROR}
                    COMMAND_ECHO NONE OUTPUT_VARIABLE bg_out ERROR_VARIABLE bg_err RESULT_VARIABLE bg_rc)
    if(bg_rc EQUAL 0)
      execute_process(COMMAND ${CMAKE_COMMAND} --build ${bg_host_dir}
                      OUTPUT_VARIABLE bg_out ERROR_VARIABLE bg_err RESULT_VARIABLE bg_rc)
    endif()
    if(NOT bg_rc EQUAL 0)
      message(FATAL_ERROR "buildgate: host bg-run: the build with the host's cc failed (install the host's "
                          "cc and libcjson-dev): ${bg_out}${bg_err}")
    endif()
    set(BG_HOST_RUN "${bg_host_dir}/bg-run" CACHE FILEPATH "bg-run built for the build host" FORCE)
  endif()
endif()

function(bg_add_test)
  cmake_parse_arguments(T "RUN_SERIAL" "NAME;SUITE;TIMEOUT;STALL"
                        "COMMAND;LABELS;ENVIRONMENT;FIXTURES_SETUP;FIXTURES_REQUIRED;FIXTURES_CLEANUP" ${ARGN})
  if(NOT T_NAME OR NOT T_SUITE OR NOT T_COMMAND)
    message(FATAL_ERROR "bg_add_test: NAME, SUITE and COMMAND are required")
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  # Self-tests are named <suite>.selftest.<case> and carry label selftest, both
  # or neither (docs/architecture.md "Self-tests"): ci/gate leaves them out by
  # label, readers of a report tell them apart by name.
  set(named_self FALSE)
  if(T_NAME MATCHES "^[a-z_]+\\.selftest\\.[A-Za-z0-9_+.-]+$")
    set(named_self TRUE)
  endif()
  set(labelled_self FALSE)
  if("selftest" IN_LIST T_LABELS)
    set(labelled_self TRUE)
  endif()
  if(NOT named_self STREQUAL labelled_self)
    message(FATAL_ERROR "bg_add_test: ${T_NAME}: a self-test is named <suite>.selftest.<case> "
                        "and has label selftest (one without the other here); use bg_add_selftest()")
  endif()
  if(BG_SANITIZE)
    math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${BG_SANITIZER_TIMEOUT_FACTOR}")
    if(T_STALL)
      math(EXPR T_STALL "${T_STALL} * ${BG_SANITIZER_TIMEOUT_FACTOR}")
    endif()
  endif()
  set(stall_args "")
  set(cap ${T_TIMEOUT})
  if(T_STALL)
    set(stall_args --stall ${T_STALL})
    math(EXPR cap "${T_TIMEOUT} * 4")  # bg-run's default --cap
  endif()
  bg_no_asan_reason(no_asan ${T_NAME})
  if(no_asan)
    list(APPEND T_LABELS no-asan)
    if(BG_SANITIZE)
      set(T_COMMAND ${PROJECT_SOURCE_DIR}/cmake/no_asan_skip.sh $<TARGET_FILE:bg-check>
                    ${T_SUITE} ${T_NAME} "${no_asan}")
    endif()
  endif()
  list(POP_FRONT T_COMMAND exe)
  if(TARGET ${exe})
    set(exe "$<TARGET_FILE:${exe}>")
    # Cross-built (aarch64-qemu preset): the host bg-run's exec of a foreign
    # binary needs the emulator (no binfmt_misc).
    if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
      set(exe ${CMAKE_CROSSCOMPILING_EMULATOR} "${exe}")
    endif()
  endif()
  set(runner bg-run)
  if(CMAKE_CROSSCOMPILING)
    set(runner "${BG_HOST_RUN}")
  endif()
  add_test(NAME ${T_NAME}
           COMMAND ${runner} --checks "${BG_CHECKS_DIR}/${T_NAME}.jsonl" --suite ${T_SUITE}
                   --test ${T_NAME} --timeout ${T_TIMEOUT} ${stall_args} -- ${exe} ${T_COMMAND})
  math(EXPR ctest_timeout "${cap} + 30")
  # the user runners this configure listed (BuildgateRunners.cmake) reach the
  # tools that resolve them at run time, even when empty: a value in ctest's
  # own environment never replaces them; ';' escaped inside the list
  string(REPLACE ";" "\\;" user_runners "BG_X86_RUNNERS=${BG_X86_RUNNERS}")
  bg_sanitizer_env(san_env)
  if(san_env)
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT_MODIFICATION "${san_env}")
  endif()
  set_tests_properties(${T_NAME} PROPERTIES
    SKIP_RETURN_CODE 77
    TIMEOUT ${ctest_timeout}
    LABELS "${T_LABELS}"
    ENVIRONMENT "BG_FIXTURES_DIR=${BG_FIXTURES_DIR};BG_SUITE=${T_SUITE};${user_runners};${T_ENVIRONMENT}")
  foreach(kind IN ITEMS SETUP REQUIRED CLEANUP)
    if(T_FIXTURES_${kind})
      set_tests_properties(${T_NAME} PROPERTIES FIXTURES_${kind} "${T_FIXTURES_${kind}}")
    endif()
  endforeach()
  if(T_RUN_SERIAL)
    set_tests_properties(${T_NAME} PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()

# bg_add_selftest(NAME <suite>.selftest.<case> SUITE <suite>
#                 [EXPECT bg-expect options...] COMMAND <exe-or-target> [args...]
#                 [TIMEOUT seconds] [ENVIRONMENT VAR=value...] [RUN_SERIAL])
#
# A self-test: proves that a check fails when it should (docs/architecture.md
# "Self-tests").  With EXPECT, COMMAND runs under the one self-test driver
# bg-expect (lib/tools/bg_expect.c) with those options, e.g.
#   EXPECT --exit 2 --stderr "buildgate: litmus-check:"
#          --check .forbidden --verdict fail --observed "per million"
# and the test records one check named NAME; without EXPECT, COMMAND is its
# own driver (a script that calls bg-expect).  Label selftest is added.
function(bg_add_selftest)
  cmake_parse_arguments(S "RUN_SERIAL" "NAME;SUITE;TIMEOUT" "EXPECT;COMMAND;ENVIRONMENT" ${ARGN})
  if(NOT S_NAME MATCHES "^[a-z_]+\\.selftest\\.")
    message(FATAL_ERROR "bg_add_selftest: '${S_NAME}' is not <suite>.selftest.<case>")
  endif()
  set(cmd ${S_COMMAND})
  if(S_EXPECT)
    list(POP_FRONT cmd exe)
    if(TARGET ${exe})
      set(exe "$<TARGET_FILE:${exe}>")
    endif()
    set(cmd bg-expect ${S_EXPECT} -- ${exe} ${cmd})
  endif()
  set(extra "")
  if(S_RUN_SERIAL)
    set(extra RUN_SERIAL)
  endif()
  if(S_TIMEOUT)
    list(APPEND extra TIMEOUT ${S_TIMEOUT})
  endif()
  if(S_ENVIRONMENT)
    list(APPEND extra ENVIRONMENT ${S_ENVIRONMENT})
  endif()
  bg_add_test(NAME ${S_NAME} SUITE ${S_SUITE} LABELS selftest ${extra} COMMAND ${cmd})
endfunction()

# bg_add_unavailable(NAME <test> SUITE <suite> LABELS l... EXPECTED <what it would
#                    check> CAUSE <why not, and the command that fixes it>)
#
# What this configuration cannot run is still a test: one skip check naming
# the cause and the fix, so report.md and ci/gate show the lost coverage
# instead of one configure line nobody reads (issue 12 §6 "silent loss of
# coverage"); the caller says it in its configure line too.  CAUSE must
# not contain ';' (a CMake list separator).
function(bg_add_unavailable)
  cmake_parse_arguments(T "" "NAME;SUITE;EXPECTED;CAUSE" "LABELS" ${ARGN})
  if(NOT T_NAME OR NOT T_SUITE OR NOT T_CAUSE OR NOT T_LABELS)
    message(FATAL_ERROR "bg_add_unavailable: NAME, SUITE, LABELS and CAUSE are required")
  endif()
  if(NOT T_EXPECTED)
    set(T_EXPECTED "${T_NAME} runs")
  endif()
  bg_add_test(NAME ${T_NAME} SUITE ${T_SUITE} LABELS ${T_LABELS} TIMEOUT 30
              COMMAND bg-check --suite ${T_SUITE} --name ${T_NAME} --verdict skip
                      --expected "${T_EXPECTED}" --observed "not run here: ${T_CAUSE}")
endfunction()

# bg_register_cli(<target> [MODES mode...])
#
# A user-facing CLI of this build: lib.unit.help_cli (lib/tests/help_test.sh)
# checks that it answers -h/--help and refuses an unknown option in one line,
# once per MODE too ("<target> <mode> --help", e.g. bg-perf compare).  Each
# suite registers its own CLIs where it creates them (a target this build
# does not create is simply not registered), so lib/tests names no suite
# target; lib/tests is configured after the suites to read the list.
function(bg_register_cli target)
  cmake_parse_arguments(C "" "" "MODES" ${ARGN})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "bg_register_cli: '${target}' is not a target of this build")
  endif()
  set_property(GLOBAL APPEND PROPERTY BG_CLIS "${target}")
  foreach(m IN LISTS C_MODES)
    set_property(GLOBAL APPEND PROPERTY BG_CLIS "${target}|${m}")
  endforeach()
endfunction()
