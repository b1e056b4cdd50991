# Self-tests (label selftest): each proves that a check of this suite fails
# when it should, with the right message (the driver: bg-expect,
# lib/tools/bg_expect.c; names memory_order.selftest.<case>).

# mo_selftest(NAME case EXIT code [STDERR prefix]
#                [CHECK suffix VERDICT v] [CONTAINS text...] COMMAND cmd...)
# (CONTAINS: in the CHECK's observed text, or without CHECK in the output;
#  texts cannot hold ';': CMake lists; give the parts of a message instead)
function(mo_selftest)
  cmake_parse_arguments(S "" "NAME;EXIT;STDERR;CHECK;VERDICT" "CONTAINS;COMMAND" ${ARGN})
  set(args --work ${CMAKE_CURRENT_BINARY_DIR}/selftest-${S_NAME} --exit ${S_EXIT})
  if(S_STDERR)
    list(APPEND args --stderr ${S_STDERR})
  endif()
  foreach(text IN LISTS S_CONTAINS)
    if(S_CHECK)  # the inner check's observed text
      list(APPEND args --check ${S_CHECK} --verdict ${S_VERDICT} --observed ${text})
    else()       # the command's output
      list(APPEND args --contains ${text})
    endif()
  endforeach()
  bg_add_selftest(NAME memory_order.selftest.${S_NAME} SUITE memory_order TIMEOUT 120 RUN_SERIAL
                  EXPECT ${args} COMMAND ${S_COMMAND})
endfunction()

set(probe $<TARGET_FILE:litmus-probe>)

# 1. The fence mutant: SB+mfences without MFENCE must show SB's relaxed
#    outcome on this x86-64 (or arm64) host, and the forbidden check fails
#    with its count.
mo_selftest(NAME native.mutant-drop-fence.SB+mfences EXIT 1
  CHECK .forbidden VERDICT fail CONTAINS "0:r0=0" " 1:r0=0" " x " " per million"
  COMMAND litmus-check --test SB+mfences --access plain --mutant drop-fence --runner native
          --arch ${native_arch} --probe ${probe} --iterations 1000000)

# 1b. Locked RMWs replaced by a plain load and store (the same mutant): lost
#     updates (RMW-ADD: x=1) and store buffering past the "fence" (SB+lockadds)
#     show on this host, and the forbidden check fails with the count.
mo_selftest(NAME native.mutant-drop-fence.RMW-ADD EXIT 1
  CHECK .forbidden VERDICT fail CONTAINS "x=1" " x " " per million"
  COMMAND litmus-check --test RMW-ADD --access plain --mutant drop-fence --runner native
          --arch ${native_arch} --probe ${probe} --iterations 200000)
mo_selftest(NAME native.mutant-drop-fence.SB+lockadds EXIT 1
  CHECK .forbidden VERDICT fail CONTAINS "0:r0=0" " 1:r0=0" " x " " per million"
  COMMAND litmus-check --test SB+lockadds --access plain --mutant drop-fence --runner native
          --arch ${native_arch} --probe ${probe} --iterations 200000)
# 1c. A host that kills split locks (Linux split_lock_detect=fatal; stood in
#     for by LITMUS_SPLIT_LOCK_TRAP=1, whose child dies by SIGBUS) makes a
#     SPLIT test a skip naming why, not a crash.
if(BG_MO_X86)
  mo_selftest(NAME split-lock-fatal EXIT 77
    CHECK .run VERDICT skip CONTAINS "SIGBUS" "split_lock_detect=fatal"
    COMMAND ${CMAKE_COMMAND} -E env LITMUS_SPLIT_LOCK_TRAP=1 $<TARGET_FILE:litmus-check>
            --test RMW-ADD+split --access plain --runner native --arch x86_64 --probe ${probe}
            --iterations 1000)
endif()

