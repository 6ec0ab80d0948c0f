#!/bin/sh
# Every file in tests/bad-platforms/ must make `collsim platform describe`
# exit 2 with one line "FILE:LINE:COL: message", where LINE:COL and a
# fragment of the message come from the file's "# expect:" header (docs/reliability.md).
. "${top_srcdir:-.}/tests/cli_common.sh"
for file in "$top_srcdir"/tests/bad-platforms/*.yaml; do
    expect=$(sed -n '1s/^# expect: //p' "$file")
    position=${expect%% *}
    fragment=${expect#* }
    err=$("$collsim" platform describe "$file" 2>&1 >/dev/null)
    status=$?
    lines=$(printf '%s\n' "$err" | wc -l)
    case "$err" in
    "$file:$position: "*"$fragment"*) matched=yes ;;
    *) matched=no ;;
    esac
    if [ "$status" -eq 2 ] && [ "$matched" = yes ] && [ "$lines" -eq 1 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $file: exit $status, expected 2 and '$file:$position: ...$fragment...', got: $err"
    fi
done
# a file that does not exist
err=$("$collsim" platform describe "$top_srcdir/tests/no-such-file.yaml" 2>&1 >/dev/null)
check "a missing file: exit 2, cannot open" "$? $err" '^2 .*cannot open'
summary
