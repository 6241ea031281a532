#!/usr/bin/env python3
"""ARCHITECTURE.md names only what exists: every code span it holds that is a file path or a Swift
name is looked up in the repository.

- A path (it holds a `/`, or ends in a file suffix such as `.swift`) must exist: relative to the
  repository's root, or as the tail of a tracked file's or folder's path (`Kernels/GaussianStage.swift`).
  Paths outside the repository (`../shared/…`, `/proc/…`) and routes (`/openapi.json`) are skipped.
- A name (`Renderer`, `Renderer.still`, `BlurOperation.read(_:as:in:)`, `PlanCache<…>`) must have each
  dotted part declared in Sources/, Tests/, Web/, Scripts/, the Makefile or Package.swift (a type,
  function, property, case or module), labels and generic arguments aside.
- Anything else — options (`--max-queue`), commands (`make test`), formulas — is not checked.

Prints one `ok` or `FAIL` line per span, then `N passed, M failed`; exits 1 on any failure.
Usage: python3 Tests/Docs/test_architecture.py [FILE]  (default: ARCHITECTURE.md)
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUFFIXES = (".swift", ".md", ".py", ".mjs", ".js", ".ts", ".c", ".h", ".sh", ".txt", ".json", ".html", ".css", ".docc")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(<[^<>]*>)?(\([A-Za-z0-9_:]*\))?$")


def tracked():
    """Every tracked file, and every folder above one, relative to the root."""
    out = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True, check=True).stdout.split("\n")
    files = [f for f in out if f]
    folders = {os.path.dirname(f) for f in files}
    for f in list(folders):
        while f:
            f = os.path.dirname(f)
            folders.add(f)
    return set(files), folders - {""}


def declared_names():
    """Every name declared in the Swift sources, the scripts and the build files."""
    names = set()
    declaration = re.compile(
        r"\b(?:class|struct|enum|protocol|actor|typealias|extension|func|var|let|case|associatedtype)\s+"
        r"(?:`)?([A-Za-z_][A-Za-z0-9_]*)")
    cases = re.compile(r"\bcase\s+([^=:{(\n]+)")
    for top in ["Sources", "Tests", "Web", "Scripts", "Benchmarks"]:
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                path = os.path.join(folder, name)
                if name.endswith(".swift"):
                    text = open(path, encoding="utf-8").read()
                    names.update(declaration.findall(text))
                    for group in cases.findall(text):  # `case png, jpeg, webp`
                        names.update(re.findall(r"\b([A-Za-z_][A-Za-z0-9_]*)\b", group))
                    names.add(os.path.splitext(name)[0].split("+")[0])
                elif name.endswith((".py", ".mjs", ".js", ".c", ".h")):
                    text = open(path, encoding="utf-8", errors="replace").read()
                    names.update(re.findall(r"\b(?:def|class|function|const|let|export)\s+([A-Za-z_][A-Za-z0-9_]*)", text))
                    names.update(re.findall(r"\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*\(", text))  # C functions: bk_describe(
    for top in ["Sources", "Tests"]:  # modules and targets
        names.update(d for d in os.listdir(os.path.join(ROOT, top)) if os.path.isdir(os.path.join(ROOT, top, d)))
    for build in ["Makefile", "Package.swift"]:
        text = open(os.path.join(ROOT, build), encoding="utf-8").read()
        names.update(re.findall(r"^([A-Z_][A-Z0-9_]*)\s*[?:]?=", text, re.M))  # Makefile variables
        names.update(re.findall(r'name:\s*"([A-Za-z0-9_]+)"', text))  # products and targets
    return names


def check_path(span, files, folders):
    path = span.rstrip("/")
    if path.startswith("../") or span.startswith("/"):
        return None
    if path in files or path in folders or os.path.exists(os.path.join(ROOT, path)):
        return True
    return any(f == path or f.endswith("/" + path) for f in files | folders)


def check_name(span, names):
    bare = re.sub(r"\([^()]*\)$", "", span)
    bare = re.sub(r"<[^<>]*>", "", bare)
    parts = bare.split(".")
    missing = [p for p in parts if p not in names]
    return not missing, missing


def main():
    document = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "ARCHITECTURE.md")
    text = open(document, encoding="utf-8").read()
    files, folders = tracked()
    names = declared_names()
    passed = failed = 0
    seen = set()
    for span in re.findall(r"`([^`\n]+)`", text):
        if span in seen:
            continue
        seen.add(span)
        if " " in span or span.startswith("-"):
            continue
        if "/" in span or span.endswith(SUFFIXES):
            found = check_path(span, files, folders)
            if found is None:
                continue
            detail = "" if found else ": no such file or folder"
        elif NAME.match(span):
            found, missing = check_name(span, names)
            detail = "" if found else ": not declared: " + ", ".join(missing)
        else:
            continue
        if found:
            passed += 1
            print(f"ok   {span}")
        else:
            failed += 1
            print(f"FAIL {span}{detail}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
