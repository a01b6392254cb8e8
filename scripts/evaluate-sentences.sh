#!/usr/bin/env bash
# How often a real small model gives a sentence the guard accepts, and whether what it accepts is true: 30
# varied days (one to four projects, one to twelve commits, private projects, subjects with version numbers,
# and days that invite invention: terse and one-word subjects, days of private work only, subjects in French
# and German, issue numbers) journaled with `gitjournal rebuild` against llama-server running
# SmolLM2-135M-Instruct, exactly as a user's journal would be. Prints a markdown report
# (scripts/evaluation-report.py): per day each answer the model gave (a second one when the guard rejected
# the first), the verdict, and for an accepted sentence the verdict of scripts/check-grounding.py, a second
# implementation of the grounding rule that shares no code with gitjournal's guard; then the totals and the
# time per answer.
#
# Needs what scripts/e2e-local-model.sh needs (it shares its cache). Takes about 20 seconds per seed once
# llama-server is built. BENCHMARKS.md has the figures of a run.
# Two sets of days: SET=tuning (default), the 30 days of October 2026 that prompt work may look at, and
# SET=heldout, the 12 days of November 2026 below, written before any prompt work on them and never tuned on:
# their figures are the ones to report. The report also counts the accepted sentences that just list the subjects
# back (80% or more of the day's subjects' words).
# Environment: SET (tuning or heldout), SEEDS (llama-server sampling seeds, one run per set; default "42"),
# TEMPERATURE (narrative.temperature, default gitjournal's own), REPORT (also write the report to this file),
# GITJOURNAL (a gitjournal binary to evaluate instead of building this checkout's, e.g. an older version's),
# KEEP=1 keeps the temporary folder.
source "$(dirname "$0")/lib/local-model.sh"
SEEDS="${SEEDS:-42}"
SET="${SET:-tuning}"
case "$SET" in
tuning) FIRST=2026-10-01 LAST=2026-10-31 PROJECTS="notes-app site api-server dotfiles ml-experiments billing thesis garden" PRIVATE="billing thesis" ;;
heldout) FIRST=2026-11-02 LAST=2026-11-30 PROJECTS="atlas-api recipes infra mobile-app ledger novel" PRIVATE="ledger novel" ;;
*) fail "SET must be tuning or heldout, not $SET" ;;
esac
export PRIVATE

ensure_llama_server
ensure_model
if [ -n "${GITJOURNAL:-}" ]; then info "evaluating $GITJOURNAL"; else build_gitjournal; fi

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
# counts only. The days after the first twenty (from 10-03 on, below 10-28) invite invention.
DAYS="$WORK/days.txt"
if [ "$SET" = heldout ]; then
  # The held-out days: never looked at while the prompt is worked on. ledger and novel are private.
  cat >"$DAYS" <<'EOF'
