#!/usr/bin/python3
"""Checks that every citation of the planner specification resolves.

Code and documents cite docs/SEMANTICS.md as "SEMANTICS §n" (or a bare "§n",
"§3 step k", "SEMANTICS section n"). This script fails when any file of the
repository cites a section, or a step of §3, that docs/SEMANTICS.md lacks,
names a part of a section ('§5, "After placement"') that the section does not
contain, or cites a document that is not part of the repository (DESIGN,
TOOLCHAIN, CONVENTIONS), naming each offending file and line.

Usage: check-citations.py [SOURCE_DIR]   (default: the repository root)
       check-citations.py --self-test    (checks the checker on a made-up tree)
"""

import os
import re
import subprocess
import sys
import tempfile

SPEC = os.path.join("docs", "SEMANTICS.md")
THIS = os.path.join("scripts", "check-citations.py")

# Documents that live outside the repository: citing them resolves nowhere.
# (Spelled in pieces so this file does not cite them itself.)
EXTERNAL_DOCS = ["DE" + "SIGN", "TOOL" + "CHAIN", "CONVEN" + "TIONS"]
EXTERNAL = re.compile(r"\b(" + "|".join(EXTERNAL_DOCS) + r")\b")

SECTION_SIGN = "\u00a7"
# "§5", "§5.2", "§3 step 8", "§3 steps 1, 2, 4 and 5", "§3 steps 4-5".
CITE = re.compile(SECTION_SIGN + r"(\d+(?:\.\d+)*)"
                  r"(?:\s+steps?\s+(\d+(?:\s*(?:,|and|-|\u2013|to)\s*\d+)*))?")
# '§5, "After placement"': a named part of a section, possibly broken over
# comment lines.
NAMED_PART = re.compile(SECTION_SIGN + r"(\d+),?\s+[\"\u201c]([^\"\u201d]{3,80})"
                        r"[\"\u201d]")
# "SEMANTICS section 5", "SEMANTICS.md section 4".
WORDED = re.compile(r"SEMANTICS(?:\.md)?\s+section\s+(\d+(?:\.\d+)*)")
# A "§n" right after another document's name cites that document, not the
# specification ("TOOLCHAIN §3"); those are caught by EXTERNAL instead.
OTHER_DOC_BEFORE = re.compile(r"\b([A-Z][A-Z0-9-]+)(?:\.md)?\s*$")

SKIP_DIRS = {".git", ".cache", "__pycache__", "node_modules"}


def normalize(text):
    """Lower case, comment markers and emphasis dropped, spaces collapsed."""
    text = re.sub(r"\n\s*(?://+|#|\*)?", " ", text)
    text = text.replace("*", "").replace("`", "")
    return " ".join(text.split()).lower()


class Section:
    """One '## n. Title' section: its numbered steps and its text."""

    def __init__(self):
        self.steps = set()
        self.lines = []

    def text(self):
        return normalize("\n".join(self.lines))


def spec_outline(text):
    """The sections of the specification by number."""
    sections = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^## (\d+)\. ", line)
        if m:
            current = Section()
            sections[m.group(1)] = current
        if current is None:
            continue
        current.lines.append(line)
        m = re.match(r"^(\d+)\. ", line)
        if m:
            current.steps.add(int(m.group(1)))
    return sections


