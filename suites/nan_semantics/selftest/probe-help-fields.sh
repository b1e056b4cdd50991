#!/bin/sh
# probe-help-fields.sh — self-test nan.selftest.probe_help_fields: every key
# nan-probe writes (top level, "features", "facts" of the pthread context,
# the phase/trap/fault keys and main_thread's "lig" keys) is named in `nan-probe --help` with the form of
# value the document really holds (features and facts: true|false, not 0|1).
# Usage: probe-help-fields.sh PROBE      (run by bg-expect: exit 0 agree,
# 1 with one line per disagreement on stdout)
probe=$1
help=$("$probe" --help) || { echo "nan-probe --help failed"; exit 1; }
bad=0
check() { # $1 context [$2 $3: --modes M]: the keys and value forms of one document against the help
    doc=$("$probe" --context "$@") || { echo "nan-probe --context $* failed"; bad=1; return; }
    for key in probe schema context os case_table features phases phase mode mxcsr x87_cw results \
               skipped_ops facts traps exception delivered si_code handler_mxcsr saved_status \
               faults case signal handled mxcsr_after dest \
               lig ops skipped deviations op raised died exit case differ l0 l1; do
        case $doc in *"\"$key\":"*)
            case $help in *"\"$key\":"*) ;; *) echo "key \"$key\" is written but not in the help"; bad=1 ;; esac ;;
        esac
    done
    feats=$(printf '%s\n' "$doc" | sed -n 's/.*"features":{\([^}]*\)}.*/\1/p' | tr ',' ' ')
    for kv in $feats; do
        key=${kv%%:*}
        val=${kv#*:}
        case $val in true|false) form="$key:true|false" ;; *) form="$key:$val" ;; esac
        case $help in *"$form"*) ;; *) echo "features $kv: the help does not say $form"; bad=1 ;; esac
    done
    case $doc in *'"facts":{"'*)
        case $help in *'"facts":{"<fact>":true|false'*) ;;
        *) echo "facts hold true/false: the help does not say \"<fact>\":true|false"; bad=1 ;; esac ;;
    esac
}
check pthread
check trap
check faults
check main_thread --modes default
exit $bad
