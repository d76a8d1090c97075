#!/usr/bin/env bash
# The cross toolchain for arm64 (a Raspberry Pi with a 64-bit OS), from Debian's archive alone:
#
#   - sid/: a Debian sid chroot (mmdebstrap) with Debian's Swift, `swiftlang` SWIFTLANG_VERSION. Its
#     compiler needs sid's libc, so it runs there. It also carries what packaging needs (debhelper,
#     help2man, binutils for aarch64, and the arm64 libraries the programs link, so that
#     dpkg-shlibdeps states the dependencies and the glibc floor).
#   - sid/opt/wearbridge-sdk/: an SE-0387 Swift SDK bundle for aarch64-unknown-linux-gnu whose
#     sysroot is Debian trixie arm64 (the -dev libraries the package links, unpacked, not installed)
#     with sid's `swiftlang:arm64` and `libswiftlang:arm64` (the aarch64 runtime, its .swiftmodules
#     and the static runtime) inside it; the toolset links with lld.
#
# Cached outside the repository (WEARBRIDGE_ARM64, /var/tmp/wearbridge-arm64 by default): the first
# run takes a few minutes and about 1 GB of downloads, a second one seconds. The last line printed
# is the chroot's path. Needs root (chroot), mmdebstrap and qemu-user-static (both installed here
# when missing), and deb.debian.org.
#
#   scripts/build/arm64-toolchain.sh            # set up (or check) the toolchain
#   scripts/build/arm64-toolchain.sh --run CMD  # run CMD in the chroot, in this checkout, with /proc, /dev
#                                         # and the package mirror mounted for it alone
#   scripts/build/arm64-toolchain.sh --swift-build ARGS  # `swift build ARGS` for aarch64 with the SDK, there
#   scripts/build/arm64-toolchain.sh --sysroot  # the sysroot's path here (an arm64 root for qemu-user)
#   scripts/build/arm64-toolchain.sh --scratch NAME LINK  # a build's scratch path in the cache, LINK to it
#
# Setting up (or checking) also registers qemu-user with binfmt_misc when it is not, so that arm64
# programs run here and in the chroot (help2man reads their --help).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
SWIFTLANG_VERSION=6.2.3
CACHE=${WEARBRIDGE_ARM64:-/var/tmp/wearbridge-arm64}
SID=$CACHE/sid
# The arm64 builds' scratch paths (--scratch NAME), kept here beside the toolchain rather than in the
# checkout: the packages' dependencies (SwiftNIO, BoringSSL, gRPC, GRDB, Hummingbird, PostgresNIO),
# which a new clone does not change, are then compiled once per machine and dependency version, not
# once per clone (cold, they are most of the 20 min the arm64 builds take); this package's own
# modules are removed from it before every build and compiled from nothing
# (scripts/build/drop-own-modules.sh says why). Mounted at the same path in the chroot, so the
# checkout's links to them (.build-arm64, .build-arm64-tests) read the same there.
BUILDS=$CACHE/builds
SDK=/opt/wearbridge-sdk
BUNDLE=$SDK/wearbridge-arm64.artifactbundle
SYSROOT=$BUNDLE/aarch64-unknown-linux-gnu/sysroot
MIRROR=http://deb.debian.org/debian
APT_OPTS='Acquire::Check-Valid-Until "false"'
# What the trixie arm64 sysroot holds: the C library and C++ runtime to link against, and the -dev
# libraries of debian/control's Build-Depends.
SYSROOT_PACKAGES=(libc6-dev libgcc-14-dev libstdc++-14-dev linux-libc-dev libsqlite3-dev libbluetooth-dev libsystemd-dev zlib1g-dev)
# What the chroot holds besides the compiler: git (SwiftPM fetches the packages), the host's C
# library for manifests, and the packaging tools.
SID_PACKAGES=(swiftlang git ca-certificates g++ pkg-config debhelper help2man po-debconf dpkg-dev fakeroot
    binutils-aarch64-linux-gnu file)
# The arm64 libraries the programs load, installed in the chroot for dpkg-shlibdeps.
SID_ARM64_PACKAGES=(libc6:arm64 libgcc-s1:arm64 libstdc++6:arm64 libsqlite3-0:arm64 libbluetooth3:arm64 libsystemd0:arm64 zlib1g:arm64)
STAMP_TEXT="swiftlang $SWIFTLANG_VERSION; sysroot trixie: ${SYSROOT_PACKAGES[*]}; sid: ${SID_PACKAGES[*]} ${SID_ARM64_PACKAGES[*]}; sdk 3"

say() { echo "arm64-toolchain: $*" >&2; }
die() {
    say "$*"
    exit 1
}

