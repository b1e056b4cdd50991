# BuildgateFuzz.cmake — libFuzzer targets for every parser of stored or foreign
# data (docs/fuzzing.md).
#
# The fuzz executables need clang's libFuzzer with ASan + UBSan, and every
# library they link instrumented, so they live in a build tree of their own:
# <build>/fuzz, configured by this build (ExternalProject) with clang and
# -DBG_FUZZ_BUILD=ON, which instruments everything it compiles
# (-fsanitize=fuzzer-no-link,address,undefined) and builds only `bg-fuzz-all`.
# The tests are defined here, in the ordinary build, whatever its compiler:
#   <prefix>.fuzz.<target>         label fuzz: BG_FUZZ_SECONDS (12 s) of fuzzing
#                                 from the committed seeds + regression inputs
#   <prefix>.fuzz_replay.<target>  label unit: each seed and regression input once
#   <prefix>.fuzz_long.<target>    label long: BG_FUZZ_LONG_SECONDS (600 s)
# Without clang + libFuzzer (Debian: clang, libclang-rt-14-dev; ci/provision)
# or with -DBG_FUZZ=OFF each is a skip naming the cause.
#
# bg_add_fuzz_target(NAME <target> SUITE <suite> [PREFIX <test prefix>]
#                    [SOURCES <files>] [LIBS <targets>] [SEEDS <files>] [SELFTEST])
#   in the folder <dir>/fuzz/ of the parser's owner: fuzz_<target>.c,
#   corpus/<target>/ (seeds), regress/<target>/ (inputs that once crashed),
#   SEEDS: more seed files used where they are (the stored fixtures themselves),
#   and the JSON dictionary lib/fuzz/json.dict for targets whose NAME does not
#   end in _tsv / _env.  SELFTEST: a deliberately crashing target whose one
#   test, <prefix>.selftest.fuzz_crash (label selftest), asserts that the fuzz
#   check fails on it (lib/fuzz/fuzz_selftest.sh).
option(BG_FUZZ "libFuzzer targets of the parsers (needs clang + libFuzzer; docs/fuzzing.md)" ON)
option(BG_FUZZ_BUILD "internal: this tree is the instrumented fuzz build (set by BuildgateFuzz)" OFF)
set(BG_FUZZ_SECONDS 12 CACHE STRING "seconds of fuzzing per target in the label-fuzz tests")
set(BG_FUZZ_LONG_SECONDS 600 CACHE STRING "seconds of fuzzing per target in the label-long tests")
set(BG_FUZZ_PACKAGES "clang libclang-rt-14-dev (Debian 12; ci/provision installs them)")

set(bg_fuzz_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined
                  -fno-omit-frame-pointer)
set(bg_fuzz_dir "")     # where the fuzz executables are, or empty (skip)
set(bg_fuzz_why "")
if(BG_FUZZ_BUILD)
  add_compile_options(-fsanitize=fuzzer-no-link ${bg_fuzz_flags})
  add_link_options(${bg_fuzz_flags})
  add_custom_target(bg-fuzz-all)
elseif(NOT BG_FUZZ)
  set(bg_fuzz_why "the fuzz targets are disabled (-DBG_FUZZ=OFF)")
elseif(CMAKE_CROSSCOMPILING)
  set(bg_fuzz_why "not in a cross build (fuzz on the build host)")
