#!/bin/sh
# lint_names.sh — an algorithm is looked up once and carried by its record,
# a platform kind by its traits (docs/architecture.md): outside src/algo/ and
# src/platform/, no code compares a name with an algorithm's or a kind's.
# Names come from `collsim list`; any strcmp / strncmp / strcasecmp line
# that mentions one as a string literal, or compares a `kind` field, fails.
. "${top_srcdir:-.}/tests/cli_common.sh"
names=$("$collsim" list algorithms | awk '{print $2}'; "$collsim" list platforms | sed '/^$/q' | awk '{print $1}')
names=$(printf '%s\n' $names auto | sort -u | grep -v '^auto$')
check "collsim lists the algorithm and kind names" "$(printf '%s\n' $names | wc -l)" '^ *[1-9][0-9]*$'
pattern=$(printf '%s\n' $names | sed 's/.*/"&"/' | paste -sd'|')
offenders=$(cd "$top_srcdir" && grep -rnE 'str(n|case)?cmp *\(' src --include='*.c' --include='*.h' --include='*.cpp' |
    grep -v '^src/algo/' | grep -v '^src/platform/' | grep -E "cmp *\\([^)]*($pattern|(->|\\.)kind\\b)")
check "no name comparison on algorithms or platform kinds outside src/algo and src/platform" "${offenders:-none}" '^none$'
summary