# CMD inside the chroot, in this checkout (bind-mounted at its own path), with /proc, /dev, /tmp and the
# package mirror git reads github.com from (/etc/gitconfig's insteadOf, when there is one) mounted in
# a mount namespace of its own, so nothing is left mounted when it ends. pkg-config there answers
# for the arm64 sysroot (bluez's flags).
in_chroot() {
    local mirror=
    [ -d /opt/swift-packages ] && mirror=/opt/swift-packages
    unshare --mount --propagation private -- bash -euc '
        sid=$1 root=$2 mirror=$3 sysroot=$4 builds=$5
        shift 5
        mount -t proc proc "$sid/proc"
        mount --rbind /dev "$sid/dev"
        mount -t tmpfs tmpfs "$sid/tmp"
        mkdir -p "$sid$root" "$builds" "$sid$builds"
        mount --bind "$root" "$sid$root"
        mount --bind "$builds" "$sid$builds"
        if [ -n "$mirror" ]; then
            mkdir -p "$sid$mirror"
            mount --bind -o ro "$mirror" "$sid$mirror"
            [ -f /etc/gitconfig ] && cp /etc/gitconfig "$sid/etc/gitconfig"
        fi
        cp /etc/resolv.conf "$sid/etc/resolv.conf" 2>/dev/null || true
        cd "$sid$root"
        exec chroot "$sid" env -i HOME=/root PATH=/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 TERM=dumb \
            ${WEARBRIDGE_TEST_TARGETS:+"WEARBRIDGE_TEST_TARGETS=$WEARBRIDGE_TEST_TARGETS"} \
            PKG_CONFIG_SYSROOT_DIR="$sysroot" PKG_CONFIG_PATH="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig" \
            bash -c "cd \"\$0\" && exec \"\$@\"" "$root" "$@"
    ' in_chroot "$SID" "$ROOT" "$mirror" "$SYSROOT" "$BUILDS" "$@"
}

case "${1:-}" in
    --scratch)
        # A scratch path of the builds' cache, linked from the checkout: --scratch NAME LINK
        [ $# -eq 3 ] || die "--scratch takes a name and the checkout's link to it"
        mkdir -p "$BUILDS/$2"
        scripts/build/drop-own-modules.sh "$BUILDS/$2"
        if [ -e "$3" ] && [ ! -L "$3" ]; then rm -rf "$3"; fi
        ln -sfn "$BUILDS/$2" "$3"
        echo "$BUILDS/$2"
        exit
        ;;
    --run | --swift-build | --sysroot)
        [ -f "$CACHE/ready" ] && [ "$(cat "$CACHE/ready")" = "$STAMP_TEXT" ] ||
            die "the toolchain is not set up (or is out of date): run scripts/build/arm64-toolchain.sh first"
        mode=$1
        shift
        case "$mode" in
            --run) in_chroot "$@" ;;
            --swift-build) in_chroot swift build --swift-sdks-path "$SDK" --swift-sdk wearbridge-aarch64 "$@" ;;
            --sysroot) echo "$SID$SYSROOT" ;;
        esac
        exit
        ;;
esac

[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap, chroot); run it as root"
scripts/build/apt-need.sh --no-install-recommends mmdebstrap qemu-user-static binfmt-support >&2
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 >&2 ||
    die "arm64 programs cannot run here: no qemu-aarch64 in binfmt_misc (update-binfmts --enable qemu-aarch64 failed)"
if [ -f "$CACHE/ready" ] && [ "$(cat "$CACHE/ready")" = "$STAMP_TEXT" ] && [ -x "$SID/usr/libexec/swift/bin/swift" ]; then
    say "ready (cached in $CACHE)"
    echo "$SID"
    exit 0
fi

began=$(date +%s)
mkdir -p "$CACHE"
rm -rf "$SID.new" "$CACHE/ready"

# The sid chroot, with the compiler version this package is built with checked before anything
# else is downloaded: a clear failure when the archive has moved on.
say "making the sid chroot (Debian's swiftlang $SWIFTLANG_VERSION) in $SID"
candidate=$(mmdebstrap --variant=custom --aptopt="$APT_OPTS" \
    --customize-hook='APT_CONFIG="$MMDEBSTRAP_APT_CONFIG" apt-cache policy swiftlang | sed -n "s/^ *Candidate: //p" > "'"$CACHE"'/candidate"' \
    sid /dev/null "$MIRROR" > "$CACHE/candidate.log" 2>&1 && cat "$CACHE/candidate" || true)
rm -f "$CACHE/candidate"
case "$candidate" in
    "$SWIFTLANG_VERSION"-*) ;;
    "") die "could not read swiftlang's version from Debian sid at $MIRROR (is deb.debian.org reachable?)" ;;
    *) die "Debian sid carries swiftlang $candidate, not the $SWIFTLANG_VERSION this build is pinned to (scripts/build/arm64-toolchain.sh, SWIFTLANG_VERSION)" ;;
