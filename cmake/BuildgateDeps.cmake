# Dependency discovery, once, for every suite (and for the sub-projects that
# build buildgate code with another toolchain).  Each dependency is an imported
# target; suites test `if(TARGET ...)` and never call find_library/find_path.
#   bg::cjson        cJSON (Debian libcjson-dev, Homebrew cjson); required.
#   bg::yaml         libyaml (Debian libyaml-dev, Homebrew libyaml); optional:
#                    without it bg-workflow-lint (ci/lint) is not built.
#   RandomX::RandomX the installed RandomX (cmake/FindRandomX.cmake: also
#                    RandomX_FOUND, RandomX_VERSION, RandomX_HAS_V2); optional:
#                    without it the digest suite and perf's randomx/* benchmarks are left out.
#   bg::capstone     Capstone (Debian libcapstone-dev, Homebrew capstone); optional:
#                    bg-jit-compare and the variant probes' bg-aes-insns need it.
#   benchmark::benchmark  Google Benchmark's own CMake package (libbenchmark-dev,
#                    Homebrew google-benchmark); optional: lib's bg_bench and perf_budgets.
# BG_DEPS (set before the include; default: all of cjson yaml randomx capstone
# benchmark) limits the lookup, e.g. the variant probe, which links its own
# RandomX, sets `cjson capstone`.
if(NOT DEFINED BG_DEPS)
  set(BG_DEPS cjson yaml randomx capstone benchmark)
endif()

# _bg_dep_library(<target> <header> <library name>): an UNKNOWN IMPORTED
# target when both are found (cache: BG_<NAME>_INCLUDE_DIR, BG_<NAME>_LIBRARY).
function(_bg_dep_library target header lib)
  string(TOUPPER "${lib}" up)
  find_path(BG_${up}_INCLUDE_DIR ${header})
  find_library(BG_${up}_LIBRARY NAMES ${lib})
  if(BG_${up}_INCLUDE_DIR AND BG_${up}_LIBRARY AND NOT TARGET ${target})
    add_library(${target} UNKNOWN IMPORTED)
    set_target_properties(${target} PROPERTIES
      IMPORTED_LOCATION "${BG_${up}_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${BG_${up}_INCLUDE_DIR}")
  endif()
endfunction()

if("cjson" IN_LIST BG_DEPS)
  _bg_dep_library(bg::cjson cjson/cJSON.h cjson)
  if(NOT TARGET bg::cjson)
    message(FATAL_ERROR "buildgate: cJSON not found: install libcjson-dev (Debian/Ubuntu) "
                        "or cjson (Homebrew), or run ci/provision")
  endif()
endif()
if("yaml" IN_LIST BG_DEPS)
  _bg_dep_library(bg::yaml yaml.h yaml)
endif()
if("capstone" IN_LIST BG_DEPS)
  _bg_dep_library(bg::capstone capstone/capstone.h capstone)
endif()
if("randomx" IN_LIST BG_DEPS)
  find_package(RandomX)
endif()
if("benchmark" IN_LIST BG_DEPS)
  find_package(benchmark QUIET)
endif()
