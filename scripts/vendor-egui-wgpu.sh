#!/usr/bin/env bash
# Rebuilds vendor/egui-wgpu from the released egui-wgpu crate and Pebble's patches
# in vendor/egui-wgpu-patches (each a small documented diff), so an egui upgrade
# is: run this with the new version, fix the patch that no longer applies, build.
#
#   scripts/vendor-egui-wgpu.sh                 re-make vendor/egui-wgpu (0.37.0)
#   scripts/vendor-egui-wgpu.sh --version 0.38.0
#   scripts/vendor-egui-wgpu.sh --check         say whether vendor/egui-wgpu is
#                                               exactly the release + the patches
#   scripts/vendor-egui-wgpu.sh --without 0001 --into DIR
#                                               the release + all patches but one,
#                                               written to DIR (measurements)
#
# The release is fetched by cargo into its own registry cache (a throwaway
# package depending on it), so this needs the package registry, as a build does.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
version=0.37.0
into="$root/vendor/egui-wgpu"
check=0
without=()
while [ $# -gt 0 ]; do
    case "$1" in
        --version) version="$2"; shift 2 ;;
        --into) into="$2"; shift 2 ;;
        --without) without+=("$2"); shift 2 ;;
        --check) check=1; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "vendor-egui-wgpu: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. The released crate.
mkdir -p "$work/fetch/src"
cat > "$work/fetch/Cargo.toml" <<EOF
[package]
name = "fetch-egui-wgpu"
version = "0.0.0"
edition = "2021"

[dependencies]
egui-wgpu = { version = "=$version", default-features = false }
EOF
echo 'fn main() {}' > "$work/fetch/src/main.rs"
if ! (cd "$work/fetch" && cargo fetch --quiet); then
    echo "vendor-egui-wgpu: cargo could not fetch egui-wgpu $version (is the package registry reachable?)" >&2
    exit 1
fi
src="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"egui-wgpu-$version" 2>/dev/null | head -1)"
if [ -z "$src" ]; then
    echo "vendor-egui-wgpu: egui-wgpu $version was fetched but its source is not in cargo's registry cache" >&2
    exit 1
fi

# 2. A clean copy, without what cargo adds to a published crate.
out="$work/egui-wgpu"
cp -r "$src" "$out"
rm -f "$out/Cargo.toml.orig" "$out/.cargo_vcs_info.json" "$out/.cargo-ok" "$out/Cargo.lock"

# 3. The repository names no package registry's host: its links go.
sed -i -E 's/ \(e\.g\., [a-z]+\.io\)//' "$out/Cargo.toml"
sed -i -E 's#\(https://[a-z]+\.io/crates/wgpu\)#(https://wgpu.rs)#' "$out/src/lib.rs" "$out/README.md"
sed -i -E '/^\[!\[Latest version\]/d' "$out/README.md"

# 4. Pebble's patches, in order.
for p in "$root"/vendor/egui-wgpu-patches/*.diff; do
    name="$(basename "$p")"
    skip=0
    for w in "${without[@]}"; do
        case "$name" in "$w"*) skip=1 ;; esac
    done
    if [ "$skip" = 1 ]; then
        echo "leaving out $name"
        continue
    fi
    if ! patch -d "$out" -p1 --forward --batch --no-backup-if-mismatch --silent < "$p"; then
        echo "vendor-egui-wgpu: $name does not apply to egui-wgpu $version; update the patch (its header says what it does)" >&2
        exit 1
    fi
done

# 5. Compare, or put it in place.
if [ "$check" = 1 ]; then
    if diff -r "$out" "$into" > "$work/diff"; then
        echo "vendor-egui-wgpu: $into is egui-wgpu $version with the patches, exactly"
    else
        cat "$work/diff"
        echo "vendor-egui-wgpu: $into differs from egui-wgpu $version with the patches (above)" >&2
        exit 1
    fi
else
    rm -rf "$into"
    mkdir -p "$(dirname "$into")"
    cp -r "$out" "$into"
    echo "vendor-egui-wgpu: wrote egui-wgpu $version with the patches to $into"
fi
