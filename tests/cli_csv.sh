#!/bin/sh
# `collsim run --format csv` (SPEC §8, docs/output.md): a header and one row
# per (case, algorithm, size) with 21 columns (the last three: groups, layout, skew), then after a blank line the
# eta block with its own header and one row per fitted (case, algorithm).
. "${top_srcdir:-.}/tests/cli_common.sh"
out=$("$collsim" run "$top_srcdir/tests/data/ring-star8.yaml" --format csv 2>&1)
check "CSV results header" "$(printf '%s\n' "$out" | sed -n 1p)" \
    '^case,primitive,algorithm,group,ranks,size_bytes,segments,time_s,predicted_s,ideal_s,ratio,n_alpha,n_beta,alpha_s,bandwidth_Bps,algbw_Bps,busbw_Bps,time_fastest_s,groups,layout,skew$'
results=$(printf '%s\n' "$out" | sed '/^$/q' | sed '/^$/d')
check "CSV: header + 3 rows" "$(printf '%s\n' "$results" | wc -l)" '^ *4$'
check "CSV: 21 columns on every results line" "$(printf '%s\n' "$results" | awk -F, '{print NF}' | sort -u)" '^21$'
check "CSV: one group of all 8 ranks, uniform" "$(printf '%s\n' "$results" | sed -n 2p)" ',1,all,$'
check "CSV: a timed row at 16 MB" "$out" '^0,allreduce,ring,0,8,16000000,1,[0-9.e-]+,'
etas=$(printf '%s\n' "$out" | sed '1,/^$/d')
check "CSV eta header" "$(printf '%s\n' "$etas" | sed -n 1p)" \
    '^case,primitive,algorithm,group,tier,label,points,eta_alpha,eta_beta,eta_beta_busbw,max_rel_residual$'
check "CSV: one eta row over 3 sizes" "$(printf '%s\n' "$etas" | sed 1d)" '^0,allreduce,ring,0,,,3,'
check "CSV: 11 columns in the eta block" "$(printf '%s\n' "$etas" | awk -F, '{print NF}' | sort -u)" '^11$'
summary
