#!/bin/sh
# Docs that do not drift (docs/output.md, README):
#   - every JSON example in docs/ and the README validates against the schema;
#   - README's usage block is exactly `collsim --help`;
#   - README's quickstart description names what scenarios/quickstart.yaml
#     runs: each case's algorithm and its smallest and largest size;
#   - nothing in the repository cites a path outside it (the seed texts are
#     cited by title and section).
if ! python3 -c 'import jsonschema' 2>/dev/null; then
    echo "SKIP: python3 with jsonschema not found (install python3-jsonschema; scripts/setup does)"
    exit 77
fi
. "${top_srcdir:-.}/tests/cli_common.sh"

out=$(python3 - "$top_srcdir" <<'EOF_PY'
import glob, json, re, sys
import jsonschema
top = sys.argv[1]
schema = json.load(open(f"{top}/docs/collsim-output.schema.json"))
files = sorted(glob.glob(f"{top}/docs/*.md")) + [f"{top}/README"]
examples = 0
for name in files:
    for block in re.findall(r"```json\n(.*?)```", open(name).read(), re.S):
        examples += 1
        try:
            jsonschema.validate(json.loads(block), schema)
            print(f"valid {name.split('/')[-1]}")
        except Exception as error:
            print(f"INVALID {name.split('/')[-1]}: {str(error).splitlines()[0]}")
print(f"{examples} examples")
EOF_PY
)
check "JSON examples found in docs/" "$out" '^[1-9][0-9]* examples$'
check "every JSON example validates" "$(printf '%s\n' "$out" | grep -c INVALID)" '^0$'

# README's usage block against --help
awk '/^    Usage: collsim COMMAND/ { on = 1 } on && /^[^ ]/ { exit } on' "$top_srcdir/README" | sed 's/^    //' \
    | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$work/readme-usage"
"$collsim" --help > "$work/help"
check "README usage is collsim --help (scripts/sync-usage rewrites it)" "$(diff "$work/readme-usage" "$work/help" && echo same)" '^same$'

# README's quickstart paragraph against the scenario
"$collsim" predict "$top_srcdir/scenarios/quickstart.yaml" --format json -o "$work/quickstart.json"
paragraph=$(awk '/^Set up and run/ { on = 1 } on && /^$/ { exit } on' "$top_srcdir/README" | tr '\n' ' ')
out=$(python3 - "$work/quickstart.json" "$paragraph" <<'EOF_PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
text = " ".join(sys.argv[2].split())
def size(b):  # the seed's decimal units, as the README writes them
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if b >= scale:
            return f"{b / scale:g} {unit}"
    return f"{b:g} B"
names = {"ring": "ring", "dbt": "double binary tree"}
for case in sorted({r["case"] for r in results}):
    rows = [r for r in results if r["case"] == case]
    sizes = sorted(r["size_bytes"] for r in rows)
    claim = f"case {case}, "
    start = text.find(claim)
    end = text.find("case ", start + len(claim))
    said = text[start:end if end > 0 else len(text)]
    algorithm = names.get(rows[0]["algorithm"], rows[0]["algorithm"])
    span = f"from {size(sizes[0])} to {size(sizes[-1])}"
    ok = start >= 0 and algorithm in said and span in said
    print(f"case {case} {'described' if ok else 'MISDESCRIBED'}: {algorithm} {span} in '{said}'")
    groups = rows[0]["groups"]
    if groups > 1:
        print(f"case {case} groups {'described' if f'{groups} concurrent groups' in said else 'MISDESCRIBED'}")
EOF_PY
)
check "the README describes 3 quickstart cases" "$(printf '%s\n' "$out" | grep -c '^case [0-9] described')" '^3$'
check "no quickstart case misdescribed" "$(printf '%s\n' "$out" | grep MISDESCRIBED)" '^$'

# docs/output.md's table example is what collsim prints (the version line aside)
awk '/^<!-- the output of: collsim run tests\/data\/ring-star8.yaml/ { on = 1; next } on && /^```$/ { if (started) exit; started = 1; next } on && started' \
    "$top_srcdir/docs/output.md" | grep -v '^# collsim ' > "$work/doc-table"
"$collsim" run "$top_srcdir/tests/data/ring-star8.yaml" -q | grep -v '^# collsim ' > "$work/run-table"
check "docs/output.md's table example has the run's lines" "$(wc -l < "$work/doc-table")" '^ *[1-9][0-9]*$'
check "docs/output.md's table example is collsim's output" "$(diff "$work/doc-table" "$work/run-table" && echo same)" '^same$'

# scripts are run as the docs write them: `sh scripts/X` only for a shell
# script, and every `scripts/X` the docs run is executable (the Python ones
# are run as scripts/X, never through sh)
sh_named=$(cd "$top_srcdir" && grep -ohE 'sh scripts/[a-z_-]+' README docs/*.md docs/collsim.h2m | sort -u | sed 's/^sh //')
check "the docs run some scripts with sh" "$(printf '%s\n' "$sh_named" | grep -c .)" '^ *[1-9][0-9]*$'
for script in $sh_named; do
    check "docs' 'sh $script' is a shell script" "$(head -1 "$top_srcdir/$script")" '^#!/bin/sh$'
done
for script in $(cd "$top_srcdir" && grep -ohE '(^|[ `$(])scripts/[a-z_-]+' README docs/*.md | sed 's/^.*scripts/scripts/' | sort -u); do
    [ -f "$top_srcdir/$script" ] || continue # a program built from scripts/NAME.c
    check "docs' $script is executable" "$([ -x "$top_srcdir/$script" ] && echo yes)" '^yes$'
    if head -1 "$top_srcdir/$script" | grep -q python; then
        check "docs never run the Python $script with sh" "$(cd "$top_srcdir" && grep -rn "sh $script" README docs | head -1)" '^$'
    fi
done

# no citation of a path outside the repository
check "no ../shared paths in the repository" \
    "$(cd "$top_srcdir" && grep -rln -e '\.\./shared' -e '/work/shared' README docs src scenarios platforms scripts tests baselines 2>/dev/null | grep -v 'tests/cli_docs.sh')" '^$'
summary
