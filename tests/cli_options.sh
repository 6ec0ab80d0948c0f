#!/bin/sh
# GNU-style command line (README, `collsim --help`): --opt=value and --opt
# value, options before or after the file, per-command --help, --version with
# the licence, the man page built from the same text, and every option that
# does not apply to a command refused with exit 2 (none silently ignored).
. "${top_srcdir:-.}/tests/cli_common.sh"
scenario="$top_srcdir/tests/data/ring-star8.yaml"
star="$top_srcdir/platforms/star-64.yaml"

# --opt=value, --opt value, before and after the operand: the same output
"$collsim" predict "$scenario" --format=json > "$work/a.json"
"$collsim" predict --format json "$scenario" > "$work/b.json"
"$collsim" predict --format=json "$scenario" -o "$work/c.json"
"$collsim" predict -o"$work/d.json" "$scenario" --format json
for f in b c d; do
    check "predict form $f gives the same JSON" "$(cmp "$work/a.json" "$work/$f.json" && echo same)" '^same$'
done
check "--format=json is JSON" "$(head -c 12 "$work/a.json")" '^\{"collsim"'
"$collsim" run "$scenario" --cfg=network/TCP-gamma:0 --quiet --format csv > "$work/cfg1.csv"
"$collsim" run --cfg network/TCP-gamma:0 "$scenario" --quiet --format=csv > "$work/cfg2.csv"
check "--cfg=X and --cfg X" "$(cmp "$work/cfg1.csv" "$work/cfg2.csv" && echo same)" '^same$'
check "-j 2 and --jobs=2" "$("$collsim" run -j 2 "$scenario" -q --format csv | cmp - "$work/cfg1.csv" && echo same)" '^same$'

# help: top level and per command; version
out=$("$collsim" --help); status=$?
check "--help exits 0" "$status" '^0$'
check "--help lists every command" "$(printf '%s\n' "$out" | grep -cE '^  (run|predict|verify|platform describe|platform xml|platform route|list) ')" '^7$'
out=$("$collsim" run --help); status=$?
check "run --help exits 0" "$status" '^0$'
check "run --help: its usage" "$out" '^Usage: collsim run SCENARIO.yaml \[OPTION\]\.\.\.$'
check "run --help: --baseline" "$out" '--baseline=FILE'
check "run --help: not --routes" "$(printf '%s\n' "$out" | grep -c -- '--routes')" '^0$'
# a bare collsim: a short usage on standard error, exit 2 (a missing command
# is a usage error); the platform group's --help lists its three verbs
out=$("$collsim" 2>&1 >/dev/null); status=$?
check "bare collsim exits 2" "$status" '^2$'
check "bare collsim: a short usage, naming collsim --help" "$(printf '%s\n' "$out" | wc -l) $(printf '%s\n' "$out" | grep -c "collsim --help")" '^ *[2-6] 1$'
check "bare collsim: every command named (README's nine)" \
    "$(printf '%s\n' "$out" | grep -oE '\b(run|predict|verify|platform|list|calibrate|sweep|merge|schedule)\b' | sort -u | wc -l)" '^ *9$'
for help in --help -h; do
    out=$("$collsim" platform $help); status=$?
    check "platform $help exits 0" "$status" '^0$'
    check "platform $help lists describe, xml and route" "$(printf '%s\n' "$out" | grep -cE '^  (describe|xml|route) PLATFORM.yaml')" '^3$'
done
out=$("$collsim" platform 2>&1); status=$?
check "platform without a verb: exit 2, pointing at platform --help" "$status $out" '^2 .*collsim platform --help'
for command in run predict verify list calibrate "platform describe" "platform xml" "platform route"; do
    # shellcheck disable=SC2086 # "platform describe" is two words
    out=$("$collsim" $command --help); status=$?
    check "$command --help exits 0 with its usage" "$status $out" "^0 Usage: collsim $command "
done
out=$("$collsim" platform xml --help)
check "platform xml --help: --routes all|ring|none" "$out" '--routes=WHICH +all \(default'
out=$("$collsim" predict "$scenario" --help)
check "--help after the operand" "$out" '^Usage: collsim predict SCENARIO.yaml'
out=$("$collsim" --version); status=$?
check "--version exits 0" "$status" '^0$'
check "--version: the version" "$out" "^collsim [0-9]+\.[0-9]+\.[0-9]+$"
check "--version: the licence" "$out" '^License MIT'

# the man page: built from --help, so every long option is in it
if [ -f "$top_builddir/collsim.1" ]; then
    man_text=$(cat "$top_builddir/collsim.1")
    check "man page has NAME and SYNOPSIS" "$(printf '%s\n' "$man_text" | grep -cE '^\.SH "?(NAME|SYNOPSIS)')" '^2$'
    missing=""
    for option in $("$collsim" --help | grep -oE -- '--[a-z-]+=?' | tr -d = | sort -u); do
        printf '%s\n' "$man_text" | grep -q -- "$(printf '%s' "$option" | sed 's/-/\\\\-/g')" || missing="$missing $option"
    done
    check "every --help option is in the man page" "$missing" '^$'
else
    echo "FAIL no collsim.1 in $top_builddir"; fail=$((fail + 1))
fi

# refused: an option that does not apply, a stray operand, --rtol alone
refuse() { # description, expected message, command...
    description=$1; message=$2; shift 2
    out=$("$collsim" "$@" 2>&1 > /dev/null); status=$?
    check "$description exits 2" "$status" '^2$'
    check "$description says why" "$out" "$message"
}
refuse "verify --plot" '--plot does not apply to verify' verify "$scenario" --plot "$work/x.svg"
refuse "predict --model" '--model does not apply to predict: it simulates nothing' predict "$scenario" --model cm02
refuse "predict --jobs" '--jobs does not apply to predict' predict "$scenario" --jobs 2
refuse "predict --cfg" '--cfg does not apply to predict' predict "$scenario" --cfg=network/TCP-gamma:0
refuse "--rtol without --baseline" '--rtol is the tolerance of --baseline' run "$scenario" --rtol 0.1
refuse "a second file to platform describe" 'expected PLATFORM.yaml, got 2 operands' platform describe "$star" "$star"
refuse "an unknown option" "unknown option '--frobnicate'" run "$scenario" --frobnicate
refuse "an option without its value" '--format needs a value' predict "$scenario" --format
refuse "--quiet with --progress" 'contradict' run "$scenario" --quiet --progress
refuse "platform describe --format csv" '--format takes table or json' platform describe "$star" --format csv
refuse "platform route --routes" '--routes does not apply to platform route' platform route "$star" 0 1 --routes all
check "nothing was written by the refused runs" "$(ls "$work" | grep -c x.svg)" '^0$'

# platform describe --format json: what the table says, for scripts
"$collsim" platform describe "$star" --format json > "$work/describe.json"
out=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["kind"], d["ranks"], len(d["tiers"]))' "$work/describe.json" 2>&1)
check "describe --format json: a star of 64 ranks, one tier (platforms/star-64.yaml)" "$out" '^star 64 1$'
check_close "describe --format json: its alpha 0.5 us" "$(json_field "$work/describe.json" tiers/0/alpha_s)" 0.5e-6 0
check_close "describe --format json: its BW 900 GB/s" "$(json_field "$work/describe.json" tiers/0/bandwidth_Bps)" 900e9 0
summary
