# The digest suite's CTest tests (included from CMakeLists.txt).
#
# Runtime-variant matrix: {interp, jit, jit+secure} x {soft, hard} AES x
#   light memory x Argon2 {ref, ssse3, avx2}   (18 variants)
#   full memory (dataset shared through files)  (6 variants)
# plus large-pages variants that skip unless huge pages are reserved.  Every
# name exists on every host; a variant the host cannot run records a skip
# with the reason.  Chain lengths: docs/chain.md.
set(BG_DIGEST_LIGHT_N 64 CACHE STRING "digest: chain length of light-memory variants")
set(BG_DIGEST_LIGHT_K 8 CACHE STRING "digest: checkpoint interval of light-memory variants")
set(BG_DIGEST_FULL_N 1024 CACHE STRING "digest: chain length of full-memory variants")
set(BG_DIGEST_FULL_K 128 CACHE STRING "digest: checkpoint interval of full-memory variants")
set(bg_dataset_dir "${CMAKE_CURRENT_BINARY_DIR}/datasets")
file(MAKE_DIRECTORY "${bg_dataset_dir}")

# bg_digest_slug(<out> <jit> <aes> <mem> <argon2|""> <extra|"">) -> slug as rx_flags_slug() prints it
function(bg_digest_flags out_slug out_flags jit aes mem argon2 extra)
  set(flags "")
  if(jit STREQUAL "jit")
    list(APPEND flags jit)
  elseif(jit STREQUAL "jit+secure")
    list(APPEND flags jit secure)
  endif()
  if(aes STREQUAL "hard")
    list(APPEND flags hard-aes)
  endif()
  if(mem STREQUAL "full")
    list(APPEND flags full-mem)
  endif()
  set(slug "${jit}+${aes}-aes+${mem}")
  if(argon2)
    list(APPEND flags "argon2=${argon2}")
    string(APPEND slug "+argon2-${argon2}")
  endif()
  if(extra)
    list(APPEND flags ${extra})
    string(APPEND slug "+${extra}")
  endif()
  list(JOIN flags "," flags)
  if(flags STREQUAL "")
    set(flags "argon2=ref")
  endif()
  set(${out_slug} "${slug}" PARENT_SCOPE)
  set(${out_flags} "${flags}" PARENT_SCOPE)
endfunction()

# bg_digest_variant(<jit> <aes> <mem> <argon2> <extra> [runner...]): one runtime
# variant; runner: a command that runs the tool (run_variant.sh of a build
# variant, for a version the installed library lacks), else the host's target.
function(bg_digest_variant jit aes mem argon2 extra)
  bg_digest_flags(slug flags "${jit}" "${aes}" "${mem}" "${argon2}" "${extra}")
  set(env ENVIRONMENT BG_RANDOMX_VERSION=v1)  # the version column (build_matrix.c)
  if(extra STREQUAL "v2")
    set(env ENVIRONMENT BG_RANDOMX_VERSION=v2)
  endif()
  if(mem STREQUAL "full")
    bg_add_test(NAME digest.runtime.${slug} SUITE digest_agreement LABELS digest TIMEOUT 900
                COMMAND ${ARGN} bg-digest-check --flags ${flags} --n ${BG_DIGEST_FULL_N}
                        --k ${BG_DIGEST_FULL_K} --dataset-dir ${bg_dataset_dir}
                FIXTURES_REQUIRED bg_rx_datasets ${env})
  else()
    bg_add_test(NAME digest.runtime.${slug} SUITE digest_agreement LABELS digest TIMEOUT 600
                COMMAND ${ARGN} bg-digest-check --flags ${flags} --n ${BG_DIGEST_LIGHT_N}
                        --k ${BG_DIGEST_LIGHT_K} ${env})
  endif()
endfunction()

# bg_digest_matrix(<extra> [runner...]): the runtime matrix ({interp, jit,
# jit+secure} x {soft, hard} AES x {light x Argon2 ref|ssse3|avx2, full}) with
# the extra flag ("" or v2) appended; runner as for bg_digest_variant.
function(bg_digest_matrix extra)
  foreach(jit IN ITEMS interp jit jit+secure)
    foreach(aes IN ITEMS soft hard)
      foreach(argon2 IN ITEMS ref ssse3 avx2)
        bg_digest_variant(${jit} ${aes} light ${argon2} "${extra}" ${ARGN})
      endforeach()
      bg_digest_variant(${jit} ${aes} full "" "${extra}" ${ARGN})
    endforeach()
  endforeach()
