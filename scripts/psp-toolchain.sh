#!/bin/bash
# Runs psp/build.sh (arguments passed on) with the PSP toolchain psp/README.md
# describes, which needs Debian 13 packages: where the host is not Debian 13, a
# trixie chroot is built once under $PEBBLE_PSP_ROOT (default /opt/pebble-psp-root;
# ~1 GB, ~5 minutes) with Debian's Rust 1.96, its library source, lld-22 and
# cargo-psp 0.2.8 (scripts/lib/trixie-chroot.sh, which says where the Debian mirror
# comes from), and the build runs inside it. Needs root.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
R="${PEBBLE_PSP_ROOT:-/opt/pebble-psp-root}"
if grep -q '^VERSION_CODENAME=trixie' /etc/os-release && command -v cargo-psp >/dev/null; then
    exec "$repo/psp/build.sh" "$@"
fi
# shellcheck source=lib/trixie-chroot.sh
. "$repo/scripts/lib/trixie-chroot.sh"
trixie_chroot "$R" rustc-web cargo-web rust-web-src lld-22 ca-certificates gcc libc6-dev
if [ ! -x "$R/root/.cargo/bin/cargo-psp" ]; then
    ln -sf /usr/lib/llvm-22/bin/lld "$R/usr/bin/rust-lld"
    chroot "$R" /bin/bash -c 'PATH=/usr/bin:/bin cargo install cargo-psp --version 0.2.8 --locked'
fi
trixie_bind_repo "$R" "$repo"
chroot "$R" /bin/bash -c "export PATH=/root/.cargo/bin:/usr/bin:/bin; cd /work/repo && psp/build.sh $*"