2026-11-02|atlas-api|09:10|14|3|Add rate limiter to the login endpoint
2026-11-02|atlas-api|10:40|6|1|Log rejected tokens
2026-11-02|atlas-api|15:05|9|9|fix: limiter counts per user, not per IP
2026-11-03|recipes|20:15|40|2|Add a shopping list page
2026-11-03|recipes|21:30|3|3|Fix the servings slider
2026-11-04|infra|08:50|22|10|ci: cache the Swift build
2026-11-04|infra|09:30|5|5|ci: run the tests on arm64
2026-11-04|atlas-api|11:00|2|2|chore(deps): bump the JSON library
2026-11-04|infra|16:20|12|4|build: pin the base image
2026-11-05|mobile-app|10:00|80|20|feat(onboarding): three intro screens
2026-11-05|mobile-app|12:30|15|5|fix(onboarding): skip button on small phones
2026-11-05|mobile-app|14:10|30|0|test: snapshot the intro screens
2026-11-05|mobile-app|16:45|4|12|refactor: share the page indicator
2026-11-05|ledger|18:00|25|4|Import the bank statement
2026-11-09|novel|07:30|300|20|Chapter 4
2026-11-09|novel|21:00|120|80|Chapter 4: rewrite the ending
2026-11-10|atlas-api|09:00|60|30|Move sessions to Redis
2026-11-10|atlas-api|11:15|12|40|Remove the in-memory session store
2026-11-10|atlas-api|14:30|25|0|Document the session settings
2026-11-10|recipes|19:45|1|1|Typo on the about page
2026-11-12|mobile-app|09:20|10|3|perf: lazy-load the recipe images
2026-11-12|mobile-app|10:05|5|2|Fix the crash on an empty feed
2026-11-12|mobile-app|11:40|8|1|Update the app icon
2026-11-12|mobile-app|13:00|2|2|revert: perf: lazy-load the recipe images
2026-11-12|mobile-app|15:30|18|6|Retry image loads once
2026-11-16|infra|10:00|3|1|wip
2026-11-16|infra|10:20|2|2|more wip
2026-11-17|recipes|20:00|35|5|Print view for recipes
2026-11-17|recipes|20:40|10|2|Print view: hide the comments
2026-11-17|ledger|21:30|8|8|Fix the rounding of shared expenses
2026-11-17|novel|22:10|60|5|Chapter 5 outline
2026-11-19|atlas-api|09:05|7|7|Refactor the error responses
2026-11-19|atlas-api|10:30|30|2|Add pagination to the orders endpoint
2026-11-19|atlas-api|13:45|16|0|Tests for pagination
2026-11-19|atlas-api|15:10|4|1|Fix an off-by-one in the page count
2026-11-19|atlas-api|17:20|3|3|docs: pagination in the API guide
2026-11-19|infra|18:00|6|2|Alert when the disk is 90% full
2026-11-23|mobile-app|11:00|2|1|Release 3.1.0
2026-11-24|recipes|09:30|20|18|Rework the search ranking
2026-11-24|recipes|10:15|12|0|Search: match ingredients too
2026-11-24|recipes|11:50|3|1|Search: ignore accents
2026-11-24|atlas-api|16:00|5|1|Fix the health check on startup
2026-11-24|infra|17:30|9|2|Back up the database nightly
EOF
else
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
2026-10-03|notes-app|11:00|2|1|fix
2026-10-03|notes-app|11:20|1|1|fix again
2026-10-04|api-server|10:00|30|12|refactor
2026-10-04|api-server|12:30|4|4|tests
2026-10-04|api-server|16:00|9|2|more tests
2026-10-10|dotfiles|20:00|5|1|vim
2026-10-10|dotfiles|20:30|3|3|zsh
2026-10-11|thesis|10:00|120|10|Introduction: first draft
2026-10-11|thesis|14:00|40|30|Introduction: second pass
2026-10-11|thesis|16:30|12|2|Bibliography
2026-10-11|thesis|18:00|5|5|Fix citations
2026-10-17|billing|09:30|14|2|Add dunning letters
2026-10-17|billing|10:15|6|1|Dunning: second reminder
2026-10-17|thesis|15:00|30|5|Conclusion: outline
2026-10-18|notes-app|10:40|35|4|Ajoute la recherche plein texte
2026-10-18|site|12:10|8|8|Behebe den Fehler im Kontaktformular
2026-10-24|site|09:10|3|1|Fix #42
2026-10-24|api-server|11:00|12|0|Closes #117
2026-10-25|garden|15:00|300|0|Initial commit
2026-10-29|notes-app|09:00|2|1|Update README.md
2026-10-29|notes-app|09:05|1|1|Bump version to 1.2.3
2026-10-30|ml-experiments|10:00|20|4|tuning
2026-10-30|ml-experiments|13:00|44|0|plots
2026-10-30|ml-experiments|17:00|3|30|cleanup
EOF
fi

for project in $PROJECTS; do
  repo="$WORK/repos/$project"
  git init -q "$repo"
  seq 1 2000 | sed 's/^/line /' >"$repo/work.txt"
  git -C "$repo" add work.txt
  GIT_AUTHOR_DATE=2026-09-01T12:00:00Z GIT_COMMITTER_DATE=2026-09-01T12:00:00Z git -C "$repo" commit -q -m "Start"
  "$GITJOURNAL" repos add "$repo" --name "$project" >/dev/null
done
for project in $PRIVATE; do git config -f "$CONFIG" "repo.$project.private" true; done

# Commits in date order, as a person makes them.
sort -t'|' -k1,1 -k3,3 "$DAYS" -o "$DAYS"
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
  rm -rf "$HOME/.cache/gitjournal/sentences" "$HOME/.cache/gitjournal/rejections" "$STATE/narrative-backoff" "$STATE/narrative.log" "$HOME/journal"
  start_llama_server "$UPSTREAM" >&2
  start_proxy "$PORT" "$UPSTREAM"
  started="$(now)"
  "$GITJOURNAL" rebuild --since "$FIRST" --until "$LAST" >"$WORK/rebuild-$seed.txt" 2>&1 || true
  echo "$seed $(seconds_since "$started")" >>"$WORK/runs.txt"
  stop_proxy
  stop_llama_server
  cp "$REQUESTS" "$WORK/requests-$seed.jsonl"
  cp "$STATE/narrative.log" "$WORK/narrative-$seed.log" 2>/dev/null || : >"$WORK/narrative-$seed.log"
  mkdir -p "$WORK/journal-$seed"
  cp "$HOME"/journal/*.md "$WORK/journal-$seed/"
done

# The same days with the model off: every page above, less its sentence, must be this one (the journal unharmed).
git config -f "$CONFIG" narrative.engine off
rm -rf "$HOME/journal"
"$GITJOURNAL" rebuild --since "$FIRST" --until "$LAST" >"$WORK/rebuild-off.txt" 2>&1 || true
mkdir -p "$WORK/journal-off"
cp "$HOME"/journal/*.md "$WORK/journal-off/"
python3 "$SCRIPTS/evaluation-report.py" "$WORK" "$DAYS" "$SEEDS" | tee "${REPORT:-/dev/null}"
