#!/bin/bash
# Cross-builds pebble.exe for 64-bit Windows (x86_64-pc-windows-gnu) on this Linux
# machine:
#   scripts/build-windows.sh [--release] [--fresh] [-o DIR] [--wine-shim DIR]
# The executable carries what the Linux one does (the presets, the showcase's
# generator and the PSP runtime's EBOOT.PBP are compiled in). It is built in the
# Debian 13 chroot the PSP toolchain uses (scripts/lib/trixie-chroot.sh; made on
# the first run, ~3 min) with Debian's Rust 1.96, the standard library built from
# its source (-Zbuild-std: no prebuilt Windows standard library is packaged) and
# mingw-w64 as the linker. Needs root.
#
# The target folder is $PEBBLE_WINDOWS_TARGET (default: /work/wintarget inside the
# chroot), kept between runs: a first debug build takes ~20 min on 2 cores, one
# after a change a few minutes. Prints the executable's path; with -o, copies it
# into DIR too. --fresh rebuilds the workspace's own packages first
# (scripts/lib/trixie-chroot.sh says why; CI and scripts/release.sh use it). --wine-shim builds scripts/wine/bcryptprimitives.c into DIR: what
# Wine 8 (Debian 12's) lacks to start any program of Rust 1.78 or later, for the
# tests under Wine only (cli/tests/windows_wine.rs); Windows has the real one.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
R="${PEBBLE_PSP_ROOT:-/opt/pebble-psp-root}"
profile=debug
cargo_profile=()
out=""
shim=""
fresh=0
while [ $# -gt 0 ]; do
    case "$1" in
        --release) profile=release; cargo_profile=(--release) ;;
        --fresh) fresh=1 ;;
        -o) out="$2"; shift ;;
        --wine-shim) shim="$2"; shift ;;
        *) echo "usage: scripts/build-windows.sh [--release] [--fresh] [-o DIR] [--wine-shim DIR]" >&2; exit 2 ;;
    esac
    shift
done
target_dir="${PEBBLE_WINDOWS_TARGET:-/work/wintarget}"
triple=x86_64-pc-windows-gnu
# shellcheck source=lib/trixie-chroot.sh
. "$repo/scripts/lib/trixie-chroot.sh"
# The posix flavour of mingw-w64's gcc: Rust's std for windows-gnu expects its
# threading model.
trixie_chroot "$R" rustc-web cargo-web rust-web-src ca-certificates gcc libc6-dev \
    gcc-mingw-w64-x86-64-posix g++-mingw-w64-x86-64-posix
trixie_bind_repo "$R" "$repo"
started=$(date +%s)
if [ "$fresh" = 1 ]; then
    chroot "$R" /bin/bash -c "export PATH=/usr/bin:/bin CARGO_TARGET_DIR='$target_dir'; cd /work/repo && \
        cargo clean --target $triple ${cargo_profile[*]} $trixie_workspace_packages"
fi
chroot "$R" /bin/bash -c "export PATH=/usr/bin:/bin RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR='$target_dir' \
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc \
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_AR=x86_64-w64-mingw32-ar; \
    cd /work/repo && cargo build --locked -p pebble-cli --bin pebble --target $triple \
    ${cargo_profile[*]} -Zbuild-std=std,panic_abort"
exe="$R$target_dir/$triple/$profile/pebble.exe"
echo "built $exe ($(du -m "$exe" | cut -f1) MB, $(($(date +%s) - started)) s)"
if [ -n "$out" ]; then
    mkdir -p "$out"
    cp "$exe" "$out/pebble.exe"
    echo "copied to $out/pebble.exe"
fi
if [ -n "$shim" ]; then
    chroot "$R" /bin/bash -c "export PATH=/usr/bin:/bin; mkdir -p '$target_dir/wine-shim' && \
        x86_64-w64-mingw32-gcc -O2 -shared -Wl,--kill-at -o '$target_dir/wine-shim/bcryptprimitives.dll' \
        /work/repo/scripts/wine/bcryptprimitives.c -ladvapi32"
    mkdir -p "$shim"
    cp "$R$target_dir/wine-shim/bcryptprimitives.dll" "$shim/"
    echo "the Wine 8 stand-in: $shim/bcryptprimitives.dll"
fi
