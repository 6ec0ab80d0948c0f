#!/bin/sh
# Output files never replace what is not a regular file (docs/reliability.md,
# util/output_file.h): -o, --plot and --write-baseline
#   - into a FIFO: written into, the FIFO stays a FIFO;
#   - into a character device (a null device made here when we may): written
#     into, the device stays a device;
#   - through a symbolic link: the target replaced, the link stays a link
#     (relative, absolute and dangling links);
#   - over a regular file: replaced whole, its permissions kept; nothing left
#     beside it;
#   - into a directory: refused, exit 2;
#   - "-": standard output.
. "${top_srcdir:-.}/tests/cli_common.sh"
scenario="$top_srcdir/tests/data/ring-star8.yaml"
"$collsim" run "$scenario" --format json -o "$work/reference.json" 2>/dev/null

# a FIFO: a reader copies what arrives; the FIFO is not replaced
mkfifo "$work/fifo"
timeout 120 cat "$work/fifo" > "$work/from-fifo" &
reader=$!
"$collsim" run "$scenario" --format json -o "$work/fifo" 2> "$work/err"
status=$?
wait "$reader"
check "-o FIFO exits 0" "$status $(cat "$work/err")" '^0 $'
check "-o FIFO: still a FIFO" "$([ -p "$work/fifo" ] && echo fifo)" '^fifo$'
check "-o FIFO: the reader got the JSON" "$(cmp "$work/from-fifo" "$work/reference.json" && echo same)" '^same$'
check "-o FIFO: no temporary left" "$(ls "$work" | grep -c tmp-)" '^0$'

# --write-baseline and --plot into FIFOs too
timeout 120 cat "$work/fifo" > "$work/baseline-from-fifo" &
reader=$!
"$collsim" run "$scenario" --write-baseline "$work/fifo" > /dev/null 2> "$work/err"
status=$?
wait "$reader"
check "--write-baseline FIFO exits 0" "$status $(cat "$work/err")" '^0 $'
check "--write-baseline FIFO: still a FIFO, the reader got the JSON" \
    "$([ -p "$work/fifo" ] && cmp "$work/baseline-from-fifo" "$work/reference.json" && echo ok)" '^ok$'
mkfifo "$work/plot.svg"
timeout 120 cat "$work/plot.svg" > "$work/plot-from-fifo" &
reader=$!
"$collsim" run "$scenario" --plot "$work/plot.svg" > /dev/null 2> "$work/err"
status=$?
wait "$reader"
check "--plot FIFO exits 0" "$status $(cat "$work/err")" '^0 $'
check "--plot FIFO: still a FIFO, the reader got an SVG" \
    "$([ -p "$work/plot.svg" ] && grep -c '<svg' "$work/plot-from-fifo")" '^1$'

# a character device (a null device of our own, where mknod is allowed): written into, not replaced
if mknod "$work/null" c 1 3 2>/dev/null && [ -c "$work/null" ] && echo probe > "$work/null" 2>/dev/null; then
    "$collsim" run "$scenario" -o "$work/null" > /dev/null 2> "$work/err"
    check "-o device exits 0" "$? $(cat "$work/err")" '^0 $'
    check "-o device: still a character device" "$([ -c "$work/null" ] && echo device)" '^device$'
else
    echo "note: cannot make a device node here (not root, or nodev): the device case is covered by the FIFO"
fi

# symbolic links: the target is replaced, the link stays
echo old > "$work/target.json"
ln -s target.json "$work/relative-link.json"
ln -s "$work/target.json" "$work/absolute-link.json"
ln -s missing-target.json "$work/dangling-link.json"
for link in relative-link absolute-link dangling-link; do
    "$collsim" run "$scenario" --format json -o "$work/$link.json" 2> "$work/err"
    check "-o $link exits 0" "$? $(cat "$work/err")" '^0 $'
    check "-o $link: still a link" "$([ -L "$work/$link.json" ] && echo link)" '^link$'
    check "-o $link: its target holds the JSON" "$(cmp "$work/$link.json" "$work/reference.json" && echo same)" '^same$'
done
check "the dangling link's target was created" "$([ -f "$work/missing-target.json" ] && echo created)" '^created$'

# a regular file: replaced whole, permissions kept, nothing left beside it
echo old > "$work/regular.json"
chmod 640 "$work/regular.json"
"$collsim" run "$scenario" --format json -o "$work/regular.json" 2>/dev/null
check "regular file replaced" "$(cmp "$work/regular.json" "$work/reference.json" && echo same)" '^same$'
check "regular file keeps its permissions" "$(stat -c %a "$work/regular.json")" '^640$'
check "no temporary file left" "$(ls "$work" | grep -c tmp-)" '^0$'

# a directory: refused
mkdir "$work/directory"
out=$("$collsim" run "$scenario" -o "$work/directory" 2>&1)
check "-o directory exits 2" "$?" '^2$'
check "-o directory says why" "$out" 'cannot write .*directory: it is a directory'
check "-o directory: the directory untouched" "$([ -d "$work/directory" ] && ls -A "$work/directory" | wc -l)" '^0$'

# a failed run leaves the old file as it was
printf 'name: t\nplatform: %s/platforms/star-64.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [frobnicate]\n    sizes: [1MB]\n' \
    "$(cd "$top_srcdir" && pwd)" > "$work/bad.yaml"
echo old > "$work/kept.json"
"$collsim" run "$work/bad.yaml" -o "$work/kept.json" > /dev/null 2>&1
check "a failed run exits 2" "$?" '^2$'
check "a failed run leaves the old file" "$(cat "$work/kept.json")" '^old$'

# -o - is standard output
"$collsim" run "$scenario" --format json -o - > "$work/dash.json" 2>/dev/null
check "-o - is standard output" "$(cmp "$work/dash.json" "$work/reference.json" && echo same)" '^same$'
summary
