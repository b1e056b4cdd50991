# nan_add_guest(<target> <buildgate root>): the x86-64 guest program `nan-probe`
# (guest/nan_probe.c's header).  libc + libpthread only (libbuildgate's GUEST modules,
# cmake/BuildgateLib.cmake), from the same sources in
# every build: the suite's own target on an x86-64 build, and guest/ (this
# file again) built for x86-64 on an arm64 Linux host or macOS.
find_package(Threads REQUIRED)
function(nan_add_guest target root)
  set(d "${root}/suites/nan_semantics")
  add_executable(${target} ${d}/guest/nan_probe.c ${d}/guest/nan_probe_out.c ${d}/guest/nan_table.c ${d}/cases/nan_cases.c
                 ${d}/guest/nan_x87_table.c ${d}/cases/nan_x87_cases.c ${d}/guest/nan_ymm.c
                 ${d}/seq/nan_seq.c ${d}/guest/nan_seq_jit.c ${d}/guest/nan_seq_probe.c ${d}/guest/nan_lig.c
                 ${d}/cases/nan_faults.c ${d}/guest/nan_fault_probe.c)
  bg_add_libbuildgate(${target}-lib GUEST)  # cmake/BuildgateLib.cmake: libc-only modules
  target_include_directories(${target} PRIVATE "${d}/guest" "${d}/cases" "${d}/seq")
  target_link_libraries(${target} PRIVATE ${target}-lib Threads::Threads)
  set_target_properties(${target} PROPERTIES OUTPUT_NAME nan-probe C_STANDARD 11
                                             C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  bg_target_warnings(${target})
endfunction()
