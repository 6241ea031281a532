#!/usr/bin/env python3
"""make mutants: applies each small break of Tests/Mutants/mutants.txt in turn, builds, runs the
tests the break names, restores the file, and prints which breaks survived (no test failed).

Usage: Scripts/mutants.py [--list FILE] [--only TEXT]   (TEXT: run the blocks whose title has it)
Exit status: 0 when every break was caught, 1 when one survived, 2 when the list is wrong (a
`from` text missing or not unique, a file with changes of its own, a break that does not build).
"""
import argparse
import os
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_list(path):
    """The blocks of the list, in order: dicts with title, file, from, to, tests."""
    blocks, current, accepted = [], None, False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("## "):
                title = line[3:].strip()
                if title == "Accepted":
                    accepted = True
                    current = None
                    continue
                current = {"title": title, "line": number, "accepted": accepted}
                blocks.append(current)
            elif current is not None and ": " in line and not line.startswith("#"):
                key, value = line.split(": ", 1)
                if key in ("file", "from", "to", "tests", "run", "why"):
                    current[key] = value
    for block in blocks:
        missing = [k for k in ("file", "from", "to") if k not in block] + ([] if "tests" in block or "run" in block else ["tests or run"])
        if missing:
            sys.exit(f"mutants: {path}:{block['line']}: '{block['title']}' has no {', '.join(missing)}")
    return blocks


def run(command, log):
    """Runs `command` in the package, its output appended to `log`; its exit status."""
    with open(log, "a", encoding="utf-8") as out:
        out.write("$ " + " ".join(command) + "\n")
        out.flush()
        return subprocess.call(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", default=os.path.join(ROOT, "Tests/Mutants/mutants.txt"))
    parser.add_argument("--only", default=None, help="run only the blocks whose title contains this text")
    args = parser.parse_args()

    flags = ["-c", "release"]
    if "avx2" in open("/proc/cpuinfo").read():
        flags += ["-Xcc", "-mavx2"]
    blocks = [b for b in read_list(args.list) if not b["accepted"] and (args.only is None or args.only in b["title"])]
    # Every break must apply to the code as it is, and no file may have changes of its own.
    for block in blocks:
        path = os.path.join(ROOT, block["file"])
        if not os.path.isfile(path):
            sys.exit(f"mutants: '{block['title']}': no file {block['file']}")
        count = open(path, encoding="utf-8").read().count(block["from"])
        if count != 1:
            print(f"mutants: '{block['title']}': the text to replace occurs {count} times in {block['file']}", file=sys.stderr)
            sys.exit(2)
        if subprocess.call(["git", "diff", "--quiet", "--", block["file"]], cwd=ROOT) != 0:
            print(f"mutants: {block['file']} has changes of its own: commit or stash them first", file=sys.stderr)
            sys.exit(2)

    log = os.path.join(ROOT, ".build", "mutants.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    open(log, "w").close()
    print(f"{len(blocks)} breaks; the builds' and tests' output is in {log}")
    survivors, broken = [], []
    # SIGTERM as SIGINT: either restores the file in hand (the finally below) before the script ends.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    for index, block in enumerate(blocks, 1):
        path = os.path.join(ROOT, block["file"])
        original = open(path, encoding="utf-8").read()
        started = time.time()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original.replace(block["from"], block["to"]))
            if run(["swift", "build", "--build-tests"] + flags, log) != 0:
                # Not a catch: a break must compile, or it shows nothing about the tests.
                verdict = "DOES NOT BUILD (fix the entry)"
                broken.append(block)
            elif "run" in block and run(["sh", "-c", block["run"]], log) != 0:
                verdict = "caught"
            elif "tests" in block and run(["swift", "test", "--skip-build"] + flags + ["--filter", block["tests"]], log) != 0:
                verdict = "caught"
            else:
                verdict = "SURVIVED"
                survivors.append(block)
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
        print(f"[{index}/{len(blocks)}] {verdict}: {block['title']} ({time.time() - started:.0f} s)", flush=True)

    # Leave the build as the code is.
    run(["swift", "build", "--build-tests"] + flags, log)
    for block in broken:
        print(f"does not build: {block['title']} ({block['file']}): see {log}")
    if survivors:
        print(f"{len(survivors)} of {len(blocks)} breaks survived (a test is missing for each):")
        for block in survivors:
            print(f"  {block['title']} ({block['file']}; {block.get('tests') or block['run']})")
        return 1
    if broken:
        return 2
    print(f"0 survivors: every one of the {len(blocks)} breaks failed a test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
