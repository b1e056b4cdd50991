# BuildgateRandomX — RandomX source acquisition and from-source build variants.
#
# Cache variables (docs/digest_agreement.md "Build variants"):
#   BG_RANDOMX_SOURCE  auto (default) | system | <source directory> | <tarball URL>
#       auto:   the tarball ci/provision --randomx-source verified into
#               BG_RANDOMX_CACHE (librandomx_*.orig.tar.gz + .sha256), else system
#       system: no source builds (only the installed library is tested)
#       URL:    http(s):// or file:// tarball, checked against BG_RANDOMX_SHA256,
#               downloaded and extracted by FetchContent into the build tree
#   BG_RANDOMX_SHA256  SHA-256 of the URL's tarball (64 hex digits)
#   BG_RANDOMX_CACHE   where ci/provision --randomx-source puts the tarball
#
# bg_randomx_source(<dir_var> <error_var>)
#   <dir_var>: the extracted/given RandomX source tree, "" when none.
#   <error_var>: one line why the source is unusable ("" when fine or system).
# bg_randomx_build(NAME n [SYSTEM] ARCH_ARG a BUILD_TYPE t [RX_FLAGS f...] [CMAKE_ARGS a...]
#                  [PROBE_FLAGS f...] [TOOLCHAIN file] SOURCE_DIR d PROBE_DIR p
#                  OUT_DIR_VAR v)
#   ExternalProject "bg-rx-<n>": builds RandomX's static library target `randomx`
#   (not its tests/benchmark) with RX_FLAGS appended after RandomX's own flags
#   (through CMAKE_<LANG>_FLAGS_<CONFIG>, which CMake puts after CMAKE_<LANG>_FLAGS
#   where RandomX's add_flag() writes -maes / -march=...), then the probe project
#   PROBE_DIR against it.  A failing step never fails the build: it leaves
#   <out>/rx.FAILED or probe.FAILED with one line, which the variant's tests
#   report.  SYSTEM: no RandomX build, the probe links the installed library
#   (FindRandomX, through TOOLCHAIN's search paths).
include(FetchContent)
if(NOT CMAKE_SCRIPT_MODE_FILE)  # script mode (self-tests) uses bg_randomx_source() only
  include(ExternalProject)
endif()

set(BG_RANDOMX_SOURCE "auto" CACHE STRING
    "RandomX for the build variants: auto | system | <source dir> | <tarball URL>")
set(BG_RANDOMX_SHA256 "" CACHE STRING "SHA-256 of the BG_RANDOMX_SOURCE tarball URL")
set(BG_RANDOMX_CACHE "${PROJECT_SOURCE_DIR}/build/cache/randomx" CACHE PATH
    "Where ci/provision --randomx-source puts the verified RandomX tarball")

# A RandomX source tree has src/randomx.h and a top CMakeLists.txt declaring project(RandomX).
function(_bg_randomx_is_tree dir out)
  set(ok FALSE)
  if(EXISTS "${dir}/src/randomx.h" AND EXISTS "${dir}/CMakeLists.txt")
    file(STRINGS "${dir}/CMakeLists.txt" proj REGEX "^[ \t]*project\\([ \t]*RandomX")
    if(proj)
      set(ok TRUE)
    endif()
  endif()
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

