# The RandomX build variants of the digest suite: one bg_randomx_variant() call
# each (the keywords: builds/RandomXVariant.cmake; the table with its reasons:
# docs/digest_agreement.md "Build variants").  Adding a variant is one call
# here, or one in your own file named by -DBG_RANDOMX_VARIANTS_FILE=<file>.
bg_randomx_variant(NAME release  ARCH x86_64 JIT_REFERENCE)
bg_randomx_variant(NAME native   ARCH x86_64 RX_ARCH native)
bg_randomx_variant(NAME debug    ARCH x86_64 BUILD_TYPE Debug RX_FLAGS -O0)
bg_randomx_variant(NAME sanitize ARCH x86_64 BUILD_TYPE RelWithDebInfo
                   RX_FLAGS -O1 -fsanitize=address,undefined -fno-omit-frame-pointer
                   PROBE_FLAGS -fsanitize=address,undefined)
bg_randomx_variant(NAME clang    ARCH x86_64
                   CMAKE_ARGS -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
bg_randomx_variant(NAME lto      ARCH x86_64 RX_FLAGS -flto=auto -ffat-lto-objects PROBE_FLAGS -flto=auto)
bg_randomx_variant(NAME profile  ARCH x86_64 PROFILE)
bg_randomx_variant(NAME profile_native ARCH x86_64 RX_ARCH native PROFILE)
bg_randomx_variant(NAME aes_trap ARCH x86_64 RX_FLAGS -mno-aes ROLE trap)
bg_randomx_variant(NAME arm64_system  ARCH aarch64 RX_ARCH system)
bg_randomx_variant(NAME arm64_release ARCH aarch64)
bg_randomx_variant(NAME arm64_lto     ARCH aarch64 RX_FLAGS -flto=auto -ffat-lto-objects PROBE_FLAGS -flto=auto)
bg_randomx_variant(NAME arm64_trap    ARCH aarch64 RX_FLAGS -march=armv8-a ROLE trap)
