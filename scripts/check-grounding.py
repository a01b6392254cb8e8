#!/usr/bin/env python3
"""A second, independent check that a sentence says only what a day's facts say, for
scripts/evaluate-sentences.sh.

It implements the rule README.md documents ("What the guard lets through") without gitjournal's code:
its own tokenizer, its own way of matching inflections (every base form a word may have, instead of one
stem), and its own number roles. Where the two disagree, one of them is wrong; the evaluation prints both.

    usage: check-grounding.py FACTS_JSON SENTENCE
    FACTS_JSON: {"projects": [{"name": "...", "private": false, "subjects": ["..."]}, ...]}
Prints "grounded" or "ungrounded: ..." and exits 0.
"""
import json
import re
import sys

# The documented vocabulary (README.md): words any day may use, and three that need a fact behind them.
GENERIC = """work fix patch add create use improve improvement update change make start finish continue complete write
clean cleanup tidy tweak polish rework spend commit time project code repository repo task thing day today
progress small minor""".split()
IMPLIED = {
    "new": "add create start introduce initial new first".split(),
    "bug": "fix bug crash error issue flaky regression".split(),
    "feature": "add implement introduce support feature".split(),
}
FUNCTION = """a an the i me my mine myself we us our it its this that these those there and or but nor so also then
than as of in on at to for from by with without into onto over under about after before between through during
across around within up down out off again is are was were be been being am do does did done have has had having
which who what when where while some all both each other more just still too not no own they them their""".split()
NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "once": 1, "twice": 2, "single": 1,
}
IRREGULAR = {
    "taught": "teach", "wrote": "write", "written": "write", "rewrote": "rewrite", "made": "make", "built": "build",
    "began": "begin", "begun": "begin", "ran": "run", "went": "go", "got": "get", "kept": "keep", "left": "leave",
    "brought": "bring", "found": "find", "spent": "spend", "sent": "send", "drew": "draw", "took": "take",
    "gave": "give", "held": "hold", "led": "lead", "lost": "lose", "paid": "pay", "said": "say", "told": "tell",
    "shown": "show", "broke": "break", "broken": "break", "hid": "hide", "hidden": "hide", "undid": "undo",
}
SUFFIXES = [("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("d", ""), ("ing", ""),
            ("ing", "e")]


def base_forms(word):
    """Every form the word might be an inflection of, the word included."""
    word = IRREGULAR.get(word, word)
    forms = {word}
    for suffix, replacement in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            base = word[: -len(suffix)] + replacement
            forms.add(base)
            if len(base) >= 3 and base[-1] == base[-2] and base[-1] not in "aeiouy":
                forms.add(base[:-1])
    return forms


# The kinds of work (docs/usage.md, "Kinds of work"), told again here from the documented rules: a conventional-commit
# type, else the subject's first word in the verb table, else "other". Their words are facts of the day.
TYPES = {"feat": "feature", "feature": "feature", "fix": "fix", "docs": "docs change", "doc": "docs change",
         "refactor": "refactor", "perf": "performance change", "test": "test change", "tests": "test change",
         "build": "build change", "ci": "CI change", "chore": "chore", "revert": "revert"}
VERBS = {
    "fix": "fix fixes fixed repair repairs repaired correct corrects corrected resolve resolves resolved patch "
           "patches patched hotfix",
    "feature": "add adds added implement implements implemented introduce introduces introduced support supports "
               "create creates created allow allows enable enables new",
    "refactor": "refactor refactors refactored remove removes removed delete deletes deleted drop drops dropped "
                "rename renames renamed move moves moved extract extracts simplify simplifies clean cleans cleanup "
                "tidy restructure reorganize reorganise",
    "performance change": "optimize optimizes optimise optimises speed speeds",
    "docs change": "document documents documented doc docs readme",
    "test change": "test tests tested",
    "chore": "update updates updated upgrade upgrades upgraded bump bumps bumped release chore",
    "revert": "revert reverts reverted",
}


def kind(subject):
    match = re.match(r"\s*([A-Za-z]{1,16})(\([^)\n]{0,63}\))?!?:", subject)
    if match and match.group(1).lower() in TYPES:
        return TYPES[match.group(1).lower()]
    first = re.match(r"\s*([A-Za-z]+)", subject)
    word = first.group(1).lower() if first else ""
    for name, verbs in VERBS.items():
        if word in verbs.split():
            return name
    return "other"


def kinds_text(subjects):
    """`2 fix, 1 feature`: each kind of the subjects with its count."""
    counts = {}
    for subject in subjects:
        counts[kind(subject)] = counts.get(kind(subject), 0) + 1
    return ", ".join(f"{count} {name}" for name, count in counts.items())


def tokens(text):
    """Words (letters only) and numbers (digits with inner dots or commas), lowercased, in order."""
    return re.findall(r"\d+(?:[.,]\d+)*|[^\W\d_]+", text.lower())


def check(facts, sentence):
    projects = facts["projects"]
    texts = ["commit project"]
    kinds = {p["name"]: kinds_text(p["subjects"]) for p in projects if not p["private"]}
    for project in projects:
        texts.append(project["name"])
        texts += ["a private project"] if project["private"] else project["subjects"] + [kinds[project["name"]]]
    known = set()
    for text in texts:
        for token in tokens(text):
            known |= base_forms(token)
    generic = set().union(*(base_forms(word) for word in GENERIC))
    words = tokens(sentence)
    unknown = []
    for word in words:
        if word[0].isdigit() or len(word) < 2 or word in FUNCTION or word in NUMBER_WORDS:
            continue
        forms = base_forms(word)
        if forms & (known | generic):
            continue
        implied = IMPLIED.get(word)
        if implied and any(base_forms(source) & known for source in implied):
            continue
        unknown.append(word)

    total = sum(len(project["subjects"]) for project in projects)
    counts = {len(project["subjects"]) for project in projects}
    private = sum(1 for project in projects if project["private"])
    project_counts = {len(projects), private, len(projects) - private}
    subjects = [tokens(s) for p in projects if not p["private"] for s in p["subjects"] + [kinds[p["name"]]]] + [
        tokens(p["name"]) for p in projects]
    says_commits = any("commit" in base_forms(word) for word in words)
    bad_numbers = []
    for index, word in enumerate(words):
        value = int(word) if word.isdigit() else NUMBER_WORDS.get(word)
        if not word[0].isdigit() and value is None:
            continue
        # A subject's number, with a word that is next to it in that subject (two words either side) within
        # three words of it in the sentence.
        nearby = set()
        for other in words[max(0, index - 3): index + 4]:
            if other != word and other not in FUNCTION:
                nearby |= base_forms(other)
        if any(nearby & set().union(*(base_forms(t) for t in subject[max(0, at - 2): at + 3]
                                      if t != word and t not in FUNCTION))
               for subject in subjects for at, token in enumerate(subject) if token == word):
            continue
        following = " ".join(words[index + 1: index + 3])
        if value is not None and "project" in following and value in project_counts:
            continue
        if value is not None and "project" not in following and says_commits and (value == total or value in counts):
            continue
        bad_numbers.append(word)
    # Work put under the wrong project: "<words of project A> in|for|to|of|on <project B>".
    own = {p["name"]: set().union(set(), *(base_forms(t) for s in p["subjects"] + [kinds[p["name"]]]
                                           for t in tokens(s)))
           for p in projects if not p["private"]}
    name_words = {t for p in projects for t in tokens(p["name"])}
    misplaced = []
    text = " ".join(words)
    for project in projects:
        name = " ".join(tokens(project["name"]))
        for match in re.finditer(rf"\b(in|for|to|of|on|into|at) {re.escape(name)}\b", text):
            before = text[: match.start()].split()
            for word in reversed(before):
                if word in name_words or base_forms(word) & generic:
                    break
                owners = [p for p, forms in own.items() if base_forms(word) & forms]
                if word in FUNCTION or word in NUMBER_WORDS or not owners:
                    continue
                if project["name"] not in owners:
                    misplaced.append(f"{word} {match.group(1)} {project['name']}")
                break
    if not unknown and not bad_numbers and not misplaced:
        return "grounded"
    parts = []
    if unknown:
        parts.append("words " + ", ".join(unknown))
    if bad_numbers:
        parts.append("numbers " + ", ".join(bad_numbers))
    if misplaced:
        parts.append("under another project: " + ", ".join(misplaced))
    return "ungrounded: " + "; ".join(parts)


if __name__ == "__main__":
    print(check(json.loads(sys.argv[1]), sys.argv[2]))
