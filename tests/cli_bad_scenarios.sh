#!/bin/sh
# Every file in tests/bad-scenarios/ must make `collsim run` exit 2 with one
# line "FILE:LINE:COL: message" on stderr and nothing on stdout, where LINE:COL
# and a fragment of the message (the part that says what to do) come from the
# file's "# expect:" header; nothing may be left where `-o` pointed (docs/reliability.md).
# `collsim predict` must refuse the file the same way: scenario errors do not
# depend on the mode.  A file whose second line is "# predicted: closed form"
# is refused for the schedule `run` would build, which a closed form does not
# need: `collsim predict` answers it (docs/scale.md).
. "${top_srcdir:-.}/tests/cli_common.sh"

# FILE MODE: exit 2, the expected one line, empty stdout, no output file.
refuses() {
    file=$1
    mode=$2
    expect=$(sed -n '1s/^# expect: //p' "$file")
    position=${expect%% *}
    fragment=${expect#* }
    mkdir "$work/out"
    err=$("$collsim" "$mode" "$file" -o "$work/out/report.json" 2>&1 >"$work/stdout")
    status=$?
    lines=$(printf '%s\n' "$err" | wc -l)
    case "$err" in
    "$file:$position: "*"$fragment"*) matched=yes ;;
    *) matched=no ;;
    esac
    if [ "$status" -eq 2 ] && [ "$matched" = yes ] && [ "$lines" -eq 1 ] && [ ! -s "$work/stdout" ] &&
        [ -z "$(ls -A "$work/out")" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $mode $file: exit $status (want 2), stdout $(wc -c <"$work/stdout") bytes (want 0)," \
            "left in -o's folder: '$(ls -A "$work/out")' (want none);" \
            "want one line '$file:$position: ...$fragment...', got: $err"
    fi
    rm -rf "$work/out" "$work/stdout"
}

# FILE: predicted, exit 0, with one result row per case.
predicted() {
    if "$collsim" predict "$1" --format csv -q >"$work/predicted.csv" 2>"$work/stderr" && [ ! -s "$work/stderr" ] &&
        [ "$(wc -l <"$work/predicted.csv")" -ge 2 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL predict $1: want a prediction (its closed form needs no schedule), got: $(cat "$work/stderr")"
    fi
    rm -f "$work/predicted.csv" "$work/stderr"
}

for file in "$top_srcdir"/tests/bad-scenarios/*.yaml; do
    refuses "$file" run
    if [ "$(sed -n 2p "$file")" = "# predicted: closed form" ]; then
        predicted "$file"
    else
        refuses "$file" predict
    fi
done
summary
