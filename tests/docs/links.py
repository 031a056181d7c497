#!/usr/bin/env python3
"""docs-links: every file the docs name exists, and docs/performance.md stays a report.

Scans README.md, CHANGELOG.md and docs/**/*.md (outside fenced code blocks) for
  - relative markdown links and images, [text](path) and ![alt](path), resolved from the file;
  - backticked repository paths such as `daemon/live.cpp` or `bench/wrk/run.sh:12`, resolved
    from the repository's root (only when the first segment is something the repository has at
    its root, so `build/…`, `data/…` and URLs are not paths of the repository);
  - file names ending in .md, backticked or in plain text (`API.md`, "see operations.md"),
    resolved from the file's folder, the root or docs/.
and checks that docs/performance.md has at most 250 lines, carries the two lines
`HTTP vs durable floor: 0.NN` and `replay / scan (median of N runs): 0.NN`, and writes clock
times only in its table of runs (the section "## The runs").

Prints file:line for each problem and exits 1 if there is any. Standard library only:
  python3 tests/docs/links.py [REPO_ROOT]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
PERFORMANCE = os.path.join("docs", "performance.md")
MAX_PERFORMANCE_LINES = 250
REQUIRED_LINES = [
    (re.compile(r"^HTTP vs durable floor: 0\.\d\d$"), "HTTP vs durable floor: 0.NN"),
    (re.compile(r"^replay / scan \(median of \d+ runs\): 0\.\d\d$"), "replay / scan (median of N runs): 0.NN"),
]
RUNS_HEADING = "## The runs"
# Paths a page names as files to create (a guide's example), by page: tests/docs/new-files.txt.
NEW_FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "new-files.txt")

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
MD_NAME = re.compile(r"(?<![\w/.-])([\w][\w.-]*\.md)(?![\w/-])")
CLOCK = re.compile(r"(?<![\d:])([01]?\d|2[0-3]):[0-5]\d(?![\d:])")
PATHLIKE = re.compile(r"^[\w.+-]+(?:/[\w.+-]*)*/?$")


def top_level_names():
    """What the repository has at its root: tracked files' first segments (or the folder's entries)."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True).stdout
        names = {p.split("/", 1)[0] for p in out.decode().split("\0") if p}
        if names:
            return names
    except (OSError, subprocess.CalledProcessError):
        pass
    return {n for n in os.listdir(ROOT) if not n.startswith("build")}


def new_files():
    """{page: [path prefixes]} from new-files.txt: `PAGE PREFIX  # why` per line."""
    allowed = {}
    with open(NEW_FILES, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) == 2:
                allowed.setdefault(line[0], []).append(line[1])
    return allowed


def doc_files():
    files = [f for f in ("README.md", "CHANGELOG.md") if os.path.exists(os.path.join(ROOT, f))]
    for folder, dirs, names in os.walk(os.path.join(ROOT, "docs")):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(".md"):
                files.append(os.path.relpath(os.path.join(folder, n), ROOT))
    return files


def lines_outside_fences(text):
    """(line number, line) for every line not inside a ``` or ~~~ block."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            continue
        yield number, line


def exists(path):
    return os.path.exists(os.path.join(ROOT, path))


def exists_or_stem(path):
    """`schema/json_codec` names schema/json_codec.hpp and .cpp: a module by its stem."""
    if exists(path):
        return True
    folder, stem = os.path.split(os.path.join(ROOT, path))
    return os.path.isdir(folder) and any(n.startswith(stem + ".") for n in os.listdir(folder))


def check_file(rel, top, allowed, problems):
    folder = os.path.dirname(rel)
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        text = f.read()
    for number, line in lines_outside_fences(text):
        where = f"{rel}:{number}"
        # Markdown links, resolved from the file's folder.
        for target in LINK.findall(line):
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL, mailto:, or an anchor in this page
            path = target.split("#", 1)[0].split("?", 1)[0]
            resolved = os.path.normpath(os.path.join(folder, path)) if not path.startswith("/") else path.lstrip("/")
            if not exists(resolved):
                problems.append(f"{where}: link to {target}: {resolved} does not exist")
        without_links = LINK.sub(" ", line)
        # Backticked repository paths, resolved from the root.
        for _, span in CODE_SPAN.findall(without_links):
            span = span.strip()
            candidate = re.sub(r":\d+(?:-\d+)?$", "", span)  # `daemon/live.cpp:232`
            if not PATHLIKE.match(candidate):
                continue
            first = candidate.split("/", 1)[0]
            if "/" in candidate and first in top:
                if not exists_or_stem(candidate) and not any(candidate.startswith(a) for a in allowed.get(rel, [])):
                    problems.append(f"{where}: `{span}`: no such file or folder in the repository")
            elif "/" not in candidate and candidate.endswith(".md"):
                check_md_name(candidate, folder, where, problems, quoted=True)
        # Plain-text file names ending in .md.
        for name in MD_NAME.findall(CODE_SPAN.sub(" ", without_links)):
            check_md_name(name, folder, where, problems, quoted=False)


def check_md_name(name, folder, where, problems, quoted):
    if any(exists(os.path.join(base, name)) for base in (folder, "", "docs")):
        return
    shown = f"`{name}`" if quoted else name
    problems.append(f"{where}: {shown}: no such file in the repository")


def check_performance(problems):
    path = os.path.join(ROOT, PERFORMANCE)
    if not os.path.exists(path):
        problems.append(f"{PERFORMANCE}: missing")
        return
    with open(path, encoding="utf-8") as f:
        lines = f.read().rstrip("\n").split("\n")
    if len(lines) > MAX_PERFORMANCE_LINES:
        problems.append(f"{PERFORMANCE}:{len(lines)}: {len(lines)} lines, at most {MAX_PERFORMANCE_LINES}")
    for pattern, shape in REQUIRED_LINES:
        if not any(pattern.match(line) for line in lines):
            problems.append(f"{PERFORMANCE}: no line of the form `{shape}`")
    in_runs = False
    for number, line in enumerate(lines, 1):
        if line.startswith("#"):
            in_runs = line.strip() == RUNS_HEADING
        if CLOCK.search(line) and not (in_runs and line.startswith("|")):
            problems.append(f"{PERFORMANCE}:{number}: a clock time outside the table of runs")


def main():
    top = top_level_names()
    allowed = new_files()
    problems = []
    for rel in doc_files():
        check_file(rel, top, allowed, problems)
    check_performance(problems)
    for p in problems:
        print(p)
    if problems:
        print(f"docs-links: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"docs-links: {len(doc_files())} files checked, no problem")
    return 0


if __name__ == "__main__":
    sys.exit(main())
