#!/usr/bin/env bash
# Before a build over a kept build folder (a scratch path such as .build): when this package's
# sources differ from those the folder last built, its own modules are removed and built from
# nothing, while their dependencies' builds (SwiftNIO, BoringSSL, gRPC, GRDB and the rest) are kept.
# With the same sources, nothing is removed, and the build has nothing to do.
#
# Why: a clone checked out over a kept folder leaves the times of unchanged files alone, and
# SwiftPM's incremental build has been seen to keep a dependent module's code for a struct whose
# layout had changed (a stored property added): the test binary then crashed in that struct's
# initialiser, on amd64 and on arm64 alike.
#
# With the modules goes the build's description (CONFIG.yaml, description.json): kept, and nothing
# in the package's structure changed, SwiftPM would not plan again and would look for the output
# file maps of the modules just removed ("unable to load output file map").
#
# Usage: scripts/build/drop-own-modules.sh DIR...   (each absolute or relative to the checkout;
# prints nothing; a folder that is not there is skipped)
set -euo pipefail
cd "$(dirname "$0")/../.."
# What the package's own modules are built from: the manifest, every file of Sources/ (resources
# are embedded), the Swift files of Tests/, and the test targets a build asks for.
stamp=$({
    echo "targets ${WEARBRIDGE_TEST_TARGETS:-all}"
    find Package.swift Sources -type f -print0 | sort -z | xargs -0 sha256sum
    find Tests -type f -name '*.swift' -print0 | sort -z | xargs -0 sha256sum
} | sha256sum | cut -d' ' -f1)
# A scratch path of its own for the manifest, so that a build holding .build's lock does not hold
# this up.
manifest=$(mktemp -d)
trap 'rm -rf "$manifest"' EXIT
own=
for dir in "$@"; do
    [ -d "$dir" ] || continue
    [ "$(cat "$dir/.own-sources" 2>/dev/null)" != "$stamp" ] || continue
    if [ -z "$own" ]; then
        own=$(swift package --scratch-path "$manifest" dump-package | python3 -c 'import json, re, sys
for target in json.load(sys.stdin)["targets"]:
    print(re.sub(r"[^A-Za-z0-9_]", "_", target["name"]))')
        [ -n "$own" ] || { echo "drop-own-modules.sh: the package lists no targets" >&2; exit 2; }
    fi
    for config in "$dir"/*/debug "$dir"/*/release; do
        [ -d "$config" ] && [ ! -L "$config" ] || continue
        for module in $own wearbridgePackageTests wearbridgePackageDiscoveredTests; do
            rm -rf "$config/$module.build" "$config/$module.derived" "$config/Modules/$module".*
        done
        rm -f "$config/description.json"
    done
    rm -f "$dir/debug.yaml" "$dir/release.yaml"
    echo "$stamp" > "$dir/.own-sources"
done
