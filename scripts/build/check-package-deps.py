#!/usr/bin/env python3
"""Package.swift says the truth: each target's declared dependencies equal the modules it imports.

Reads the manifest through `swift package dump-package` (or a JSON file given with --manifest),
then every Swift file of every target. A module counts when it is one this package can provide (one
of its targets or a product of a dependency it declares); the toolchain's own modules (Foundation,
Glibc, Testing, ...) are nobody's dependency and are left out. Fails naming the target and the module:
"imports X but does not declare it" or "declares X but never imports it". And the tree's rule: a
target in Sources/Core (a pure core) depends on no target outside Sources/Core.

Usage: scripts/build/check-package-deps.py [--manifest dump.json]
"""

import json
import os
import re
import subprocess
import sys

IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+"
    r"(?:(?:class|struct|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z_][A-Za-z_0-9]*)",
    re.MULTILINE,
)


def manifest(path):
    if path:
        with open(path) as handle:
            return json.load(handle)
    out = subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def declared(target):
    """The modules a target's dependency list names: targets by name, products by their product name
    (every product this package uses is named after its one module)."""
    names = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


def target_dir(target):
    if target.get("path"):
        return target["path"]
    root = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(root, target["name"])


def layer(target):
    """The layer a target's folder is in: Core, Adapters, Programs or Tools (Sources/LAYER/...)."""
    parts = target_dir(target).split(os.sep)
    return parts[1] if len(parts) > 2 and parts[0] == "Sources" else None


def imports(directory):
    found = set()
    for folder, _, files in os.walk(directory):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    found.update(IMPORT.findall(handle.read()))
    return found


def main():
    args = sys.argv[1:]
    path = args[args.index("--manifest") + 1] if "--manifest" in args else None
    package = manifest(path)
    targets = {t["name"]: t for t in package["targets"]}
    products = set()
    for target in targets.values():
        for dependency in target.get("dependencies", []):
            if "product" in dependency:
                products.add(dependency["product"][0])
    # Modules this package could declare: its own targets and the products its targets already use.
    known = set(targets) | products
    problems = []
    for name, target in sorted(targets.items()):
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        used = imports(target_dir(target)) & known
        used.discard(name)
        named = declared(target)
        if target["type"] == "test":
            # A test may depend on an executable only to have it built: it runs it, never imports it.
            named -= {d for d in named if targets.get(d, {}).get("type") == "executable"} - used
        for module in sorted(used - named):
            problems.append(f"{name}: imports {module} but does not declare it")
        for module in sorted(named - used):
            problems.append(f"{name}: declares {module} but never imports it")
        # The tree's one rule: a pure core (Sources/Core) depends on no target outside it.
        if layer(target) == "Core":
            for module in sorted(named):
                if module in targets and layer(targets[module]) != "Core":
                    problems.append(f"{name}: a pure core, depends on {module} in Sources/{layer(targets[module])}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"Package.swift: {len(problems)} dependency declarations differ from the imports", file=sys.stderr)
        return 1
    print(f"Package.swift: the declared dependencies of {len(targets)} targets equal their imports")
    return 0


if __name__ == "__main__":
    sys.exit(main())
