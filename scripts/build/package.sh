#!/usr/bin/env bash
# The Debian packages, offline, with Debian's own tools: the static deployment build of both programs
# (scripts/build/build-release.sh), staged with debian/, the units, the udev rule, the D-Bus policy, the
# default configs and the docs, then dpkg-buildpackage (debhelper: sysusers, tmpfiles, units not enabled, man pages
# from --help, shlibs, debconf) and lintian.
#
#   scripts/build/package.sh               # .build-deb/wearbridge_VERSION_ARCH.deb and .build-deb/wearbridge-phone_VERSION_ARCH.deb
#   scripts/build/package.sh --arch arm64  # .build-deb/wearbridge_VERSION_arm64.deb and its phone, for a Raspberry
#                                    # Pi: built by the cross toolchain (scripts/build/arm64-toolchain.sh), packaged
#                                    # in its Debian sid chroot (dpkg-shlibdeps reads the arm64 libraries'
#                                    # symbols there; help2man runs the arm64 programs through qemu-user)
#
# The last two lines printed are the two .deb files' paths. Installs debhelper, help2man, po-debconf,
# lintian and the libraries the build links (debian/control's Build-Depends) when they are missing
# (as root). Swift itself is not a Debian package: it must be on PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
arch=$(dpkg --print-architecture)
build=(scripts/build/build-release.sh)
bin=.build-static/release
if [ "${1:-}" = --arch ] && [ "${2:-}" != "$arch" ]; then
    [ "${2:-}" = arm64 ] || {
        echo "package.sh: --arch takes arm64, not ${2:-nothing}" >&2
        exit 64
    }
    arch=arm64 build=(scripts/build/build-release.sh --arch arm64) bin=.build-arm64/release
fi

tools=(debhelper help2man po-debconf lintian dpkg-dev fakeroot libbluetooth-dev libsystemd-dev libsqlite3-dev pkg-config)
scripts/build/apt-need.sh --no-install-recommends "${tools[@]}"

# One version: debian/changelog's, which --version must print too.
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
swift_version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/Core/Release/Release.swift)
if [ "$version" != "$swift_version" ]; then
    echo "package.sh: debian/changelog says $version, Sources/Core/Release/Release.swift says $swift_version" >&2
    exit 65
fi

"${build[@]}" >/dev/null

stage=.build-deb/$arch/wearbridge-$version
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/docs"
cp -r debian config dbus systemd udev README.md "$stage/"
cp "$bin/wearbridge" "$bin/wearbridge-phone" "$stage/bin/"
cp docs/*.md "$stage/docs/"
cp systemd/README.md "$stage/docs/systemd.md"
cp udev/README.md "$stage/docs/udev.md"
cp systemd/wearbridge.service "$stage/debian/wearbridge.service"
cp systemd/wearbridge-phone.service "$stage/debian/wearbridge-phone.service"

log=.build-deb/$arch/build-$version.log
if [ "$arch" = "$(dpkg --print-architecture)" ]; then
    (cd "$stage" && dpkg-buildpackage -b -us -uc) > "$log" 2>&1
else
    # The arm64 programs run (help2man reads their --help) through qemu-user, which the toolchain's
    # set-up (run by the build above) registered with the kernel.
    # Build-Depends are the build's, which the cross toolchain's sysroot holds (-d).
    scripts/build/arm64-toolchain.sh --run bash -c "cd '$stage' && dpkg-buildpackage -b -us -uc -d --host-arch arm64" > "$log" 2>&1
fi || {
    tail -30 "$log" >&2
    echo "package.sh: dpkg-buildpackage failed; its log: $log" >&2
    exit 1
}
debs=(".build-deb/$arch/wearbridge_${version}_$arch.deb" ".build-deb/$arch/wearbridge-phone_${version}_$arch.deb")

# lintian: errors fail the build; each warning left is overridden in debian/*.lintian-overrides
# with the reason, so any new one fails too.
lintian --fail-on error,warning "${debs[@]}" >&2 || {
    echo "package.sh: lintian found errors or unexplained warnings (above)" >&2
    exit 1
}
for deb in "${debs[@]}"; do
    echo "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB packed, $(dpkg-deb -f "$deb" Installed-Size) KiB installed" >&2
done
printf '%s\n' "${debs[@]/#/$ROOT/}"
