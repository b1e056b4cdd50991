# Self-test helper (cache_selftest.sh): prints "key=<key>" for one variant's
# build cache key, computed as bg_randomx_build() does (BuildgateRandomXKey.cmake).
# cmake -DROOT=<repo> -DWORK=<scratch dir> -DSOURCE_ID=<id> [-DPATCH=<file>]
#       [-DFLAGS=<flags>] [-DTEXT_OUT=<file>] -P cache_key_probe.cmake
cmake_minimum_required(VERSION 3.25)
set(CMAKE_BINARY_DIR "${WORK}")
list(APPEND CMAKE_MODULE_PATH "${ROOT}/cmake")
include(BuildgateRandomXKey)
bg_randomx_compilers(cc cxx "")
bg_randomx_cache_key(key text SOURCE_ID "${SOURCE_ID}" PATCHES ${PATCH} ARCH_ARG default
                     BUILD_TYPE Release FLAGS "-O3 -DNDEBUG ${FLAGS}" C_COMPILER "${cc}"
                     CXX_COMPILER "${cxx}")
if(TEXT_OUT)
  file(WRITE "${TEXT_OUT}" "${text}")
endif()
message("key=${key}")
