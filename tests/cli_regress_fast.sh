#!/bin/sh
# CI regression on simulated timings (docs/output.md, "Regression"): `scripts/regress --fast` runs
# every scenario of baselines/fast.list against its committed baseline and
# must find no drift.  Re-record after an intended change of the times:
# scripts/regress --write --fast (and say why in the commit).
. "${top_srcdir:-.}/tests/cli_common.sh"
collsim_path=$(cd "$(dirname "$collsim")" && pwd)/$(basename "$collsim")
out=$(COLLSIM="$collsim_path" sh "$top_srcdir/scripts/regress" --fast 2>&1); status=$?
printf '%s\n' "$out"
check "scripts/regress --fast exits 0" "$status" '^0$'
check "scripts/regress --fast checked the quickstart" "$out" '^quickstart +[1-9][0-9]* +0 +0 '
check "scripts/regress --fast: no drift, no failure" "$out" '^scripts/regress: [1-9][0-9]* scenarios, 0 drifted, 0 failed'
summary
