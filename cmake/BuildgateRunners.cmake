# The runner registry at configure time (docs/architecture.md "Runner registry").
#
# The registry is lib/include/buildgate/bg_runners.def (+ BG_X86_RUNNERS); the
# C code that resolves it (lib/src/bg_runner.c) is compiled here for the build
# host as bg-runner and run once with --list, so CMake knows the same runners,
# the same availability and the same reasons as the tools at run time.
#
# After include(BuildgateRunners):
#   BG_RUNNERS                   every runner name, registry order (built-in, then user)
#   BG_RUNNER_<name>_GUEST       x86_64, arm64 or host
#   BG_RUNNER_<name>_OK          TRUE when usable on this host
#   BG_RUNNER_<name>_WHY         the reason when not (one line)
#   BG_RUNNER_<name>_REFUSED     TRUE when not usable because its version line holds no
#                                version number (bg_runner.h BG_E_PARSE): a suite makes a
#                                test that fails with that line, never a skip
#   BG_RUNNER_<name>_TRAITS      list (e.g. serial; user for BG_X86_RUNNERS entries)
#   bg_runners(<var> GUEST <arch>...)  the names whose guest is one of <arch>
# A malformed or duplicate BG_X86_RUNNERS entry stops the configure with its line.
# BG_RUNNER_DIR: the one runner directory; ci/extra-runners (ci/provision
# --trixie-runners) unpacks into it, with the same default and $BG_RUNNER_DIR.
set(_bg_rdir_default "${PROJECT_SOURCE_DIR}/build/cache/runners")
if(DEFINED ENV{BG_RUNNER_DIR} AND NOT "$ENV{BG_RUNNER_DIR}" STREQUAL "")
  set(_bg_rdir_default "$ENV{BG_RUNNER_DIR}")
endif()
set(BG_RUNNER_DIR "${_bg_rdir_default}" CACHE PATH
    "The {dir} of runner programs given by path in lib/include/buildgate/bg_runners.def ($BG_RUNNER_DIR overrides at run time)")
# BG_X86_RUNNERS: the environment, when it is set (even empty), wins at every
# configure, so "BG_X86_RUNNERS=... ci/gate" on an existing build tree gets the
# runners it names (a cache that kept the first configure's value made new
# entries silently test nothing); -DBG_X86_RUNNERS=... or the cache otherwise.
# The tests' environment is pinned to this value (bg_add_test), so what a test
# resolves at run time is what this configure listed and checked.
set(BG_X86_RUNNERS "$ENV{BG_X86_RUNNERS}" CACHE STRING
    "Extra runners of x86-64 programs: name=command words;name2=... (the environment variable wins when set)")
if(DEFINED ENV{BG_X86_RUNNERS})
  set(BG_X86_RUNNERS "$ENV{BG_X86_RUNNERS}" CACHE STRING
      "Extra runners of x86-64 programs: name=command words;name2=... (the environment variable wins when set)" FORCE)
endif()

set(_bg_rdir "${PROJECT_BINARY_DIR}/host")
set(_bg_runner "${_bg_rdir}/bg-runner")
set(_bg_rsrc tools/bg_runner_main.c src/bg_runner.c src/bg_proc.c src/bg_progress.c src/bg_cpu.c src/bg_error.c src/bg_help.c)
list(TRANSFORM _bg_rsrc PREPEND "${PROJECT_SOURCE_DIR}/lib/")
set(_bg_rcc "${CMAKE_C_COMPILER}")
if(CMAKE_CROSSCOMPILING)
  set(_bg_rcc cc) # the build host's compiler: the list describes the host that runs ctest
endif()
file(MAKE_DIRECTORY "${_bg_rdir}")
execute_process(COMMAND ${_bg_rcc} -std=c11 -O1 -I${PROJECT_SOURCE_DIR}/lib/include
                        "-DBG_RUNNER_DIR_DEFAULT=\"${BG_RUNNER_DIR}\"" ${_bg_rsrc} -o ${_bg_runner}
                RESULT_VARIABLE _bg_rc ERROR_VARIABLE _bg_err)
if(NOT _bg_rc EQUAL 0)
  message(FATAL_ERROR "buildgate: host bg-runner: ${_bg_rcc} failed: ${_bg_err}")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${PROJECT_SOURCE_DIR}/lib/include/buildgate/bg_runners.def" ${_bg_rsrc})
execute_process(COMMAND ${CMAKE_COMMAND} -E env "BG_X86_RUNNERS=${BG_X86_RUNNERS}"
                        "BG_RUNNER_DIR=${BG_RUNNER_DIR}" ${_bg_runner} --list
                RESULT_VARIABLE _bg_rc OUTPUT_VARIABLE _bg_out ERROR_VARIABLE _bg_err
                ERROR_STRIP_TRAILING_WHITESPACE)
if(NOT _bg_rc EQUAL 0)
  message(FATAL_ERROR "${_bg_err}")
endif()

set(BG_RUNNERS "")
string(REPLACE "\n" ";" _bg_lines "${_bg_out}")
foreach(_bg_line IN LISTS _bg_lines)
  if(_bg_line STREQUAL "" OR _bg_line MATCHES "^#")
    continue()
  endif()
  string(REPLACE "\t" ";" _bg_f "${_bg_line}")
  list(GET _bg_f 0 _bg_name)
  list(GET _bg_f 1 BG_RUNNER_${_bg_name}_GUEST)
  list(GET _bg_f 2 _bg_status)
  list(GET _bg_f 3 _bg_traits)
  list(GET _bg_f 4 BG_RUNNER_${_bg_name}_KNOWN) # the tool's known file: rows of one tool share it
  list(GET _bg_f 5 _bg_detail)
  string(REPLACE " " ";" BG_RUNNER_${_bg_name}_TRAITS "${_bg_traits}")
  list(REMOVE_ITEM BG_RUNNER_${_bg_name}_TRAITS "-")
  set(BG_RUNNER_${_bg_name}_WHY "")
  set(BG_RUNNER_${_bg_name}_REFUSED FALSE)
  if(_bg_status STREQUAL "refused")
    set(BG_RUNNER_${_bg_name}_REFUSED TRUE)
  endif()
  if(_bg_status STREQUAL "ok")
    set(BG_RUNNER_${_bg_name}_OK TRUE)
  else()
    set(BG_RUNNER_${_bg_name}_OK FALSE)
    set(BG_RUNNER_${_bg_name}_WHY "${_bg_detail}")
  endif()
  list(APPEND BG_RUNNERS ${_bg_name})
endforeach()
message(STATUS "buildgate: runners: ${BG_RUNNERS}")

# bg_runners(<var> GUEST <arch>...): the runners whose guest is one of <arch>.
function(bg_runners var)
  cmake_parse_arguments(R "" "" "GUEST" ${ARGN})
  set(out "")
  foreach(name IN LISTS BG_RUNNERS)
    if(BG_RUNNER_${name}_GUEST IN_LIST R_GUEST)
      list(APPEND out ${name})
    endif()
  endforeach()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()
