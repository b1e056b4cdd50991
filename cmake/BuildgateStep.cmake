# BuildgateStep — runs one step of a build variant without failing the build.
#
# cmake -DOUT=<variant dir> -DWHAT=<configure|build|probe-configure|probe-build>
#       [-DLABEL=<what the warning names>] -P BuildgateStep.cmake -- <command...>
# Output goes to <OUT>/<WHAT>.log and the wall time (s) to <OUT>/times.txt.
# When the command fails, <OUT>/<rx|probe>.FAILED gets one line
#   "<WHAT> failed (exit N): <first error line> (log: <OUT>/<WHAT>.log)"
# and the step exits 0, so other variants still build; the variant's tests
# report the line (suites/digest_agreement/builds/run_variant.sh).
# A step is skipped when an earlier stage of the variant failed.
set(cmd "")
set(seen FALSE)
foreach(i RANGE 1 ${CMAKE_ARGC})
  if(seen AND DEFINED CMAKE_ARGV${i})
    list(APPEND cmd "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(seen TRUE)
  endif()
endforeach()
if(WHAT MATCHES "^probe")
  set(stage probe)
else()
  set(stage rx)
endif()
if(WHAT STREQUAL "configure")
  file(REMOVE "${OUT}/rx.FAILED" "${OUT}/probe.FAILED")
elseif(WHAT STREQUAL "probe-configure")
  file(REMOVE "${OUT}/probe.FAILED")
endif()
if(EXISTS "${OUT}/rx.FAILED" OR (stage STREQUAL "probe" AND EXISTS "${OUT}/probe.FAILED"))
  return()
endif()
file(MAKE_DIRECTORY "${OUT}")
string(TIMESTAMP t0 "%s")
execute_process(COMMAND ${cmd} OUTPUT_FILE "${OUT}/${WHAT}.log" ERROR_FILE "${OUT}/${WHAT}.log"
                RESULT_VARIABLE rc)
string(TIMESTAMP t1 "%s")
math(EXPR dt "${t1} - ${t0}")
file(APPEND "${OUT}/times.txt" "${WHAT} ${dt}\n")
if(NOT rc EQUAL 0)
  file(STRINGS "${OUT}/${WHAT}.log" errs REGEX "(error:|Error:|CMake Error|FAILED:)")
  set(first "no error line in the log")
  if(errs)
    list(GET errs 0 first)
    string(STRIP "${first}" first)
  endif()
  file(WRITE "${OUT}/${stage}.FAILED" "${WHAT} failed (exit ${rc}): ${first} (log: ${OUT}/${WHAT}.log)\n")
  if(NOT LABEL)
    get_filename_component(v "${OUT}" NAME)
    set(LABEL "build variant ${v}")
  endif()
  message(WARNING "buildgate: ${LABEL}: ${WHAT} failed (exit ${rc}): ${first}")
endif()
