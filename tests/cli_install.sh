#!/bin/sh
# `make install` (README): the binary, the man page, and the shipped
# platforms/, scenarios/ and docs/ under $(datadir)/collsim, into a staging
# directory (DESTDIR); the installed collsim runs an installed scenario, whose
# relative platform path still resolves; `make uninstall` takes it all away.
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
for d in platforms scenarios docs; do
    check "$d/ installed whole" "$(cd "$top_srcdir/$d" && ls | sort | tr '\n' ' ')" "^$(cd "$data/$d" 2>/dev/null && ls | sort | tr '\n' ' ')\$"
done
out=$("$root$prefix/bin/collsim" predict "$data/scenarios/quickstart.yaml" --format csv 2>&1)
check "the installed collsim predicts an installed scenario" "$out" '^0,allreduce,ring,0,72,1000,'
make_quietly uninstall
check "make uninstall leaves no file" "$(find "$root" -type f | wc -l)" '^ *0$'
summary
