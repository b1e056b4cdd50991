#!/bin/sh
# make-host-json.sh — cuts a real results.json down to host.json, the input of
# lib/tests/merge_test.sh (bg-report --merge self-tests): a few checks of one
# RandomX variant (its chain, with checkpoints, and three KATs), the AES check,
# and the NaN tables of native and qemu-x86_64 in main_thread; one check per
# line, so the tests can plant a change with sed.  Needs jq (not a test
# dependency: only to remake the file).  README.md says how it was made.
#
# Usage: make-host-json.sh RESULTS_JSON > host.json
set -eu
r=$1
sel='select(.name | test("^digest\\.runtime\\.jit\\+hard-aes\\+light\\+argon2-ref\\.(chain|kat\\.[0-9a-z]+)$|^digest\\.aes_flags$|^nan\\.(native|qemu-x86_64)\\.main_thread(\\.|$)"))
     | select((.name | test("\\.kat\\.")) == false or (.name | test("\\.kat\\.1[abc]$")))'
zero='{"pass":0,"fail":0,"xfail":0,"xpass":0,"skip":0,"inconclusive":0}'
count="$zero + (group_by(.verdict) | map({(.[0].verdict): length}) | add // {})"
printf '{"schema":1,"generated":%s,\n' "$(jq .generated "$r")"
printf '"host":%s,\n' "$(jq -c .host "$r")"
printf '"run":%s,\n' "$(jq -c '.run | {commit}' "$r")"
printf '"summary":%s,\n' "$(jq -c "[.checks[] | $sel] | $count" "$r")"
printf '"suites":%s,\n' "$(jq -c "[.checks[] | $sel] | group_by(.suite) | map({(.[0].suite): ($count)}) | add" "$r")"
printf '"junit":null,\n"checks":[\n'
jq -c ".checks[] | $sel | del(.details.example, .details.notes)" "$r" | sed '$!s/$/,/'
printf ']}\n'