else()
  find_program(BG_FUZZ_CLANG NAMES clang clang-14 clang-15 clang-16 clang-17 clang-18
               DOC "clang with libFuzzer, for the fuzz build (<build>/fuzz)")
  if(NOT BG_FUZZ_CLANG)
    set(bg_fuzz_why "no clang found: install ${BG_FUZZ_PACKAGES}")
  else()
    # Does this clang link a libFuzzer target with ASan + UBSan?
    set(probe_dir "${PROJECT_BINARY_DIR}/CMakeFiles/bg-fuzz-probe")
    file(WRITE "${probe_dir}/probe.c"
         "#include <stddef.h>\n#include <stdint.h>\n"
         "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
    execute_process(COMMAND "${BG_FUZZ_CLANG}" -fsanitize=fuzzer,address,undefined
                            "${probe_dir}/probe.c" -o "${probe_dir}/probe"
                    RESULT_VARIABLE probe_rc OUTPUT_QUIET ERROR_VARIABLE probe_err)
    if(NOT probe_rc EQUAL 0)
      set(bg_fuzz_why "${BG_FUZZ_CLANG} cannot link -fsanitize=fuzzer: install ${BG_FUZZ_PACKAGES}")
    else()
      include(ExternalProject)
      set(bg_fuzz_tree "${PROJECT_BINARY_DIR}/fuzz")
      set(bg_fuzz_dir "${bg_fuzz_tree}/fuzz-bin")
      ExternalProject_Add(bg-fuzz
        SOURCE_DIR "${PROJECT_SOURCE_DIR}"
        BINARY_DIR "${bg_fuzz_tree}"
        CMAKE_ARGS -DCMAKE_C_COMPILER=${BG_FUZZ_CLANG} -DCMAKE_BUILD_TYPE=RelWithDebInfo
                   -DBG_WERROR=${BG_WERROR} -DBG_FUZZ_BUILD=ON -DBG_RANDOMX_SOURCE=system
        BUILD_COMMAND ${CMAKE_COMMAND} --build "${bg_fuzz_tree}" --target bg-fuzz-all
        INSTALL_COMMAND ""
        BUILD_ALWAYS TRUE
        STEP_TARGETS build)
      message(STATUS "buildgate: fuzz targets: built with ${BG_FUZZ_CLANG} in ${bg_fuzz_tree}")
    endif()
  endif()
endif()
if(bg_fuzz_why)
  message(STATUS "buildgate: fuzz targets: skipped: ${bg_fuzz_why}")
endif()

function(bg_add_fuzz_target)
  cmake_parse_arguments(F "SELFTEST" "NAME;SUITE;PREFIX" "SOURCES;LIBS;SEEDS" ${ARGN})
  if(NOT F_PREFIX)
    set(F_PREFIX ${F_SUITE})
  endif()
  set(here "${CMAKE_CURRENT_SOURCE_DIR}")
  if(BG_FUZZ_BUILD)
    add_executable(fuzz-${F_NAME} fuzz_${F_NAME}.c ${F_SOURCES})
    target_include_directories(fuzz-${F_NAME} PRIVATE "${PROJECT_SOURCE_DIR}/lib/fuzz" "${here}/..")
    target_link_libraries(fuzz-${F_NAME} PRIVATE ${F_LIBS} buildgate)
    target_link_options(fuzz-${F_NAME} PRIVATE -fsanitize=fuzzer)
    set_target_properties(fuzz-${F_NAME} PROPERTIES
                          RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/fuzz-bin")
    bg_target_warnings(fuzz-${F_NAME})
    add_dependencies(bg-fuzz-all fuzz-${F_NAME})
    return()
  endif()
  set(exe "-")
  set(why "-")
  if(bg_fuzz_why)
    set(why "${bg_fuzz_why}")
  endif()
  if(bg_fuzz_dir)
    set(exe "${bg_fuzz_dir}/fuzz-${F_NAME}")
  endif()
  # "-" for an empty argument: bg_add_test's argument parsing drops empty ones
  set(dict "-")
  if(NOT F_NAME MATCHES "_(tsv|env)$")
    set(dict "${PROJECT_SOURCE_DIR}/lib/fuzz/json.dict")
  endif()
  set(script "${PROJECT_SOURCE_DIR}/lib/fuzz/fuzz_run.sh")
  set(work "${PROJECT_BINARY_DIR}/fuzz-work/${F_NAME}")
  if(F_SELFTEST)
    bg_add_test(NAME ${F_PREFIX}.selftest.fuzz_crash SUITE ${F_SUITE} LABELS selftest TIMEOUT 120
                COMMAND sh "${here}/fuzz_selftest.sh" $<TARGET_FILE:bg-check> ${script}
                        "${exe}" "${why}" 0 "${work}-selftest" "${here}/corpus/${F_NAME}"
                        "${here}/regress/${F_NAME}" -)
    return()
  endif()
  foreach(mode IN ITEMS run replay long)
    if(mode STREQUAL "run")
      set(name ${F_PREFIX}.fuzz.${F_NAME})
      set(label fuzz)
      set(secs ${BG_FUZZ_SECONDS})
    elseif(mode STREQUAL "replay")
      set(name ${F_PREFIX}.fuzz_replay.${F_NAME})
      set(label unit)
      set(secs 0)
    else()
      set(name ${F_PREFIX}.fuzz_long.${F_NAME})
      set(label long)
      set(secs ${BG_FUZZ_LONG_SECONDS})
    endif()
    math(EXPR timeout "${secs} + 120")
    bg_add_test(NAME ${name} SUITE ${F_SUITE} LABELS ${label} TIMEOUT ${timeout}
                COMMAND sh ${script} $<TARGET_FILE:bg-check> "${exe}" "${why}" ${secs}
                        "${work}-${mode}" "${here}/corpus/${F_NAME}" "${here}/regress/${F_NAME}"
                        "${dict}" ${F_SEEDS})
  endforeach()
endfunction()
