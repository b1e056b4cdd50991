# BuildgateRandomXCache — the build step of one RandomX build variant through
# the shared, content-addressed build cache (docs/digest_agreement.md
# "Build cache").  Run on every build (cheap on a hit):
#
#   cmake -DPARAMS=<variant dir>/rx-cache.cmake -P BuildgateRandomXCache.cmake
#
# PARAMS (written by bg_randomx_build() at configure time) sets:
#   OUT        the variant's directory in the build tree (logs, *.FAILED)
#   NAME       the variant's name (messages)
#   SRC        the RandomX source tree to build
#   RX_ARGS    RandomX's CMake configure arguments (list)
#   CACHE_DIR  BG_RANDOMX_BUILD_CACHE
#   KEY        bg_randomx_cache_key()'s key; KEY_FILE its key.txt
#   STEP       cmake/BuildgateStep.cmake (runs and records one step)
#
# Entry <CACHE_DIR>/<KEY>/: lib/librandomx.a, include/randomx.h, key.txt and,
# written last, `stamp`: "key <KEY>" then "sha256 <hex> <file>" per file.
# An entry is used only when the stamp names KEY and every file's SHA-256
# matches (a truncated library, a missing stamp: rebuilt, never used).
# A miss builds in <OUT>/rx (RandomX's own target `randomx` only), copies the
# result into <CACHE_DIR>/.tmp-<KEY>-<n>, writes the stamp and renames the
# directory into place; <OUT>/rx is removed then (the entry is the product).
# Trees building the same key at once: the first holds <CACHE_DIR>/<KEY>.lock,
# the others wait and then find the entry; without a lock the rename decides
# (the loser drops its copy).  A failed build leaves <OUT>/rx.FAILED (one line,
# BuildgateStep.cmake) and is not retried until the key changes.
# <OUT>/rx.cache: "hit <KEY>" or "built <KEY>" (what the last build did).
cmake_minimum_required(VERSION 3.25)  # script mode: this CMake's policies (IN_LIST)
include("${PARAMS}")
set(entry "${CACHE_DIR}/${KEY}")

# _bg_rx_entry_ok(<why_var> <dir>): "" when <dir> is a complete entry for KEY.
function(_bg_rx_entry_ok why dir)
  set(${why} "" PARENT_SCOPE)
  if(NOT EXISTS "${dir}/stamp")
    if(EXISTS "${dir}")
      set(${why} "no stamp (an unfinished or damaged entry)" PARENT_SCOPE)
    else()
      set(${why} "absent" PARENT_SCOPE)
    endif()
    return()
  endif()
  file(STRINGS "${dir}/stamp" lines)
  if(NOT "key ${KEY}" IN_LIST lines)
    set(${why} "its stamp does not name key ${KEY}" PARENT_SCOPE)
    return()
  endif()
  set(has_lib FALSE)
  foreach(l IN LISTS lines)
    if(l MATCHES "^sha256 ([0-9a-f]+) (.+)$")
      set(want "${CMAKE_MATCH_1}")
      set(f "${CMAKE_MATCH_2}")
      if(NOT EXISTS "${dir}/${f}")
        set(${why} "${f} is missing" PARENT_SCOPE)
        return()
      endif()
      file(SHA256 "${dir}/${f}" have)
      if(NOT have STREQUAL want)
        set(${why} "${f} does not match its stamp (SHA-256 ${have}, stamp ${want})" PARENT_SCOPE)
        return()
      endif()
      if(f STREQUAL "lib/librandomx.a")
        set(has_lib TRUE)
      endif()
    endif()
  endforeach()
  if(NOT has_lib)
    set(${why} "its stamp lists no lib/librandomx.a" PARENT_SCOPE)
  endif()
endfunction()

function(_bg_rx_fail line)
  file(WRITE "${OUT}/rx.FAILED" "${line}\n")
  file(WRITE "${OUT}/rx.FAILED.key" "${KEY}")
  message("buildgate: build variant ${NAME}: ${line}")
endfunction()