function(_bg_randomx_fetch url sha out_dir out_err)
  set(${out_dir} "" PARENT_SCOPE)
  string(LENGTH "${sha}" len)
  if(NOT sha MATCHES "^[0-9a-fA-F]+$" OR NOT len EQUAL 64)
    set(${out_err} "BG_RANDOMX_SOURCE is a URL: BG_RANDOMX_SHA256 must be its 64-hex-digit SHA-256, got '${sha}'" PARENT_SCOPE)
    return()
  endif()
  string(TOLOWER "${sha}" sha)
  get_filename_component(name "${url}" NAME)
  set(dl "${CMAKE_BINARY_DIR}/_deps/randomx-download/${name}")
  set(have "")
  if(EXISTS "${dl}")
    file(SHA256 "${dl}" have)
  endif()
  if(NOT have STREQUAL sha)
    file(DOWNLOAD "${url}" "${dl}" STATUS st)
    list(GET st 0 code)
    if(NOT code EQUAL 0)
      list(GET st 1 msg)
      file(REMOVE "${dl}")
      set(${out_err} "download of ${url} failed: ${msg}" PARENT_SCOPE)
      return()
    endif()
    file(SHA256 "${dl}" have)
  endif()
  if(NOT have STREQUAL sha)
    file(REMOVE "${dl}")
    set(${out_err} "${url}: SHA-256 ${have}, expected ${sha}: not used" PARENT_SCOPE)
    return()
  endif()
  # A file with the right hash may still not be an archive (a .sha256 written
  # beside garbage): FetchContent would then stop the whole configure.
  execute_process(COMMAND ${CMAKE_COMMAND} -E tar tf "${dl}" RESULT_VARIABLE tar_rc
                  OUTPUT_QUIET ERROR_VARIABLE tar_err)
  if(NOT tar_rc EQUAL 0)
    string(REGEX REPLACE "\n.*" "" tar_err "${tar_err}")
    set(${out_err} "${url} is not a readable tarball (${tar_err})" PARENT_SCOPE)
    return()
  endif()
  # Verified: FetchContent extracts it into the build tree (checks the hash again).
  # (the direct-argument form, which also works in script mode for the self-tests)
  FetchContent_Populate(bg_randomx QUIET URL "${dl}" URL_HASH SHA256=${sha}
                        DOWNLOAD_EXTRACT_TIMESTAMP TRUE
                        SOURCE_DIR "${CMAKE_BINARY_DIR}/_deps/randomx-src"
                        BINARY_DIR "${CMAKE_BINARY_DIR}/_deps/randomx-build"
                        SUBBUILD_DIR "${CMAKE_BINARY_DIR}/_deps/randomx-subbuild")
  _bg_randomx_is_tree("${bg_randomx_SOURCE_DIR}" ok)
  if(NOT ok)
    set(${out_err} "${url} is not a RandomX source tarball (no src/randomx.h, no project(RandomX))" PARENT_SCOPE)
    return()
  endif()
  set(${out_dir} "${bg_randomx_SOURCE_DIR}" PARENT_SCOPE)
  set(${out_err} "" PARENT_SCOPE)
endfunction()

function(bg_randomx_source out_dir out_err)
  set(src "${BG_RANDOMX_SOURCE}")
  set(sha "${BG_RANDOMX_SHA256}")
  set(${out_dir} "" PARENT_SCOPE)
  set(${out_err} "" PARENT_SCOPE)
  if(src STREQUAL "auto")
    file(GLOB tarballs "${BG_RANDOMX_CACHE}/librandomx_*.orig.tar.gz")
    set(src "system")
    foreach(t IN LISTS tarballs)
      if(EXISTS "${t}.sha256")
        file(READ "${t}.sha256" line)
        string(REGEX MATCH "^[0-9a-f]+" sha "${line}")
        set(src "file://${t}")
      endif()
    endforeach()
  endif()
  if(src STREQUAL "system")
    return()
  elseif(src MATCHES "^(https?|file)://")
    _bg_randomx_fetch("${src}" "${sha}" dir err)
    set(${out_dir} "${dir}" PARENT_SCOPE)
    set(${out_err} "${err}" PARENT_SCOPE)
  else()
    _bg_randomx_is_tree("${src}" ok)
    if(ok)
      set(${out_dir} "${src}" PARENT_SCOPE)
    else()
      set(${out_err} "${src} is not a RandomX source tree (no src/randomx.h, no project(RandomX) in CMakeLists.txt)" PARENT_SCOPE)
    endif()
  endif()
endfunction()

