# Self-test helper: resolves a RandomX source the way the build does and
# prints one line "dir=<dir>" or "error=<why>".
# cmake -DROOT=<repo> -DWORK=<scratch dir> -DSRC=<BG_RANDOMX_SOURCE> [-DSHA=<sha256>] -P source_probe.cmake
set(PROJECT_SOURCE_DIR "${ROOT}")
set(CMAKE_BINARY_DIR "${WORK}")
list(APPEND CMAKE_MODULE_PATH "${ROOT}/cmake")
include(BuildgateRandomX)
set(BG_RANDOMX_SOURCE "${SRC}")
set(BG_RANDOMX_SHA256 "${SHA}")
bg_randomx_source(dir err)
if(err)
  message("error=${err}")
else()
  message("dir=${dir}")
endif()
