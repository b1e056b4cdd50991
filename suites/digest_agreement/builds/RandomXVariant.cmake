# The RandomX build-variant table as keyword calls (docs/digest_agreement.md
# "Build variants"; docs/writing-a-suite.md "Adding to the lists").
#
# bg_randomx_variant(NAME <name> ARCH <x86_64|aarch64>
#                    [RX_ARCH <default|native|system>]   RandomX's ARCH; system = the
#                                                        installed library (default: default)
#                    [BUILD_TYPE <type>]                 CMAKE_BUILD_TYPE (default: Release)
#                    [RX_FLAGS f...]                     flags appended after RandomX's own
#                    [PROBE_FLAGS f...]                  probe compile + link flags
#                    [CMAKE_ARGS a...]                   RandomX's CMake arguments
#                    [ROLE <gate|trap>]                  trap: a deliberate AES trap, checked by
#                                                        digest.selftest.aes_trap.<name> (default: gate)
#                    [PROFILE]                           built with builds/profile.patch and profiled
#                    [JIT_REFERENCE]                     the x86-64 variant digest.build.jit_equal
#                                                        compares the others to (one at most)
#                    [VERSIONS v...])                    the RandomX versions it is built for
#                                                        (bg_randomx_versions(): v1 v2; default:
#                                                        both, v1 for RX_ARCH system, the
#                                                        installed 1.1.10)
#   Declares one variant; a bad call stops the configure with one line.  The
#   variants are, in order: builds/variants.cmake, the file named by the cache
#   variable BG_RANDOMX_VARIANTS_FILE (your own calls, no edit of the repository),
#   then each "name | arch | RandomX ARCH | build type | flags | probe flags |
#   cmake args | role" string of BG_RANDOMX_BUILDS_EXTRA (the older form, parsed
#   into the same call; a string without 8 fields stops the configure).
#   BG_RANDOMX_VARIANTS_ONLY (names) keeps only those (e.g. to drop the slow
#   sanitize variant on a tight budget).
#
# bg_randomx_variants_load(): declares them all (once per configure).
# bg_randomx_variant_names(<out>): the names, in declaration order.
# bg_randomx_variant_get(<name> <prefix>): sets <prefix>_ARCH, _RX_ARCH,
#   _BUILD_TYPE, _RX_FLAGS, _PROBE_FLAGS, _CMAKE_ARGS, _ROLE, _PROFILE, _VERSIONS in the
#   caller's scope.
# bg_randomx_jit_reference(<out>): the JIT_REFERENCE variant's name, "" when none.
include("${CMAKE_CURRENT_LIST_DIR}/../../../cmake/BuildgateRandomXVersions.cmake")
set(BG_RANDOMX_VARIANTS_FILE "" CACHE FILEPATH
    "digest: a .cmake file of more bg_randomx_variant() calls (builds/RandomXVariant.cmake)")
set(BG_RANDOMX_BUILDS_EXTRA "" CACHE STRING
    "digest: more RandomX build variants as 'name|arch|ARCH|type|flags|probe flags|cmake args|role' strings")
set(BG_RANDOMX_VARIANTS_ONLY "" CACHE STRING
    "digest: build only these RandomX build variants (names; empty: all)")

set(_bg_rxv_fields ARCH RX_ARCH BUILD_TYPE RX_FLAGS PROBE_FLAGS CMAKE_ARGS ROLE PROFILE VERSIONS)

