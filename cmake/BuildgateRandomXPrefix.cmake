# BuildgateRandomXPrefix — the host's "system" RandomX built from the verified
# source tarball, for hosts whose package manager has no RandomX (macOS:
# Homebrew has no formula).  Run by ci/provision --randomx-source on Darwin:
#
#   cmake -DTARBALL=<cache>/librandomx_<v>.orig.tar.gz -DROOT=<repo> -P BuildgateRandomXPrefix.cmake
#
# TARBALL must have its <TARBALL>.sha256 beside it (ci/randomx-source wrote and
# checked it); the hash is checked again here.  The library is built ONCE per
# key through the RandomX build cache (cmake/BuildgateRandomXCache.cmake; the
# key of cmake/BuildgateRandomXKey.cmake: tarball SHA-256, ARCH=default,
# Release, compilers, CMake, host), i.e. into
#   <BG_RANDOMX_BUILD_CACHE, default <repo>/build/cache/randomx-builds>/<key>/
#     include/randomx.h, lib/librandomx.a, key.txt, stamp
# which is a prefix FindRandomX accepts as RandomX_ROOT.  Its path is written to
#   <repo>/build/cache/randomx-prefix.path
# which cmake/FindRandomX.cmake (APPLE) takes as RandomX_ROOT.
# ARCH=default: RandomX adds -march=armv8-a+crypto on arm64 (never ARCH=native:
# docs/ci.md "macOS", the Apple clang -march=native HARD_AES trap).
# Exit: 0 built or present; non-zero with one line `buildgate: ...` otherwise.
cmake_minimum_required(VERSION 3.25)
if(NOT TARBALL OR NOT ROOT)
  message(FATAL_ERROR "buildgate: randomx prefix: -DTARBALL=<tarball> -DROOT=<repo> are required")
endif()
if(NOT EXISTS "${TARBALL}.sha256")
  message(FATAL_ERROR "buildgate: randomx prefix: ${TARBALL}.sha256 missing (run ci/randomx-source)")
endif()
file(READ "${TARBALL}.sha256" line)
string(REGEX MATCH "^[0-9a-f]+" want "${line}")
file(SHA256 "${TARBALL}" have)
if(NOT have STREQUAL want)
  message(FATAL_ERROR "buildgate: randomx prefix: ${TARBALL}: SHA-256 ${have}, ${TARBALL}.sha256 says ${want}: not built")
endif()

list(APPEND CMAKE_MODULE_PATH "${ROOT}/cmake")
set(CMAKE_BINARY_DIR "${ROOT}/build/cache/randomx-prefix-work")  # the key's scratch files
include(BuildgateRandomXKey)
# script mode leaves the host processor empty: the key's "host" line names it
cmake_host_system_information(RESULT CMAKE_HOST_SYSTEM_PROCESSOR QUERY OS_PLATFORM)
set(cache_dir "${ROOT}/build/cache/randomx-builds")
if(NOT "$ENV{BG_RANDOMX_BUILD_CACHE}" STREQUAL "")
  set(cache_dir "$ENV{BG_RANDOMX_BUILD_CACHE}")
endif()
set(work "${CMAKE_BINARY_DIR}")
get_filename_component(name "${TARBALL}" NAME)

bg_randomx_compilers(cc cxx "")
set(flags "-O3 -DNDEBUG")
bg_randomx_cache_key(key key_text SOURCE_ID "sha256:${have} ${name}" ARCH_ARG default
                     BUILD_TYPE Release FLAGS "${flags}" C_COMPILER "${cc}" CXX_COMPILER "${cxx}")

# The source: extracted once per tarball hash (a partial extraction is redone).
set(src_parent "${work}/src-${have}")
if(NOT EXISTS "${src_parent}/.bg-extracted")
  file(REMOVE_RECURSE "${src_parent}")
  file(MAKE_DIRECTORY "${src_parent}")
  file(ARCHIVE_EXTRACT INPUT "${TARBALL}" DESTINATION "${src_parent}")
  file(WRITE "${src_parent}/.bg-extracted" "${have}\n")
endif()
file(GLOB tops LIST_DIRECTORIES true "${src_parent}/*")
set(src "")
foreach(d IN LISTS tops)
  if(IS_DIRECTORY "${d}" AND EXISTS "${d}/src/randomx.h")
    set(src "${d}")
  endif()
endforeach()
if(NOT src)
  message(FATAL_ERROR "buildgate: randomx prefix: ${TARBALL} has no <top>/src/randomx.h: not a RandomX source tarball")
endif()

set(out "${work}/out")
file(MAKE_DIRECTORY "${out}")
file(WRITE "${out}/key.txt" "${key_text}")
set(rx_args -G Ninja -DCMAKE_BUILD_TYPE=Release -DARCH=default "-DCMAKE_C_FLAGS=" "-DCMAKE_CXX_FLAGS="
    "-DCMAKE_C_FLAGS_RELEASE=${flags}" "-DCMAKE_CXX_FLAGS_RELEASE=${flags}"
    "-DCMAKE_C_COMPILER=${cc}" "-DCMAKE_CXX_COMPILER=${cxx}")
file(WRITE "${out}/rx-cache.cmake"
  "set(OUT [==[${out}]==])\nset(NAME host_prefix)\nset(SRC [==[${src}]==])\n"
  "set(RX_ARGS [==[${rx_args}]==])\nset(CACHE_DIR [==[${cache_dir}]==])\n"
  "set(KEY ${key})\nset(KEY_FILE [==[${out}/key.txt]==])\n"
  "set(STEP [==[${ROOT}/cmake/BuildgateStep.cmake]==])\n")
if(EXISTS "${out}/rx.FAILED")  # provision retries a failed build, from a clean tree
  file(REMOVE_RECURSE "${out}/rx")
  file(REMOVE "${out}/rx.FAILED" "${out}/rx.FAILED.key")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -DPARAMS=${out}/rx-cache.cmake
                        -P "${ROOT}/cmake/BuildgateRandomXCache.cmake" RESULT_VARIABLE rc)
if(EXISTS "${out}/rx.FAILED")
  file(READ "${out}/rx.FAILED" why)
  string(STRIP "${why}" why)
  message(FATAL_ERROR "buildgate: randomx prefix: ${why}")
endif()
if(NOT rc EQUAL 0 OR NOT EXISTS "${cache_dir}/${key}/stamp")
  message(FATAL_ERROR "buildgate: randomx prefix: no build cache entry ${cache_dir}/${key} (exit ${rc})")
endif()
file(READ "${out}/rx.cache" what)
string(STRIP "${what}" what)
file(WRITE "${ROOT}/build/cache/randomx-prefix.path" "${cache_dir}/${key}\n")
message("provision: RandomX prefix ${cache_dir}/${key} (${what})")
