#!/bin/bash
# Tests the release archives scripts/release.sh made, as a user meets them: each
# unpacked into an empty folder (nothing of the repository beside it), its
# SHA256SUMS checked, a map exported from its showcase and validated, and the
# program started with no arguments on a fresh home under Xvfb until the window
# shows the showcase's level (its frame echo says `level 1`; a deadline, not a
# sleep). The Windows archive runs under Wine with a prefix of its own.
#
#   scripts/release-test.sh DIST [--wine-shim DLL]
#
# --wine-shim: the stand-in for Wine 8's missing bcryptprimitives.dll
# (scripts/build-windows.sh --wine-shim), put beside pebble.exe for the test only.
# Needs tar, unzip, sha256sum, Xvfb; for Windows, Wine (apt-get install wine64).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/release-test.sh DIST [--wine-shim DLL]" >&2; exit 2; }
dist="$(cd "$1" && pwd)"
shift
shim=""
while [ $# -gt 0 ]; do
    case "$1" in
        --wine-shim) shim="$(realpath "$2")"; shift ;;
        *) echo "usage: scripts/release-test.sh DIST [--wine-shim DLL]" >&2; exit 2 ;;
    esac
    shift
done
work="$(mktemp -d)"

# wait_for_level LOG PID: until LOG says the level is drawn (true), or PID ends or
# two minutes pass (false).
wait_for_level() {
    local log="$1" pid="$2" deadline=$((SECONDS + 120))
    while [ $SECONDS -lt $deadline ]; do
        grep -q "level 1" "$log" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.5
    done
    return 1
}

# start_display: an Xvfb of our own for the rest of the script, as DISPLAY. One
# server for all of a section: Wine's helper processes outlive a program and keep
# the display they started on.
xvfb_pids=()
start_display() {
    local fd_file="$work/display.$RANDOM"
    Xvfb -displayfd 1 -screen 0 1280x800x24 -noreset -nolisten tcp >"$fd_file" 2>/dev/null &
    xvfb_pids+=($!)
    local deadline=$((SECONDS + 30))
    until [ -s "$fd_file" ]; do
        [ $SECONDS -lt $deadline ] || { echo "Xvfb did not start" >&2; exit 1; }
        sleep 0.2
    done
    export DISPLAY=":$(head -n 1 "$fd_file")"
}
trap 'kill "${xvfb_pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT

# open_showcase NAME LOG COMMAND...: the window started with no project, until its
# level shows; then closed.
open_showcase() {
    local name="$1" log="$2"
    shift 2
    setsid env PEBBLE_FRAME_ECHO=1 "$@" >"$log" 2>&1 &
    local pid=$!
    if wait_for_level "$log" "$pid"; then
        echo "$name: the window opened the showcase and drew its level"
        kill -- -"$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    else
        kill -- -"$pid" 2>/dev/null || true
        echo "$name: the window never drew the showcase; it said:" >&2
        grep -v pebble-frame "$log" | tail -n 30 >&2
        exit 1
    fi
}

found=0
for archive in "$dist"/pebble-*-linux-x86_64.tar.gz; do
    [ -f "$archive" ] || continue
    found=1
    (cd "$dist" && sha256sum -c "$(basename "$archive").sha256")
    dir="$work/linux"
    mkdir -p "$dir/unpacked" "$dir/home"
    tar -xzf "$archive" -C "$dir/unpacked"
    root="$(echo "$dir"/unpacked/pebble-*)"
    (cd "$root" && sha256sum --quiet -c SHA256SUMS)
    echo "$(basename "$archive"): $(cd "$root" && find . -type f | wc -l) files, their checksums hold"
    "$root/pebble" --version
    "$root/pebble" export "$root/assets/showcase/showcase.pebble.ron" -o "$dir/showcase.pbm"
    "$root/pebble" pbm validate --strict "$dir/showcase.pbm"
    start_display
    (
        cd "$dir/home"
        export HOME="$dir/home" XDG_DATA_HOME="$dir/home/data" XDG_CONFIG_HOME="$dir/home/config"
        unset PEBBLE_DATA_DIR
        open_showcase "linux" "$dir/window.log" "$root/pebble"
    )
    # The showcase came from the program itself, into the user's data folder.
    test -f "$dir/home/data/pebble/showcase/showcase.pebble.ron" || {
        echo "linux: no showcase in \$XDG_DATA_HOME/pebble (what did it open?)" >&2
        exit 1
    }
done

for archive in "$dist"/pebble-*-windows-x86_64.zip; do
    [ -f "$archive" ] || continue
    found=1
    (cd "$dist" && sha256sum -c "$(basename "$archive").sha256")
    wine=/usr/lib/wine/wine64
    [ -x "$wine" ] || wine="$(command -v wine64 || command -v wine || true)"
    [ -n "$wine" ] || { echo "no Wine to test $archive (apt-get install wine64)" >&2; exit 1; }
    dir="$work/windows"
    mkdir -p "$dir/unpacked"
    unzip -q "$archive" -d "$dir/unpacked"
    root="$(echo "$dir"/unpacked/pebble-*)"
    (cd "$root" && sha256sum --quiet -c SHA256SUMS)
    echo "$(basename "$archive"): $(cd "$root" && find . -type f | wc -l) files, their checksums hold"
    [ -z "$shim" ] || cp "$shim" "$root/"
    export WINEPREFIX="$dir/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
    unset PEBBLE_DATA_DIR WGPU_BACKEND
    start_display
    "$wine" wineboot --init >/dev/null 2>&1
    z() { echo "Z:$1" | tr / '\\'; }
    "$wine" "$root/pebble.exe" --version
    "$wine" "$root/pebble.exe" export "$(z "$root/assets/showcase/showcase.pebble.ron")" -o "$(z "$dir/showcase.pbm")"
    "$wine" "$root/pebble.exe" pbm validate --strict "$(z "$dir/showcase.pbm")"
    open_showcase "windows (Wine)" "$dir/window.log" "$wine" "$root/pebble.exe"
    made="$(find "$WINEPREFIX/drive_c/users" -path '*/AppData/Roaming/pebble/data/showcase/showcase.pebble.ron' | head -n 1)"
    [ -n "$made" ] || { echo "windows: no showcase under %APPDATA%\\pebble\\data" >&2; exit 1; }
    echo "windows (Wine): the showcase was written to ${made#"$WINEPREFIX/"}"
done
[ "$found" = 1 ] || { echo "no archives in $dist (scripts/release.sh makes them)" >&2; exit 1; }
echo "release archives: every check passed"
