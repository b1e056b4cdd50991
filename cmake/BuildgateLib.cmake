# libbuildgate, built by one function wherever it is needed: the main build
# (lib/CMakeLists.txt), the digest variant probe (another RandomX and maybe
# another toolchain: suites/digest_agreement/builds/probe), the nan_semantics
# x86-64 guest (suites/nan_semantics/guest/NanGuest.cmake) and, in a cross build, the
# host's bg-run (lib/host/CMakeLists.txt, cmake/BuildgateTest.cmake).
#
# bg_add_libbuildgate(<target> [GUEST])
#   A static library of lib/src/<module>.c with lib/include as its public
#   include directory.  Default: every module, linked with cJSON (bg::cjson,
#   cmake/BuildgateDeps.cmake) and libm.  GUEST: only the modules a guest
#   program uses, libc only (no cJSON), so it builds for any target the
#   compiler has a libc for.  C11 without extensions; warnings: bg_target_warnings
#   (include BuildgateWarnings first).
#
# bg_add_bench_wrapper(<target>)
#   The C interface to Google Benchmark (lib/src/bg_bench.cc, bg_bench.h): the
#   project's only C++ file, a static library linking benchmark::benchmark
#   (call only when that target exists, with CXX enabled).  The main build's buildgate_bench
#   (lib/CMakeLists.txt) and the variant probe's (each build variant's
#   perf-bench, the perf suite's variant table: docs/perf_budgets.md).
get_filename_component(_bg_lib_dir "${CMAKE_CURRENT_LIST_DIR}/../lib" ABSOLUTE)
set(BG_LIB_MODULES bg_error bg_file bg_fixtures bg_check bg_help bg_hex bg_json bg_cpu bg_fragment bg_known
                   bg_host bg_parse bg_proc bg_progress bg_proposed bg_runner bg_stats bg_changepoint bg_guard bg_wx)
set(BG_LIB_GUEST_MODULES bg_error bg_cpu bg_hex bg_wx)

function(bg_add_libbuildgate target)
  cmake_parse_arguments(L "GUEST" "" "" ${ARGN})
  set(modules ${BG_LIB_MODULES})
  if(L_GUEST)
    set(modules ${BG_LIB_GUEST_MODULES})
  endif()
  list(TRANSFORM modules PREPEND "${_bg_lib_dir}/src/")
  list(TRANSFORM modules APPEND ".c")
  add_library(${target} STATIC ${modules})
  target_include_directories(${target} PUBLIC "${_bg_lib_dir}/include")
  set_target_properties(${target} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  if(NOT L_GUEST)
    target_link_libraries(${target} PUBLIC bg::cjson m)
  endif()
  bg_target_warnings(${target})
endfunction()

function(bg_add_bench_wrapper target)  # (CXX enabled by the caller: enable_language is file-scope only)
  add_library(${target} STATIC "${_bg_lib_dir}/src/bg_bench.cc")
  set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
  target_include_directories(${target} PUBLIC "${_bg_lib_dir}/include")
  target_link_libraries(${target} PUBLIC benchmark::benchmark)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra $<$<BOOL:${BG_WERROR}>:-Werror>)
  endif()
endfunction()
