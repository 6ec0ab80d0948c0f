#!/bin/sh
# What a command reads and what it writes are apart (docs/output.md,
# docs/reliability.md):
#   - an output naming an input (the scenario, a --measured log, the
#     baseline, calibrate's platform or logs) or another output (--trace,
#     --write-baseline, --plot, a CSV block FILE.eta.csv...) exits 2 before
#     anything runs, by inode where the file exists, by path otherwise;
#   - a FIFO, a device or a directory given as a log or a baseline is
#     refused at once (never waited on), and so is a file past its bound;
#   - a baseline is read and validated before anything runs or is written;
#   - a CSV set is replaced whole or not at all, also when the disk fills
#     midway (a small tmpfs mounted here; skipped, saying why, where mount
#     is not allowed).
. "${top_srcdir:-.}/tests/cli_common.sh"
scenario="$work/ring-star8.yaml"
cp "$top_srcdir/tests/data/ring-star8.yaml" "$scenario"
cp "$scenario" "$work/scenario.orig"
log="$work/all_reduce_perf.log"
cp "$top_srcdir/tests/fuzz/corpus/calib_log/all_reduce_two_protocols.log" "$log"
cp "$log" "$work/log.orig"
platform="$top_srcdir/platforms/hgx-h100.yaml"
"$collsim" run "$scenario" -q --write-baseline "$work/base.json" -o /dev/null
cp "$work/base.json" "$work/base.orig"

# refused COMMAND...: exit 2 at once, one line naming both files, no output
# file written, the inputs untouched
refused() { # description, pattern, command...
    description=$1
    pattern=$2
    shift 2
    rm -rf "$work/out"
    mkdir "$work/out"
    err=$(timeout 20 "$@" 2>&1 >/dev/null)
    status=$?
    check "$description: exit 2" "$status" "^2$"
    check "$description: says so on one line" "$(printf '%s\n' "$err" | wc -l) $err" "^ *1 .*$pattern"
    check "$description: nothing written" "$(ls -A "$work/out")" "^$"
    check "$description: the inputs untouched" \
        "$(cmp "$scenario" "$work/scenario.orig" && cmp "$log" "$work/log.orig" && cmp "$work/base.json" "$work/base.orig" && echo same)" "^same$"
}
same="is the same file as"

# ---- outputs against inputs ----
refused "-o the scenario" "-o $scenario $same the scenario" "$collsim" run "$scenario" -o "$scenario"
ln -s "$scenario" "$work/link.json"
refused "-o a symbolic link to the scenario" "-o $work/link.json $same the scenario" "$collsim" predict "$scenario" -o "$work/link.json"
ln "$scenario" "$work/hard.json"
refused "-o a hard link to the scenario" "$same the scenario" "$collsim" predict "$scenario" -o "$work/hard.json"
refused "-o the --measured log" "-o .*all_reduce_perf.log $same --measured" \
    "$collsim" predict "$scenario" --measured "$log" -o "$work/out/../all_reduce_perf.log"
refused "-o the baseline" "-o .*base.json $same --baseline" "$collsim" run "$scenario" --baseline "$work/base.json" -o "$work/base.json"
refused "--trace the baseline" "--trace .*base.json $same --baseline" \
    "$collsim" run "$scenario" --baseline "$work/base.json" --trace "$work/base.json" -o "$work/out/r.json"
refused "calibrate -o its log" "-o .*all_reduce_perf.log $same the log" "$collsim" calibrate "$platform" "$log" -o "$log"
cp "$platform" "$work/platform.yaml"
refused "calibrate -o its platform" "-o .*platform.yaml $same the platform" \
    "$collsim" calibrate "$work/platform.yaml" "$log" -o "$work/./platform.yaml"

# ---- outputs against outputs (none of them exists yet: compared by path) ----
refused "-o and --write-baseline" "-o .*r.json $same --write-baseline .*out/../out/r.json" \
    "$collsim" run "$scenario" -o "$work/out/r.json" --write-baseline "$work/out/../out/r.json"
refused "--trace one of the CSV blocks" "-o's CSV block .*r.eta.csv $same --trace" \
    "$collsim" run "$scenario" -o "$work/out/r.csv" --trace "$work/out/r.eta.csv"
refused "--trace the --links CSV block" "-o's CSV block .*r.links.csv $same --trace" \
    "$collsim" run "$scenario" -o "$work/out/r.csv" --links --trace "$work/out/r.links.csv"
refused "--plot -o's file" "$same --plot" "$collsim" predict "$scenario" -o "$work/out/p.svg" --format json --plot "$work/out/p.svg"

# ---- what stays allowed ----
"$collsim" run "$scenario" -q --baseline "$work/base.json" --write-baseline "$work/base.json" -o /dev/null
check "--baseline and --write-baseline one file: compared, then re-recorded" "$?" "^0$"
"$collsim" predict "$scenario" -q -o /dev/null --measured "$log" --plot "$work/p.svg" >/dev/null 2>&1
check "several outputs into /dev/null (a character device)" "$?" "^0$"
"$collsim" run "$scenario" -q -o /dev/null --write-baseline /dev/null
check "-o and --write-baseline both /dev/null" "$?" "^0$"
# --links off: r.links.csv is not one of -o's files, so --trace may take it
"$collsim" run "$scenario" -q -o "$work/r.csv" --trace "$work/r.links.csv"
check "without --links, FILE.links.csv is no CSV block" "$?" "^0$"

