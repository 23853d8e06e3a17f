# SPDX-License-Identifier: MIT
"""Shell completion driven for real: bash's _gfxstat from
completion/gfxstat.bash with COMP_WORDS set as bash sets them, and zsh's
_gfxstat through a pseudo-terminal (zpty), against the built gfxstat
first on PATH. Also `gfxstat __complete` on bad files: nothing, exit 0."""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from testlib import check, finish, paths, run  # noqa: E402

# A hang guard only (a FIFO must not block the completion), not a timing test.
HANG_S = 60


def bash_complete(src, env, words, cwd=None):
    """COMPREPLY for the command line `words`, the last being the word under the cursor."""
    script = (f'source "{src}/completion/gfxstat.bash"\n'
              'COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))\n'
              '_gfxstat\n'
              'printf "%s\\n" "${COMPREPLY[@]}"\n')
    p = subprocess.run(["bash", "-c", script, "bash", *words], capture_output=True, text=True, env=env,
                       cwd=cwd, timeout=HANG_S)
    check(p.returncode == 0 and p.stderr == "", f"bash completion of {words}: exit {p.returncode}: {p.stderr}")
    return [w for w in p.stdout.split("\n") if w]


def main():
    g, src = paths()
    g, src = os.path.abspath(g), os.path.abspath(src)
    bindir = tempfile.mkdtemp()
    os.symlink(os.path.abspath(g), os.path.join(bindir, "gfxstat"))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    results = os.path.join(src, "tests/data/results/campaign.json")
    d = tempfile.mkdtemp()

    def expect(words, want, what, exact=False, cwd=None):
        got = bash_complete(src, env, words, cwd)
        ok = sorted(got) == sorted(want) if exact else all(w in got for w in want)
        check(ok, f"bash: {what}: {words} gave {got}, expected {'exactly ' if exact else ''}{want}")
        return got

    expect(["gfxstat", "comp"], ["compare"], "a command", exact=True)
    expect(["gfxstat", "ca"], ["campaign"], "a command", exact=True)
    expect(["gfxstat", "compare", "--thr"], ["--threshold"], "an option", exact=True)
    expect(["gfxstat", "compare", results, "--bas"], ["--baseline"], "an option after a file", exact=True)
    expect(["gfxstat", "compare", results, "--baseline", ""], ["baseline", "patched"], "variant labels", exact=True)
    expect(["gfxstat", "compare", "--variant", "pa"], [], "no results file on the line: no labels", exact=True)
    expect(["gfxstat", "compare", results, "--variant", "pa"], ["patched"], "a variant label", exact=True)
    expect(["gfxstat", "summary", results, "--metric", ""], ["latency", "max"], "metric names", exact=True)
    expect(["gfxstat", "ministat", results, "--metric", "la"], ["latency"], "ministat's metric", exact=True)
    expect(["gfxstat", "compare", "--format", ""], ["text", "markdown", "csv", "json"], "--format values", exact=True)
    expect(["gfxstat", "compare", "--format", "=", "m"], ["markdown"], "--format=m as bash splits it", exact=True)
    expect(["gfxstat", "run", "--workload", "drm-"], ["drm-ioctl", "drm-gem"], "--workload values", exact=True)
    expect(["gfxstat", "workload", "wake"], ["wakeup-latency"], "workload's positional name", exact=True)
    parsers = expect(["gfxstat", "run", "--parser", "igt-"], ["igt-syslatency", "igt-exec-nop"], "--parser values")
    check(all(p.startswith("igt-") for p in parsers), f"only igt- parsers: {parsers}")
    expect(["gfxstat", "import", "--from", "hyp"], ["hyperfine"], "--from values", exact=True)
    expect(["gfxstat", "tune", "apply", "--amdgpu-level", ""], ["profile_standard", "manual"], "tune apply's choices",
           exact=True)
    expect(["gfxstat", "campaign", ""], ["init", "resume", "status", "stop", "install-service", "analyze"],
           "campaign's subcommands", exact=True)
    expect(["gfxstat", "tune", "s"], ["show"], "tune's subcommand", exact=True)
    expect(["gfxstat", "vers"], ["version"], "the version command", exact=True)
    expect(["gfxstat", "history", "--order", ""], ["given", "date", "git"], "history --order values", exact=True)
    expect(["gfxstat", "tune", "apply", "--gpu-freq", ""], ["rp0", "rp1"], "tune apply --gpu-freq's words", exact=True)
    expect(["gfxstat", "--ver"], ["--version"], "gfxstat's --version", exact=True)
    expect(["gfxstat", "version", "--"], ["--json", "--help"], "version's options")
    expect(["gfxstat", "campaign", "init", "--d"], ["--dir"], "a subcommand's option", exact=True)
    expect(["gfxstat", "ministat", "-"], ["-A", "-C", "-w", "--metric", "--variant"], "ministat's options")
    flags = expect(["gfxstat", "compare", "--gate", "--stri"], ["--strict"], "an option after a flag", exact=True)

    # Files: a file argument, -o's value, a campaign directory's results.
    open(os.path.join(d, "before.txt"), "w").close()
    open(os.path.join(d, "bench.json"), "w").close()
    expect(["gfxstat", "compare", "bef"], ["before.txt"], "a file argument", exact=True, cwd=d)
    expect(["gfxstat", "run", "-o", "ben"], ["bench.json"], "-o's file", exact=True, cwd=d)
    expect(["gfxstat", "show", os.path.join(src, "tests/data/results/camp")], [results], "show's file", exact=True)
    camp = os.path.join(d, "camp")
    os.mkdir(camp)
    shutil.copy(results, os.path.join(camp, "results.json"))
    expect(["gfxstat", "campaign", "analyze", camp, "--baseline", ""], ["baseline", "patched"],
           "campaign analyze: labels from DIR/results.json", exact=True)
    expect(["gfxstat", "campaign", "analyze", camp, "--thr"], ["--threshold"], "campaign analyze: compare's options",
           exact=True)
    # After --: the workload's command, then its arguments as files.
    expect(["gfxstat", "run", "-o", "x.json", "--", "ech"], ["echo"], "the command after --")
    expect(["gfxstat", "run", "-o", "x.json", "--", "echo", "bef"], ["before.txt"], "its arguments", exact=True, cwd=d)
    # A label with a space comes quoted for the line.
    spaced = os.path.join(d, "spaced.json")
    with open(os.path.join(d, "a.txt"), "w") as f:
        f.write("1\n2\n3\n")
    rc, _, err = run([g, "import", "--from", "lines", os.path.join(d, "a.txt"), "--label", "my build", "-o", spaced])
    check(rc == 0, f"import with a spaced label: {err}")
    expect(["gfxstat", "compare", spaced, "--baseline", "my"], ["my\\ build"], "a quoted label", exact=True)

    # __complete never fails into the user's line.
    fifo = os.path.join(d, "fifo.json")
    os.mkfifo(fifo)
    bad = os.path.join(d, "bad.json")
    with open(bad, "w") as f:
        f.write('{"format":"gfxstat-results","version":1}\n{"type":"run"\nnot json\n')
    for args in (["variants", "/nonexistent.json"], ["metrics", bad], ["variants", fifo], ["variants", "-"],
                 ["values", "compare"], ["kind", "nosuch", "--x"], ["options", "campaign", "nosuch"], ["nosuch"],
                 []):
        p = subprocess.run([g, "__complete", *args], capture_output=True, text=True, timeout=HANG_S, stdin=subprocess.DEVNULL)
        check(p.returncode == 0 and p.stdout == "" and p.stderr == "",
              f"__complete {args}: exit {p.returncode}, out {p.stdout!r}, err {p.stderr!r}")
    rc, out, _ = run([g, "__complete", "variants", bad, results])
    check(rc == 0 and out.split() == ["baseline", "patched"], f"a bad file is passed over: {out!r}")
    rc, out, _ = run([g, "__complete", "kind", "compare", "--baseline"])
    check(out == "variant\n", f"kind of --baseline: {out!r}")
    rc, out, _ = run([g, "__complete", "kind", "run", "--metric"])
    check(out == "text\n", f"run's --metric makes a metric, it names none: {out!r}")

    # zsh: the script parses, and completes for real through zpty.
    p = subprocess.run(["zsh", "-n", os.path.join(src, "completion/_gfxstat")], capture_output=True, text=True)
    check(p.returncode == 0 and p.stderr == "", f"zsh -n: {p.stderr}")
    zsh_check(src, env, results)
    return finish("completion: all checks passed")