function(bg_randomx_variant)
  cmake_parse_arguments(V "PROFILE;JIT_REFERENCE" "NAME;ARCH;RX_ARCH;BUILD_TYPE;ROLE"
                        "RX_FLAGS;PROBE_FLAGS;CMAKE_ARGS;VERSIONS" ${ARGN})
  set(what "buildgate: bg_randomx_variant(NAME ${V_NAME})")
  if(V_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${what}: unexpected arguments '${V_UNPARSED_ARGUMENTS}'")
  endif()
  foreach(kw IN ITEMS NAME ARCH RX_ARCH BUILD_TYPE ROLE PROFILE JIT_REFERENCE)
    set(n 0)
    foreach(a IN LISTS ARGN)
      if(a STREQUAL kw)
        math(EXPR n "${n} + 1")
      endif()
    endforeach()
    if(n GREATER 1)
      message(FATAL_ERROR "${what}: ${kw} given ${n} times (once at most)")
    endif()
  endforeach()
  # quoted: an unset V_NAME would otherwise be the string "V_NAME", which matches
  if(NOT "${V_NAME}" MATCHES "^[A-Za-z0-9_]+$")
    message(FATAL_ERROR "${what}: NAME is required: letters, digits and '_' (it is a test name part)")
  endif()
  if(NOT "${V_ARCH}" MATCHES "^(x86_64|aarch64)$")
    message(FATAL_ERROR "${what}: ARCH is required: x86_64 or aarch64, got '${V_ARCH}'")
  endif()
  if(NOT V_RX_ARCH)
    set(V_RX_ARCH default)
  elseif(NOT "${V_RX_ARCH}" MATCHES "^(default|native|system)$")
    message(FATAL_ERROR "${what}: RX_ARCH must be default, native or system, got '${V_RX_ARCH}'")
  endif()
  if(NOT V_BUILD_TYPE)
    set(V_BUILD_TYPE Release)
  elseif(NOT "${V_BUILD_TYPE}" MATCHES "^(Release|Debug|RelWithDebInfo|MinSizeRel)$")
    message(FATAL_ERROR "${what}: BUILD_TYPE must be Release, Debug, RelWithDebInfo or MinSizeRel, "
                        "got '${V_BUILD_TYPE}'")
  endif()
  bg_randomx_versions(known_versions)
  if(NOT V_VERSIONS)
    set(V_VERSIONS ${known_versions})
    if(V_RX_ARCH STREQUAL "system")
      set(V_VERSIONS v1)
    endif()
  endif()
  foreach(ver IN LISTS V_VERSIONS)
    if(NOT ver IN_LIST known_versions)
      message(FATAL_ERROR "${what}: VERSIONS: no RandomX version '${ver}' (known: ${known_versions})")
    endif()
  endforeach()
  if(NOT V_ROLE)
    set(V_ROLE gate)
  elseif(NOT V_ROLE MATCHES "^(gate|trap)$")
    message(FATAL_ERROR "${what}: ROLE must be gate or trap, got '${V_ROLE}'")
  endif()
  get_property(names GLOBAL PROPERTY BG_RANDOMX_VARIANTS)
  if(V_NAME IN_LIST names)
    message(FATAL_ERROR "${what}: a variant of that name is declared already")
  endif()
  if(V_JIT_REFERENCE)
    get_property(ref GLOBAL PROPERTY BG_RANDOMX_JIT_REFERENCE)
    if(ref)
      message(FATAL_ERROR "${what}: JIT_REFERENCE is ${ref} already (one reference)")
    endif()
    set_property(GLOBAL PROPERTY BG_RANDOMX_JIT_REFERENCE ${V_NAME})
  endif()
  set_property(GLOBAL APPEND PROPERTY BG_RANDOMX_VARIANTS ${V_NAME})
  foreach(f IN LISTS _bg_rxv_fields)
    set_property(GLOBAL PROPERTY BG_RANDOMX_VARIANT_${V_NAME}_${f} "${V_${f}}")
  endforeach()
endfunction()

# One BG_RANDOMX_BUILDS_EXTRA string into the same call.
function(_bg_randomx_variant_from_line line)
  string(REPLACE "|" ";" f "${line}")
  list(LENGTH f nf)
  if(NOT nf EQUAL 8)
    message(FATAL_ERROR "buildgate: BG_RANDOMX_BUILDS_EXTRA: '${line}': 8 fields separated by | expected, got ${nf}")
  endif()
  list(TRANSFORM f STRIP)
  set(args "")
  set(single 0 NAME 1 ARCH 2 RX_ARCH 3 BUILD_TYPE 7 ROLE)
  set(multi 4 RX_FLAGS 5 PROBE_FLAGS 6 CMAKE_ARGS)
  foreach(kind IN ITEMS single multi)
    while(${kind})
      list(POP_FRONT ${kind} i kw)
      list(GET f ${i} v)
      if(kind STREQUAL "multi")
        separate_arguments(v UNIX_COMMAND "${v}")
      endif()
      list(APPEND args ${kw} ${v})
    endwhile()
  endforeach()
  bg_randomx_variant(${args})
endfunction()

function(bg_randomx_variants_load)
  get_property(done GLOBAL PROPERTY BG_RANDOMX_VARIANTS_LOADED)
  if(done)
    return()
  endif()
  set_property(GLOBAL PROPERTY BG_RANDOMX_VARIANTS_LOADED TRUE)
  include("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/variants.cmake")
  if(BG_RANDOMX_VARIANTS_FILE)
    if(NOT EXISTS "${BG_RANDOMX_VARIANTS_FILE}")
      message(FATAL_ERROR "buildgate: BG_RANDOMX_VARIANTS_FILE: ${BG_RANDOMX_VARIANTS_FILE}: no such file")
    endif()
    include("${BG_RANDOMX_VARIANTS_FILE}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${BG_RANDOMX_VARIANTS_FILE}")
  endif()
  foreach(line IN LISTS BG_RANDOMX_BUILDS_EXTRA)
    _bg_randomx_variant_from_line("${line}")
  endforeach()
  if(BG_RANDOMX_VARIANTS_ONLY)
    get_property(names GLOBAL PROPERTY BG_RANDOMX_VARIANTS)
    foreach(n IN LISTS BG_RANDOMX_VARIANTS_ONLY)
      if(NOT n IN_LIST names)
        message(FATAL_ERROR "buildgate: BG_RANDOMX_VARIANTS_ONLY: no build variant '${n}' (known: ${names})")
      endif()
    endforeach()
    string(REPLACE ";" "|" only "${BG_RANDOMX_VARIANTS_ONLY}")
    list(FILTER names INCLUDE REGEX "^(${only})$")
    set_property(GLOBAL PROPERTY BG_RANDOMX_VARIANTS ${names})
  endif()
endfunction()

function(bg_randomx_variant_names out)
  get_property(names GLOBAL PROPERTY BG_RANDOMX_VARIANTS)
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

macro(bg_randomx_variant_get name prefix)
  foreach(_bg_f IN LISTS _bg_rxv_fields)
    get_property(${prefix}_${_bg_f} GLOBAL PROPERTY BG_RANDOMX_VARIANT_${name}_${_bg_f})
  endforeach()
endmacro()

function(bg_randomx_jit_reference out)
  get_property(ref GLOBAL PROPERTY BG_RANDOMX_JIT_REFERENCE)
  set(${out} "${ref}" PARENT_SCOPE)
endfunction()
