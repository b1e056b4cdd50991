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
#   BG_RANDOMX_V2_SOURCE / BG_RANDOMX_V2_SHA256  the same for RandomX v2.0 (the
#       second version every variant is built for, docs/digest_agreement.md
#       "RandomX v2"): auto = <BG_RANDOMX_CACHE>/randomx-v2.0.tar.gz, whose tree
#       ci/randomx-source checked against fixtures/randomx/v2.0.manifest; none
#       (or system) = no v2 builds
#   BG_RANDOMX_CACHE   where ci/provision --randomx-source puts the tarball
#   BG_RANDOMX_BUILD_CACHE  the shared cache of built variants (default: the
#       environment variable BG_RANDOMX_BUILD_CACHE, else <repo>/build/cache/randomx-builds;
#       cmake/BuildgateRandomXCache.cmake, docs/digest_agreement.md "Build cache")
#
# bg_randomx_source(<dir_var> <error_var> [<id_var>])
#   <dir_var>: the extracted/given RandomX source tree, "" when none.
#   <error_var>: one line why the source is unusable ("" when fine or system).
#   <id_var>: the source's identity for the build cache key: "sha256:<hex> <tarball
#   name>" for a verified tarball, bg_randomx_tree_id() for a directory.
# bg_randomx_source_of(<version> <dir_var> <error_var> <id_var>): the same for
#   one RandomX version of bg_randomx_versions() (v1: BG_RANDOMX_SOURCE, v2:
#   BG_RANDOMX_V2_SOURCE; each extracted into its own <build>/_deps/ directory).
# The versions themselves: cmake/BuildgateRandomXVersions.cmake.
# bg_randomx_build(NAME n [VERSION v1|v2] [SYSTEM] ARCH_ARG a BUILD_TYPE t [RX_FLAGS f...] [CMAKE_ARGS a...]
#                  [PROBE_FLAGS f...] [TOOLCHAIN file] SOURCE_DIR d SOURCE_ID id
#                  [PATCHES file...] [PROBE_DIR p] OUT_DIR_VAR v [ENTRY_VAR e] [KEY_VAR k])
#   ExternalProject "bg-rx-<n>" (v2: "bg-rx-<n>-v2", in <build dir>/v2/<n>): RandomX's static library target `randomx` (not
#   its tests/benchmark) with RX_FLAGS appended after RandomX's own flags
#   (through CMAKE_<LANG>_FLAGS_<CONFIG>, which CMake puts after CMAKE_<LANG>_FLAGS
#   where RandomX's add_flag() writes -maes / -march=...), taken from the build
#   cache entry of its key (bg_randomx_cache_key(): SOURCE_ID, PATCHES applied to
#   SOURCE_DIR, flags, compilers, TOOLCHAIN) or built and published there; then
#   the probe project PROBE_DIR against it (none without PROBE_DIR: perf-bench
#   links the entry itself).  ENTRY_VAR: the cache entry's directory (include/,
#   lib/librandomx.a, then a byproduct of bg-rx-<n>); KEY_VAR: its key.  A failing step never fails the
#   build: it leaves <out>/rx.FAILED or probe.FAILED with one line, which the
#   variant's tests report.  SYSTEM: no RandomX build, the probe links the
#   installed library (FindRandomX, through TOOLCHAIN's search paths).
include(FetchContent)
if(NOT CMAKE_SCRIPT_MODE_FILE)  # script mode (self-tests) uses bg_randomx_source() only
  include(ExternalProject)
endif()
include(BuildgateRandomXKey)
include(BuildgateRandomXVersions)

set(BG_RANDOMX_SOURCE "auto" CACHE STRING
    "RandomX for the build variants: auto | system | <source dir> | <tarball URL>")
set(BG_RANDOMX_SHA256 "" CACHE STRING "SHA-256 of the BG_RANDOMX_SOURCE tarball URL")
set(BG_RANDOMX_V2_SOURCE "auto" CACHE STRING
    "RandomX v2.0 for the build variants: auto | none | <source dir> | <tarball URL>")
