# SPDX-License-Identifier: MIT
# bash completion for gfxstat.
#
# Thin on purpose: every word comes from `gfxstat __complete` (commands,
# options, their kinds and values from the commands' own option parsers,
# variant labels and metric names from the results files on the line), so
# an option added to a command completes without a change here.

# The gfxstat being completed: the one typed (./build/gfxstat), else PATH's.
_gfxstat_bin() {
    local w=${COMP_WORDS[0]}
    if [[ $w == */* && -x $w ]]; then
        printf '%s\n' "$w"
    else
        printf '%s\n' gfxstat
    fi
}

# Adds the lines of standard input that start with $cur to COMPREPLY,
# quoted for the shell (a label may hold spaces).
_gfxstat_add() {
    local w q
    while IFS= read -r w; do
        [[ -n $w && $w == "$cur"* ]] || continue
        printf -v q '%q' "$w"
        COMPREPLY+=("$q")
    done
}

# Completes $cur as a value of kind $1 ("choice", "file", ...); $2... are
# the words after gfxstat naming the command and the option.
_gfxstat_value() {
    local kind=$1
    shift
    case $kind in
        choice) _gfxstat_add < <("$gfx" __complete values "$@" 2>/dev/null) ;;
        file)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            ;;
        dir)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
            ;;
        command) mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
        variant) _gfxstat_add < <("$gfx" __complete variants "${files[@]}" 2>/dev/null) ;;
        metric) _gfxstat_add < <("$gfx" __complete metrics "${files[@]}" 2>/dev/null) ;;
    esac
}

_gfxstat() {
    COMPREPLY=()
    local gfx cur prev
    gfx=$(_gfxstat_bin)
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}

    if ((COMP_CWORD == 1)); then
        _gfxstat_add < <("$gfx" __complete commands 2>/dev/null)
        return 0
    fi

    # The command words: COMMAND, and SUB for campaign and tune.
    local -a cmd=("${COMP_WORDS[1]}")
    local subs first=2
    subs=$("$gfx" __complete subcommands "${cmd[0]}" 2>/dev/null)
    if [[ -n $subs ]]; then
        if ((COMP_CWORD == 2)); then
            _gfxstat_add <<<"$subs"
            return 0
        fi
        cmd+=("${COMP_WORDS[2]}")
        first=3
    fi

    # --opt=value: bash splits it at '=' (COMP_WORDBREAKS), into --opt, =, value.
    local opt=
    if [[ $cur == = && $prev == -* ]]; then
        opt=$prev
        cur=
    elif [[ $prev == = ]] && ((COMP_CWORD >= first + 2)) && [[ ${COMP_WORDS[COMP_CWORD - 2]} == -* ]]; then
        opt=${COMP_WORDS[COMP_CWORD - 2]}
    elif [[ $cur == -*=* ]]; then
        opt=${cur%%=*}
        cur=${cur#*=}
    fi

    # The results files on the line, for labels and metric names: existing
    # files (positional or -o's), and a campaign directory's results.json.
    # After "--" come the workload's own arguments (run, ab).
    local -a files=()
    local i w dashdash=0 after=0
    for ((i = first; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if ((dashdash)); then
            after=$((after + 1))
            continue
        fi
        if [[ $w == -- ]]; then
            dashdash=1
            continue
        fi
        [[ $w == -*=* ]] && w=${w#*=}
        if [[ -f $w ]]; then
            files+=("$w")
        elif [[ -d $w && -f $w/results.json ]]; then
            files+=("$w/results.json")
        fi
    done

    if ((dashdash)); then
        # The command to run, then its arguments as files.
        if ((after == 0)); then
            _gfxstat_value command
        else
            _gfxstat_value file
        fi
        return 0
    fi

    local kind
    if [[ -n $opt ]]; then
        kind=$("$gfx" __complete kind "${cmd[@]}" "$opt" 2>/dev/null)
        _gfxstat_value "$kind" "${cmd[@]}" "$opt"
        return 0
    fi
    if [[ $prev == -* && $prev != -- ]] && ((COMP_CWORD > first)); then
        kind=$("$gfx" __complete kind "${cmd[@]}" "$prev" 2>/dev/null)
        if [[ -n $kind && $kind != flag ]]; then
            _gfxstat_value "$kind" "${cmd[@]}" "$prev"
            return 0
        fi
    fi
    if [[ $cur == -* ]]; then
        _gfxstat_add < <("$gfx" __complete options "${cmd[@]}" 2>/dev/null)
        return 0
    fi
    kind=$("$gfx" __complete kind "${cmd[@]}" @ 2>/dev/null)
    _gfxstat_value "${kind:-file}" "${cmd[@]}" @
    return 0
}

complete -F _gfxstat gfxstat
