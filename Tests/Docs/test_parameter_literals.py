#!/usr/bin/env python3
"""No operation's parameter is looked up by a string literal outside the generic front-end code.

Every parameter is declared once, with a type, and read back through it (`arguments[Self.sigma]`,
a role such as `x-blurkit-role: format`, a kind such as `region`). This test takes the names from
`blurkit --describe` (canonical names and flags) and looks through the Swift sources and the
JavaScript of the playground, the module and the web components for the forms a lookup takes —
`parameter("sigma")`, `values["format"]`, `p.name === "region"`, `q.get('format')`,
`getAttribute('edge')`, a `Set` of names — with one of those names as the literal. A declaration
(`OperationParameter.number("sigma", …)`, a spec's `name:`) is not a lookup, and neither is a
scene file's own key read by the scene reader (`o.optional("scale")`: the file's schema).

Usage: test_parameter_literals.py BLURKIT
"""

import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

SWIFT_LOOKUPS = [
    r'\.parameter\(\s*"{n}"',
    r'values\[\s*"{n}"\s*\]',
    r'\bgiven\(\s*"{n}"',
    r'has\(named:\s*"{n}"',
    r'\.value\(\s*"{n}"',
    r'parameter:\s*"{n}"',
    r'\.name\s*==\s*"{n}"',
    r'spelled:\s*"{n}"',
    r'\(\[\(\s*"{n}"\s*,',
    r'setBackdropParameter\(\s*"{n}"',
    r'sameBytes\(as:\s*"{n}"',
]
JS_LOOKUPS = [
    r'\.name\s*[!=]==?\s*[\'"]{n}[\'"]',
    r'\.(?:get|has|set|delete)\(\s*[\'"]{n}[\'"]',
    r'\[\s*[\'"]{n}[\'"]\s*\]',
    r'getAttribute\(\s*[\'"]{n}[\'"]',
    r'new Set\(\[[^\]]*[\'"]{n}[\'"]',
    r'\bset\(\s*[\'"]{n}[\'"]',
]

# Files that are the generic code itself, or that write a route's public query names as a client.
GENERIC = {
    # The HTTP API's client for the resize route writes its documented query names (test_loader
    # holds them to the route's OpenAPI).
    "Web/loader.mjs",
}
# Literals that are a name of something else that a parameter happens to share.
OTHER = {
    # The <img> inside <blur-up-image>: its own width and height attributes, HTML's.
    ("Web/elements/blur-up-image.mjs", "inner?.getAttribute('width')"),
    ("Web/elements/blur-up-image.mjs", "inner?.getAttribute('height')"),
}


def names(blurkit):
    described = json.loads(subprocess.run([blurkit, "--describe"], check=True, capture_output=True, text=True).stdout)
    found = set()
    for operation in described:
        for p in operation["parameters"]:
            found.add(p["name"])
            found.add(p["flag"])
    return found


def scan(blurkit):
    known = names(blurkit)
    files = sorted(ROOT.glob("Sources/**/*.swift"))
    scripts = [ROOT / "Sources/BlurServe/Resources/playground.js"] + sorted(ROOT.glob("Web/*.mjs")) + sorted(ROOT.glob("Web/elements/*.mjs"))
    found = []
    for path, lookups in [(f, SWIFT_LOOKUPS) for f in files] + [(f, JS_LOOKUPS) for f in scripts]:
        relative = str(path.relative_to(ROOT))
        if relative in GENERIC:
            continue
        patterns = [re.compile(p.format(n=re.escape(name))) for name in known for p in lookups]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith("//") or stripped.startswith("*"):
                continue
            for f, text in OTHER:
                if relative == f:
                    line = line.replace(text, "")
            for pattern in patterns:
                if pattern.search(line):
                    found.append(f"{relative}:{number}: {stripped[:160]}")
                    break
    return found


def selftest():
    # The patterns find the forms they are for (the test can fail).
    probe = [
        ('Swift', 'let s = arguments.values["sigma"]', SWIFT_LOOKUPS),
        ('Swift', 'throw .badRequest(text, parameter: "format")', SWIFT_LOOKUPS),
        ('JS', 'if (p.name === "region") return;', JS_LOOKUPS),
        ('JS', "const own = element.getAttribute('appearance');", JS_LOOKUPS),
        ('JS', 'const hidden = new Set(["path", "quality"]);', JS_LOOKUPS),
    ]
    for language, line, lookups in probe:
        assert any(re.search(p.format(n=r"(?:sigma|format|region|appearance|quality)"), line) for p in lookups), (language, line)


def main():
    selftest()
    found = scan(sys.argv[1])
    if found:
        print("parameters looked up by a string literal (use the typed parameter, its role or its kind):")
        print("\n".join("  " + f for f in found))
        sys.exit(1)
    print("no operation parameter is looked up by a string literal outside the generic code")


if __name__ == "__main__":
    main()