set(BG_RANDOMX_V2_SHA256 "" CACHE STRING "SHA-256 of the BG_RANDOMX_V2_SOURCE tarball URL")

set(BG_RANDOMX_CACHE "${PROJECT_SOURCE_DIR}/build/cache/randomx" CACHE PATH
    "Where ci/provision --randomx-source puts the verified RandomX tarball")
set(_bg_rx_build_cache "${PROJECT_SOURCE_DIR}/build/cache/randomx-builds")
if(NOT "$ENV{BG_RANDOMX_BUILD_CACHE}" STREQUAL "")
  set(_bg_rx_build_cache "$ENV{BG_RANDOMX_BUILD_CACHE}")
endif()
set(BG_RANDOMX_BUILD_CACHE "${_bg_rx_build_cache}" CACHE PATH
    "Shared cache of built RandomX variants, one entry per key (docs/digest_agreement.md)")

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
  set(tag "${_bg_rx_fetch_tag}")  # "" (v1) or "-v2": each version its own _deps directories
  set(${out_dir} "" PARENT_SCOPE)
  string(LENGTH "${sha}" len)
  if(NOT sha MATCHES "^[0-9a-fA-F]+$" OR NOT len EQUAL 64)
    set(${out_err} "BG_RANDOMX_SOURCE is a URL: BG_RANDOMX_SHA256 must be its 64-hex-digit SHA-256, got '${sha}'" PARENT_SCOPE)
    return()
  endif()
  string(TOLOWER "${sha}" sha)
  get_filename_component(name "${url}" NAME)
  set(dl "${CMAKE_BINARY_DIR}/_deps/randomx${tag}-download/${name}")
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
  string(REPLACE "-" "_" fc "bg_randomx${tag}")
  FetchContent_Populate(${fc} QUIET URL "${dl}" URL_HASH SHA256=${sha}
                        DOWNLOAD_EXTRACT_TIMESTAMP TRUE
                        SOURCE_DIR "${CMAKE_BINARY_DIR}/_deps/randomx${tag}-src"
                        BINARY_DIR "${CMAKE_BINARY_DIR}/_deps/randomx${tag}-build"
                        SUBBUILD_DIR "${CMAKE_BINARY_DIR}/_deps/randomx${tag}-subbuild")
  _bg_randomx_is_tree("${${fc}_SOURCE_DIR}" ok)
  if(NOT ok)
    set(${out_err} "${url} is not a RandomX source tarball (no src/randomx.h, no project(RandomX))" PARENT_SCOPE)
    return()
  endif()
  set(${out_dir} "${${fc}_SOURCE_DIR}" PARENT_SCOPE)
  set(${out_err} "" PARENT_SCOPE)
endfunction()

function(bg_randomx_source_of ver out_dir out_err out_id)
  set(_bg_rx_fetch_tag "")
  set(_bg_rx_glob "librandomx_*.orig.tar.gz")
  set(BG_RANDOMX_SOURCE "${BG_RANDOMX_SOURCE}")
  set(BG_RANDOMX_SHA256 "${BG_RANDOMX_SHA256}")
  if(ver STREQUAL "v2")
    set(_bg_rx_fetch_tag "-v2")
    set(_bg_rx_glob "randomx-v2.0.tar.gz")
    set(BG_RANDOMX_SOURCE "${BG_RANDOMX_V2_SOURCE}")  # function scope: the v2 settings
    set(BG_RANDOMX_SHA256 "${BG_RANDOMX_V2_SHA256}")
    if(BG_RANDOMX_SOURCE STREQUAL "none")
      set(BG_RANDOMX_SOURCE system)
    endif()
  elseif(NOT ver STREQUAL "v1")
    message(FATAL_ERROR "buildgate: bg_randomx_source_of: no RandomX version '${ver}' (v1, v2)")
  endif()
  bg_randomx_source(dir err id)
  set(${out_dir} "${dir}" PARENT_SCOPE)
  set(${out_err} "${err}" PARENT_SCOPE)
  set(${out_id} "${id}" PARENT_SCOPE)
