#!/bin/bash
# Makes the release archives, each with the program, the showcase project, the PSP
# runtime, the README, the user's documents, the licences and a SHA256SUMS of its
# files; each archive gets a .sha256 beside it:
#   dist/pebble-<version>-linux-x86_64.tar.gz
#   dist/pebble-<version>-windows-x86_64.zip
#
#   scripts/release.sh [-o DIR] [--linux PEBBLE] [--windows PEBBLE.EXE] [--no-windows]
#
# Without --linux it builds `cargo build --release -p pebble-cli`; without
# --windows, `scripts/build-windows.sh --release` (root, ~30 min the first time).
# CI passes the binaries its tests already built, to test the archives' layout
# (scripts/release-test.sh) without a second build. Needs tar, gzip, zip, sha256sum,
# strip (binutils).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/dist"
linux=""
windows=""
with_windows=1
while [ $# -gt 0 ]; do
    case "$1" in
        -o) out="$2"; shift ;;
        --linux) linux="$2"; shift ;;
        --windows) windows="$2"; shift ;;
        --no-windows) with_windows=0 ;;
        *) echo "usage: scripts/release.sh [-o DIR] [--linux PEBBLE] [--windows PEBBLE.EXE] [--no-windows]" >&2; exit 2 ;;
    esac
    shift
done
for tool in tar gzip zip sha256sum strip; do
    command -v "$tool" >/dev/null || { echo "scripts/release.sh needs $tool (apt-get install $tool)" >&2; exit 2; }
done
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -n 1)"
[ -n "$version" ] || { echo "no version in Cargo.toml's [workspace.package]" >&2; exit 2; }
if [ -z "$linux" ]; then
    (cd "$repo" && cargo build --release --locked -p pebble-cli --bin pebble)
    target="$(cd "$repo" && cargo metadata --format-version 1 --no-deps --locked | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
    linux="$target/release/pebble"
fi
if [ "$with_windows" = 1 ] && [ -z "$windows" ]; then
    bash "$repo/scripts/build-windows.sh" --release --fresh -o "$out/.windows-build"
    windows="$out/.windows-build/pebble.exe"
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

# lay_out DIR PROGRAM NAME: the archive's contents in DIR, PROGRAM as NAME.
lay_out() {
    local dir="$1" program="$2" name="$3"
    mkdir -p "$dir/docs" "$dir/assets/psp"
    install -m 755 "$program" "$dir/$name"
    # The line tables stay out of what users download (a fifth of the size);
    # symbols stay, so that a crash report still names its functions. GNU strip
    # reads Windows executables too.
    strip --strip-debug "$dir/$name"
    cp "$repo/README.md" "$repo/LICENSE-MIT" "$repo/LICENSE-APACHE" "$dir/"
    cp "$repo/docs/user-guide.md" "$repo/docs/command-line.md" "$repo/docs/pbm-format.md" "$dir/docs/"
    cp "$repo/assets/psp/EBOOT.PBP" "$dir/assets/psp/"
    cp -r "$repo/assets/showcase" "$dir/assets/showcase"
    # The README's pictures are in the repository, not here: its links say so.
    (cd "$dir" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort | xargs -d '\n' sha256sum > SHA256SUMS)
}

checksum() {
    (cd "$(dirname "$1")" && sha256sum "$(basename "$1")" > "$(basename "$1").sha256")
    echo "wrote $1 ($(du -h "$1" | cut -f1))"
}

name="pebble-$version-linux-x86_64"
lay_out "$stage/$name" "$linux" pebble
# Owner and times fixed: the same files give the same archive.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2026-01-01 00:00Z' \
    -C "$stage" -czf "$out/$name.tar.gz" "$name"
checksum "$out/$name.tar.gz"
if [ "$with_windows" = 1 ]; then
    name="pebble-$version-windows-x86_64"
    lay_out "$stage/$name" "$windows" pebble.exe
    rm -f "$out/$name.zip"
    (cd "$stage" && find "$name" -exec touch -d '2026-01-01 00:00Z' {} + && find "$name" -type f | LC_ALL=C sort | zip -q -X -9 "$out/$name.zip" -@)
    checksum "$out/$name.zip"
fi