def repository_files(root):
    """Tracked and untracked-but-not-ignored files; a walk without git."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"],
            check=True, capture_output=True).stdout
        files = [f for f in out.decode("utf-8", "replace").split("\0") if f]
        if files:
            return sorted(set(files))
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        # Leave out hidden folders and build trees.
        dirnames[:] = sorted(
            d for d in dirnames
            if d not in SKIP_DIRS and not d.startswith(".")
            and not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt")))
        for name in filenames:
            files.append(os.path.relpath(os.path.join(dirpath, name), root))
    return sorted(files)


def step_numbers(text):
    """The step numbers of "1, 2, 4 and 5" or "4-5" (a range: both ends)."""
    return [int(n) for n in re.findall(r"\d+", text)]


def check_text(path, text, sections):
    """Problems of one file as "path:line: message" strings."""
    problems = []

    def report(offset, message):
        line = text.count("\n", 0, offset) + 1
        problems.append("%s:%d: %s" % (path, line, message))

    for m in EXTERNAL.finditer(text):
        report(m.start(), "cites %s, which is not part of the repository; "
               "cite docs/SEMANTICS.md or docs/ARCHITECTURE.md instead"
               % m.group(1))
    for m in CITE.finditer(text):
        before = text[max(0, m.start() - 40):m.start()]
        other = OTHER_DOC_BEFORE.search(before)
        if other and other.group(1) != "SEMANTICS":
            continue
        section = m.group(1)
        if section not in sections:
            report(m.start(), "cites SEMANTICS %s%s, but %s has no section %s"
                   % (SECTION_SIGN, section, SPEC, section))
            continue
        if m.group(2):
            for step in step_numbers(m.group(2)):
                if step not in sections[section].steps:
                    report(m.start(), "cites SEMANTICS %s%s step %d, but "
                           "section %s of %s has no step %d"
                           % (SECTION_SIGN, section, step, section, SPEC,
                              step))
    for m in NAMED_PART.finditer(text):
        section = m.group(1)
        if section in sections and \
                normalize(m.group(2)) not in sections[section].text():
            report(m.start(), "cites SEMANTICS %s%s, \"%s\", but that section "
                   "of %s does not contain those words"
                   % (SECTION_SIGN, section, " ".join(m.group(2).split()),
                      SPEC))
    for m in WORDED.finditer(text):
        if m.group(1) not in sections:
            report(m.start(), "cites SEMANTICS section %s, but %s has no "
                   "section %s" % (m.group(1), SPEC, m.group(1)))
    return problems


def check(root):
    """Problems of the whole tree under `root`."""
    spec_path = os.path.join(root, SPEC)
    if not os.path.isfile(spec_path):
        return ["%s: missing: every SEMANTICS citation points at it" % SPEC]
    with open(spec_path, encoding="utf-8") as f:
        sections = spec_outline(f.read())
    if not sections:
        return ["%s: no '## n. Title' section headings found" % SPEC]
    problems = []
    for rel in repository_files(root):
        if rel == THIS:
            continue
        full = os.path.join(root, rel)
        if not os.path.isfile(full):
            continue
        try:
            with open(full, "rb") as f:
                text = f.read().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # binary files cite nothing
        problems.extend(check_text(rel, text, sections))
    return problems


def self_test():
    """Runs the checker on a made-up tree with known good and bad citations."""
    spec = ("# Spec\n\n## 1. One\n\ntext\n\n## 3. Three\n\n1. a\n2. b\n"
            "\n## 5. Five\n\n**Tie order.** Text.\n")
    files = {
        SPEC: spec,
        "good.cpp": "// SEMANTICS %s1, %s3 step 2, %s3 steps 1 and 2, "
                    "SEMANTICS\n// %s5's rule, SEMANTICS.md section 3.\n"
                    % ((SECTION_SIGN,) * 4),
        "other.md": "Measured (PROBE %s9).\n" % SECTION_SIGN,
        "named.h": "/// SEMANTICS %s5, \"Tie\n/// order\").\n" % SECTION_SIGN,
        "bad-named.h": "// SEMANTICS %s5, \"After placement\"\n"
                       % SECTION_SIGN,
        "bad-section.cpp": "// SEMANTICS %s4\n" % SECTION_SIGN,
        "bad-sub.md": "see %s5.2\n" % SECTION_SIGN,
        "bad-step.h": "// SEMANTICS %s3 steps 1-7\n" % SECTION_SIGN,
        "bad-worded.py": "# SEMANTICS section 9\n",
        "bad-design.td": "// (%s.md, IR stages 2-4)\n" % EXTERNAL_DOCS[0],
        "bad-toolchain.md": "(%s %s3)\n" % (EXTERNAL_DOCS[1], SECTION_SIGN),
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)) or root,
                        exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        problems = check(root)
    flagged = sorted({p.split(":", 1)[0] for p in problems})
    expected = sorted(f for f in files if f.startswith("bad-"))
    if flagged != expected:
        print("self-test failed: flagged %s, expected %s" % (flagged, expected))
        for p in problems:
            print("  " + p)
        return 1
    if len([p for p in problems if p.startswith("bad-step.h")]) != 1:
        print("self-test failed: 'steps 1-7' should report step 7 only")
        return 1
    print("check-citations self-test: %d problems found in %d bad files, as "
          "expected" % (len(problems), len(expected)))
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(os.path.abspath(root))
    for p in problems:
        print(p)
    if problems:
        print("%d citation(s) do not resolve in %s" % (len(problems), SPEC))
        return 1
    print("every citation resolves in %s" % SPEC)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
