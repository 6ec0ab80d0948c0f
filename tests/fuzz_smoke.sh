#!/bin/sh
# The fuzz harnesses in the test suite (docs/reliability.md): every seed and
# every regression input under tests/fuzz/ replayed through every harness
# (built with the project's compiler: no crash, no failed oracle); then, when
# clang is present and this is the normal build, a short libFuzzer run of
# each harness (scripts/fuzz, FUZZ_SMOKE_SECONDS each, 15 by default).
. "${top_srcdir:-.}/tests/cli_common.sh"
fuzz="$top_srcdir/tests/fuzz"
for name in platform scenario calib_log msccl baseline; do
    status=0
    out=$("$top_builddir/tests/fuzz_replay_$name" "$fuzz/corpus/$name" "$fuzz/regressions/$name" 2>&1 >/dev/null) || status=$?
    check "$name harness replays its seeds and regressions" "$status" "^0$"
    [ "$status" -eq 0 ] || printf '%s\n' "$out" | tail -20
done
if [ -n "$collsim_instrumented" ]; then
    echo "libFuzzer smoke: skipped in an instrumented build"
elif ! command -v clang >/dev/null 2>&1; then
    echo "libFuzzer smoke: skipped, clang is absent (scripts/fuzz installs it)"
else
    status=0
    log=$(sh "$top_srcdir/scripts/fuzz" "${FUZZ_SMOKE_SECONDS:-15}" 2>&1) || status=$?
    printf '%s\n' "$log" | grep -E "INITED|DONE|ERROR|SUMMARY|executed_units"
    check "libFuzzer smoke: no crash, leak or timeout" "$status" "^0$"
fi
summary