endfunction()

# bg_digest_matrix_unavailable(<extra> <why>): the same names, each a skip naming why.
function(bg_digest_matrix_unavailable extra why)
  foreach(jit IN ITEMS interp jit jit+secure)
    foreach(aes IN ITEMS soft hard)
      foreach(mem_argon2 IN ITEMS "light;ref" "light;ssse3" "light;avx2" "full;")
        list(GET mem_argon2 0 mem)
        list(GET mem_argon2 1 argon2)
        bg_digest_flags(slug flags ${jit} ${aes} ${mem} "${argon2}" "${extra}")
        bg_add_unavailable(NAME digest.runtime.${slug} SUITE digest_agreement LABELS digest
                           EXPECTED "runtime variant ${slug} checked" CAUSE "${why}")
      endforeach()
    endforeach()
  endforeach()
endfunction()

# Under runners (docs/digest_agreement.md "Under runners"): every runner of
# x86-64 programs in the registry (cmake/BuildgateRunners.cmake: the built-in
# rows and BG_X86_RUNNERS) runs the probe of the light-memory variants
# {interp, jit} x {soft, hard} AES (Argon2 ref): the KATs and the short chain,
# judged by the host against the same fixtures as native.  Tests
# digest.<runner>.<slug>; the runner, its version and the RandomX version are
# properties of the checks (details, the BG_RANDOMX_VERSION column), never
# parsed from the name.  A runner this host lacks is a skip naming why.
set(BG_DIGEST_RUNNER_N 16 CACHE STRING "digest: chain length under runners")
set(BG_DIGEST_RUNNER_K 4 CACHE STRING "digest: checkpoint interval under runners")
set(BG_DIGEST_RUNNER_GATE "qemu-x86_64|jit|hard" CACHE STRING
    "digest: runner|jit|aes of the runner tests in the gate (label digest); the others: label long")
set(BG_DIGEST_RUNNER_TIMEOUT 900 CACHE STRING "digest: limit of one runner test in seconds (its probe: 60 s less)")