# 1d. Affinity modes (litmus-probe --affinity, after litmus7's): random stays
#     inside the inherited mask (taskset -c 0: both threads on CPU 0); a mode
#     the probe does not know is refused in one line.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  find_program(BG_TASKSET taskset)
  if(BG_TASKSET)
    mo_selftest(NAME affinity.random-in-mask EXIT 0 CONTAINS "\"affinity\":\"random:7\",\"cpus\":[0,0]"
      COMMAND ${BG_TASKSET} -c 0 ${probe} --affinity random --seed 7 SB:plain:2000)
  endif()
endif()
mo_selftest(NAME affinity.bad-mode EXIT 2 STDERR "buildgate: litmus-probe: --affinity must be"
  COMMAND litmus-probe --affinity scan SB:plain:10)
# ... and litmus-check refuses it itself (it was a probe failure: a fail check, exit 1)
mo_selftest(NAME affinity.bad-mode-check EXIT 2 STDERR "buildgate: litmus-check: --affinity 'incr:0': want incr"
  COMMAND litmus-check --test SB --access plain --runner native --affinity incr:0 --iterations 10)

# 2. The tso mutant (relaxed accesses): caught on arm64 hardware; under
#    qemu-aarch64 on this x86-64 host the power check must say inconclusive
#    and why, never pass.
if(native_arch STREQUAL "arm64")
  mo_selftest(NAME native.mutant-tso-relaxed.MP EXIT 1
    CHECK .forbidden VERDICT fail CONTAINS "1:r0=1" " 1:r1=0" " x " " per million"
    COMMAND litmus-check --test MP --access tso --mutant tso-relaxed --runner native
            --arch arm64 --probe ${probe} --iterations 1000000)
elseif(BG_MO_ARM64_PROBE)
  mo_selftest(NAME qemu-aarch64.mutant-tso-relaxed.MP EXIT 0
    CHECK .power VERDICT inconclusive CONTAINS "not seen in" "needs arm64 hardware"
    COMMAND litmus-check --test MP --access tso --mutant tso-relaxed --runner qemu-aarch64
            --arch arm64 --probe ${BG_MO_ARM64_PROBE} --iterations 200000)
endif()

# 3. valgrind serialises threads: the power check is inconclusive and says so.
if(BG_RUNNER_valgrind_OK)
  mo_selftest(NAME valgrind.power.SB EXIT 0
    CHECK .power VERDICT inconclusive CONTAINS "not seen in" "valgrind serialises threads"
    COMMAND litmus-check --test SB --access plain --runner valgrind --arch x86_64
            --probe ${probe} --iterations 20000 --sync none)
endif()

# 4. Bad input: one line, a distinct exit (2 usage, 5 fixture).
mo_selftest(NAME input.unknown-test EXIT 2
  STDERR "buildgate: litmus-check: unknown test 'XX'"
  COMMAND litmus-check --test XX --access plain --runner native --probe ${probe})
mo_selftest(NAME input.unknown-access EXIT 2
  STDERR "buildgate: litmus-check: unknown access 'pso'"
  COMMAND litmus-check --test SB --access pso --runner native --probe ${probe})
mo_selftest(NAME input.access-twice EXIT 2
  STDERR "buildgate: litmus-check: --access: given twice"
  COMMAND litmus-check --test SB --access tso --access sc --runner native --probe ${probe})
mo_selftest(NAME input.zero-iterations EXIT 2
  STDERR "buildgate: litmus-check: --iterations '0'"
  COMMAND litmus-check --test SB --access plain --runner native --probe ${probe} --iterations 0)
mo_selftest(NAME input.absurd-iterations EXIT 2
  STDERR "buildgate: litmus-check: --iterations '1000000000000'"
  COMMAND litmus-check --test SB --access plain --runner native --probe ${probe}
          --iterations 1000000000000)
mo_selftest(NAME input.probe-unknown-test EXIT 2
  STDERR "buildgate: litmus-probe: unknown test"
  COMMAND litmus-probe XX:plain:10)
mo_selftest(NAME input.probe-zero-iterations EXIT 2
  STDERR "buildgate: litmus-probe: iterations must be"
  COMMAND litmus-probe SB:plain:0)

