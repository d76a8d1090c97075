#!/usr/bin/env python3
"""The shape of the package, as figures: modules and their dependency edges (within the package),
Swift files per module, and the largest handwritten files. For closing notes and reviews: run it
on two checkouts to compare.

Usage: scripts/build/structure.py [--manifest dump.json] [--largest N]
"""

import json
import os
import subprocess
import sys


def main():
    args = sys.argv[1:]
    if "--manifest" in args:
        with open(args[args.index("--manifest") + 1]) as handle:
            package = json.load(handle)
    else:
        package = json.loads(
            subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout
        )
    largest = int(args[args.index("--largest") + 1]) if "--largest" in args else 8
    targets = [t for t in package["targets"] if t["type"] not in ("test", "system")]
    names = {t["name"] for t in package["targets"]}
    edges = 0
    rows = []
    files = []
    for target in sorted(targets, key=lambda t: t["name"]):
        internal = [
            d[k][0] for d in target.get("dependencies", []) for k in ("byName", "target") if k in d and d[k][0] in names
        ]
        edges += len(internal)
        folder = target.get("path") or os.path.join("Sources", target["name"])
        swift = []
        for root, _, entries in os.walk(folder):
            swift += [os.path.join(root, e) for e in entries if e.endswith(".swift")]
        lines = 0
        for path in swift:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            count = text.count("\n")
            lines += count
            if "swift-format-ignore-file" not in text[:200]:
                files.append((count, path))
        rows.append((target["name"], len(swift), lines, len(internal)))
    print(f"modules: {len(targets)} (not counting tests and system libraries); dependency edges within the package: {edges}")
    print(f"{'module':<22} {'files':>5} {'lines':>6} {'deps':>4}")
    for name, count, lines, deps in rows:
        print(f"{name:<22} {count:>5} {lines:>6} {deps:>4}")
    print(f"largest handwritten files:")
    for count, path in sorted(files, reverse=True)[:largest]:
        print(f"  {count:>5} {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
