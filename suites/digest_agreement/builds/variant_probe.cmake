# Self-test helper (variant_selftest.sh): loads the variant table the way
# builds/CMakeLists.txt does and prints one line per variant
# "variant=<name> <arch> <RX_ARCH> <type> <role> profile=<0|1> rx=[<flags>]", then
# "reference=<name>"; a bad call stops with CMake's error (exit 1).
# cmake [-DFILE=<extra .cmake>] [-DEXTRA=<pipe strings>] [-DONLY=<names>] -P variant_probe.cmake
cmake_minimum_required(VERSION 3.25)
set(BG_RANDOMX_VARIANTS_FILE "${FILE}")
set(BG_RANDOMX_BUILDS_EXTRA "${EXTRA}")
set(BG_RANDOMX_VARIANTS_ONLY "${ONLY}")
include("${CMAKE_CURRENT_LIST_DIR}/RandomXVariant.cmake")
bg_randomx_variants_load()
bg_randomx_variant_names(names)
foreach(n IN LISTS names)
  bg_randomx_variant_get(${n} v)
  set(p 0)
  if(v_PROFILE)
    set(p 1)
  endif()
  list(JOIN v_RX_FLAGS " " rxf)
  message("variant=${n} ${v_ARCH} ${v_RX_ARCH} ${v_BUILD_TYPE} ${v_ROLE} profile=${p} rx=[${rxf}]")
endforeach()
bg_randomx_jit_reference(ref)
message("reference=${ref}")
