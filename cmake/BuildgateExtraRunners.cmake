# BuildgateExtraRunners.cmake — second versions of the x86-64 runners, fetched
# by `ci/provision --trixie-runners` (ci/extra-runners) from Debian's trixie
# suite into ${BG_RUNNERS_CACHE}/trixie (docs/nan_semantics.md "Runner versions").
#
# The one place that knows them; the nan_semantics and memory_order suites loop
# over BG_EXTRA_RUNNERS.  Per runner <r>:
#   BG_EXTRA_<r>_COMMAND  the tool's command words (a suite appends the options
#                         it gives the built-in runner of that tool)
#   BG_EXTRA_<r>_KNOWN    the tool (qemu-x86_64, valgrind) whose known-deviation
#                         lists apply: version-scoped lines of known/<tool>.tsv
#                         and of expectations.json "known_deviations"
#   BG_EXTRA_<r>_MISSING  "" when present, else the skip reason naming the fetch
# Absent binaries are noticed at configure time: reconfigure after fetching.
set(BG_RUNNERS_CACHE "${PROJECT_SOURCE_DIR}/build/cache/runners" CACHE PATH
    "Where ci/extra-runners unpacks extra runner versions (trixie/usr/...)")
set(_t "${BG_RUNNERS_CACHE}/trixie/usr")
set(_fetch "not fetched: run ci/provision --trixie-runners (Debian/Ubuntu x86-64), then reconfigure")
set(BG_EXTRA_RUNNERS "")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(BG_EXTRA_RUNNERS qemu-x86_64-trixie valgrind-trixie)
endif()

# name tool program command-words...
macro(_bg_extra_runner name tool program)
  set(BG_EXTRA_${name}_COMMAND ${ARGN})
  set(BG_EXTRA_${name}_KNOWN ${tool})
  set(BG_EXTRA_${name}_MISSING "")
  if(NOT EXISTS "${program}")
    set(BG_EXTRA_${name}_MISSING "${program} ${_fetch}")
  endif()
endmacro()
_bg_extra_runner(qemu-x86_64-trixie qemu-x86_64 "${_t}/bin/qemu-x86_64" "${_t}/bin/qemu-x86_64")
_bg_extra_runner(valgrind-trixie valgrind "${_t}/bin/valgrind"
                 env "VALGRIND_LIB=${_t}/libexec/valgrind" "${_t}/bin/valgrind")
foreach(_r IN LISTS BG_EXTRA_RUNNERS)
  if(BG_EXTRA_${_r}_MISSING)
    message(STATUS "buildgate: extra runner ${_r}: ${BG_EXTRA_${_r}_MISSING}")
  else()
    message(STATUS "buildgate: extra runner ${_r}: ${BG_EXTRA_${_r}_COMMAND}")
  endif()
endforeach()
