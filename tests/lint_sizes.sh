#!/bin/sh
# lint_sizes.sh — no source file over 600 lines: a file a reader can hold in
# mind (docs/architecture.md: one concern per file).  Counts the lines of
# every .c, .h and .cpp under src/ and names each file over the limit with
# its length.
. "${top_srcdir:-.}/tests/cli_common.sh"
limit=600
cd "$top_srcdir" || exit 99
counted=$(find src -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) | wc -l)
check "source files counted" "$counted" '^ *[1-9][0-9]*$'
offenders=$(find src -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) -exec wc -l {} + |
    awk -v limit="$limit" '$2 != "total" && $1 > limit { print $2 ": " $1 " lines" }' | sort)
check "no file in src/ over $limit lines" "${offenders:-none}" '^none$'
summary
