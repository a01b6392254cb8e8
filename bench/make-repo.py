#!/usr/bin/env python3
"""Writes a deterministic git history as a `git fast-import` stream on stdout.

usage: make-repo.py COMMITS [--branches N] [--files N] [--days N] [--seed S] [--email E] [--end EPOCH]

Commits spread evenly over the DAYS before END (default: now), by two authors (E and a colleague), on
BRANCHES branches that fork from main; every 50th commit renames a file, every 70th adds a binary file.
The same arguments always give the same repository.
"""
import argparse
import random
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("commits", type=int)
parser.add_argument("--branches", type=int, default=1)
parser.add_argument("--files", type=int, default=300)
parser.add_argument("--days", type=int, default=365)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--email", default="me@example.com")
parser.add_argument("--end", type=int, default=None)
args = parser.parse_args()

rng = random.Random(args.seed)
end = args.end if args.end is not None else int(time.time()) - 3600
start = end - args.days * 86400
out = sys.stdout.buffer


def emit(text):
    out.write(text.encode() if isinstance(text, str) else text)


def data(payload):
    emit(f"data {len(payload)}\n")
    emit(payload)
    emit("\n")


initial = {f"src/module{i % 17}/file{i}.txt": [f"line {j} of file {i}\n" for j in range(rng.randint(5, 60))]
           for i in range(args.files)}
trees = {}  # branch -> {path: lines}: each branch has its own files
mark = 0
tips = {}
for n in range(args.commits):
    branch = "main" if n < args.commits // 3 or args.branches == 1 else f"branch{rng.randrange(args.branches)}"
    when = start + (end - start) * n // max(1, args.commits)
    email = args.email if rng.random() < 0.8 else "colleague@example.com"
    name = "Me" if email == args.email else "Colleague"
    mark += 1
    emit(f"commit refs/heads/{branch}\nmark :{mark}\n")
    emit(f"author {name} <{email}> {when} +0000\ncommitter {name} <{email}> {when} +0000\n")
    data(f"Change {n}: update {rng.choice(list(initial))}\n".encode())
    parent = tips.get(branch) or tips.get("main")
    if parent:
        emit(f"from :{parent}\n")
    if branch not in trees:
        source = trees.get("main", initial)
        trees[branch] = {path: list(lines) for path, lines in source.items()}
    files = trees[branch]
    changes = list(files) if n == 0 else []
    for _ in range(rng.randint(1, 4)):
        path = rng.choice(list(files))
        lines = files[path]
        for _ in range(rng.randint(1, 6)):
            if lines and rng.random() < 0.4:
                del lines[rng.randrange(len(lines))]
            else:
                lines.insert(rng.randrange(len(lines) + 1), f"edit {n} {rng.random():.6f}\n")
        changes.append(path)
    if n % 50 == 49:
        old = rng.choice(list(files))
        new = old.replace(".txt", f".r{n}.txt")
        files[new] = files.pop(old)
        emit(f"R {old} {new}\n")
        changes = [c for c in changes if c != old]
    for path in changes:
        if path in files:
            emit(f"M 100644 inline {path}\n")
            data("".join(files[path]).encode())
    if n % 70 == 69:
        emit(f"M 100644 inline assets/blob{n}.bin\n")
        data(bytes(rng.randrange(256) for _ in range(300)) + b"\0")
    tips[branch] = mark
emit("done\n")