endfunction()

function(bg_randomx_source out_dir out_err)
  set(src "${BG_RANDOMX_SOURCE}")
  set(sha "${BG_RANDOMX_SHA256}")
  set(${out_dir} "" PARENT_SCOPE)
  set(${out_err} "" PARENT_SCOPE)
  if(ARGC GREATER 2)
    set(${ARGV2} "" PARENT_SCOPE)
  endif()
  if(NOT DEFINED _bg_rx_glob)  # bg_randomx_source_of() sets them per version
    set(_bg_rx_glob "librandomx_*.orig.tar.gz")
  endif()
  if(src STREQUAL "auto")
    file(GLOB tarballs "${BG_RANDOMX_CACHE}/${_bg_rx_glob}")
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
    if(ARGC GREATER 2)
      string(TOLOWER "${sha}" sha)
      get_filename_component(name "${src}" NAME)
      set(${ARGV2} "sha256:${sha} ${name}" PARENT_SCOPE)
    endif()
  else()
    _bg_randomx_is_tree("${src}" ok)
    if(ok)
      set(${out_dir} "${src}" PARENT_SCOPE)
      if(ARGC GREATER 2)
        bg_randomx_tree_id(id "${src}")
        set(${ARGV2} "${id}" PARENT_SCOPE)
      endif()
    else()
      set(${out_err} "${src} is not a RandomX source tree (no src/randomx.h, no project(RandomX) in CMakeLists.txt)" PARENT_SCOPE)
    endif()
  endif()
endfunction()

# _bg_write_if_changed(<file> <content>): no rewrite (no new mtime) when equal.
function(_bg_write_if_changed file content)
  set(have "")
  if(EXISTS "${file}")
    file(READ "${file}" have)
  endif()
  if(NOT have STREQUAL content)
    file(WRITE "${file}" "${content}")
  endif()
endfunction()