# bg_digest_runners(<version v1|v2> [tool runner...]): the runner tests of one
# RandomX version; the optional words run bg-digest-check (run_variant.sh of
# the v2 release build variant), else this build's bg-digest-check.
# bg_digest_runners(<version> UNAVAILABLE <why>): the same names, each a skip naming why.
function(bg_digest_runners ver)
  set(why "")
  if(ARGV1 STREQUAL "UNAVAILABLE")
    set(why "${ARGV2}")
  elseif(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    set(why "the probe of this build is a ${CMAKE_SYSTEM_PROCESSOR} program; x86-64 RandomX and its probe are built on x86-64 hosts only")
  endif()
  set(extra "")
  if(ver STREQUAL "v2")
    set(extra v2)
  endif()
  bg_runners(runners GUEST x86_64)
  math(EXPR probe_timeout "${BG_DIGEST_RUNNER_TIMEOUT} - 60")
  foreach(runner IN LISTS runners)
    foreach(jit IN ITEMS interp jit)
      foreach(aes IN ITEMS soft hard)
        bg_digest_flags(slug flags ${jit} ${aes} light ref "${extra}")
        set(label long)
        if("${runner}|${jit}|${aes}" IN_LIST BG_DIGEST_RUNNER_GATE)
          set(label digest)
        endif()
        if(why)
          bg_add_unavailable(NAME digest.${runner}.${slug} SUITE digest_agreement LABELS ${label}
                             EXPECTED "x86-64 RandomX ${ver} variant ${slug} checked under ${runner}"
                             CAUSE "${why}")
          set_tests_properties(digest.${runner}.${slug} PROPERTIES ENVIRONMENT BG_RANDOMX_VERSION=${ver})
          continue()
        endif()
        bg_add_test(NAME digest.${runner}.${slug} SUITE digest_agreement LABELS ${label}
                    TIMEOUT ${BG_DIGEST_RUNNER_TIMEOUT}
                    COMMAND ${ARGN} bg-digest-check --runner ${runner} --timeout ${probe_timeout}
                            --flags ${flags} --n ${BG_DIGEST_RUNNER_N} --k ${BG_DIGEST_RUNNER_K}
                    ENVIRONMENT BG_RANDOMX_VERSION=${ver})
      endforeach()
    endforeach()
  endforeach()
endfunction()
bg_digest_runners(v1)

# The installed library's versions: v1, and v2 only where its randomx.h declares
# RANDOMX_FLAG_V2 (FindRandomX: RandomX_HAS_V2); otherwise the +v2 variants run
# the v2 release build variant's probe (builds/CMakeLists.txt).
bg_digest_matrix("")
if(RandomX_HAS_V2)
  bg_digest_matrix(v2)
  bg_digest_runners(v2)
endif()
bg_digest_variant(jit hard light ref large-pages)
bg_digest_variant(jit hard full "" large-pages)

# One dataset build per key (all CPUs), shared by every full-memory variant,
# through the host's dataset cache (a second tree reuses it: docs/digest_agreement.md
# "Dataset cache").  Its duration follows the host's load: the limit follows
# the build's progress (STALL: bg-run --stall, cmake/BuildgateTest.cmake).
include(BuildgateRandomXDataset)
bg_randomx_dataset_id(bg_dataset_id)
bg_add_test(NAME digest.runtime.dataset SUITE digest_agreement LABELS digest TIMEOUT 900 STALL 300
            COMMAND bg-digest-check --flags auto --make-datasets ${bg_dataset_dir}
                    --dataset-cache ${BG_RANDOMX_DATASET_CACHE} --dataset-cache-id ${bg_dataset_id}
            FIXTURES_SETUP bg_rx_datasets)
bg_add_test(NAME digest.runtime.dataset_cleanup SUITE digest_agreement LABELS digest TIMEOUT 60
            COMMAND bg-digest-check --remove-datasets ${bg_dataset_dir}
            FIXTURES_CLEANUP bg_rx_datasets)

bg_add_test(NAME digest.aes_flags SUITE digest_agreement LABELS digest TIMEOUT 60
            COMMAND bg-aes-flags)

# The seed's 12,000-hash chain (label long: ci/gate --label long), RandomX v1
# only: no 12,000-hash v2 chain is stored (docs/chain.md).
foreach(v IN ITEMS "jit;hard" "jit+secure;hard")
  list(GET v 0 jit)
  list(GET v 1 aes)
  bg_digest_flags(slug flags ${jit} ${aes} full "" "")
  bg_add_test(NAME digest.long.${slug} SUITE digest_agreement LABELS long TIMEOUT 1800
              COMMAND bg-digest-check --flags ${flags} --n 12000 --k 1000
                      --dataset-dir ${bg_dataset_dir}
              FIXTURES_REQUIRED bg_rx_datasets ENVIRONMENT BG_RANDOMX_VERSION=v1)
endforeach()

# Self-tests: each check above can fail (label selftest; run by ci/test).
set(bg_digest_bins "${CMAKE_CURRENT_BINARY_DIR}/bins")
add_custom_target(bg-digest-bins ALL
  COMMAND ${CMAKE_COMMAND} -E make_directory ${bg_digest_bins}
  COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE:bg-digest-check> ${bg_digest_bins}/bg-digest-check
  COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE:bg-chain> ${bg_digest_bins}/bg-chain
  COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE:bg-aes-flags> ${bg_digest_bins}/bg-aes-flags
  COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE:bg-report> ${bg_digest_bins}/bg-report
  COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE:bg-check> ${bg_digest_bins}/bg-check
  DEPENDS bg-digest-check bg-chain bg-aes-flags bg-report bg-check)
bg_add_test(NAME digest.selftest.corrupt_chain SUITE digest_agreement LABELS selftest TIMEOUT 300
            COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/selftest/corrupt_chain.sh ${bg_digest_bins}
                    ${CMAKE_CURRENT_BINARY_DIR}/selftest-corrupt-chain)
# The dataset cache on a 4096-item stand-in: built, reused, damaged entries
# rebuilt (selftest/dataset_cache.sh).
bg_add_test(NAME digest.selftest.dataset_cache SUITE digest_agreement LABELS selftest TIMEOUT 600
            COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/selftest/dataset_cache.sh ${bg_digest_bins}
                    ${CMAKE_CURRENT_BINARY_DIR}/selftest-dataset-cache)
# Under runners: a runner that computes a wrong checkpoint or known answer is
# caught naming it; listed, inferred (bracket) and unlisted deviations; a
# malformed known list (selftest/runner_mutant.sh with selftest/mutant-runner.sh).
bg_add_test(NAME digest.selftest.runner_mutant SUITE digest_agreement LABELS selftest TIMEOUT 300
            COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/selftest/runner_mutant.sh ${bg_digest_bins}
                    ${CMAKE_CURRENT_BINARY_DIR}/selftest-runner-mutant
                    ${CMAKE_CURRENT_SOURCE_DIR}/selftest/mutant-runner.sh)
# every committed known digest list of runners loads (runner_known.h), so a bad
# line fails here and not only in the runner tests (label long); a 6-column
# line is refused naming file and line
file(GLOB bg_rk_lists ${BG_FIXTURES_DIR}/randomx/known/*.tsv)
foreach(list IN LISTS bg_rk_lists)
  get_filename_component(tool ${list} NAME_WE)
  bg_add_selftest(NAME digest.selftest.known_valid_${tool} SUITE digest_agreement
    EXPECT --exit 0 --contains "known digest deviation line(s) valid"
    COMMAND bg-digest-check --validate-known ${list})
endforeach()
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/known-bad/valgrind.tsv "valgrind\t*\trandomx-v1\t*\tchain\tself-test\n")
bg_add_selftest(NAME digest.selftest.known_malformed SUITE digest_agreement
  EXPECT --exit 5 --stderr "buildgate: bg-digest-check: ${CMAKE_CURRENT_BINARY_DIR}/known-bad/valgrind.tsv:1: expected 7 tab-separated columns"
  COMMAND bg-digest-check --validate-known ${CMAKE_CURRENT_BINARY_DIR}/known-bad/valgrind.tsv)
# a line that can never match anything, or repeats an earlier line, is refused
# naming file and line (fresh-user trial, issue 23's area; main accepted all
# four): a randomx-v2 slug on a randomx-v1 line, a slug rx_flags_slug never
# writes, a kat id the known answers lack, a duplicate line
set(_rk_ok "jit+hard-aes+light+argon2-ref\tkat.1a,chain")
foreach(case IN ITEMS v2_slug_on_v1 bad_slug unknown_kat duplicate blank_reference)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/known-never-${case})
endforeach()
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/known-never-v2_slug_on_v1/valgrind.tsv
     "valgrind\t*\trandomx-v1\tjit+hard-aes+light+argon2-ref+v2\tchain\tself-test\t3.19.0\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/known-never-bad_slug/valgrind.tsv
     "valgrind\t*\trandomx-v1\tjit+hard-aes+lite+argon2-ref\tchain\tself-test\t3.19.0\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/known-never-unknown_kat/valgrind.tsv
     "valgrind\t*\trandomx-v1\tjit+hard-aes+light+argon2-ref\tkat.1a,kat.9z\tself-test\t3.19.0\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/known-never-duplicate/valgrind.tsv
     "# a comment\nvalgrind\t*\trandomx-v1\t${_rk_ok}\tself-test\t3.19.0\nvalgrind\t*\trandomx-v1\t${_rk_ok}\tself-test again\t3.19.0\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/known-never-blank_reference/valgrind.tsv
     "valgrind\t*\trandomx-v1\t${_rk_ok}\t   \t3.19.0\n")
set(_rk_why_blank_reference "1: reference column is empty")
set(_rk_why_v2_slug_on_v1 "1: variants: 'jit+hard-aes+light+argon2-ref+v2' is no runtime-variant slug of randomx-v1")
set(_rk_why_bad_slug "1: variants: 'jit+hard-aes+lite+argon2-ref' is no runtime-variant slug of randomx-v1")
set(_rk_why_unknown_kat "1: check 'kat.9z' names no known answer of randomx-v1")
set(_rk_why_duplicate "3: duplicate of line 2 (same runner, versions, algorithm, variants and check)")
foreach(case IN ITEMS v2_slug_on_v1 bad_slug unknown_kat duplicate blank_reference)
  bg_add_selftest(NAME digest.selftest.known_never_${case} SUITE digest_agreement
    EXPECT --exit 5 --stderr "buildgate: bg-digest-check: ${CMAKE_CURRENT_BINARY_DIR}/known-never-${case}/valgrind.tsv:${_rk_why_${case}}"
    COMMAND bg-digest-check --validate-known ${CMAKE_CURRENT_BINARY_DIR}/known-never-${case}/valgrind.tsv)
endforeach()
# a list no runner reads is refused (its lines could never match; trial M3:
# main validated both): a tool no registry row has, and a runner's own name
# where its row shares its tool's file (qemu-x86_64-trixie -> qemu-x86_64.tsv)
foreach(tool IN ITEMS qemu-nope qemu-x86_64-trixie)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/known-unread/${tool}.tsv
       "${tool}\t*\trandomx-v1\t${_rk_ok}\tself-test\t3.19.0\n")
endforeach()
bg_add_selftest(NAME digest.selftest.known_unread_tool SUITE digest_agreement
  EXPECT --exit 5 --stderr "buildgate: bg-digest-check: ${CMAKE_CURRENT_BINARY_DIR}/known-unread/qemu-nope.tsv: no runner reads the known lines of 'qemu-nope': a list is <tool>.tsv for one of the registry's tools native,qemu-x86_64,valgrind"
  COMMAND bg-digest-check --validate-known ${CMAKE_CURRENT_BINARY_DIR}/known-unread/qemu-nope.tsv)
bg_add_selftest(NAME digest.selftest.known_unread_runner SUITE digest_agreement
  EXPECT --exit 5 --stderr "buildgate: bg-digest-check: ${CMAKE_CURRENT_BINARY_DIR}/known-unread/qemu-x86_64-trixie.tsv: no runner reads the known lines of 'qemu-x86_64-trixie': runner qemu-x86_64-trixie reads qemu-x86_64.tsv"
  COMMAND bg-digest-check --validate-known ${CMAKE_CURRENT_BINARY_DIR}/known-unread/qemu-x86_64-trixie.tsv)
# ci/adopt-known adopts digest proposals (joined per version range and
# algorithm), refuses an overlapping or a malformed line (ci/selftest/adopt-known.sh)
foreach(case IN ITEMS dg_adopt dg_overlap dg_malformed)
  bg_add_test(NAME digest.selftest.adopt_${case} SUITE digest_agreement LABELS selftest TIMEOUT 60
              COMMAND ${PROJECT_SOURCE_DIR}/ci/selftest/adopt-known.sh ${case} ${PROJECT_SOURCE_DIR}
                      ${CMAKE_CURRENT_BINARY_DIR}/selftest-adopt-${case} $<TARGET_FILE:bg-check>)
endforeach()
bg_add_test(NAME digest.selftest.bad_input SUITE digest_agreement LABELS selftest TIMEOUT 120
            COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/selftest/bad_input.sh ${bg_digest_bins})
# A host that forbids W+X memory, simulated with an LD_PRELOAD library (Linux only;
# docs/digest_agreement.md "Hosts that forbid W+X memory").
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  add_executable(bg-wx-mutant selftest/wx_mutant.c)
  target_link_libraries(bg-wx-mutant PRIVATE RandomX::RandomX)
  bg_target_warnings(bg-wx-mutant)
  bg_add_test(NAME digest.selftest.wx_host SUITE digest_agreement LABELS selftest TIMEOUT 600
              COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/selftest/wx_host.sh ${bg_digest_bins}
                      $<TARGET_FILE:bg-deny-wx> $<TARGET_FILE:bg-wx-mutant>
                      ${CMAKE_CURRENT_BINARY_DIR}/selftest-wx-host)
endif()
