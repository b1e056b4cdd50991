# Cross-build for Linux arm64 with Debian's aarch64-linux-gnu-gcc/g++
# (gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu) against Debian's :arm64
# multiarch libraries (dpkg --add-architecture arm64; librandomx-dev:arm64,
# libcjson-dev:arm64, libcapstone-dev:arm64: ci/provision --arm64), run
# under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR; CTest prepends it to test
# commands that are targets).  Used by the aarch64-qemu preset and by the
# digest suite's arm64 build variants.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# the arm64 sysroot of Debian's cross libc, and the multiarch libraries in /usr
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /usr)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