# ---- inputs that are not regular files, refused at once ----
mkfifo "$work/fifo"
refused "a FIFO as --baseline (no writer: must not block)" "fifo: is a FIFO \(named pipe\), not a regular file" \
    "$collsim" run "$scenario" --baseline "$work/fifo" -o "$work/out/r.json"
refused "a FIFO as a --measured log" "fifo: is a FIFO \(named pipe\), not a regular file" \
    "$collsim" predict "$scenario" --measured "$work/fifo" -o "$work/out/r.json"
refused "a FIFO as a calibrate log" "fifo: is a FIFO \(named pipe\), not a regular file" \
    "$collsim" calibrate "$platform" "$work/fifo" -o "$work/out/p.yaml"
refused "/dev/zero as a log (never ends)" "/dev/zero: is not a regular file \(a device or a socket\)" \
    "$collsim" calibrate "$platform" /dev/zero -o "$work/out/p.yaml"
refused "/dev/zero as a baseline (never ends)" "/dev/zero: is not a regular file \(a device or a socket\)" \
    "$collsim" run "$scenario" --baseline /dev/zero -o "$work/out/r.json"
refused "a directory as a log" "is a directory, not an nccl-tests log" \
    "$collsim" predict "$scenario" --measured "$work" -o "$work/out/r.json"
refused "a directory as a baseline" "is a directory, not a baseline" \
    "$collsim" run "$scenario" --baseline "$work" -o "$work/out/r.json"
truncate -s 65M "$work/huge.log"
refused "a log above 64 MiB" "huge.log: is larger than 64 MiB, the largest nccl-tests log collsim reads" \
    "$collsim" calibrate "$platform" "$work/huge.log" -o "$work/out/p.yaml"
truncate -s 65M "$work/huge.json"
refused "a baseline above 64 MiB" "huge.json: is larger than 64 MiB, the largest baseline collsim reads" \
    "$collsim" run "$scenario" --baseline "$work/huge.json" -o "$work/out/r.json"

# ---- a baseline validated before anything runs or is written ----
head -c 300 "$work/base.json" >"$work/cut.json"
refused "a cut baseline" "cut.json:[0-9]+:[0-9]+: not collsim JSON output: the file ends inside a JSON value" \
    "$collsim" run "$scenario" --baseline "$work/cut.json" -o "$work/out/r.json" --write-baseline "$work/out/b.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["results"][0]["size_bytes"] = -1000; print(json.dumps(d))' \
    "$work/base.json" >"$work/negative.json"
check "the negative baseline differs from the recorded one" "$(cmp -s "$work/negative.json" "$work/base.json" || echo differs)" "^differs$"
refused "a baseline with a negative size" "negative.json: .*results\[0\] .*negative or non-finite" \
    "$collsim" run "$scenario" --baseline "$work/negative.json" -o "$work/out/r.json"
sed 's/"time_s": [0-9.e-]*/"time_s": 1e999/' "$work/base.json" >"$work/infinite.json"
refused "a baseline with an infinite time" "infinite.json: .*negative or non-finite" \
    "$collsim" run "$scenario" --baseline "$work/infinite.json" -o "$work/out/r.json"

# ---- a CSV set on a disk that fills midway ----
small="$work/small"
mkdir "$small"
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP the full-disk check: mounting a tmpfs needs root"
elif ! mount -t tmpfs -o size=256k tmpfs "$small" 2>"$work/mount.err"; then
    echo "SKIP the full-disk check: mount -t tmpfs refused: $(cat "$work/mount.err")"
else
    trap 'umount "$small" 2>/dev/null; rm -rf "$work"' EXIT
    # the old set: another scenario's CSV files
    "$collsim" predict "$scenario" -q -o "$small/set.csv"
    mkdir "$work/old"
    cp "$small"/set*.csv "$work/old/"
    # the new set, written elsewhere: what a whole replacement must give
    "$collsim" predict "$top_srcdir/scenarios/quickstart.yaml" -q -o "$work/new.csv"
    main_pages=$(( ($(wc -c <"$work/new.csv") + 4095) / 4096 ))
    # leave room for the new main file only: a later block file finds the disk full
    free_pages=$(( $(stat -f -c '%a * %S' "$small") / 4096 ))
    dd if=/dev/zero of="$small/filler" bs=4096 count=$((free_pages - main_pages)) 2>/dev/null
    err=$("$collsim" predict "$top_srcdir/scenarios/quickstart.yaml" -q -o "$small/set.csv" 2>&1)
    status=$?
    check "disk full midway: exit 2" "$status" "^2$"
    check "disk full midway: says so" "$err" "No space left on device"
    for file in "$work"/old/*.csv; do
        name=$(basename "$file")
        check "disk full midway: $name is the old one" "$(cmp "$file" "$small/$name" && echo same)" "^same$"
    done
    check "disk full midway: no temporary left" "$(ls -A "$small" | grep -c tmp-)" "^0$"
    rm "$small/filler"
    "$collsim" predict "$top_srcdir/scenarios/quickstart.yaml" -q -o "$small/set.csv"
    check "room again: exit 0" "$?" "^0$"
    for block in "" .eta .terms .crossovers .hot_links; do
        check "room again: set$block.csv replaced" "$(cmp "$work/new$block.csv" "$small/set$block.csv" && echo same)" "^same$"
    done
    umount "$small"
fi
summary
