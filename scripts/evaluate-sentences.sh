#!/usr/bin/env bash
# How often a real small model gives a sentence the guard accepts: 20 varied days (one to four projects,
# one to twelve commits, private projects, subjects with version numbers, a day of private work only, a
# French subject, a late-night commit) journaled with `gitjournal rebuild` against llama-server running
# SmolLM2-135M-Instruct, exactly as a user's journal would be. Prints a markdown report: per day the
# model's raw answer, the verdict, and the sentence or the guard's reason; then accepted x/20 and the
# time per sentence.
#
# Needs what scripts/e2e-local-model.sh needs (it shares its cache). Takes about 15 seconds per seed once
# llama-server is built. BENCHMARKS.md has the figures of a run.
# Environment: SEEDS (llama-server sampling seeds, one run of 20 days each; default "42"),
# TEMPERATURE (narrative.temperature, default gitjournal's own), REPORT (also write the report to this file),
# KEEP=1 keeps the temporary folder.
source "$(dirname "$0")/lib/local-model.sh"
SEEDS="${SEEDS:-42}"

ensure_llama_server
ensure_model
build_gitjournal

make_sandbox evaluate
SERVER_PID=""
PROXY_PID=""
cleanup() {
  stop_proxy
  stop_llama_server
  if [ "${KEEP:-0}" = 1 ]; then echo "kept: $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

UPSTREAM="$(free_port)"
PORT="$(free_port)"
while [ "$PORT" = "$UPSTREAM" ]; do PORT="$(free_port)"; done
git config -f "$CONFIG" narrative.engine openai
git config -f "$CONFIG" narrative.url "http://127.0.0.1:$PORT"
git config -f "$CONFIG" narrative.model "$MODEL_NAME"
git config -f "$CONFIG" narrative.retryDelay 1
[ -n "${TEMPERATURE:-}" ] && git config -f "$CONFIG" narrative.temperature "$TEMPERATURE"
git config -f "$CONFIG" journal.timezone UTC

# day|project|time|insertions|deletions|subject. billing and thesis are private: the model gets their
# counts only.
DAYS="$WORK/days.txt"
cat >"$DAYS" <<'EOF'
2026-10-01|notes-app|10:12|12|3|Fix the crash when the sync folder is missing
2026-10-02|notes-app|09:05|40|2|Add a tag filter to the sidebar
2026-10-02|notes-app|11:30|8|1|Tag filter: keyboard shortcut
2026-10-02|notes-app|15:47|5|5|Fix the tag filter resetting on reload
2026-10-02|site|17:20|14|0|Update the changelog
2026-10-05|billing|09:40|60|10|Add VAT rules for Austria
2026-10-05|billing|11:02|22|4|Round invoice totals per line
2026-10-05|billing|14:15|3|3|Fix the PDF footer
2026-10-05|billing|16:48|30|0|Test the rounding rules
2026-10-06|api-server|08:55|120|80|Split the user service into smaller modules
2026-10-06|api-server|09:40|35|12|Move password hashing to its own module
2026-10-06|api-server|10:25|18|18|Rename UserStore to Accounts
2026-10-06|api-server|11:50|64|0|Add tests for account creation
2026-10-06|api-server|13:35|9|4|Fix the session expiry check
2026-10-06|api-server|14:20|27|31|Simplify the error middleware
2026-10-06|api-server|16:05|3|1|Log slow queries
2026-10-06|api-server|18:30|11|2|Document the accounts module
2026-10-07|dotfiles|21:10|25|18|Switch the shell prompt to starship
2026-10-07|dotfiles|21:40|6|0|Add git aliases for rebase
2026-10-08|thesis|10:00|210|35|Draft the related work chapter
2026-10-08|notes-app|14:20|18|6|Sort notes by last edit
2026-10-08|notes-app|16:05|2|2|Fix a typo in the settings screen
2026-10-09|site|09:15|80|0|Start a post about journaling with git
2026-10-09|site|11:00|25|3|Post: add the hook diagram
2026-10-09|site|14:30|60|41|Post: second draft
2026-10-09|site|15:10|0|0|Compress the images
2026-10-09|site|17:45|4|2|Publish the journaling post
2026-10-12|api-server|09:30|14|3|Add rate limiting to the login endpoint
2026-10-12|api-server|10:45|20|0|Test the rate limiter
2026-10-12|notes-app|13:10|33|9|Show a preview on hover
2026-10-12|notes-app|15:25|6|6|Fix the preview position near the edge
2026-10-12|site|16:40|2|1|Fix a broken link in the footer
2026-10-12|dotfiles|22:05|3|0|Add an alias for the journal
2026-10-13|ml-experiments|09:00|900|0|Add a baseline classifier
2026-10-13|ml-experiments|10:30|40|25|Tune the learning rate schedule
2026-10-13|ml-experiments|12:15|300|280|Try a smaller tokenizer
2026-10-13|ml-experiments|14:00|280|300|Revert the tokenizer change
2026-10-13|ml-experiments|15:30|22|4|Log validation loss per epoch
2026-10-13|ml-experiments|17:10|85|0|Plot the confusion matrix
2026-10-14|billing|08:30|15|2|Import the new price list
2026-10-14|billing|09:05|8|8|Fix currency codes in the import
2026-10-14|billing|09:50|40|0|Add credit notes
2026-10-14|billing|10:20|12|3|Credit notes: link to the original invoice
2026-10-14|billing|11:15|5|1|Credit notes: numbering
2026-10-14|billing|12:40|30|12|Refactor the invoice builder
2026-10-14|billing|13:30|2|2|Fix a rounding test
2026-10-14|billing|14:05|18|0|Export credit notes to CSV
2026-10-14|billing|15:00|7|4|Handle empty price lists
2026-10-14|billing|15:45|3|3|Tidy the logs
2026-10-14|billing|16:30|22|5|Send invoices by email
2026-10-14|billing|17:55|1|1|Bump the version
2026-10-15|notes-app|23:10|3|1|WIP
2026-10-16|api-server|10:00|45|41|Bump dependencies
2026-10-16|api-server|11:20|6|2|Fix the flaky auth test
2026-10-16|api-server|12:05|41|45|Revert "Bump dependencies"
2026-10-19|thesis|09:30|150|20|Methods chapter: data collection
2026-10-19|thesis|13:00|60|45|Methods chapter: rewrite the sampling section
2026-10-19|thesis|16:20|12|0|Add the survey questions to the appendix
2026-10-19|billing|11:00|9|3|Fix the tax rate for Belgium
2026-10-19|billing|17:30|14|0|Test the Belgian tax rate
2026-10-20|ml-experiments|10:10|55|10|Add early stopping
2026-10-20|ml-experiments|14:40|12|3|Save the best checkpoint
2026-10-20|api-server|16:00|4|4|Fix the health endpoint status code
2026-10-21|site|19:30|1|1|Typo
2026-10-22|notes-app|08:40|25|5|Start the markdown export
2026-10-22|notes-app|09:20|40|8|Export: headings and lists
2026-10-22|notes-app|10:05|22|4|Export: links between notes
2026-10-22|notes-app|10:50|15|15|Export: escape special characters
2026-10-22|notes-app|11:35|30|0|Export: images as attachments
2026-10-22|notes-app|13:10|8|2|Fix the export of empty notes
2026-10-22|notes-app|14:25|50|0|Tests for the markdown export
2026-10-22|notes-app|15:40|12|6|Export: progress bar
2026-10-22|notes-app|16:55|4|1|Export: remember the last folder
2026-10-22|notes-app|18:20|6|0|Document the export in the README
2026-10-23|dotfiles|20:15|10|2|Configure the new terminal font
2026-10-23|site|21:00|3|3|Update the about page
2026-10-26|api-server|09:10|70|40|Upgrade to Postgres 16
2026-10-26|api-server|11:30|25|3|Handle HTTP 429 from the payment API
2026-10-26|api-server|14:00|18|12|Support Python 3.12
2026-10-26|api-server|16:45|2|1|Release 2.4.0
2026-10-27|notes-app|10:00|16|4|Make the sidebar resizable
2026-10-27|thesis|13:30|95|30|Results chapter: first figures
2026-10-27|notes-app|15:15|3|3|Fix the sidebar width on small screens
2026-10-27|thesis|17:00|40|10|Results chapter: discussion
2026-10-27|ml-experiments|20:30|30|5|Compare with the baseline
2026-10-28|site|23:50|9|4|Corrige l'export PDF des factures
EOF

for project in notes-app site api-server dotfiles ml-experiments billing thesis; do
  repo="$WORK/repos/$project"
  git init -q "$repo"
  seq 1 2000 | sed 's/^/line /' >"$repo/work.txt"
  git -C "$repo" add work.txt
  GIT_AUTHOR_DATE=2026-09-01T12:00:00Z GIT_COMMITTER_DATE=2026-09-01T12:00:00Z git -C "$repo" commit -q -m "Start"
  "$GITJOURNAL" repos add "$repo" --name "$project" >/dev/null
done
git config -f "$CONFIG" repo.billing.private true
git config -f "$CONFIG" repo.thesis.private true

while IFS='|' read -r day project time insertions deletions subject; do
  repo="$WORK/repos/$project"
  [ "$deletions" = 0 ] || sed -i "1,${deletions}d" "$repo/work.txt"
  for i in $(seq 1 "$insertions"); do echo "$subject $i" >>"$repo/work.txt"; done
  git -C "$repo" add work.txt
  GIT_AUTHOR_DATE="${day}T$time:00Z" GIT_COMMITTER_DATE="${day}T$time:00Z" \
    git -C "$repo" commit -q --allow-empty -m "$subject"
done <"$DAYS"

: >"$WORK/runs.txt"
for seed in $SEEDS; do
  SEED="$seed"
  : >"$REQUESTS"
  rm -rf "$HOME/.cache/gitjournal/sentences" "$STATE/narrative-backoff" "$STATE/narrative.log" "$HOME/journal"
  start_llama_server "$UPSTREAM" >&2
  start_proxy "$PORT" "$UPSTREAM"
  started="$(now)"
  "$GITJOURNAL" rebuild --since 2026-10-01 --until 2026-10-31 >"$WORK/rebuild-$seed.txt" 2>&1 || true
  echo "$seed $(seconds_since "$started")" >>"$WORK/runs.txt"
  stop_proxy
  stop_llama_server
  cp "$REQUESTS" "$WORK/requests-$seed.jsonl"
  cp "$STATE/narrative.log" "$WORK/narrative-$seed.log" 2>/dev/null || : >"$WORK/narrative-$seed.log"
  mkdir -p "$WORK/journal-$seed"
  cp "$HOME"/journal/*.md "$WORK/journal-$seed/"
done

python3 - "$WORK" "$DAYS" "$SEEDS" <<'PY' | tee "${REPORT:-/dev/null}"
import json, os, re, statistics, sys

work, days_file, seeds = sys.argv[1], sys.argv[2], sys.argv[3].split()
rows = [line.rstrip("\n").split("|", 5) for line in open(days_file) if line.strip()]
days = sorted({row[0] for row in rows})
private = {"billing", "thesis"}
runs = dict(line.split() for line in open(os.path.join(work, "runs.txt")))

def is_about(request, day):
    """Whether a generation request carries this day's facts: every public subject, every private count."""
    try:
        prompt = json.loads(request["request"])["messages"][-1]["content"]
    except (ValueError, KeyError, IndexError):
        return False
    commits = [row for row in rows if row[0] == day]
    for project in {row[1] for row in commits}:
        mine = [row for row in commits if row[1] == project]
        if project in private:
            times = {1: "once", 2: "twice"}.get(len(mine), f"{len(mine)} times")
            if f"committed {times} to {project}, a private project" not in prompt:
                return False
        elif not all(f'"{row[5]}"' in prompt for row in mine):
            return False
    return True

def describe(day):
    commits = [row for row in rows if row[0] == day]
    projects = sorted({row[1] for row in commits})
    names = ", ".join(p + (" (private)" if p in private else "") for p in projects)
    return f"{len(commits)} in {names}"

def sentence(path):
    text = open(path).read()
    block = text.split("<!-- gitjournal:begin", 1)[1].split("-->", 1)[1].split("<!-- gitjournal:end")[0]
    first = next(line for line in block.splitlines() if line.strip())
    return None if re.match(r"^\d+ commits? (in 1 project|across \d+ projects), \+\d+ -\d+$", first) else first

def cell(text, limit=160):
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"

total_accepted, total, seconds = 0, 0, []
for seed in seeds:
    requests = [json.loads(line) for line in open(os.path.join(work, f"requests-{seed}.jsonl"))]
    generations = [r for r in requests if r["path"] == "/v1/chat/completions"]
    log = open(os.path.join(work, f"narrative-{seed}.log")).read().splitlines()
    accepted = 0
    print(f"### Seed {seed}\n")
    print("| day | commits | model's answer | verdict |")
    print("| --- | --- | --- | --- |")
    for day in days:
        request = next((r for r in generations if is_about(r, day)), None)
        raw = "(no request)"
        if request:
            seconds.append(request["seconds"])
            try:
                raw = json.loads(request["response"])["choices"][0]["message"]["content"]
            except (ValueError, KeyError, IndexError):
                raw = request["response"]
        kept = sentence(os.path.join(work, f"journal-{seed}", f"{day}.md"))
        if kept:
            accepted += 1
            verdict = "accepted" + ("" if kept.strip() == raw.strip() else f": {cell(kept)}")
        else:
            reason = next((l.split("sentence rejected, ", 1)[1] for l in reversed(log)
                           if f"{day}: sentence rejected, " in l), None)
            other = next((l.split(" ", 1)[1] for l in reversed(log) if day in l), "no sentence")
            verdict = "**rejected**: " + cell((reason or other).split(": ")[0], 80)
        print(f"| {day} | {describe(day)} | {cell(raw)} | {verdict} |")
    print(f"\nSeed {seed}: **{accepted}/{len(days)} accepted**; `gitjournal rebuild` of the {len(days)} days "
          f"took {float(runs[seed]):.1f} s.\n")
    total_accepted += accepted
    total += len(days)

if seconds:
    print(f"All seeds: {total_accepted}/{total} accepted. Generation time at the server per sentence: "
          f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s.")
PY
