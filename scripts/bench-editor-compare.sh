#!/usr/bin/env bash
# Runs `pebble bench-editor` for several variants in turn, round after round (so
# that a drift of the machine's speed touches each alike), and prints each
# variant's median whole-editor frame over the rounds and its ratio to the first
# variant's, then the median of its bare-window frames and of its editor / bare
# ratio. Each variant is NAME=COMMAND, the command being a pebble binary with
# its arguments before `bench-editor`'s own options, e.g.
#
#   scripts/bench-editor-compare.sh --rounds 3 \
#       before=/tmp/pebble-before \
#       after=target/release/pebble \
#       no-transfers="target/release/pebble --no-transfers"
#
# (`--no-transfers`, `--no-ui-cache` go after `bench-editor` and are passed on.)
# Needs a display: run it under xvfb-run -a -s "-screen 0 1280x800x24".
set -euo pipefail

rounds=3
frames=300
project=()
variants=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --frames) frames="$2"; shift 2 ;;
        --project) project=("$2"); shift 2 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *=*) variants+=("$1"); shift ;;
        *) echo "bench-editor-compare: expected NAME=COMMAND, got $1" >&2; exit 2 ;;
    esac
done
if [ "${#variants[@]}" -eq 0 ]; then
    echo "bench-editor-compare: name at least one variant (see --help)" >&2
    exit 2
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for round in $(seq 1 "$rounds"); do
    for v in "${variants[@]}"; do
        name="${v%%=*}"
        read -r -a cmd <<< "${v#*=}"
        binary="${cmd[0]}"
        extra=("${cmd[@]:1}")
        json="$out/$name.$round.json"
        echo "round $round: $name" >&2
        if ! "$binary" bench-editor "${project[@]}" --frames "$frames" --json "$json" "${extra[@]}" > "$out/$name.$round.log" 2>&1; then
            cat "$out/$name.$round.log" >&2
            echo "bench-editor-compare: $name failed in round $round" >&2
            exit 1
        fi
    done
done

# The JSON report's figures, one variant per line: median over the rounds.
field() { sed -n "s/.*\"$2\": \([0-9.eE+-]*\).*/\1/p" "$1"; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
printf '%-16s %12s %12s %12s %10s %10s %10s\n' variant "editor ms" "p95 ms" "ui ms" "vs first" "bare ms" "ratio"
first=""
for v in "${variants[@]}"; do
    name="${v%%=*}"
    m="$(for f in "$out/$name".*.json; do field "$f" editor_median_ms; done | median)"
    p="$(for f in "$out/$name".*.json; do field "$f" editor_p95_ms; done | median)"
    u="$(for f in "$out/$name".*.json; do field "$f" ui_median_ms; done | median)"
    w="$(for f in "$out/$name".*.json; do field "$f" window_renderer_median_ms; done | median)"
    r="$(for f in "$out/$name".*.json; do field "$f" ratio; done | median)"
    [ -z "$first" ] && first="$m"
    printf '%-16s %12.2f %12.2f %12.2f %10.2f %10.2f %10.2f\n' "$name" "$m" "$p" "$u" "$(awk -v a="$m" -v b="$first" 'BEGIN {print a / b}')" "$w" "$r"
done
