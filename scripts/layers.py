#!/usr/bin/env python3
"""The server's layers point one way (docs/architecture.md › Layers), and
its files and functions stay small enough to read.

Reads every `crate::<module>` path in src/ (code, not comments; test code
exempt) and fails when a top-level module names one in a higher layer, or
when the modules of one layer name each other in a circle. `startup` is the
composition root: it may name anything, and nothing names it.
"""

import collections
import os
import re
import sys

# Bottom to top. A module may name its own layer (without a circle) and the
# layers below it.
LAYERS = [
    ("foundation", ["error", "time", "config", "telemetry", "domain", "summaries"]),
    ("data", ["db"]),
    ("rules", ["permissions", "feed", "roster_rules"]),
    ("core", ["realtime", "auth", "outbound", "http", "http_input"]),
    ("context", ["state"]),
    (
        "features",
        [
            "store",
            "market",
            "notify",
            "live",
            "chat",
            "ice_bill",
            "rule_moments",
            "calendar",
            "sync",
            "commands",
            "ws",
        ],
    ),
    ("api", ["api"]),
    ("root", ["startup", "demo"]),
]
# Test-only support (`#[cfg(test)] mod fuzzing`) may name anything.
EXEMPT = {"fuzzing"}

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
PATH = re.compile(r"\bcrate::(\w+)")
GROUP = re.compile(r"\bcrate::\{([^}]*)")
TEST_MODULE = re.compile(r"^\s*mod \w+ \{")


def code_lines(path):
    """The lines of a file outside comments and `#[cfg(test)] mod … { }`."""
    lines = open(path, encoding="utf-8").read().split("\n")
    test_attr = False
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped == "#[cfg(test)]":
            test_attr = True
            continue
        if test_attr and TEST_MODULE.match(line):
            return  # test modules close their file
        if test_attr and stripped.startswith("mod "):
            test_attr = False
            continue  # `#[cfg(test)] mod fuzz;`: its file is a test file
        test_attr = False
        if stripped.startswith("//"):
            continue
        yield number, line.split("//")[0] if '"' not in line else line


def is_test_file(rel):
    name = os.path.basename(rel)
    return name in ("tests.rs", "fuzz.rs", "test_server.rs") or name.endswith("_tests.rs")


def main():
    layer_of = {m: i for i, (_, mods) in enumerate(LAYERS) for m in mods}
    edges = collections.defaultdict(dict)
    unknown, up = [], []
    for root, _, files in os.walk(SRC):
        for f in sorted(files):
            if not f.endswith(".rs"):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, SRC)
            top = rel.split(os.sep)[0].removesuffix(".rs")
            if top in ("lib", "main") or top in EXEMPT or is_test_file(rel):
                continue
            if top not in layer_of:
                unknown.append(top)
                continue
            for number, line in code_lines(path):
                names = PATH.findall(line) + [n.split("::")[0].strip() for g in GROUP.findall(line) for n in g.split(",")]
                for name in filter(None, names):
                    if name == top or name in EXEMPT:
                        continue
                    where = f"src/{rel}:{number}"
                    if name not in layer_of:
                        unknown.append(name)
                    elif layer_of[name] > layer_of[top] or name == "startup":
                        up.append(f"{where}: {top} ({LAYERS[layer_of[top]][0]}) names {name} ({LAYERS[layer_of[name]][0]})")
                    else:
                        edges[top].setdefault(name, where)
    problems = [f"module {m} is in no layer: add it to scripts/layers.py" for m in sorted(set(unknown))] + up
    problems += [f"circle: {c}" for c in circles(edges)]
    problems += sizes()
    if problems:
        print("Structure: what points the wrong way or grew too big\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    print(
        f"Layers: {sum(len(v) for v in edges.values())} module edges, none up, no circle; "
        f"no source file over {MAX_FILE_LINES} lines, no function over {MAX_FN_LINES}"
    )
    return 0


# The crates' sources (not their integration tests): no file over
# MAX_FILE_LINES lines, no function over MAX_FN_LINES.
SOURCES = ["src", "actors/src", "pickup/src", "loadtest/src"]
MAX_FILE_LINES, MAX_FN_LINES = 500, 100
FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?fn\s+(\w+)")
LITERAL = re.compile(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])\'')


def sizes():
    """Files and functions past their limits."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    found = []
    for source in SOURCES:
        for dirpath, _, files in os.walk(os.path.join(root, source)):
            for f in sorted(files):
                if not f.endswith(".rs"):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                lines = open(path, encoding="utf-8").read().split("\n")
                if len(lines) > MAX_FILE_LINES + 1:
                    found.append(f"{rel}: {len(lines) - 1} lines (at most {MAX_FILE_LINES}; split it by what it owns)")
                found += [f"{rel}:{n}: fn {name} is {length} lines (at most {MAX_FN_LINES})" for n, name, length in functions(lines) if length > MAX_FN_LINES]
    return found


def functions(lines):
    """(line, name, length) of each function with a body, by brace depth
    outside string and character literals and comments."""
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m or line.rstrip().endswith(";"):
            continue
        depth, started = 0, False
        for j in range(i, len(lines)):
            code = LITERAL.sub('""', lines[j]).split("//")[0]
            depth += code.count("{") - code.count("}")
            started = started or "{" in code
            if started and depth <= 0:
                yield i + 1, m.group(5), j - i + 1
                break


def circles(edges):
    """Each strongly connected set of modules (Tarjan), with one edge each."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(
                    ", ".join(f"{a} -> {b} ({edges[a][b]})" for a in sorted(group) for b in edges[a] if b in group)
                )

    for v in list(edges):
        if v not in index:
            visit(v)
    return found


if __name__ == "__main__":
    sys.exit(main())
