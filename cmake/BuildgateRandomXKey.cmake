# BuildgateRandomXKey — the content-addressed key of one RandomX build variant
# in the shared build cache (docs/digest_agreement.md "Build cache").
#
# bg_randomx_cache_key(<key_var> <text_var>
#     SOURCE_ID id [PATCHES file...] ARCH_ARG a BUILD_TYPE t FLAGS "<c/c++ flags>"
#     [CMAKE_ARGS a...] C_COMPILER c CXX_COMPILER cxx [TOOLCHAIN file])
#   <text_var>: the key file (key.txt): one line per input, "<what> <value>",
#   no path of a build tree or a checkout, so every tree of every clone on this
#   host computes the same key for the same build.
#   <key_var>: the first 32 hex digits of the SHA-256 of that text.
#   Inputs: the source identity (tarball SHA-256 or tree digest), each patch's
#   SHA-256, RandomX's ARCH, the build type, the flags, the extra CMake args,
#   each compiler's path + `--version` first line + `-dumpmachine`, what
#   -march=native means on this CPU (when the variant uses native), the
#   toolchain file's SHA-256, the host, CMake's version and the SHA-256 of the
#   CMake code that builds and publishes the variant (BuildgateRandomX*.cmake,
#   BuildgateStep.cmake).
#
# bg_randomx_tree_id(<out_var> <dir>): "tree-sha256:<hex>" over the files of a
#   RandomX source directory that its build reads (CMakeLists.txt, cmake/, src/;
#   not .git nor build directories), names and contents.
#
# bg_randomx_compilers(<c_var> <cxx_var> <toolchain> <cmake args...>): the C and
#   C++ compilers the RandomX sub-build uses: -DCMAKE_C_COMPILER= /
#   -DCMAKE_CXX_COMPILER= of the args, else the toolchain file's, else $CC / $CXX,
#   else cc / c++; as absolute paths when found in PATH.
set(_bg_rx_key_dir "${CMAKE_CURRENT_LIST_DIR}")

function(bg_randomx_tree_id out dir)
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${dir}"
       "${dir}/CMakeLists.txt" "${dir}/cmake/*" "${dir}/src/*")
  list(SORT files)
  set(acc "")
  foreach(f IN LISTS files)
    file(SHA256 "${dir}/${f}" h)
    string(APPEND acc "${h}  ${f}\n")
  endforeach()
  string(SHA256 id "${acc}")
  set(${out} "tree-sha256:${id}" PARENT_SCOPE)
endfunction()

