#!/bin/sh
# Every file in tests/bad-logs/ must make `collsim calibrate` and
# `collsim predict --measured` exit 2 with one line "FILE:LINE:COL: message"
# before anything runs, where LINE:COL and a fragment of the message come
# from the file's "# expect:" header (docs/calibration.md, docs/reliability.md).
. "${top_srcdir:-.}/tests/cli_common.sh"
platform="$top_srcdir/platforms/hgx-h100.yaml"
scenario="$top_srcdir/tests/data/ring-star8.yaml"
for file in "$top_srcdir"/tests/bad-logs/*.log; do
    expect=$(sed -n '1s/^# expect: //p' "$file")
    position=${expect%% *}
    fragment=${expect#* }
    for command in calibrate predict; do
        if [ "$command" = calibrate ]; then
            err=$("$collsim" calibrate "$platform" "$file" -q -o "$work/out.yaml" 2>&1 >/dev/null)
        else
            err=$("$collsim" predict "$scenario" --measured "$file" -q -o "$work/out.json" 2>&1 >/dev/null)
        fi
        status=$?
        lines=$(printf '%s\n' "$err" | wc -l)
        case "$err" in
        "$file:$position: "*"$fragment"*) matched=yes ;;
        *) matched=no ;;
        esac
        if [ "$status" -eq 2 ] && [ "$matched" = yes ] && [ "$lines" -eq 1 ] && [ ! -e "$work/out.yaml" ] && [ ! -e "$work/out.json" ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL $command $file: exit $status, expected 2 and '$file:$position: ...$fragment...', got: $err"
        fi
    done
done
summary
