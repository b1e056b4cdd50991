# BuildgateSanitizers — tests of a sanitizer build (the asan preset: ASan +
# UBSan, Debug; docs/ci.md "Sanitizers").  Included by BuildgateTest.cmake.
#
#   BG_SANITIZE        TRUE when CMAKE_C_FLAGS has -fsanitize=address or
#                      -fsanitize=undefined (a sanitizer build), else FALSE
#   BG_NO_ASAN         the tests that cannot run under the sanitizers: one
#                      "<regex on the test name> | <reason>" per entry (split
#                      at the first " | ", spaces around the bar; below;
#                      docs/ci.md lists them).  bg_add_test gives each one the
#                      CTest label `no-asan` in every build; in a sanitizer build
#                      it records a skip with the reason instead of running it.
#   BG_SANITIZER_TIMEOUT_FACTOR  a sanitizer build multiplies every test's
#                      TIMEOUT by it (default 3: Debug -O0 with ASan + UBSan
#                      runs our code several times slower; RandomX's own code,
#                      not instrumented, is at Debug speed)
#   bg_sanitizer_env(<out>)         the ENVIRONMENT_MODIFICATION entries of a test
#                                   in a sanitizer build ("" otherwise)
#   bg_no_asan_reason(<out> <name>) the reason <name> cannot run under the
#                                   sanitizers, "" when it can
set(BG_SANITIZE FALSE)
if(CMAKE_C_FLAGS MATCHES "-fsanitize=[^ ]*(address|undefined)")
  set(BG_SANITIZE TRUE)
endif()

set(BG_SANITIZER_TIMEOUT_FACTOR 3 CACHE STRING
    "Sanitizer builds: every test's TIMEOUT is multiplied by this (cmake/BuildgateSanitizers.cmake)")
if(NOT BG_SANITIZER_TIMEOUT_FACTOR MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "buildgate: BG_SANITIZER_TIMEOUT_FACTOR: '${BG_SANITIZER_TIMEOUT_FACTOR}' is not a positive whole number")
endif()

# The sanitizers' run-time options, ahead of the user's own (a later option
# wins, so ASAN_OPTIONS/UBSAN_OPTIONS in the environment can still override):
#   halt_on_error=1    stop at the first finding (ASan's default; UBSan's with
#                      -fno-sanitize-recover=all, which the preset compiles in)
#   abort_on_error=1   a finding ends the process with SIGABRT, which bg-run
#                      records as a crash: never exit 1, which a self-test
#                      expecting a tool's `fail` exit could take for its answer
#   detect_leaks=1     LeakSanitizer at exit (Linux; macOS's ASan has none):
#                      the tools are short-lived, a leak is a missing free
#   print_stacktrace=1 UBSan prints where (its default is the line only)
#   disable_coredump=1 no core file per finding in the build tree
#   LSAN_OPTIONS suppressions: cmake/sanitizers/lsan.supp, third-party leaks only,
#                      each with its reason (RandomX's randomx_alloc_cache)
set(_bg_leaks ":detect_leaks=1")
if(APPLE)
  set(_bg_leaks "")
endif()
set(BG_ASAN_OPTIONS "halt_on_error=1:abort_on_error=1:disable_coredump=1${_bg_leaks}")
set(BG_UBSAN_OPTIONS "halt_on_error=1:abort_on_error=1:print_stacktrace=1:disable_coredump=1")

function(bg_sanitizer_env out)
  set(env "")
  if(BG_SANITIZE)
    set(env "ASAN_OPTIONS=string_prepend:${BG_ASAN_OPTIONS}:"
            "UBSAN_OPTIONS=string_prepend:${BG_UBSAN_OPTIONS}:"
            "LSAN_OPTIONS=string_prepend:suppressions=${PROJECT_SOURCE_DIR}/cmake/sanitizers/lsan.supp:")
  endif()
  set(${out} "${env}" PARENT_SCOPE)
endfunction()

# Tests that cannot run under ASan/UBSan, each with its reason.
set(BG_NO_ASAN
  "^digest\\.selftest\\.wx_host$ | W+X LD_PRELOAD: the sanitizer runtime must be the first library loaded, so the test's deny_wx.so cannot be preloaded"
  "^perf\\.selftest\\.wx_host_ | W+X LD_PRELOAD: the sanitizer runtime must be the first library loaded, so bg-deny-wx cannot be preloaded"
  "^(nan|memory_order)\\.(selftest\\.)?valgrind(-trixie)?\\. | valgrind cannot run an ASan binary (the x86-64 probe of this build): ASan's runtime must come first in the library list and its shadow memory does not fit valgrind's address space"
  "^(nan|memory_order)\\.qemu-x86_64(-trixie)?\\. | qemu-x86_64 cannot run an ASan binary (the x86-64 probe of this build) in time: mapping ASan's terabytes of shadow memory in the guest times out (240 s)"
  "^nan\\.selftest\\.known_removed$ | it runs the x86-64 probe of this build (ASan) under qemu-x86_64, which does not finish in time (ASan's shadow memory in the guest)"
  "^perf\\.xratio\\.qemu_quick$ | it runs xkern of this build (ASan) under qemu-x86_64: the same shadow-memory cost as the nan rows (here still on its first kernel after 90 s)"
  "^perf\\.(callgrind\\.aa|selftest\\.callgrind_) | valgrind (callgrind) cannot run an ASan binary (perf-bench of this build)"
  "^nan\\.selftest\\.(mutant_initial|mutant_ymm_(lose|leak|stale))$ | its mutant runner LD_PRELOADs a library into the x86-64 probe of this build: the sanitizer runtime must be the first library loaded (\"ASan runtime does not come first in initial library list\")"
  "^nan\\.selftest\\.known_new_(op|context)$ | it runs the x86-64 probe of this build (ASan) under the real valgrind, which cannot run an ASan binary"
  "^nan\\.selftest\\.qemu_minmax_value$ | it runs the x86-64 probe of this build (ASan) under qemu-x86_64, which does not finish in time (ASan's shadow memory in the guest)"
)

function(bg_no_asan_reason out name)
  set(${out} "" PARENT_SCOPE)
  foreach(entry IN LISTS BG_NO_ASAN)
    string(FIND "${entry}" " | " at)
    string(SUBSTRING "${entry}" 0 ${at} re)
    math(EXPR at "${at} + 3")
    string(SUBSTRING "${entry}" ${at} -1 why)
    if(name MATCHES "${re}")
      set(${out} "${why}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()