function(bg_randomx_compilers out_c out_cxx toolchain)
  set(CMAKE_C_COMPILER "")
  set(CMAKE_CXX_COMPILER "")
  if(toolchain)
    include("${toolchain}")  # function scope: only these locals change
  endif()
  set(c "${CMAKE_C_COMPILER}")
  set(cxx "${CMAKE_CXX_COMPILER}")
  foreach(a IN LISTS ARGN)
    if(a MATCHES "^-DCMAKE_C_COMPILER(:[A-Z]+)?=(.+)$")
      set(c "${CMAKE_MATCH_2}")
    elseif(a MATCHES "^-DCMAKE_CXX_COMPILER(:[A-Z]+)?=(.+)$")
      set(cxx "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  if(NOT c)
    set(c cc)
    if(NOT "$ENV{CC}" STREQUAL "")
      set(c "$ENV{CC}")
    endif()
  endif()
  if(NOT cxx)
    set(cxx c++)
    if(NOT "$ENV{CXX}" STREQUAL "")
      set(cxx "$ENV{CXX}")
    endif()
  endif()
  foreach(v IN ITEMS c cxx)
    if(NOT IS_ABSOLUTE "${${v}}")
      find_program(found NAMES "${${v}}" NO_CACHE)
      if(found)
        set(${v} "${found}")
      endif()
      unset(found)
    endif()
  endforeach()
  set(${out_c} "${c}" PARENT_SCOPE)
  set(${out_cxx} "${cxx}" PARENT_SCOPE)
endfunction()

# "<path> | <--version first line> | <-dumpmachine>", memoized per path.
function(_bg_rx_compiler_id out cc)
  string(MAKE_C_IDENTIFIER "${cc}" mk)
  get_property(id GLOBAL PROPERTY _BG_RX_CC_${mk})
  if(NOT id)
    execute_process(COMMAND "${cc}" --version OUTPUT_VARIABLE ver ERROR_QUIET RESULT_VARIABLE rc1)
    execute_process(COMMAND "${cc}" -dumpmachine OUTPUT_VARIABLE mach ERROR_QUIET RESULT_VARIABLE rc2)
    string(REGEX REPLACE "\n.*" "" ver "${ver}")
    string(STRIP "${mach}" mach)
    if(NOT rc1 EQUAL 0 OR ver STREQUAL "")
      set(ver "not runnable")
    endif()
    set(id "${cc} | ${ver} | ${mach}")
    set_property(GLOBAL PROPERTY _BG_RX_CC_${mk} "${id}")
  endif()
  set(${out} "${id}" PARENT_SCOPE)
endfunction()

# What -march=native selects here: the SHA-256 of the compiler's predefined
# macros under it (feature and tuning macros), so a cache carried to another
# CPU (CI runners differ) is not reused for a native build.
function(_bg_rx_native_id out cc)
  set(empty "${CMAKE_BINARY_DIR}/CMakeFiles/bg-empty.c")
  if(NOT EXISTS "${empty}")
    file(WRITE "${empty}" "")
  endif()
  execute_process(COMMAND "${cc}" -march=native -dM -E "${empty}"
                  OUTPUT_VARIABLE defs ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0)
    string(SHA256 h "${defs}")
    set(${out} "macros-sha256:${h}" PARENT_SCOPE)
  else()
    set(${out} "not supported by ${cc} (exit ${rc})" PARENT_SCOPE)
  endif()
endfunction()

function(bg_randomx_cache_key out_key out_text)
  cmake_parse_arguments(K "" "SOURCE_ID;ARCH_ARG;BUILD_TYPE;FLAGS;C_COMPILER;CXX_COMPILER;TOOLCHAIN"
                        "PATCHES;CMAKE_ARGS" ${ARGN})
  set(t "buildgate-randomx-build-key 1\n")
  string(APPEND t "source ${K_SOURCE_ID}\n")
  foreach(p IN LISTS K_PATCHES)
    file(SHA256 "${p}" h)
    get_filename_component(pn "${p}" NAME)
    string(APPEND t "patch ${pn} sha256:${h}\n")
  endforeach()
  if(NOT K_PATCHES)
    string(APPEND t "patch none\n")
  endif()
  list(JOIN K_CMAKE_ARGS " " ca)
  string(APPEND t "arch ${K_ARCH_ARG}\nbuild_type ${K_BUILD_TYPE}\nflags ${K_FLAGS}\ncmake_args ${ca}\n")
  _bg_rx_compiler_id(cid "${K_C_COMPILER}")
  _bg_rx_compiler_id(xid "${K_CXX_COMPILER}")
  string(APPEND t "c_compiler ${cid}\ncxx_compiler ${xid}\n")
  set(native none)
  if("${K_ARCH_ARG} ${K_FLAGS}" MATCHES "native")
    _bg_rx_native_id(native "${K_C_COMPILER}")
  endif()
  string(APPEND t "native_cpu ${native}\n")
  if(K_TOOLCHAIN)
    file(SHA256 "${K_TOOLCHAIN}" h)
    get_filename_component(tn "${K_TOOLCHAIN}" NAME)
    string(APPEND t "toolchain ${tn} sha256:${h}\n")
  else()
    string(APPEND t "toolchain none\n")
  endif()
  string(APPEND t "host ${CMAKE_HOST_SYSTEM_NAME} ${CMAKE_HOST_SYSTEM_PROCESSOR}\n")
  string(APPEND t "cmake ${CMAKE_VERSION} Ninja\n")
  foreach(f IN ITEMS BuildgateRandomX.cmake BuildgateRandomXKey.cmake BuildgateRandomXCache.cmake
                     BuildgateStep.cmake)
    file(SHA256 "${_bg_rx_key_dir}/${f}" h)
    string(APPEND t "code cmake/${f} sha256:${h}\n")
  endforeach()
  string(SHA256 k "${t}")
  string(SUBSTRING "${k}" 0 32 k)
  set(${out_key} "${k}" PARENT_SCOPE)
  set(${out_text} "${t}" PARENT_SCOPE)
endfunction()