# An interactive zsh in a pseudo-terminal: compinit with completion/ first
# on fpath, the line in $2 typed and listed with ^D, then a marker command
# whose output ("DONE-2", typed as DONE-$((1+1)), so that the echo of the
# typing does not match) ends the reading.
ZSH_DRIVER = r'''
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z 'PS1="ZP> "; fpath=("'"$1"'/completion" $fpath); autoload -Uz compinit; compinit -u -D; setopt nobeep; LISTMAX=0; echo READY-$((1+1))'
# Typed before the line editor runs, ^D and ^U would be the tty's: wait for the prompt.
zpty -r z out '*READY-2*ZP> *'
zpty -w -n z "$2"$'\C-d'
zpty -w z $'\C-u echo DONE-$((1+1))'
zpty -r z out '*DONE-2*'
print -r -- "$out"
zpty -d z
'''


def zsh_check(src, env, results):
    """`gfxstat compare --thr<^D>` lists --threshold; a label lists too."""
    for line, want in (("gfxstat compare --thr", "--threshold"),
                       (f"gfxstat compare {results} --baseline ", "patched"),
                       ("gfxstat compare --format ", "markdown")):
        try:
            p = subprocess.run(["zsh", "-f", "-c", ZSH_DRIVER, "zsh", src, line], capture_output=True, text=True,
                               env=env, timeout=HANG_S)
            out = p.stdout
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        check(want in out, f"zsh: {line!r} lists {want}: {out[-600:]!r}")


if __name__ == "__main__":
    sys.exit(main())
