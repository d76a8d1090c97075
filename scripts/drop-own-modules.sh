#!/usr/bin/env bash
# Removes this package's own modules from kept build folders (scratch paths such as .build), and
# keeps their dependencies' builds: the next build compiles every module of ours from nothing and
# reuses SwiftNIO, BoringSSL, gRPC, GRDB and the rest.
#
# Why: a clone checked out over a kept folder leaves the times of unchanged files alone, and
# SwiftPM's incremental build has been seen to keep a dependent module's code for a struct whose
# layout had changed (a stored property added): the test binary then crashed in that struct's
# initialiser, on amd64 and on arm64 alike.
#
# Usage: scripts/drop-own-modules.sh DIR...   (each absolute or relative to the checkout; prints
# nothing; a folder that is not there is skipped)
set -euo pipefail
cd "$(dirname "$0")/.."
# A scratch path of its own, so that a build holding .build's lock does not hold this up.
manifest=$(mktemp -d)
trap 'rm -rf "$manifest"' EXIT
own=$(swift package --scratch-path "$manifest" dump-package | python3 -c 'import json, re, sys
for target in json.load(sys.stdin)["targets"]:
    print(re.sub(r"[^A-Za-z0-9_]", "_", target["name"]))')
[ -n "$own" ] || { echo "drop-own-modules.sh: the package lists no targets" >&2; exit 2; }
for dir in "$@"; do
    for config in "$dir"/*/debug "$dir"/*/release; do
        [ -d "$config" ] && [ ! -L "$config" ] || continue
        for module in $own wearbridgePackageTests wearbridgePackageDiscoveredTests; do
            rm -rf "$config/$module.build" "$config/$module.derived" "$config/Modules/$module".*
        done
    done
done
