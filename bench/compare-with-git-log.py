#!/usr/bin/env python3
"""Checks a rebuilt journal against `git log` day by day, with gitjournal's rules applied to git's output.

usage: compare-with-git-log.py REPO JOURNAL_DIR

Runs `git log --branches --no-merges --shortstat -M100%` (HEAD included) in REPO with TZ=UTC, folds rebased or
cherry-picked copies (same mailmapped author email, author time and subject; the copy with the newest
committer time is kept, ties to the smallest id, as gitjournal does), groups by UTC author day and compares
commits, insertions and deletions with each day file's front matter. Run gitjournal with TZ=UTC and
--all-authors. Exits 1 on any difference.
"""
import collections
import os
import re
import subprocess
import sys

repo, journal = sys.argv[1], sys.argv[2]
env = dict(os.environ, TZ="UTC")
for variable in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"):
    env.pop(variable, None)
log = subprocess.run(
    ["git", "-C", repo, "log", "--branches", "HEAD", "--no-merges", "--shortstat", "-M100%",
     "--format=@@%H%x00%aE%x00%at%x00%ct%x00%s"],
    capture_output=True, env=env, check=True).stdout.decode("utf-8", "replace")

commits = {}
current = None
for line in log.splitlines():
    if line.startswith("@@"):
        sha, email, author_time, committer_time, subject = line[2:].split("\0", 4)
        current = commits.setdefault(sha, {"email": email.lower(), "at": int(author_time), "ct": int(committer_time),
                                           "subject": subject, "ins": 0, "del": 0})
    elif line.strip() and current is not None:
        ins = re.search(r"(\d+) insertion", line)
        dels = re.search(r"(\d+) deletion", line)
        current["ins"] = int(ins.group(1)) if ins else 0
        current["del"] = int(dels.group(1)) if dels else 0

kept = {}
for sha, c in commits.items():
    key = (c["email"], c["at"], c["subject"])
    best = kept.get(key)
    if best is None or (c["ct"], [-ord(x) for x in sha]) > (best[1]["ct"], [-ord(x) for x in best[0]]):
        kept[key] = (sha, c)

days = collections.defaultdict(lambda: [0, 0, 0])
for sha, c in kept.values():
    import datetime
    day = datetime.datetime.fromtimestamp(c["at"], datetime.timezone.utc).strftime("%Y-%m-%d")
    days[day][0] += 1
    days[day][1] += c["ins"]
    days[day][2] += c["del"]

mismatches = 0
# Day files only: the week (YYYY-Www.md) and month (YYYY-MM.md) pages sum the days compared here.
files = {name[:-3] for name in os.listdir(journal) if re.fullmatch(r"\d{4}-\d{2}-\d{2}\.md", name)}
for day in sorted(set(days) | files):
    expected = days.get(day, [0, 0, 0])
    actual = [0, 0, 0]
    path = os.path.join(journal, day + ".md")
    if os.path.exists(path):
        text = open(path, encoding="utf-8").read()
        for index, key in enumerate(("commits", "insertions", "deletions")):
            match = re.search(rf"^{key}: (\d+)$", text, re.M)
            actual[index] = int(match.group(1)) if match else -1
    if expected != actual:
        mismatches += 1
        if mismatches <= 20:
            print(f"{day}: git log says {expected}, journal says {actual}")
total = [sum(v[i] for v in days.values()) for i in range(3)]
print(f"{len(days)} days, {total[0]} commits, +{total[1]} -{total[2]} per git log; {mismatches} days differ")
sys.exit(1 if mismatches else 0)