function(_bg_rx_publish)
  string(RANDOM LENGTH 8 r)
  set(tmp "${CACHE_DIR}/.tmp-${KEY}-${r}")
  file(REMOVE_RECURSE "${tmp}")
  file(MAKE_DIRECTORY "${tmp}/lib" "${tmp}/include")
  file(COPY_FILE "${OUT}/rx/librandomx.a" "${tmp}/lib/librandomx.a")
  file(COPY_FILE "${SRC}/src/randomx.h" "${tmp}/include/randomx.h")
  file(READ "${KEY_FILE}" kt)
  string(TIMESTAMP now "%Y-%m-%dT%H:%M:%SZ" UTC)
  file(WRITE "${tmp}/key.txt" "${kt}# key ${KEY}: the SHA-256 of the lines above (first 32 hex digits)\n"
             "# built ${now} for variant ${NAME} (docs/digest_agreement.md \"Build cache\")\n")
  set(stamp "key ${KEY}\n")
  foreach(f IN ITEMS lib/librandomx.a include/randomx.h key.txt)
    file(SHA256 "${tmp}/${f}" h)
    string(APPEND stamp "sha256 ${h} ${f}\n")
  endforeach()
  file(WRITE "${tmp}/stamp.part" "${stamp}")
  file(RENAME "${tmp}/stamp.part" "${tmp}/stamp")  # the stamp appears whole, and last
  # rename(2) of a directory onto a non-empty one fails: an existing entry stays
  # (NO_REPLACE does not work for directories in CMake 3.25: EPERM)
  file(RENAME "${tmp}" "${entry}" RESULT rc)
  if(NOT rc EQUAL 0)
    # someone else published first (no lock): theirs wins when it is whole
    _bg_rx_entry_ok(why "${entry}")
    if(why)
      file(REMOVE_RECURSE "${entry}")
      file(RENAME "${tmp}" "${entry}" RESULT rc)
    endif()
    file(REMOVE_RECURSE "${tmp}")
  endif()
endfunction()

execute_process(COMMAND "${CMAKE_COMMAND}" -E make_directory "${CACHE_DIR}" "${OUT}"
                RESULT_VARIABLE mk ERROR_VARIABLE mkerr)
if(NOT mk EQUAL 0)
  string(STRIP "${mkerr}" mkerr)
  _bg_rx_fail("cannot create the build cache ${CACHE_DIR} (BG_RANDOMX_BUILD_CACHE): ${mkerr}")
  return()
endif()
file(LOCK "${CACHE_DIR}/${KEY}.lock" GUARD PROCESS TIMEOUT 3600 RESULT_VARIABLE lock_rc)
if(NOT lock_rc EQUAL 0)
  message("buildgate: build variant ${NAME}: no lock on ${CACHE_DIR}/${KEY}.lock (${lock_rc}): "
          "building anyway, the rename into the cache decides")
endif()

_bg_rx_entry_ok(why "${entry}")
if(NOT why)
  file(REMOVE "${OUT}/rx.FAILED" "${OUT}/rx.FAILED.key")
  file(REMOVE_RECURSE "${OUT}/rx")  # a build directory of an earlier (or pre-cache) miss
  file(WRITE "${OUT}/rx.cache" "hit ${KEY}\n")
  return()
endif()
if(NOT why STREQUAL "absent")
  message("buildgate: build variant ${NAME}: cache entry ${entry} not used: ${why}: rebuilding it")
  file(REMOVE_RECURSE "${entry}")
endif()
if(EXISTS "${OUT}/rx.FAILED" AND EXISTS "${OUT}/rx.FAILED.key")
  file(READ "${OUT}/rx.FAILED.key" failed_key)
  if(failed_key STREQUAL KEY)
    return()  # failed before with the same inputs: the tests report rx.FAILED
  endif()
endif()

# miss: configure + build RandomX's library in the tree, then publish
message("buildgate: build variant ${NAME}: RandomX not in the build cache (key ${KEY}): building it")
execute_process(COMMAND "${CMAKE_COMMAND}" -DOUT=${OUT} -DWHAT=configure -P "${STEP}" --
                        "${CMAKE_COMMAND}" -S "${SRC}" -B "${OUT}/rx" ${RX_ARGS})
execute_process(COMMAND "${CMAKE_COMMAND}" -DOUT=${OUT} -DWHAT=build -P "${STEP}" --
                        "${CMAKE_COMMAND}" --build "${OUT}/rx" --target randomx)
if(EXISTS "${OUT}/rx.FAILED")
  file(WRITE "${OUT}/rx.FAILED.key" "${KEY}")
  return()
endif()
if(NOT EXISTS "${OUT}/rx/librandomx.a")
  _bg_rx_fail("the build left no ${OUT}/rx/librandomx.a (log: ${OUT}/build.log)")
  return()
endif()
_bg_rx_publish()
_bg_rx_entry_ok(why "${entry}")
if(why)
  _bg_rx_fail("cannot publish into the build cache ${entry}: ${why}")
  return()
endif()
file(REMOVE_RECURSE "${OUT}/rx")
file(WRITE "${OUT}/rx.cache" "built ${KEY}\n")
