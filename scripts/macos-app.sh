#!/bin/bash
# Lays out Pebble.app around a macOS pebble binary:
#   scripts/macos-app.sh PEBBLE [-o DIR]      (default DIR: dist/)
# Pebble.app/Contents/{Info.plist, MacOS/pebble, Resources/pebble.icns,
# Resources/assets/…}: double-clicked, it opens the showcase (a copy in
# ~/Library/Application Support/pebble); `Pebble.app/Contents/MacOS/pebble` is the
# command line. The icon is written from assets/icon/*.png by python3 (macOS has
# it; no iconutil needed). The binary comes from a Mac (`cargo build --release -p
# pebble-cli`): this Linux machine can check Pebble for macOS but not link it
# (README, "Install"). Unsigned: Gatekeeper asks once (right-click › Open).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: scripts/macos-app.sh PEBBLE [-o DIR]" >&2; exit 2; }
binary="$1"
shift
out="$repo/dist"
while [ $# -gt 0 ]; do
    case "$1" in
        -o) out="$2"; shift ;;
        *) echo "usage: scripts/macos-app.sh PEBBLE [-o DIR]" >&2; exit 2 ;;
    esac
    shift
done
[ -f "$binary" ] || { echo "no binary at $binary" >&2; exit 2; }
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -n 1)"
app="$out/Pebble.app"
rm -rf "$app"
mkdir -p "$app/Contents/MacOS" "$app/Contents/Resources/assets/psp"
install -m 755 "$binary" "$app/Contents/MacOS/pebble"
cp "$repo/assets/psp/EBOOT.PBP" "$app/Contents/Resources/assets/psp/"
cp -r "$repo/assets/showcase" "$app/Contents/Resources/assets/showcase"
cp "$repo/README.md" "$repo/LICENSE-MIT" "$repo/LICENSE-APACHE" "$app/Contents/Resources/"
# An .icns is a header and one PNG per size, each under its four-letter type.
python3 - "$repo/assets/icon" "$app/Contents/Resources/pebble.icns" <<'PY'
import struct, sys, pathlib
icon_dir, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
entries = b""
for kind, size in ((b"ic07", 128), (b"ic08", 256), (b"ic09", 512)):
    png = (icon_dir / f"pebble-{size}.png").read_bytes()
    entries += kind + struct.pack(">I", 8 + len(png)) + png
out.write_bytes(b"icns" + struct.pack(">I", 8 + len(entries)) + entries)
PY
cat > "$app/Contents/Info.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
    <key>CFBundleName</key><string>Pebble</string>
    <key>CFBundleDisplayName</key><string>Pebble</string>
    <key>CFBundleIdentifier</key><string>org.pebble-editor.pebble</string>
    <key>CFBundleVersion</key><string>$version</string>
    <key>CFBundleShortVersionString</key><string>$version</string>
    <key>CFBundlePackageType</key><string>APPL</string>
    <key>CFBundleExecutable</key><string>pebble</string>
    <key>CFBundleIconFile</key><string>pebble.icns</string>
    <key>CFBundleInfoDictionaryVersion</key><string>6.0</string>
    <key>LSMinimumSystemVersion</key><string>11.0</string>
    <key>NSHighResolutionCapable</key><true/>
    <key>CFBundleDocumentTypes</key>
    <array>
        <dict>
            <key>CFBundleTypeName</key><string>Pebble project</string>
            <key>CFBundleTypeExtensions</key><array><string>ron</string></array>
            <key>CFBundleTypeRole</key><string>Editor</string>
        </dict>
    </array>
</dict>
</plist>
PLIST
# What macOS reads first: the plist must parse and name the executable and icon there.
python3 - "$app" <<'PY'
import plistlib, sys, pathlib
app = pathlib.Path(sys.argv[1])
info = plistlib.loads((app / "Contents/Info.plist").read_bytes())
assert (app / "Contents/MacOS" / info["CFBundleExecutable"]).is_file(), "no executable"
assert (app / "Contents/Resources" / info["CFBundleIconFile"]).read_bytes()[:4] == b"icns", "no icon"
PY
echo "laid out $app"
