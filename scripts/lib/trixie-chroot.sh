# Sourced by scripts/psp-toolchain.sh and scripts/build-windows.sh: the Debian 13
# ("trixie") chroot both build in, on hosts that are not Debian 13. Needs root.
#
#   trixie_chroot ROOT PACKAGES...   debootstrap ROOT once (~1 min) and install the
#                                    packages missing there (Debian's Rust 1.96 and
#                                    its library source come with every caller's list)
#   trixie_bind_repo ROOT REPO       bind REPO at ROOT/work/repo until the shell exits
#
# The Debian mirror is $PEBBLE_DEBIAN_MIRROR when set, else the one the host's own
# apt sources use (the first URI ending in /debian in /etc/apt/sources.list.d/*.sources
# or /etc/apt/sources.list).

# The workspace's own packages, as `cargo clean` takes them: every checkout is
# /work/repo in the chroot, and cargo judges these fresh by file times, so a build
# from another checkout could be taken for this one's; the callers clean them.
trixie_workspace_packages="-p pbm -p pebble-model -p pebble-io -p pebble-render -p pebble-play \
-p pebble-core -p pebble-viewport -p pebble-panels -p pebble-editor -p pebble-cli"

trixie_mirror() {
    local mirror="${PEBBLE_DEBIAN_MIRROR:-}"
    if [ -z "$mirror" ]; then
        mirror="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n' | grep -m1 '/debian/*$' || true)"
    fi
    if [ -z "$mirror" ]; then
        mirror="$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\/debian\/\?\)[[:space:]].*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n 1 || true)"
    fi
    if [ -z "$mirror" ]; then
        echo "no Debian mirror in the host's apt sources; set PEBBLE_DEBIAN_MIRROR to one (a URL ending in /debian)" >&2
        return 2
    fi
    echo "$mirror"
}

trixie_chroot() {
    local root="$1"
    shift
    if [ "$(id -u)" != 0 ]; then
        echo "building in the Debian 13 chroot ($root) needs root" >&2
        return 2
    fi
    if [ ! -x "$root/usr/bin/apt-get" ]; then
        command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap
        local mirror
        mirror="$(trixie_mirror)"
        echo "debootstrap trixie from $mirror into $root"
        debootstrap --variant=minbase trixie "$root" "$mirror"
    fi
    # The host's extra certificate authorities (registry proxies) must be trusted inside too.
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    local missing=() p
    for p in "$@"; do
        chroot "$root" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        chroot "$root" /bin/bash -c "export DEBIAN_FRONTEND=noninteractive; apt-get update && apt-get install -y --no-install-recommends ${missing[*]} && update-ca-certificates"
    fi
}

trixie_bind_repo() {
    local root="$1" repo="$2"
    mkdir -p "$root/work/repo"
    # A mount left by a run that was killed may hold another (or a deleted) checkout:
    # always bind this one.
    if mountpoint -q "$root/work/repo"; then
        umount "$root/work/repo" || umount -l "$root/work/repo"
    fi
    mount --bind "$repo" "$root/work/repo"
    # shellcheck disable=SC2064 # the root is fixed now
    trap "umount '$root/work/repo' 2>/dev/null || true" EXIT
}
