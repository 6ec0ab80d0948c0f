#!/bin/sh
# No leak and no memory error on any refusal path (docs/reliability.md): every file of
# tests/bad-platforms and tests/bad-scenarios through the readers in one
# process under valgrind (tests/bad_inputs.c), and a few through the whole
# command line.  Skipped (77) where valgrind is absent or the build is
# instrumented (ASan replaces valgrind there).
. "${top_srcdir:-.}/tests/cli_common.sh"
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is absent"; exit 77; }
[ -z "$collsim_instrumented" ] || { echo "instrumented build: ASan checks these"; exit 77; }
memcheck="valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=3"
status=0
$memcheck "$top_builddir/tests/bad_inputs" "$top_srcdir"/tests/bad-platforms/*.yaml "$top_srcdir"/tests/bad-scenarios/*.yaml \
    >"$work/readers.log" 2>&1 || status=$?
check "every bad file refused, no leak or memory error in the readers" "$status" "^0$"
[ "$status" -eq 0 ] || tail -30 "$work/readers.log"
for file in empty two-documents missing-platform-file; do
    status=0
    $memcheck "$collsim" run "$top_srcdir/tests/bad-scenarios/$file.yaml" -o "$work/out.json" >"$work/cli.log" 2>&1 || status=$?
    check "collsim run $file.yaml: exit 2, no leak" "$status" "^2$"
    [ "$status" -eq 2 ] || tail -30 "$work/cli.log"
done
# every bad log, and a bad baseline, refused by the command line without a leak
for file in "$top_srcdir"/tests/bad-logs/*.log; do
    status=0
    $memcheck "$collsim" calibrate "$top_srcdir/platforms/hgx-h100.yaml" "$file" -q >"$work/cli.log" 2>&1 || status=$?
    check "collsim calibrate $(basename "$file"): exit 2, no leak" "$status" "^2$"
    [ "$status" -eq 2 ] || tail -30 "$work/cli.log"
done
printf '{"collsim": "0", "model": "cm02", "simulated": true, "results": [{"case": -1}]}\n' >"$work/bad-baseline.json"
status=0
$memcheck "$collsim" run "$top_srcdir/tests/data/ring-star8.yaml" --baseline "$work/bad-baseline.json" >"$work/cli.log" 2>&1 || status=$?
check "collsim run --baseline with a bad result: exit 2, no leak" "$status" "^2$"
[ "$status" -eq 2 ] || tail -30 "$work/cli.log"
status=0
$memcheck "$collsim" run "$top_srcdir/tests/data/ring-star8.yaml" --cfg=foo/bar:1 >"$work/cli.log" 2>&1 || status=$?
check "collsim run --cfg=foo/bar:1: exit 2, no leak" "$status" "^2$"
[ "$status" -eq 2 ] || tail -30 "$work/cli.log"
summary
