# BuildgateRandomXVersions — the RandomX versions the digest suite checks, as
# one table (docs/digest_agreement.md "RandomX v2"): a version is read from
# here by name, never parsed from a test, target or directory name.
#
# bg_randomx_versions(<out>): v1 v2, the versions every build variant may be
#   built for (its VERSIONS field, builds/RandomXVariant.cmake).
# bg_randomx_version_get(<version> <prefix>): <prefix>_ALGORITHM (randomx-v1|-v2,
#   the fixtures' key), <prefix>_FLAG (the runtime flag the version's tests add:
#   "" | v2), <prefix>_TEST (the test-name part: "" | .v2), <prefix>_DIR (the
#   build-tree subdirectory of its variants: "" | v2/), <prefix>_TARGET ("" | -v2).
include_guard(GLOBAL)

# The versions (one table, read by name: never parsed from a test or directory name).
function(bg_randomx_versions out)
  set(${out} v1 v2 PARENT_SCOPE)
endfunction()
macro(bg_randomx_version_get ver prefix)
  if("${ver}" STREQUAL "v2")
    set(${prefix}_ALGORITHM randomx-v2)
    set(${prefix}_FLAG v2)
    set(${prefix}_TEST .v2)
    set(${prefix}_DIR v2/)
    set(${prefix}_TARGET -v2)
  else()
    set(${prefix}_ALGORITHM randomx-v1)
    set(${prefix}_FLAG "")
    set(${prefix}_TEST "")
    set(${prefix}_DIR "")
    set(${prefix}_TARGET "")
  endif()
endmacro()