function(bg_randomx_build)
  cmake_parse_arguments(B "SYSTEM" "NAME;VERSION;ARCH_ARG;BUILD_TYPE;TOOLCHAIN;SOURCE_DIR;SOURCE_ID;PROBE_DIR;OUT_DIR_VAR;ENTRY_VAR;KEY_VAR"
                        "RX_FLAGS;CMAKE_ARGS;PROBE_FLAGS;PROBE_ARGS;PATCHES" ${ARGN})
  bg_randomx_version_get("${B_VERSION}" ver)  # "" = v1: its directories and targets keep their names
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${ver_DIR}${B_NAME}")
  set(tsfx "${ver_TARGET}")
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
  set(step_script ${PROJECT_SOURCE_DIR}/cmake/BuildgateStep.cmake)
  set(deps "")
  if(NOT B_SYSTEM)
    # The compilers are named explicitly (the ones the key hashes), and the
    # environment's CFLAGS/CXXFLAGS do not reach the variant: its flags are its own.
    bg_randomx_compilers(rx_cc rx_cxx "${B_TOOLCHAIN}" ${B_CMAKE_ARGS})
    set(cc_args "")
    if(NOT B_TOOLCHAIN)
      set(cc_args "-DCMAKE_C_COMPILER=${rx_cc}" "-DCMAKE_CXX_COMPILER=${rx_cxx}")
    endif()
    string(STRIP "${base_${B_BUILD_TYPE}} ${rxf}" flags)
    set(rx_args -G Ninja -DCMAKE_BUILD_TYPE=${B_BUILD_TYPE} -DARCH=${B_ARCH_ARG}
        "-DCMAKE_C_FLAGS=" "-DCMAKE_CXX_FLAGS=" "-DCMAKE_C_FLAGS_${cfg}=${flags}"
        "-DCMAKE_CXX_FLAGS_${cfg}=${flags}" ${tc} ${B_CMAKE_ARGS} ${cc_args})
    bg_randomx_cache_key(key key_text SOURCE_ID "${B_SOURCE_ID}" PATCHES ${B_PATCHES}
                         ARCH_ARG "${B_ARCH_ARG}" BUILD_TYPE "${B_BUILD_TYPE}" FLAGS "${flags}"
                         CMAKE_ARGS ${B_CMAKE_ARGS} C_COMPILER "${rx_cc}" CXX_COMPILER "${rx_cxx}"
                         TOOLCHAIN "${B_TOOLCHAIN}")
    set(entry "${BG_RANDOMX_BUILD_CACHE}/${key}")
    _bg_write_if_changed("${out}/key.txt" "${key_text}")
    set(params "set(OUT [==[${out}]==])\nset(NAME [==[${B_NAME}]==])\nset(SRC [==[${B_SOURCE_DIR}]==])\n")
    string(APPEND params "set(RX_ARGS [==[${rx_args}]==])\nset(CACHE_DIR [==[${BG_RANDOMX_BUILD_CACHE}]==])\n")
    string(APPEND params "set(KEY ${key})\nset(KEY_FILE [==[${out}/key.txt]==])\nset(STEP [==[${step_script}]==])\n")
    _bg_write_if_changed("${out}/rx-cache.cmake" "${params}")
    set(deps DEPENDS bg-rx-${B_NAME}${tsfx})
    set(byproducts "")
    if(B_ENTRY_VAR)  # its user links the library: Ninja must know who makes it (one rule per file)
      set(byproducts BUILD_BYPRODUCTS "${entry}/lib/librandomx.a")
    endif()
    # Every build: a hit costs one stamp check; a miss builds and publishes.
    ExternalProject_Add(bg-rx-${B_NAME}${tsfx}
      SOURCE_DIR "${B_SOURCE_DIR}"
      BINARY_DIR "${out}/stamp-rx"
      STAMP_DIR "${out}/stamp-rx"
      DOWNLOAD_COMMAND "" UPDATE_COMMAND "" PATCH_COMMAND "" CONFIGURE_COMMAND ""
      BUILD_COMMAND ${CMAKE_COMMAND} -DPARAMS=${out}/rx-cache.cmake
                    -P ${PROJECT_SOURCE_DIR}/cmake/BuildgateRandomXCache.cmake
      BUILD_ALWAYS TRUE
      ${byproducts}
      INSTALL_COMMAND "")
    if(B_ENTRY_VAR)
      set(${B_ENTRY_VAR} "${entry}" PARENT_SCOPE)
    endif()
    if(B_KEY_VAR)
      set(${B_KEY_VAR} "${key}" PARENT_SCOPE)
    endif()
  endif()
  set(${B_OUT_DIR_VAR} "${out}" PARENT_SCOPE)
  if(NOT B_PROBE_DIR)
    return()
  endif()
  set(probe_args -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${tc}
      -DBG_ROOT=${PROJECT_SOURCE_DIR} -DBG_VARIANT=${B_NAME} -DBG_RX_VERSION=${ver_FLAG}
      -DBG_RX_LIBRARY=${entry}/lib/librandomx.a -DBG_RX_INCLUDE_DIR=${entry}/include
      "-DBG_PROBE_FLAGS=${pf}" -DBG_WERROR=${BG_WERROR} ${B_PROBE_ARGS})
  if(B_SYSTEM)
    list(TRANSFORM probe_args REPLACE "^-DBG_RX_LIBRARY=.*" "-DBG_RX_LIBRARY=system")
  endif()
  # The probe: buildgate's probe sources against that library; configured and
  # built (incrementally) on every build so probe source changes are picked up.
  ExternalProject_Add(bg-probe-${B_NAME}${tsfx}
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
endfunction()