# 4b. The x86-TSO enumerator's mutant (stores flushed at once: SC) must fail
#     the enumerator's unit test: SB's relaxed outcome becomes unreachable.
mo_selftest(NAME tso-mutant-eager-flush EXIT 1
  CHECK .unit.tso.verdicts VERDICT fail CONTAINS "SB=forbidden" "R=forbidden" "RWC=forbidden"
  COMMAND test-litmus-tso-eager tso ${BG_MO_VERDICTS})

# 4c. A planted wrong verdict in the converted catalogue's published verdicts
#     (a copy of verdicts.tsv saying WRW+WR, allowed by x86-TSO and herdtools7's
#     kinds.txt, is forbidden) fails the oracle check naming the test.
file(READ ${BG_MO_VERDICTS} _mo_tsv)
string(REGEX REPLACE "\nWRW\\+WR\t([^\t]*)\tallowed" "\nWRW+WR\t\\1\tforbidden" _mo_tsv "${_mo_tsv}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/verdicts-planted.tsv "${_mo_tsv}")
mo_selftest(NAME catalogue.planted-verdict EXIT 1
  CHECK .unit.tso.verdicts VERDICT fail CONTAINS "WRW+WR=allowed"
  COMMAND test-litmus tso ${CMAKE_CURRENT_BINARY_DIR}/verdicts-planted.tsv)

# 4d. tools/litmus-import's output must follow its input (selftest/import.sh):
#     a changed store value in a copy of the catalogue makes the committed
#     entry stale; a kinds verdict that contradicts the cycle and an instruction
#     the harness lacks are refused with the reason.
foreach(case IN ITEMS mutant-value mutant-kinds refuse-instr)
  set(_mo_says "differs from the regenerated one")
  if(case STREQUAL "mutant-kinds")
    set(_mo_says "kinds file says allowed but the cycle")
  elseif(case STREQUAL "refuse-instr")
    set(_mo_says "instruction \"LOCK XADD [x],EAX\"")
  endif()
  mo_selftest(NAME import.${case} EXIT 1
    CHECK .import.${case} VERDICT fail CONTAINS "${_mo_says}"
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/selftest/import.sh ${case}
            ${CMAKE_CURRENT_SOURCE_DIR}/tools/litmus-import
            ${PROJECT_SOURCE_DIR}/fixtures/memory_order/herdtools7
            ${CMAKE_CURRENT_SOURCE_DIR}/probe/litmus_catalogue.def ${BG_MO_VERDICTS}
            ${CMAKE_CURRENT_BINARY_DIR}/import-${case} $<TARGET_FILE:bg-check>)
endforeach()

# 4e. tools/litmus-import on bad input (a directory, a missing, empty or NUL
#     file, an output directory missing or an output that is a directory):
#     one "buildgate: litmus-import: <file>: <why>" line per bad input and a
#     non-zero exit, never awk's or mv's messages (selftest/import_bad_input.sh)
bg_add_test(NAME memory_order.selftest.import_bad_input SUITE memory_order LABELS selftest TIMEOUT 60
            COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/selftest/import_bad_input.sh
                    ${CMAKE_CURRENT_SOURCE_DIR}/tools/litmus-import
                    ${PROJECT_SOURCE_DIR}/fixtures/memory_order/herdtools7/catalogue/x86/tests/SB.litmus
                    ${CMAKE_CURRENT_BINARY_DIR}/selftest-import-bad-input $<TARGET_FILE:bg-check>)

# 5. A fixture edited so that it lies is refused with exit 5 and the reason:
#    mo_bad_fixture(NAME case FROM text TO text [CONTAINS text] ACCESS a) runs
#    litmus-check SB over a copy of expectations.json with FROM replaced by TO.
function(mo_bad_fixture)
  cmake_parse_arguments(F "" "NAME;FROM;TO;CONTAINS;ACCESS" "" ${ARGN})
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/fixtures-${F_NAME}")
  file(READ "${BG_FIXTURES_DIR}/memory_order/expectations.json" fx)
  string(FIND "${fx}" "${F_FROM}" at)
  if(at EQUAL -1)  # the fixture changed: this corruption would test nothing
    message(FATAL_ERROR "mo_bad_fixture(${F_NAME}): FROM text not in expectations.json: ${F_FROM}")
  endif()
  string(REPLACE "${F_FROM}" "${F_TO}" fx "${fx}")
  file(WRITE "${dir}/memory_order/expectations.json" "${fx}")
  set(contains)
  if(F_CONTAINS)
    set(contains CONTAINS "${F_CONTAINS}")
  endif()
  mo_selftest(NAME input.${F_NAME} EXIT 5 STDERR "buildgate: litmus-check: " ${contains}
    COMMAND env BG_FIXTURES_DIR=${dir}
            $<TARGET_FILE:litmus-check> --test SB --access ${F_ACCESS} --runner native
            --probe ${probe} --iterations 1000)
endfunction()
# SB's exists clause replaced by an SC outcome
# (its next step: how to restore it, here a copy outside the repository: bg_fixture_hint)
mo_bad_fixture(NAME corrupt-fixture ACCESS plain
  CONTAINS "expectations.json is not in the fixtures/ folder of a git repository: copy the repository's fixtures/memory_order/expectations.json ("
  FROM "\"exists\": \"0:r0=0; 1:r0=0;\"" TO "\"exists\": \"0:r0=1; 1:r0=1;\"")
# the old schema (1: "contexts" and "model" where 2 says "model_of" and "access")
mo_bad_fixture(NAME old-schema ACCESS plain CONTAINS "schema 1, want 2"
  FROM "\"schema\": 2" TO "\"schema\": 1")
# an architectural pair weakened: x86_64.sc obeying x86-tso would let seq_cst
# SB relax unnoticed (fresh-user trial)
mo_bad_fixture(NAME weakened-model ACCESS sc CONTAINS "model_of.x86_64.sc must be"
  FROM "\"x86_64.sc\": \"sc\"" TO "\"x86_64.sc\": \"x86-tso\"")

# x86-tso verdicts are checked against the x86-TSO enumerator (check/litmus_tso.c):
# MP's relaxed outcome called allowed would let a real TSO violation pass
# (fresh-user trial, issue 12); SB's called forbidden would fail every correct run.
mo_bad_fixture(NAME tso-mp-allowed ACCESS plain CONTAINS "test MP: x86-tso says \"allowed\""
  FROM "\"x86-tso\": \"forbidden\", \"armv8\": \"allowed\",   \"sc\": \"forbidden\", \"source\": \"herdtools7 x86/MP"
  TO "\"x86-tso\": \"allowed\",   \"armv8\": \"allowed\",   \"sc\": \"forbidden\", \"source\": \"herdtools7 x86/MP")
mo_bad_fixture(NAME tso-sb-forbidden ACCESS plain CONTAINS "T1 ld x=0 (memory)"
  FROM "\"x86-tso\": \"allowed\",   \"armv8\": \"allowed\",   \"sc\": \"forbidden\", \"source\": \"herdtools7 x86/SB"
  TO "\"x86-tso\": \"forbidden\",   \"armv8\": \"allowed\",   \"sc\": \"forbidden\", \"source\": \"herdtools7 x86/SB")

# 6. A runner that hangs is killed at --timeout; one that crashes is named
#    (user runners of BG_X86_RUNNERS, resolved by the registry like any other;
#    x86-64 guests by definition: the probe is never started).
mo_selftest(NAME runner.hang EXIT 1
  CHECK .probe VERDICT fail CONTAINS "timed out after 2 s at load " "under runner hang"
  COMMAND env "BG_X86_RUNNERS=hang=sh -c 'sleep 60' --"
          $<TARGET_FILE:litmus-check> --test SB --access plain --runner hang --arch x86_64
          --probe ${probe} --timeout 2)
mo_selftest(NAME runner.crash EXIT 1
  CHECK .probe VERDICT fail CONTAINS "killed by signal 11" "under runner crash"
  COMMAND env "BG_X86_RUNNERS=crash=sh -c 'kill -SEGV $$' --"
          $<TARGET_FILE:litmus-check> --test SB --access plain --runner crash --arch x86_64
          --probe ${probe})
# A runner that fails is quoted: the last lines of its stderr (lib bg_proc_explain).
mo_selftest(NAME runner.stderr-tail EXIT 1
  CHECK .probe VERDICT fail CONTAINS "exit status 3; stderr: first | second | last words"
  COMMAND env "BG_X86_RUNNERS=noisy=sh -c 'echo zero >&2 && echo first >&2 && echo second >&2 && echo last words >&2 && exit 3' --"
          $<TARGET_FILE:litmus-check> --test SB --access plain --runner noisy --arch x86_64
          --probe ${probe})

# 6b. `taskset -c 0` as a runner: the probe pins its threads only inside the
#     affinity mask it inherits, so both threads share CPU 0 and the power
#     check is inconclusive ("1 CPU available"), never a pass.
find_program(BG_TASKSET taskset)
if(BG_TASKSET AND BG_MO_X86 AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  mo_selftest(NAME taskset_cpu0 EXIT 0
    CHECK .power VERDICT inconclusive CONTAINS "1 CPU available"
    COMMAND env "BG_X86_RUNNERS=cpu0=${BG_TASKSET} -c 0"
            $<TARGET_FILE:litmus-check> --test SB --access plain --runner cpu0 --arch x86_64
            --probe ${probe} --iterations 200000)
endif()

# 6c. A pin the system refuses (a cpuset container: pthread_create fails with
#     EINVAL, simulated by an LD_PRELOAD library) never crashes the probe: the
#     threads run unpinned and it says so in one line.  Not under a sanitizer
#     preset (its runtime must come first in the preload list).
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND NOT CMAKE_C_FLAGS MATCHES "sanitize")
  add_library(bg-refuse-pin MODULE selftest/refuse_pin.c)
  target_link_libraries(bg-refuse-pin PRIVATE ${CMAKE_DL_LIBS})
  bg_target_warnings(bg-refuse-pin)
  bg_add_selftest(NAME memory_order.selftest.pin_refused SUITE memory_order
    EXPECT --exit 0 --stderr "buildgate: litmus-probe: the system refused a CPU pin (cpuset?): threads run unpinned"
    COMMAND env LD_PRELOAD=$<TARGET_FILE:bg-refuse-pin> $<TARGET_FILE:litmus-probe> SB:plain:1000 MP:plain:1000)
endif()

# 7. A known deviation that no longer shows (the fixture's qemu-aarch64 entry
#    moved onto the native runner, where seq_cst SB is never relaxed) is an
#    xpass: the gate fails until the fixture entry is removed.
set(dev_fx "${CMAKE_CURRENT_BINARY_DIR}/deviation-fixtures")
file(READ "${BG_FIXTURES_DIR}/memory_order/expectations.json" fx)
string(REPLACE "\"runner\": \"qemu-aarch64\"" "\"runner\": \"native\"" fx "${fx}")
string(REPLACE "\"versions\": \">=7.2,<7.3\"" "\"versions\": \"*\"" fx "${fx}")
file(WRITE "${dev_fx}/memory_order/expectations.json" "${fx}")
mo_selftest(NAME native.deviation-gone.SB EXIT 1
  CHECK .forbidden VERDICT xpass CONTAINS "0 forbidden in" "the known deviation is gone"
  COMMAND env BG_FIXTURES_DIR=${dev_fx}
          $<TARGET_FILE:litmus-check> --test SB --access sc --runner native --arch ${native_arch}
          --probe ${probe} --iterations 200000)

# ci/adopt-known on memory_order proposals: an overlapping entry is refused
# (ci/selftest/adopt-known.sh; nan.selftest.adopt_* cover the rest).
# A line for a litmus test the catalogue lacks, or a rate of 0, is refused too.
foreach(case IN ITEMS overlap no_test zero_rate quote)
  bg_add_test(NAME memory_order.selftest.adopt_${case} SUITE memory_order LABELS selftest TIMEOUT 60
              COMMAND ${PROJECT_SOURCE_DIR}/ci/selftest/adopt-known.sh mo_${case} ${PROJECT_SOURCE_DIR}
                      ${CMAKE_CURRENT_BINARY_DIR}/selftest-adopt-mo_${case} $<TARGET_FILE:bg-check>)
endforeach()

# 8. An unlisted runner version (ci/selftest/version-99/qemu-aarch64, first in
#    PATH, answers --version 99.1.0 and runs the real qemu-aarch64; the SB sc
#    deviation is listed for 7.2 only) still fails, and proposes a line for
#    ci/adopt-known.
if(BG_MO_ARM64_PROBE AND BG_RUNNER_qemu-aarch64_OK)
  mo_selftest(NAME qemu-aarch64.unlisted-version.SB EXIT 1
    CHECK .forbidden VERDICT fail CONTAINS "0:r0=0" "proposed line in proposed-known/memory_order/qemu-aarch64.tsv"
    COMMAND env "PATH=${PROJECT_SOURCE_DIR}/ci/selftest/version-99:$ENV{PATH}"
            $<TARGET_FILE:litmus-check> --test SB --access sc --runner qemu-aarch64 --arch arm64
            --probe ${BG_MO_ARM64_PROBE} --iterations 200000)
endif()

# 9. Brackets (docs/memory_order.md "Runner versions"): stand-ins reporting QEMU
#    8.2.2 (Ubuntu 24.04's, measured by nobody) that run trixie's 10.0.13:
#    qemu-aarch64's SB sc deviation, measured at 7.2.22 and 10.0.13, is an
#    inferred xfail with one cause line; under qemu-aarch64 -one-insn-per-tb it
#    does not happen: a pass saying so, never xpass; qemu-x86_64 8.2.2 passes
#    SB+mfences, and with a planted dropped fence fails naming it
#    (selftest/bracket.sh; skip without ci/provision --trixie-runners).
set(_mo_arm64_probe "${BG_MO_ARM64_PROBE}")
if(NOT _mo_arm64_probe)
  set(_mo_arm64_probe "none")
endif()
foreach(case IN ITEMS aarch64_inferred aarch64_differs x86_standin x86_planted)
  bg_add_test(NAME memory_order.selftest.bracket_${case} SUITE memory_order LABELS selftest TIMEOUT 300
              COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/selftest/bracket.sh ${case} $<TARGET_FILE:litmus-check>
                      ${probe} ${_mo_arm64_probe} ${BG_FIXTURES_DIR}
                      ${CMAKE_CURRENT_BINARY_DIR}/selftest-bracket-${case} $<TARGET_FILE:bg-runner>
                      $<TARGET_FILE:bg-check>)
endforeach()

# A runner that writes a log line to stdout before the probe's JSON (a
# translator logging to stdout, issue 23): the failure quotes that line with
# its byte count and says where the JSON starts (main: "the probe printed no
# JSON object with "arch"", nothing quoted).  The user runner runs x86-64
# programs: x86-64 hosts only.
if(native_arch STREQUAL "x86_64")
  mo_selftest(NAME stdout_log_line EXIT 1
    CHECK .probe VERDICT fail
    CONTAINS "bytes before the JSON document, which starts on line 2" "first line: '[LOG] stdout-log-runner: starting "
    COMMAND env "BG_X86_RUNNERS=logfirst=${PROJECT_SOURCE_DIR}/lib/tests/stdout-log-runner.sh"
            $<TARGET_FILE:litmus-check> --test SB --access plain --runner logfirst --arch x86_64
            --probe ${probe} --iterations 1000 --timeout 60)
endif()