esac
mmdebstrap --variant=apt --aptopt="$APT_OPTS" --architectures=amd64,arm64 --skip=cleanup/apt/lists \
    --include="$(
        IFS=,
        echo "${SID_PACKAGES[*]},${SID_ARM64_PACKAGES[*]}"
    )" sid "$SID.new" "$MIRROR" > "$CACHE/sid.log" 2>&1 || {
    tail -20 "$CACHE/sid.log" >&2
    die "mmdebstrap of sid failed; its log: $CACHE/sid.log"
}
version=$(chroot "$SID.new" dpkg-query -W -f '${Version}' swiftlang)
case "$version" in "$SWIFTLANG_VERSION"-*) ;; *) die "the chroot has swiftlang $version, not $SWIFTLANG_VERSION" ;; esac

# The sysroot: trixie's arm64 libraries, unpacked (nothing of arm64 runs here).
say "unpacking the trixie arm64 sysroot"
mkdir -p "$SID.new$BUNDLE/aarch64-unknown-linux-gnu"
mmdebstrap --variant=extract --architectures=arm64 --aptopt="$APT_OPTS" \
    --include="$(
        IFS=,
        echo "${SYSROOT_PACKAGES[*]}"
    )" trixie "$SID.new$SYSROOT" "$MIRROR" > "$CACHE/sysroot.log" 2>&1 || {
    tail -20 "$CACHE/sysroot.log" >&2
    die "mmdebstrap of the trixie arm64 sysroot failed; its log: $CACHE/sysroot.log"
}
# Debian's aarch64 Swift runtime, modules and static runtime, from sid, into the sysroot.
chroot "$SID.new" bash -euc "
    cd /tmp
    apt-get download swiftlang:arm64=$version libswiftlang:arm64=$version > /dev/null
    for deb in swiftlang_*_arm64.deb libswiftlang_*_arm64.deb; do dpkg-deb -x \"\$deb\" $SYSROOT; done
    rm -f ./*.deb"
# Debian 13's /usr is merged; an unpacked root has no /lib, which linker scripts (libm.so) and the
# arm64 loader's path (/lib/ld-linux-aarch64.so.1) name.
for dir in lib bin sbin; do ln -sfn "usr/$dir" "$SID.new$SYSROOT/$dir"; done
# Absolute symbolic links in the sysroot (libm.so -> /lib/...) would point into the chroot's own
# amd64 files: made relative to the sysroot.
find "$SID.new$SYSROOT" -type l -lname '/*' | while read -r link; do
    target=$(readlink "$link")
    ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$SID.new$SYSROOT$target")" "$link"
done
# The static runtime where the driver looks for it (the package links only usr/lib/swift).
ln -sfn ../libexec/swift/lib/swift_static "$SID.new$SYSROOT/usr/lib/swift_static"
[ -f "$SID.new$SYSROOT/usr/lib/swift_static/linux/static-stdlib-args.lnk" ] ||
    die "swiftlang:arm64 $version has no static runtime where this script expects it (usr/libexec/swift/lib/swift_static)"

# The SE-0387 bundle.
cat > "$SID.new$BUNDLE/info.json" << EOF
{
  "schemaVersion": "1.0",
  "artifacts": {
    "wearbridge-aarch64": {
      "type": "swiftSDK",
      "version": "$version",
      "variants": [{ "path": "aarch64-unknown-linux-gnu", "supportedTriples": ["x86_64-pc-linux-gnu", "x86_64-unknown-linux-gnu"] }]
    }
  }
}
EOF
cat > "$SID.new$BUNDLE/aarch64-unknown-linux-gnu/swift-sdk.json" << EOF
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "aarch64-unknown-linux-gnu": {
      "sdkRootPath": "sysroot",
      "swiftResourcesPath": "sysroot/usr/libexec/swift/lib/swift",
      "swiftStaticResourcesPath": "sysroot/usr/libexec/swift/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
EOF
cat > "$SID.new$BUNDLE/aarch64-unknown-linux-gnu/toolset.json" << EOF
{
  "schemaVersion": "1.0",
  "rootPath": "/usr/libexec/swift/bin",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] },
  "linker": { "path": "ld.lld" }
}
EOF

# A new toolchain: the builds made by the old one are not kept.
rm -rf "$SID" "$BUILDS"
mv "$SID.new" "$SID"
echo "$STAMP_TEXT" > "$CACHE/ready"
say "ready in $(($(date +%s) - began)) s: swiftlang $version, $(du -sh "$CACHE" | cut -f1) in $CACHE"
echo "$SID"
