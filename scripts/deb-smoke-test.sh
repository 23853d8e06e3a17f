#!/bin/bash
# SPDX-License-Identifier: MIT
# The .deb as a user meets it: lintian on what dpkg-buildpackage made (any
# error fails), then the package unpacked into a scratch root and tried
# from there: `gfxstat --version` names the package's upstream version,
# `man -w` finds gfxstat(1) and a subcommand's page in the package, bash
# completes `gfxstat comp<TAB>` to `compare` with the packaged completion,
# zsh parses its completion, examples/ is installed as the docs say, and
# no bin/ministat clashes with Debian's.
# Every check runs; the failures are listed at the end.
#
# Usage: scripts/deb-smoke-test.sh DIR   (DIR holds gfxstat_*.changes and
# gfxstat_*.deb, as `make deb` leaves them in build/deb)
set -uo pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: $0 DIR (the directory with gfxstat_*.changes and gfxstat_*.deb)" >&2
    exit 2
fi
dir=$(cd "$1" && pwd)

failures=0
fail() {
    echo "deb-smoke-test: FAIL: $*"
    failures=$((failures + 1))
}
pass() { echo "deb-smoke-test: ok: $*"; }

# Exactly one of each: a leftover from an older version would test the
# wrong package.
one() {
    # shellcheck disable=SC2206 # the pattern is meant to glob
    local matches=("$dir"/$1)
    if [ ${#matches[@]} -ne 1 ] || [ ! -f "${matches[0]}" ]; then
        echo "deb-smoke-test: want exactly one $1 in $dir, found: ${matches[*]}" >&2
        exit 2
    fi
    printf '%s\n' "${matches[0]}"
}
changes=$(one 'gfxstat_*.changes') || exit 2
deb=$(one 'gfxstat_*.deb') || exit 2

version=$(dpkg-deb -f "$deb" Version)
upstream=${version#*:}
upstream=${upstream%-*}
echo "deb-smoke-test: $(basename "$deb") (upstream version $upstream)"

if lintian --fail-on error "$changes"; then
    pass "lintian: no errors"
else
    fail "lintian reports errors (above)"
fi

root="$dir/root"
rm -rf "$root"
dpkg -x "$deb" "$root" || { echo "deb-smoke-test: dpkg -x $deb failed" >&2; exit 1; }

if out=$("$root/usr/bin/gfxstat" --version 2>&1) && [[ "$out" == *"$upstream"* ]]; then
    pass "gfxstat --version: $out"
else
    fail "gfxstat --version printed '$out', not the upstream version $upstream"
fi

for page in gfxstat gfxstat-compare; do
    found=$(MANPATH="$root/usr/share/man" man -w "$page" 2>&1)
    if [[ "$found" == "$root/usr/share/man/man1/$page.1"* ]]; then
        pass "man -w $page: ${found#"$root"}"
    else
        fail "man -w $page with MANPATH in the package: '$found'"
    fi
done

# bash: the function the packaged file registers for gfxstat, called the way
# readline calls it, with the packaged gfxstat first in PATH.
bash_comp="$root/usr/share/bash-completion/completions/gfxstat"
if [ -f "$bash_comp" ]; then
    got=$(PATH="$root/usr/bin:$PATH" bash --norc --noprofile -c '
        . /usr/share/bash-completion/bash_completion
        . "$1" || exit 3
        spec=$(complete -p gfxstat) || exit 4
        func=$(printf "%s\n" "$spec" | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
        [ -n "$func" ] || exit 5
        COMP_WORDS=(gfxstat comp); COMP_CWORD=1
        COMP_LINE="gfxstat comp"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
        "$func" gfxstat comp gfxstat
        printf "%s\n" "${COMPREPLY[@]}"' completion-test "$bash_comp" 2>&1)
    if [ "$got" = "compare" ]; then
        pass "bash completes 'gfxstat comp' to compare"
    else
        fail "bash completion of 'gfxstat comp' gave '$got', not 'compare'"
    fi
else
    fail "no bash completion in the package (usr/share/bash-completion/completions/gfxstat)"
fi

zsh_comp="$root/usr/share/zsh/vendor-completions/_gfxstat"
if [ -f "$zsh_comp" ] && zsh -n "$zsh_comp"; then
    pass "zsh parses usr/share/zsh/vendor-completions/_gfxstat"
else
    fail "no zsh completion usr/share/zsh/vendor-completions/_gfxstat that zsh parses"
fi

# examples/: every file of the tree's, unchanged (dh_compress may have
# gzipped one), where the docs say the installed copy is; the README's
# ministat example runs on the installed sample files.
tree=$(cd "$(dirname "$0")/.." && pwd)
examples="$root/usr/share/doc/gfxstat/examples"
missing=0
while IFS= read -r -d '' f; do
    rel=${f#"$tree/examples/"}
    if [ -f "$examples/$rel" ] && cmp -s "$f" "$examples/$rel"; then
        continue
    elif [ -f "$examples/$rel.gz" ] && gzip -dc "$examples/$rel.gz" | cmp -s "$f" -; then
        continue
    fi
    fail "examples/$rel is not in the package as usr/share/doc/gfxstat/examples/$rel"
    missing=$((missing + 1))
done < <(find "$tree/examples" -type f -print0)
[ "$missing" -eq 0 ] && pass "usr/share/doc/gfxstat/examples/ holds the tree's examples/"
if out=$("$root/usr/bin/gfxstat" ministat "$examples/bdw-syslatency-mean-a.txt" \
        "$examples/bdw-syslatency-mean-b.txt" 2>&1) && [[ "$out" == *"at 95.0% confidence"* ]]; then
    pass "gfxstat ministat on the packaged example files"
else
    fail "gfxstat ministat on the packaged example files printed: $out"
fi

if [ -e "$root/usr/bin/ministat" ] || [ -L "$root/usr/bin/ministat" ]; then
    fail "the package has usr/bin/ministat (Debian's ministat package owns that name)"
else
    pass "no usr/bin/ministat"
fi

if [ "$failures" -ne 0 ]; then
    echo "deb-smoke-test: $failures check(s) failed"
    exit 1
fi
echo "deb-smoke-test: all checks passed"
