#!/usr/bin/env python3
"""Counts the public symbols without a doc comment in symbol graphs (`swift package
dump-symbol-graph`), for the modules named; lists them and exits 1 when there is any.

usage: Scripts/undocumented.py SYMBOLGRAPH_DIR MODULE…"""

import glob
import json
import os
import sys


def main():
    folder, modules = sys.argv[1], sys.argv[2:]
    missing, total = [], 0
    for module in modules:
        # The module's own graph and those of its extensions to other modules' types.
        for path in sorted(glob.glob(os.path.join(folder, f"{module}.symbols.json")) +
                           glob.glob(os.path.join(folder, f"{module}@*.symbols.json"))):
            for symbol in json.load(open(path))["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                # What the compiler makes with no source of its own (a task-local's `$` projection)
                # cannot carry a comment; the declaration it comes from does.
                if "location" not in symbol:
                    continue
                total += 1
                comment = symbol.get("docComment", {}).get("lines", [])
                if not any(line.get("text", "").strip() for line in comment):
                    where = symbol.get("location", {}).get("uri", "").replace("file://", "")
                    line = symbol.get("location", {}).get("position", {}).get("line", -1) + 1
                    name = ".".join(symbol["pathComponents"])
                    missing.append(f"{os.path.relpath(where) if where else module}:{line}: {name} ({symbol['kind']['identifier']})")
    for entry in missing:
        print(entry)
    print(f"{len(missing)} of {total} public symbols in {', '.join(modules)} have no doc comment")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
