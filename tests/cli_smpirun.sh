#!/bin/sh
# `collsim platform xml` is a platform SimGrid's own tools load as is (issue
# 11.6): smpirun -platform on it, with SMPI's ring all-reduce (`lr`: ring
# reduce-scatter then ring all-gather), times a 16 MB all-reduce on a 16-rank
# star as collsim does, within one alpha.  Skipped (exit 77) where
# smpicc or smpirun is absent (both come with libsimgrid-dev).
if ! command -v smpicc > /dev/null 2>&1 || ! command -v smpirun > /dev/null 2>&1; then
    echo "SKIP: smpicc / smpirun not found (libsimgrid-dev installs them)"
    exit 77
fi
. "${top_srcdir:-.}/tests/cli_common.sh"
printf 'name: star-16\nkind: star\nranks: 16\nalpha: 0.5us\nbandwidth: 900GBps\n' > "$work/star16.yaml"
printf 'name: smpi\nplatform: star16.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [ring]\n    sizes: [16MB]\n' \
    > "$work/ring.yaml"
collsim_time=$("$collsim" run "$work/ring.yaml" --format csv --quiet | csv_field - time_s)
# the seed's ring formula, 01 §5.1: 2(N-1) alpha + 2(N-1)/N M/BW
check_close "collsim's time is the formula" "$collsim_time" "2 * 15 * 0.5e-6 + 2 * 15 / 16 * 16e6 / 900e9" 1e-9

"$collsim" platform xml "$work/star16.yaml" > "$work/star16.xml"
check "platform xml exits 0" "$?" '^0$'
smpicc -O1 -o "$work/allreduce" "$top_srcdir/tests/data/smpi_allreduce.c" > "$work/cc.log" 2>&1
check "the MPI program builds" "$? $(tail -3 "$work/cc.log")" '^0'
seq 0 15 | sed 's/^/r/' > "$work/hosts"
# collsim models no computation: SMPI must not time the reduction's arithmetic either
smpi_time=$(cd "$work" && smpirun -np 16 -platform star16.xml -hostfile hosts --cfg=smpi/allreduce:lr \
    --cfg=smpi/simulate-computation:no ./allreduce 16000000 2> smpi.log | tail -1)
check "smpirun ran the platform" "$smpi_time$(grep -iE 'error|abort' "$work/smpi.log" | head -3)" '^[0-9.e-]+$'
check "smpirun within one alpha of collsim ($smpi_time s vs $collsim_time s)" \
    "$(awk -v s="$smpi_time" -v c="$collsim_time" 'BEGIN { d = s - c; if (d < 0) d = -d; print (s > 0 && d <= 0.5e-6) ? "close" : "far: " d }')" '^close$'
summary
