#!/usr/bin/env bash
# import.sh MODE TOOL HERDTOOLS7 DEF TSV WORK BG_CHECK — the converted
# herdtools7 catalogue is what tools/litmus-import makes of the committed
# copies (docs/memory_order.md "Catalogue").  Regenerates DEF and TSV from the
# copies under HERDTOOLS7 (fixtures/memory_order/herdtools7) into WORK and
# records one check (bg-check) that they equal the committed ones.
#   current        the committed copies as they are: pass when nothing differs
#   mutant-value   a copy whose x86_64 WWC.litmus stores 1 where it stored 2:
#                  the regenerated entry differs (the check must fail)
#   mutant-kinds   a copy whose kinds.txt says "MP Allow": the tool refuses it
#                  (the published verdict disagrees with the cycle), check fails
#   refuse-instr   a test of our own with an instruction the harness lacks
#                  (LOCK XADD): the tool exits 4 with one line naming it
# Exit: 0 pass, 1 fail (as recorded), 2 usage.
set -uo pipefail
[ $# -eq 7 ] || { echo "usage: import.sh MODE TOOL HERDTOOLS7 DEF TSV WORK BG_CHECK" >&2; exit 2; }
mode=$1 tool=$2 src=$3 def=$4 tsv=$5 work=$6 bgcheck=$7
record() {
  "$bgcheck" --suite memory_order --name "${BG_TEST_NAME:-memory_order.unit.import}" --verdict "$1" \
    --expected "tools/litmus-import over the copies in fixtures/memory_order/herdtools7 gives the committed probe/litmus_catalogue.def and verdicts.tsv ($mode)" \
    --observed "$2"
  case "$1" in pass) exit 0 ;; *) exit 1 ;; esac
}
rm -rf "$work"
mkdir -p "$work" || record fail "cannot make $work"
cp -R "$src" "$work/herdtools7" || record fail "cannot copy $src"
h=$work/herdtools7
case "$mode" in
  current) ;;
  mutant-value)
    # shellcheck disable=SC2016 # $1, $2 are the litmus file's immediates
    sed 's/^ movl \$2,(x) | movl (x),%eax |/ movl $1,(x) | movl (x),%eax |/' \
      "$src/catalogue/x86_64/tests/WWC.litmus" >"$h/catalogue/x86_64/tests/WWC.litmus" ;;
  mutant-kinds)
    sed 's/^MP  *Forbid/MP                   Allow /' "$src/catalogue/x86_64/tests/kinds.txt" \
      >"$h/catalogue/x86_64/tests/kinds.txt" ;;
  refuse-instr)
    printf 'X86 T\n"PodWR Fre PodWR Fre"\n{\n}\n P0              | P1          ;\n LOCK XADD [x],EAX | MOV EAX,[x] ;\nexists (1:EAX=0)\n' \
      >"$h/catalogue/x86/tests/T.litmus" ;;
  *) echo "import.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
# the core list is the one the committed file was made with (its CORE tags)
core=$(sed -n 's/^LITMUS([A-Za-z0-9_]*, "\([^"]*\)", CORE,.*/\1/p' "$def" | tr '\n' ',' | sed 's/,$//')
"$tool" --core "$core" --out-def "$work/litmus_catalogue.def" --out-verdicts "$work/verdicts.tsv" \
  "$h/catalogue/x86_64/tests/kinds.txt" "$h"/catalogue/x86_64/tests/*.litmus "$h"/catalogue/x86/tests/*.litmus \
  2>"$work/err.txt"
rc=$?
[ "$rc" = 0 ] || record fail "litmus-import exit $rc: $(head -1 "$work/err.txt")"
for f in "$def:$work/litmus_catalogue.def" "$tsv:$work/verdicts.tsv"; do
  want=${f%%:*} got=${f#*:}
  if ! cmp -s "$want" "$got"; then
    record fail "$(basename "$want") differs from the regenerated one: $(diff "$want" "$got" | grep '^[<>]' | head -2 | tr '\n' ' ' | cut -c1-300)"
  fi
done
record pass "regenerated $(grep -c '^LITMUS' "$def") entries and $(grep -vc '^#' "$tsv") verdicts: identical"
