#!/bin/sh
# lint_references.sh — every reference a reader can follow: the repository
# cites the docs/ page that explains a concept and the published sources of
# docs/sources.md, never a document its readers do not have (a numbered
# section of an unpublished specification, an internal tracker's issue
# number, an internal style guide).  Every text file of the repository (git's
# tracked and untracked-but-not-ignored files; outside a git work tree, as in
# a distribution, every file of the source tree) is searched, case aside, for
#   the specification's name in capitals followed by a section sign, "issue N"
#   or "issues N" (N digits, "#N" too), and the style guide's file name.
# The patterns below are written so that this file does not match itself.
. "${top_srcdir:-.}/tests/cli_common.sh"
pattern='SPE[C] *§|\biss[u]es? +#?[0-9]|STYL[E]\.md'
cd "$top_srcdir" || exit 99
# git's list where this folder is a work tree's top (not a copy inside one,
# as scripts/build-variant's, which git ignores)
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    files=$(git ls-files --cached --others --exclude-standard | sort -u)
else
    files=$(find . -type f ! -path '*/.git/*' ! -path '*/build/*' ! -path '*/_build/*' ! -path '*/.deps/*' \
        ! -path '*/autom4te.cache/*' | sed 's|^\./||' | sort)
fi
check "files to search" "$(printf '%s\n' "$files" | grep -c .)" '^[1-9][0-9]*$'
offenders=$(printf '%s\n' "$files" | while IFS= read -r f; do
    [ -f "$f" ] && grep -HnIiE -- "$pattern" "$f"
done)
check "no citation of an unpublished specification, an issue number or the style guide" "${offenders:-none}" '^none$'
summary
