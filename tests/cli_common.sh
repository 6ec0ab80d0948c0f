# cli_common.sh — sourced by the command-level tests: where collsim and the
# sources are, a private work directory removed on exit, and check().
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
need() { # program: skip the test (exit 77) when it is not installed
    command -v "$1" >/dev/null 2>&1 || { echo "SKIP: $1 not found"; exit 77; }
}
summary() { # the last line of every test; its exit status
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
