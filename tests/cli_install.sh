#!/bin/sh
# `make install`: the binary, the man page, and the shipped platforms/,
# scenarios/, baselines/ and docs/ under $(datadir)/collsim, into a staging
# directory (DESTDIR); the installed collsim runs an installed scenario, whose
# relative platform path still resolves; from an empty folder, every example
# of the man page runs, a copied scenario finds its platform, COLLSIM_PATH
# comes before the installed files, and `list platforms` names every
# installed platform file (docs/platforms.md, "Where platform files are
# found"); `make uninstall` takes it all away.
. "${top_srcdir:-.}/tests/cli_common.sh"
root="$work/root"
make_quietly() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" "$@" DESTDIR="$root" > "$work/make.log" 2>&1
}
make_quietly install
check "make install exits 0" "$? $(tail -3 "$work/make.log")" '^0'
prefix=$(sed -n 's/^prefix = //p' "$top_builddir/Makefile")
data="$root$prefix/share/collsim"
check "the binary is installed" "$([ -x "$root$prefix/bin/collsim" ] && echo yes)" '^yes$'
check "the man page is installed" "$([ -f "$root$prefix/share/man/man1/collsim.1" ] && echo yes)" '^yes$'
for d in platforms scenarios docs baselines; do
    check "$d/ installed whole" "$(cd "$top_srcdir/$d" && ls | sort | tr '\n' ' ')" "^$(cd "$data/$d" 2>/dev/null && ls | sort | tr '\n' ' ')\$"
done
out=$("$root$prefix/bin/collsim" predict "$data/scenarios/quickstart.yaml" --format csv 2>&1)
check "the installed collsim predicts an installed scenario" "$out" '^0,allreduce,ring,0,72,1000,'

# from an empty folder, with the installed collsim first on PATH (staged with
# DESTDIR: found beside the binary, as share/collsim)
mkdir "$work/elsewhere"
examples=$(sed -n '/^\[EXAMPLES\]/,/^\[FILES\]/p' "$top_srcdir/docs/collsim.h2m" | grep '^collsim ' | sed 's/\\-/-/g')
check "the man page has examples" "$(printf '%s\n' "$examples" | wc -l)" '^ *[5-9]$'
printf '%s\n' "$examples" | while IFS= read -r example; do
    (cd "$work/elsewhere" && PATH="$root$prefix/bin:$PATH" && export PATH && eval "$example" >"$work/example.out" 2>&1)
    echo "$? $example"
done >"$work/examples.txt"
while IFS= read -r line; do
    check "man page example from an empty folder: ${line#* }" "$line" '^0 '
done <"$work/examples.txt"
check "the examples wrote their files there" "$(cd "$work/elsewhere" && ls | tr '\n' ' ')" 'out\.json out\.svg star-64\.xml'
# a scenario copied out of the installation keeps its ../platforms/ path
cp "$data/scenarios/quickstart.yaml" "$work/elsewhere/copied.yaml"
out=$(cd "$work/elsewhere" && "$root$prefix/bin/collsim" predict copied.yaml --format csv 2>&1)
check "a copied scenario finds its platform in the installed platforms/" "$out" '^0,allreduce,ring,0,72,1000,'
# COLLSIM_PATH comes before the installed files: a star of 8 named as the installed nvl72-star
mkdir -p "$work/mine/platforms"
printf 'name: mine\nkind: star\nranks: 8\nalpha: 0.5us\nbandwidth: 900GBps\n' >"$work/mine/platforms/nvl72-star.yaml"
out=$(cd "$work/elsewhere" && COLLSIM_PATH="$work/none:$work/mine" "$root$prefix/bin/collsim" platform describe platforms/nvl72-star.yaml 2>&1)
check "COLLSIM_PATH's platform first" "$out" '^ranks +8$'
out=$(cd "$work/elsewhere" && "$root$prefix/bin/collsim" platform describe platforms/nvl72-star.yaml 2>&1)
check "without it, the installed one" "$out" '^ranks +72$'
out=$(cd "$work/elsewhere" && "$root$prefix/bin/collsim" platform describe platforms/no-such.yaml 2>&1)
check "a platform found nowhere: exit 2, named" "$? $out" '^2 platforms/no-such\.yaml: cannot open'
# list platforms: every installed platform file, with its first comment line
out=$("$root$prefix/bin/collsim" list platforms)
listed=$(printf '%s\n' "$out" | sed -n "\\|^Platform files in $data/platforms|,/^\$/p" | grep -c '^  [^ ]*\.yaml ')
check "list platforms names every installed platform file" "$listed" "^ *$(ls "$data/platforms" | grep -c '\.yaml$')\$"
check "list platforms: a file's first comment line" "$out" '^  star-64\.yaml +A 64-port single-switch star'
make_quietly uninstall
check "make uninstall leaves no file" "$(find "$root" -type f | wc -l)" '^ *0$'
summary
