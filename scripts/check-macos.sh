#!/bin/bash
# Compiles Pebble for macOS on this Linux machine as far as it can go without
# Apple's SDK and linker: `cargo check` of the editor (pebble-cli with its window)
# for aarch64-apple-darwin and x86_64-apple-darwin, the standard library built from
# Debian's Rust sources (-Zbuild-std) in the Debian 13 chroot the PSP and Windows
# builds use (scripts/lib/trixie-chroot.sh). Linking needs a Mac (Xcode's
# command line tools): `cargo build --release -p pebble-cli` there, then
# scripts/macos-app.sh lays out Pebble.app. Needs root.
#   scripts/check-macos.sh [TRIPLE...]     (default: both)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
R="${PEBBLE_PSP_ROOT:-/opt/pebble-psp-root}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(aarch64-apple-darwin x86_64-apple-darwin)
# shellcheck source=lib/trixie-chroot.sh
. "$repo/scripts/lib/trixie-chroot.sh"
trixie_chroot "$R" rustc-web cargo-web rust-web-src ca-certificates gcc libc6-dev
trixie_bind_repo "$R" "$repo"
for triple in "${targets[@]}"; do
    started=$(date +%s)
    # The workspace's own packages checked afresh (scripts/lib/trixie-chroot.sh says why).
    chroot "$R" /bin/bash -c "export PATH=/usr/bin:/bin RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=/work/mactarget; \
        cd /work/repo && cargo clean --target $triple $trixie_workspace_packages && \
        cargo check --locked -p pebble-cli --bins --target $triple -Zbuild-std=std,panic_abort"
    echo "checked pebble for $triple ($(($(date +%s) - started)) s)"
done
