#!/usr/bin/env python3
"""The markdown report of scripts/evaluate-sentences.sh, from what its runs left in WORK.

Per seed and day: each answer the model gave (a second one when the guard rejected the first), the guard's
verdict, and for an accepted sentence the verdict of scripts/check-grounding.py (an independent second
implementation of the grounding rule); then the totals and the generation time per answer.

usage: evaluation-report.py WORK DAYS_FILE "SEEDS"
"""
import importlib.util
import json
import os
import re
import statistics
import sys

work, days_file, seeds = sys.argv[1], sys.argv[2], sys.argv[3].split()
spec = importlib.util.spec_from_file_location(
    "check_grounding", os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-grounding.py"))
grounding = importlib.util.module_from_spec(spec)
spec.loader.exec_module(grounding)

rows = [line.rstrip("\n").split("|", 5) for line in open(days_file) if line.strip()]
days = sorted({row[0] for row in rows})
private = set(os.environ.get("PRIVATE", "billing thesis").split())
names = sorted({row[1] for row in rows})
runs = dict(line.split() for line in open(os.path.join(work, "runs.txt")))
FACTUAL = re.compile(r"^\d+ commits? (in 1 project|across \d+ projects), \+\d+ -\d+$")


def times(count):
    return {1: ["once", "1 commit"], 2: ["twice", "2 commits"]}.get(count, [f"{count} times", f"{count} commits"])


def is_about(prompt, day):
    """Whether a prompt carries this day's facts: its projects and no other, every public subject, every
    private count (in any prompt version's wording: "twice", "3 times" or "3 commits")."""
    commits = [row for row in rows if row[0] == day]
    projects = {row[1] for row in commits}
    for name in names:
        if (re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", prompt) is not None) != (name in projects):
            return False
    for project in projects:
        mine = [row for row in commits if row[1] == project]
        if project in private:
            near = [rf"{re.escape(phrase)}[^.\n]*\b{project}\b|\b{project}\b[^.\n]*{re.escape(phrase)}"
                    for phrase in times(len(mine))]
            if not any(re.search(pattern, prompt) for pattern in near):
                return False
        elif not all(row[5] in prompt for row in mine):
            return False
    return True


def facts(day):
    commits = [row for row in rows if row[0] == day]
    return {"projects": [{"name": p, "private": p in private, "subjects": [r[5] for r in commits if r[1] == p]}
                         for p in sorted({row[1] for row in commits})]}


def describe(day):
    commits = [row for row in rows if row[0] == day]
    projects = sorted({row[1] for row in commits})
    listed = ", ".join(p + (" (private)" if p in private else "") for p in projects)
    subjects = "; ".join(f"`{row[5]}`" for row in commits if row[1] not in private)
    return f"{len(commits)} in {listed}" + (f": {subjects}" if subjects else "")


def sentence(path):
    if not os.path.exists(path):
        return None
    text = open(path).read()
    block = text.split("<!-- gitjournal:begin", 1)[1].split("-->", 1)[1].split("<!-- gitjournal:end")[0]
    first = next(line for line in block.splitlines() if line.strip())
    return None if FACTUAL.match(first) else first


def without_sentence(text):
    """The page less the model's sentence: the block's first line when it is not the factual line, and the empty
    line after it."""
    head, rest = text.split("<!-- gitjournal:begin", 1)
    marker, body = rest.split("-->", 1)
    lines = body.split("\n")
    first = next(index for index, line in enumerate(lines) if line.strip())
    # A day's factual line, or a week's or month's ("12 commits across 3 projects on 4 of 7 days, +500 -30").
    if not re.match(r"^(\d+ commits? |No commits)", lines[first]):
        del lines[first:first + 2]
    return head + "<!-- gitjournal:begin" + marker + "-->" + "\n".join(lines)


def comparable(text):
    """The page with its block's checksum left out: it covers the block, so it differs with the sentence."""
    return re.sub(r"checksum=[0-9a-f]+", "checksum=", text)


def harmed_pages(seed):
    """The pages of this seed's journal that differ from the model-off journal by more than the sentence."""
    off = os.path.join(work, "journal-off")
    if not os.path.isdir(off):
        return []
    harmed = []
    for name in sorted(os.listdir(off)):
        path = os.path.join(work, f"journal-{seed}", name)
        if not os.path.exists(path) or comparable(without_sentence(open(path).read())) != comparable(
                open(os.path.join(off, name)).read()):
            harmed.append(name)
    return harmed


# Words that say nothing of a subject's own, left out when a sentence is compared with the subjects.
PLAIN = set("a an the to of in on for and or with by at from into".split())


def lists_back(day, sentence):
    """Whether the sentence just lists the day's subjects back: 80% or more of their words are in it."""
    wanted = {word for row in rows if row[0] == day and row[1] not in private
              for word in re.findall(r"[^\W_]+", row[5].lower()) if word not in PLAIN}
    have = set(re.findall(r"[^\W_]+", sentence.lower()))
    return bool(wanted) and len(wanted & have) >= 0.8 * len(wanted)


def cell(text, limit=150):
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def prompt_of(request):
    try:
        return json.loads(request["request"])["messages"][-1]["content"]
    except (ValueError, KeyError, IndexError):
        return ""


def answer_of(request):
    try:
        return json.loads(request["response"])["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError):
        return request["response"]


totals = {"days": 0, "accepted": 0, "first": 0, "grounded": 0, "requests": 0, "listed": 0, "harmed": 0}
seconds, disagreements = [], []
for seed in seeds:
    requests = [json.loads(line) for line in open(os.path.join(work, f"requests-{seed}.jsonl"))]
    generations = [r for r in requests if r["path"] == "/v1/chat/completions"]
    log = open(os.path.join(work, f"narrative-{seed}.log")).read().splitlines()
    accepted = first = grounded = listed = 0
    print(f"### Seed {seed}\n")
    print("| day | commits | the model's answers | guard | independent check |")
    print("| --- | --- | --- | --- | --- |")
    for day in days:
        asked = [r for r in generations if is_about(prompt_of(r), day)]
        seconds += [r["seconds"] for r in asked]
        answers = " / ".join(f"{index + 1}. {cell(answer_of(r), 110)}" for index, r in enumerate(asked)) or "(none)"
        kept = sentence(os.path.join(work, f"journal-{seed}", f"{day}.md"))
        check = ""
        if kept:
            accepted += 1
            first += len(asked) == 1
            verdict = f"accepted ({'1st' if len(asked) == 1 else '2nd'} try): {cell(kept, 400)}"
            check = grounding.check(facts(day), kept)
            grounded += check == "grounded"
            if check != "grounded":
                disagreements.append(f"seed {seed}, {day}: {kept} ({check})")
            if lists_back(day, kept):
                listed += 1
                check += "; lists the subjects back"
        else:
            reasons = [line.split("sentence rejected, ", 1)[1].split(": ")[0] for line in log
                       if f"{day}: sentence rejected, " in line]
            other = next((line.split(" ", 1)[1] for line in reversed(log) if day in line), "no sentence")
            verdict = "**rejected**: " + cell(" / ".join(reasons) or other, 160)
        print(f"| {day[5:]} | {cell(describe(day), 130)} | {answers} | {verdict} | {check} |")
    harmed = harmed_pages(seed)
    totals["harmed"] += len(harmed)
    if harmed:
        print(f"\nPages that differ from the model-off journal by more than the sentence: {', '.join(harmed)}")
    print(f"\nSeed {seed}: **{accepted}/{len(days)} days with a sentence** ({first} at the first try), "
          f"{grounded}/{accepted} of them grounded by the independent check, {listed}/{accepted} just list the "
          f"subjects back; {len(generations)} generation "
          f"requests; `gitjournal rebuild` of the {len(days)} days took {float(runs[seed]):.1f} s.\n")
    totals["days"] += len(days)
    totals["accepted"] += accepted
    totals["first"] += first
    totals["grounded"] += grounded
    totals["requests"] += len(generations)
    totals["listed"] += listed

if seconds:
    print(f"All seeds: {totals['accepted']}/{totals['days']} days with a sentence ({totals['first']} at the first "
          f"try), {totals['grounded']}/{totals['accepted']} grounded by the independent check, "
          f"{totals['listed']}/{totals['accepted']} list the subjects back, "
          f"{totals['harmed']} pages harmed (more than the sentence differs from the model-off journal), "
          f"{totals['requests']} generation requests. Generation time at the server per answer: "
          f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s.")
for line in disagreements:
    print(f"- not grounded by the independent check: {line}")
