# cli_common.sh — sourced by every command-level test (tests/*.sh): where
# collsim and the sources are, a private work directory removed on exit, and
# the checks, each counted into the test's last line (summary):
#   check LABEL OUTPUT PATTERN             OUTPUT matches the grep -E PATTERN
#   check_close LABEL VALUE EXPECTED RTOL  a number within a relative tolerance
# and the readers of collsim's outputs that feed check_close:
#   json_field FILE PATH                   one value of a JSON document
#   csv_field FILE COLUMN [NAME=VALUE...]  one column of a CSV table, by header
# The sources (scenarios/, platforms/, docs/, tests/data/) are read from
# $top_srcdir, the programs from $top_builddir (make check sets both).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
collsim="$top_builddir/collsim"
work=$(mktemp -d /tmp/collsim-cli-XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
check() { # description, command output, grep pattern
    if printf '%s\n' "$2" | grep -Eq -- "$3"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: no /$3/ in:"; printf '%s\n' "$2"; fi
}
# VALUE is EXPECTED within RTOL: |VALUE - EXPECTED| < RTOL |EXPECTED|, or
# VALUE = EXPECTED exactly (so RTOL 0 asks for equality).  EXPECTED and RTOL
# may be awk expressions (a formula: 2 * 15 * 0.5e-6 + 30 / 16 * 16e6 / 900e9).
# A VALUE that is not a number fails.
check_close() { # label, value, expected, relative tolerance
    verdict=$(awk -v value="$2" "BEGIN {
        expected = ($3); rtol = ($4)
        if (value !~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?\$/) { print \"not a number\"; exit }
        error = value - expected; if (error < 0) error = -error
        scale = expected < 0 ? -expected : expected
        if (error == 0 || error < rtol * scale) { print \"ok\"; exit }
        printf(\"relative error %.3g\", scale > 0 ? error / scale : error)
    }")
    if [ "$verdict" = ok ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $1: '$2' against $(awk "BEGIN { printf \"%.17g\", ($3) }") ($3), $verdict, tolerance $4"
    fi
}
# The value at PATH in the JSON document FILE ('-': standard input): PATH is
# its keys and list indexes joined by '/' (results/0/time_s); a step
# KEY=VALUE[,KEY=VALUE...] in a list picks the one element whose fields have
# those values (results/case=0,algorithm=dbt,size_bytes=16000000/predicted_s).
# Numbers print with every digit, null as null; nothing found fails, saying why.
json_field() { # file, path
    python3 -c '
import json, sys
name, path = sys.argv[1], sys.argv[2]
node = json.load(sys.stdin if name == "-" else open(name))
def text(v):
    return v if isinstance(v, str) else json.dumps(v)
for step in path.split("/"):
    if isinstance(node, list) and "=" in step:
        wanted = dict(pair.split("=", 1) for pair in step.split(","))
        found = [e for e in node if all(k in e and text(e[k]) == v for k, v in wanted.items())]
        if len(found) != 1:
            sys.exit(f"json_field {name}: {len(found)} elements with {step} in {path}")
        node = found[0]
    elif isinstance(node, list):
        node = node[int(step)] if step.isdigit() and int(step) < len(node) else sys.exit(f"json_field {name}: no element {step} in {path}")
    elif isinstance(node, dict) and step in node:
        node = node[step]
    else:
        sys.exit(f"json_field {name}: no key {step} in {path}")
print(text(node) if not isinstance(node, float) else repr(node))
' "$@"
}
# The column named COLUMN of the CSV table FILE ('-': standard input), one
# line per data row, of the rows whose columns NAME have the VALUEs given;
# a COLUMN or NAME not in the header fails, saying so.
csv_field() { # file, column, name=value...
    python3 -c '
import csv, sys
name, column, filters = sys.argv[1], sys.argv[2], [f.split("=", 1) for f in sys.argv[3:]]
rows = csv.reader(sys.stdin if name == "-" else open(name, newline=""))
header = next(rows, [])
for wanted in [column] + [k for k, _ in filters]:
    if wanted not in header:
        sys.exit(f"csv_field {name}: no column {wanted} in the header " + ",".join(header))
at = {k: header.index(k) for k in header}
for row in rows:
    if len(row) == len(header) and all(row[at[k]] == v for k, v in filters):
        print(row[at[column]])
' "$@"
}
need() { # program: skip the test (exit 77) when it is not installed
    command -v "$1" >/dev/null 2>&1 || { echo "SKIP: $1 not found"; exit 77; }
}
summary() { # the last line of every test; its exit status
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
