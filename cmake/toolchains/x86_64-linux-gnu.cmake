# Cross-build for Linux x86-64 from another Linux host (arm64) with Debian's
# x86_64-linux-gnu-gcc (package gcc-x86-64-linux-gnu, which brings
# libc6-dev-amd64-cross in /usr/x86_64-linux-gnu).  Used for the
# nan_semantics guest only (suites/nan_semantics/guest), which needs libc only.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
