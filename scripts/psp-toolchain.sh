#!/bin/bash
# Runs psp/build.sh (arguments passed on) with the PSP toolchain psp/README.md
# describes, which needs Debian 13 packages: where the host is not Debian 13, a
# trixie chroot is built once under $PEBBLE_PSP_ROOT (default /opt/pebble-psp-root;
# ~1 GB, ~5 minutes) with Debian's Rust 1.96, its library source, lld-22 and
# cargo-psp 0.2.8, and the build runs inside it. Needs root.
#
# The Debian mirror is $PEBBLE_DEBIAN_MIRROR when set, else the one the host's own
# apt sources use (the first URI ending in /debian in /etc/apt/sources.list.d/*.sources
# or /etc/apt/sources.list).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
R="${PEBBLE_PSP_ROOT:-/opt/pebble-psp-root}"
if grep -q '^VERSION_CODENAME=trixie' /etc/os-release && command -v cargo-psp >/dev/null; then
    exec "$repo/psp/build.sh" "$@"
fi
if [ "$(id -u)" != 0 ]; then
    echo "scripts/psp-toolchain.sh: building the PSP toolchain chroot needs root" >&2
    exit 2
fi
if [ ! -x "$R/root/.cargo/bin/cargo-psp" ]; then
    command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap
    if [ ! -x "$R/usr/bin/apt-get" ]; then
        mirror="${PEBBLE_DEBIAN_MIRROR:-}"
        if [ -z "$mirror" ]; then
            mirror="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n' | grep -m1 '/debian/*$' || true)"
        fi
        if [ -z "$mirror" ]; then
            mirror="$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\/debian\/\?\)[[:space:]].*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n 1 || true)"
        fi
        if [ -z "$mirror" ]; then
            echo "scripts/psp-toolchain.sh: no Debian mirror in the host's apt sources; set PEBBLE_DEBIAN_MIRROR to one (a URL ending in /debian)" >&2
            exit 2
        fi
        echo "scripts/psp-toolchain.sh: debootstrap trixie from $mirror"
        debootstrap --variant=minbase trixie "$R" "$mirror"
    fi
    # The host's extra certificate authorities (registry proxies) must be trusted inside too.
    mkdir -p "$R/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$R/usr/local/share/ca-certificates/" 2>/dev/null || true
    cp /etc/resolv.conf "$R/etc/resolv.conf"
    chroot "$R" /bin/bash -c 'export DEBIAN_FRONTEND=noninteractive; apt-get update && apt-get install -y --no-install-recommends rustc-web cargo-web rust-web-src lld-22 ca-certificates gcc libc6-dev && update-ca-certificates'
    ln -sf /usr/lib/llvm-22/bin/lld "$R/usr/bin/rust-lld"
    chroot "$R" /bin/bash -c 'PATH=/usr/bin:/bin cargo install cargo-psp --version 0.2.8 --locked'
fi
cp /etc/resolv.conf "$R/etc/resolv.conf"
mkdir -p "$R/work/repo"
# A mount left by a run that was killed may hold another (or a deleted) checkout:
# always bind this one.
if mountpoint -q "$R/work/repo"; then
    umount "$R/work/repo" || umount -l "$R/work/repo"
fi
mount --bind "$repo" "$R/work/repo"
trap 'umount "$R/work/repo" 2>/dev/null || true' EXIT
chroot "$R" /bin/bash -c "export PATH=/root/.cargo/bin:/usr/bin:/bin; cd /work/repo && psp/build.sh $*"