function(bg_randomx_build)
  cmake_parse_arguments(B "SYSTEM" "NAME;ARCH_ARG;BUILD_TYPE;TOOLCHAIN;SOURCE_DIR;PROBE_DIR;OUT_DIR_VAR"
                        "RX_FLAGS;CMAKE_ARGS;PROBE_FLAGS;PROBE_ARGS" ${ARGN})
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${B_NAME}")
  string(TOUPPER "${B_BUILD_TYPE}" cfg)
  # CMake's defaults for the configuration, then the variant's flags after them.
  set(base_Release "-O3 -DNDEBUG")
  set(base_Debug "-g")
  set(base_RelWithDebInfo "-O2 -g -DNDEBUG")
  list(JOIN B_RX_FLAGS " " rxf)
  list(JOIN B_PROBE_FLAGS " " pf)
  set(tc "")
  if(B_TOOLCHAIN)
    set(tc "-DCMAKE_TOOLCHAIN_FILE=${B_TOOLCHAIN}")
  endif()
  set(rx_args -G Ninja -DCMAKE_BUILD_TYPE=${B_BUILD_TYPE} -DARCH=${B_ARCH_ARG}
      "-DCMAKE_C_FLAGS_${cfg}=${base_${B_BUILD_TYPE}} ${rxf}"
      "-DCMAKE_CXX_FLAGS_${cfg}=${base_${B_BUILD_TYPE}} ${rxf}" ${tc} ${B_CMAKE_ARGS})
  set(probe_args -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${tc}
      -DBG_ROOT=${PROJECT_SOURCE_DIR} -DBG_VARIANT=${B_NAME}
      -DBG_RX_LIBRARY=${out}/rx/librandomx.a -DBG_RX_INCLUDE_DIR=${B_SOURCE_DIR}/src
      "-DBG_PROBE_FLAGS=${pf}" -DBG_WERROR=${BG_WERROR} ${B_PROBE_ARGS})
  if(B_SYSTEM)
    list(TRANSFORM probe_args REPLACE "^-DBG_RX_LIBRARY=.*" "-DBG_RX_LIBRARY=system")
  endif()
  set(step_script ${PROJECT_SOURCE_DIR}/cmake/BuildgateStep.cmake)
  # RandomX: configured and built once (stamps), only the library target.
  set(deps "")
  if(NOT B_SYSTEM)
  set(deps DEPENDS bg-rx-${B_NAME})
  ExternalProject_Add(bg-rx-${B_NAME}
    SOURCE_DIR "${B_SOURCE_DIR}"
    BINARY_DIR "${out}/rx"
    STAMP_DIR "${out}/stamp-rx"
    DOWNLOAD_COMMAND "" UPDATE_COMMAND "" PATCH_COMMAND ""
    CONFIGURE_COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DWHAT=configure -P ${step_script} -- ${CMAKE_COMMAND} -S ${B_SOURCE_DIR} -B ${out}/rx ${rx_args}
    BUILD_COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DWHAT=build -P ${step_script} -- ${CMAKE_COMMAND} --build ${out}/rx --target randomx
    INSTALL_COMMAND "")
  endif()
  # The probe: buildgate's probe sources against that library; configured and
  # built (incrementally) on every build so probe source changes are picked up.
  ExternalProject_Add(bg-probe-${B_NAME}
    SOURCE_DIR "${B_PROBE_DIR}"
    BINARY_DIR "${out}/probe"
    STAMP_DIR "${out}/stamp-probe"
    DOWNLOAD_COMMAND "" UPDATE_COMMAND "" PATCH_COMMAND ""
    CONFIGURE_COMMAND ""
    BUILD_COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DWHAT=probe-configure -P ${step_script} -- ${CMAKE_COMMAND} -S ${B_PROBE_DIR} -B ${out}/probe ${probe_args}
          COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DWHAT=probe-build -P ${step_script} -- ${CMAKE_COMMAND} --build ${out}/probe
    INSTALL_COMMAND ""
    BUILD_ALWAYS TRUE
    ${deps})
  set(${B_OUT_DIR_VAR} "${out}" PARENT_SCOPE)
endfunction()
