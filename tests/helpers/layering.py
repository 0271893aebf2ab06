#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The floors of src/ (tests/integration/layering.sh): each folder's quoted includes against the rule its folder
header states (report.h, render.h, loopback.h, run.h, sysinfo.h, checks.h, culprit.h, verdict.h and compare.h);
tests/README.md ("The floors") draws them as one picture.
An include is resolved as the compiler does with -Isrc -Irtaudio -Iloads: the including file's own folder first,
then src/, rtaudio/, loads/. Prints one TAP line per folder (each arrow against its floor named: file, line,
target) and exits 1 when any folder breaks its rule.

usage: layering.py TOP"""
import os
import re
import sys

# folder -> (allowed targets as prefixes of the resolved path, the header that states the rule)
RULES = {
    "report": (["src/report/", "src/stats/", "src/culprit/culprit.h", "src/util/"], "report.h"),
    "render": (["src/render/", "src/report/", "src/util/", "src/culprit/culprit.h", "src/verdict/verdict_order.h"],
               "render.h"),
    "loopback": (["src/loopback/", "rtaudio/loopsig.h", "src/util/"], "loopback.h"),
    "sysinfo": (["src/sysinfo/", "src/util/"], "sysinfo.h"),
    "checks": (["src/checks/", "src/sysinfo/", "src/util/"], "checks.h"),
    # run may include everything below it, never cli/ or a backend's own folder (backend.h's ops table instead)
    "run": (["src/run/", "src/report/", "src/compare/", "src/render/", "src/verdict/", "src/checks/",
             "src/culprit/", "src/loopback/", "src/sysinfo/", "src/stats/", "src/util/", "loads/",
             "rtaudio/*.h"], "run.h"),
    # culprit/ is below report/: its engine is driven by run/, its results read back by report/ through culprit.h
    "culprit": (["src/culprit/", "src/util/"], "culprit.h"),
    "verdict": (["src/verdict/", "src/report/", "src/checks/", "src/sysinfo/", "src/culprit/culprit.h",
                 "src/util/"], "verdict.h"),
    # compare builds on report/ and is shown by render/ from its JSON: it includes neither render/ nor run/
    "compare": (["src/compare/", "src/report/", "src/stats/", "src/util/", "src/culprit/culprit.h"],
                "compare.h"),
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def resolve(top, src_dir, name):
    for base in (src_dir, os.path.join(top, "src"), os.path.join(top, "rtaudio"), os.path.join(top, "loads")):
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(p):
            return os.path.relpath(p, top)
    return None


def allowed(target, prefixes):
    for a in prefixes:
        if a.endswith("*.h"):  # a top-level header of that folder only (no subfolder)
            d = a[:-3]
            if target.startswith(d) and "/" not in target[len(d):]:
                return True
        elif target == a or (a.endswith("/") and target.startswith(a)):
            return True
    return False


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    bad_total = 0
    for folder, (prefixes, header) in RULES.items():
        d = os.path.join(top, "src", folder)
        if not os.path.isdir(d):
            print(f"not ok - src/{folder}/ is not there")
            bad_total += 1
            continue
        bad = []
        files = 0
        for f in sorted(os.listdir(d)):
            if not f.endswith((".c", ".h")):
                continue
            files += 1
            path = os.path.join(d, f)
            with open(path, encoding="utf-8", errors="replace") as fh:
                for n, line in enumerate(fh, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    t = resolve(top, d, m.group(1))
                    if t is None:
                        bad.append(f"src/{folder}/{f}:{n} includes \"{m.group(1)}\", which is nowhere")
                    elif not allowed(t, prefixes):
                        bad.append(f"src/{folder}/{f}:{n} includes {t}")
        for b in bad:
            print(f"# {b}")
        word = "ok" if not bad and files else "not ok"
        print(f"{word} - src/{folder}/ ({files} files) includes only what {header} allows"
              + (f": {len(bad)} arrows against its floor" if bad else ""))
        bad_total += len(bad) + (0 if files else 1)
    return 1 if bad_total else 0


if __name__ == "__main__":
    sys.exit(main())
