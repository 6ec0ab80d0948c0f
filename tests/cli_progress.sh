#!/bin/sh
# Progress on standard error (docs/output.md): on a terminal one line
# rewritten in place; --progress forces it into a file or pipe, a line per
# update, from 0/N to N/N simulations with the one running, the time elapsed
# and the time left; --quiet and a non-terminal stderr print nothing; standard
# output keeps only the results (and `run --verify --format json` is JSON,
# its verification lines on stderr naming the size).
. "${top_srcdir:-.}/tests/cli_common.sh"
scenario="$top_srcdir/tests/data/ring-star8.yaml"

"$collsim" run "$scenario" --progress --format json > "$work/out.json" 2> "$work/err"
check "--progress exits 0" "$?" '^0$'
check "--progress: 4 updates for 3 simulations" "$(grep -c '^collsim: [0-9]/3 simulations done' "$work/err")" '^4$'
check "--progress: the first names the simulation running" "$(sed -n 1p "$work/err")" \
    '^collsim: 0/3 simulations done, running case 0 allreduce ring 1 KB; [0-9.]+ s elapsed$'
check "--progress: an estimate of the time left" "$(sed -n 2p "$work/err")" \
    '^collsim: 1/3 simulations done, running case 0 allreduce ring 1 MB; [0-9.]+ s elapsed, about [0-9.]+ s left$'
check "--progress: the last says all are done" "$(tail -1 "$work/err")" '^collsim: 3/3 simulations done; [0-9.]+ s elapsed$'
check "--progress: standard output is still JSON" "$(python3 -m json.tool "$work/out.json" > /dev/null && echo json)" '^json$'

"$collsim" run "$scenario" > /dev/null 2> "$work/err"
check "no terminal, no --progress: nothing on stderr" "$(wc -c < "$work/err")" '^ *0$'
"$collsim" run "$scenario" --quiet --verify > /dev/null 2> "$work/err"
check "--quiet: nothing on stderr" "$(wc -c < "$work/err")" '^ *0$'

# a terminal (script(1) gives the command one): the line rewritten in place
if command -v script > /dev/null 2>&1; then
    script -qec "\"$collsim\" run \"$scenario\" > /dev/null" /dev/null > "$work/tty" 2>&1
    check "terminal: updates rewrite one line (carriage return, erase to the end)" \
        "$(grep -c "$(printf '\r')collsim: 3/3 simulations done" "$work/tty")" '^1$'
    check "terminal: the line is cleared at the end" "$(tail -c 4 "$work/tty" | od -An -c | tr -s ' ')" '\\r 033 \[ K'
    script -qec "\"$collsim\" run \"$scenario\" --quiet > /dev/null" /dev/null > "$work/tty" 2>&1
    check "terminal with --quiet: nothing" "$(wc -c < "$work/tty")" '^ *0$'
else
    echo "note: script(1) not found: the terminal case is not checked"
fi

# run --verify --format json: stdout is JSON, the verification lines on stderr with the size
"$collsim" run "$scenario" --verify --format json > "$work/verify.json" 2> "$work/err"
check "--verify --format json: stdout parses" "$(python3 -m json.tool "$work/verify.json" > /dev/null && echo json)" '^json$'
check "--verify: a line per size on stderr, naming it" "$(grep -cE '^verify case 0 allreduce ring on 8 ranks, [0-9]+ [KMG]?B \(P = 1\): ok$' "$work/err")" '^3$'
summary
