#!/bin/bash
# Builds the PSP runtime (EBOOT.PBP) from source and bundles it for the editor:
#   psp/build.sh            build, then copy to assets/psp/EBOOT.PBP with its source hash
#   psp/build.sh --check    build, and fail unless the result matches the committed one
#
# Needs Debian's Rust 1.96 with its library source and lld-22 (rustc-web, cargo-web,
# rust-web-src, lld-22 — Debian 13 "trixie") and cargo-psp 0.2.8. On another system
# (this project's machines are Debian 12) scripts/psp-toolchain.sh builds a trixie
# chroot with all of it and runs this script inside; see psp/README.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
missing=()
command -v cargo >/dev/null || missing+=("cargo (apt-get install cargo-web)")
command -v cargo-psp >/dev/null || missing+=("cargo-psp (cargo install cargo-psp --version 0.2.8 --locked)")
[ -d /usr/lib/rustlib/src/rust/library ] || missing+=("Rust library source (apt-get install rust-web-src)")
command -v rust-lld >/dev/null || missing+=("rust-lld (apt-get install lld-22; ln -s /usr/lib/llvm-22/bin/lld /usr/bin/rust-lld)")
if [ ${#missing[@]} -gt 0 ]; then
    echo "psp/build.sh: the PSP toolchain is incomplete; missing:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    echo "On Debian 12 run scripts/psp-toolchain.sh, which sets it up in a chroot." >&2
    exit 2
fi
export RUSTC_WRAPPER="$here/tools/rustc-nightly-wrapper" RUSTC_BOOTSTRAP=1
# Always psp/target: the host's CARGO_TARGET_DIR (CI sets one) would put the EBOOT
# elsewhere, and a fixed path keeps the build reproducible.
unset CARGO_TARGET_DIR
cd "$here"
cargo psp --release
built="$here/target/mipsel-sony-psp/release/EBOOT.PBP"
hash="$("$here/tools/source-hash")"
if [ "${1:-}" = "--check" ]; then
    want="$(cat "$root/assets/psp/EBOOT.sources")"
    if [ "$hash" != "$want" ]; then
        echo "psp/build.sh: the sources hash to $hash but assets/psp/EBOOT.sources says $want: run psp/build.sh and commit" >&2
        exit 1
    fi
    if ! cmp -s "$built" "$root/assets/psp/EBOOT.PBP"; then
        echo "psp/build.sh: the EBOOT built from source differs from assets/psp/EBOOT.PBP" >&2
        exit 1
    fi
    echo "EBOOT.PBP matches the committed one ($(stat -c %s "$built") bytes, sources $hash)"
    exit 0
fi
mkdir -p "$root/assets/psp"
cp "$built" "$root/assets/psp/EBOOT.PBP.tmp"
mv "$root/assets/psp/EBOOT.PBP.tmp" "$root/assets/psp/EBOOT.PBP"
echo "$hash" > "$root/assets/psp/EBOOT.sources.tmp"
mv "$root/assets/psp/EBOOT.sources.tmp" "$root/assets/psp/EBOOT.sources"
echo "assets/psp/EBOOT.PBP: $(stat -c %s "$built") bytes, sources $hash"
