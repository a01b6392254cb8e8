#!/usr/bin/env bash
# The long version of the reliability suite (issue 7; the fast version runs in `swift test`, under
# Tests/GitJournalTests/Reliability). It drives the built gitjournal binary with real `git commit`
# processes, real SIGKILLs and a loopback model server, and ends with a table: case, tried, passed, data lost.
# "Data lost" counts a commit missing from (or doubled in) the journal, a journal file that is neither its old
# nor its new version, or a user's note that changed. It must be 0.
#
# Bounded in time (SOAK_SECONDS for all the cases; each stops early when the time is up) and in count (the
# numbers below). Everything happens in a temporary folder; the model server listens on 127.0.0.1 only; the
# tmpfs, the processes it started and the folder are removed on exit.
#
#   scripts/soak.sh                        # builds the release binary as install.sh does, runs every case
#   GITJOURNAL_BINARY=/path/to/gitjournal SOAK_KILLS=50 scripts/soak.sh
#   SOAK_CASES="crash_rebuild model" SOAK_KEEP=1 scripts/soak.sh   # some cases; keep the work folder
#
# Needs git and bash; python3 for the model-server case and root for the full-disk case (skipped otherwise).
set -uo pipefail
export LC_ALL=C

SOAK_SECONDS="${SOAK_SECONDS:-900}"
SOAK_REPOS="${SOAK_REPOS:-16}"                     # load: repositories committing at once
SOAK_COMMITS="${SOAK_COMMITS:-50}"                 # load: commits in each
SOAK_KILLS="${SOAK_KILLS:-300}"                    # crash: SIGKILLs of a rebuild rewriting files
SOAK_HOOK_KILLS="${SOAK_HOOK_KILLS:-150}"          # crash: SIGKILLs of the post-commit hook
SOAK_LOCK_KILLS="${SOAK_LOCK_KILLS:-20}"           # crash: writers killed while holding the journal lock
SOAK_FUZZ="${SOAK_FUZZ:-200}"                      # hostile: commits with random-byte messages
SOAK_DISK_CYCLES="${SOAK_DISK_CYCLES:-10}"         # disk: fill the tmpfs, commit, free it, commit
SOAK_MODEL_CYCLES="${SOAK_MODEL_CYCLES:-5}"        # model: server dies mid-answer and comes back
SOAK_RETRY_DELAY="${SOAK_RETRY_DELAY:-3}"          # model: narrative.retryDelay, seconds

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
START=$SECONDS
WORK="$(mktemp -d "${TMPDIR:-/tmp}/gitjournal-soak.XXXXXX")"
MOUNTED=""
STARTED_PIDS=()

say() { printf '%s\n' "$*" >&2; }

cleanup() {
  local pid
  for pid in "${STARTED_PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  kill_narrators
  if [ -n "$MOUNTED" ]; then umount "$MOUNTED" 2>/dev/null || umount -l "$MOUNTED" 2>/dev/null; fi
  if [ -n "${SOAK_KEEP:-}" ]; then say "soak: kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Detached narrators the hooks started (their own session, so not our children): found by their command line
# and the HOME of this soak, and killed by pid.
kill_narrators() {
  local dir pid
  for dir in /proc/[0-9]*; do
    pid="${dir#/proc/}"
    tr '\0' ' ' 2>/dev/null <"$dir/cmdline" | grep -q 'gitjournal narrate' || continue
    tr '\0' '\n' 2>/dev/null <"$dir/environ" | grep -qx "HOME=$WORK/.*" || continue
    kill -KILL "$pid" 2>/dev/null
  done
}

time_left() { [ $((SECONDS - START)) -lt "$SOAK_SECONDS" ]; }

# random_moment MICROSECONDS: a random time from 0 to that many microseconds, as seconds for sleep. Every
# other call picks from the last third only, where the files are written: most of a run is start-up and
# reading the repositories, and the writes must be hit often too.
MOMENTS=0
random_moment() {
  local us=$(((RANDOM * 32768 + RANDOM) % ($1 + 1)))
  MOMENTS=$((MOMENTS + 1))
  [ $((MOMENTS % 2)) -eq 0 ] && us=$(($1 * 2 / 3 + us / 3))
  printf '%d.%06d' $((us / 1000000)) $((us % 1000000))
}

# --- the binary --------------------------------------------------------------------------------------------
if [ -n "${GITJOURNAL_BINARY:-}" ]; then
  BIN="$GITJOURNAL_BINARY"
else
  # Built as ./install.sh builds it (the Swift runtime linked in on Linux).
  static=""
  if [ "$(uname -s)" = Linux ]; then static="--static-swift-stdlib"; fi
  say "soak: building the release binary"
  (cd "$ROOT" && swift build -c release $static --product gitjournal >&2) || exit 1
  BIN="$(cd "$ROOT" && swift build -c release $static --show-bin-path)/gitjournal"
fi
[ -x "$BIN" ] || { say "soak: no gitjournal binary at $BIN"; exit 1; }
GIT="$(command -v git)"

# --- results -------------------------------------------------------------------------------------------------
CASES=()
declare -A TRIED PASSED LOST
record() { # case tried passed lost
  CASES+=("$1"); TRIED[$1]=$2; PASSED[$1]=$3; LOST[$1]=$4
  say "soak: $1: tried $2, passed $3, data lost $4 ($((SECONDS - START)) s)"
}
NOTES=()
SENTENCE_DELAYS=()

# --- a user's machine ------------------------------------------------------------------------------------------
# world NAME: a HOME with a git identity and a gitjournal config (model off) under $WORK/NAME. Its commits are
# authored at one instant (TODAY is its day), so a soak that runs past midnight still fills one day's file.
world() {
  W="$WORK/$1"
  local now
  now=$(date +%s)
  AUTHOR_DATE="@$now +0000"
  TODAY=$(date -u -d "@$now" +%F)
  H="$W/home"
  mkdir -p "$H/.config/gitjournal"
  printf '[user]\n\tname = Soak Tester\n\temail = soak@example.com\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n[commit]\n\tgpgSign = false\n' >"$H/.gitconfig"
  CONFIG="$H/.config/gitjournal/config"
  JOURNAL="$H/journal"
  STATE="$H/.local/state/gitjournal"
  "$GIT" config -f "$CONFIG" narrative.engine off
}

# in_world CMD...: runs CMD with exactly the world's environment (no XDG_*, no GIT_* from outside but the
# world's author date, which `env GIT_AUTHOR_DATE=...` in CMD overrides).
in_world() {
  env -i HOME="$H" PATH="/usr/local/bin:/usr/bin:/bin" GIT_CONFIG_NOSYSTEM=1 GIT_TERMINAL_PROMPT=0 TZ=UTC \
    LANG=C.UTF-8 GIT_AUTHOR_DATE="$AUTHOR_DATE" "$@"
}

new_repo() { # path: git init + gitjournal install
  mkdir -p "$1"
  (cd "$1" && in_world "$GIT" init -q && in_world "$BIN" install >/dev/null) || { say "soak: cannot set up $1"; return 1; }
}

# missing_commits FILE REPO [DAY]: how many of REPO's commits (authored on DAY, UTC, when given) are not
# listed exactly once in FILE. 0 is right. The journal writes each id as (`abc1234`; a backtick in a subject
# is escaped, so no subject can fake one.
missing_commits() {
  local file="$1" repo="$2" day="${3:-}"
  (cd "$repo" && in_world "$GIT" log --format='%H %ad' --date=format-local:%F HEAD) |
    awk -v day="$day" 'day == "" || $2 == day { print substr($1, 1, 7) }' | sort >"$WORK/wanted.ids"
  { grep -o '(`[0-9a-f]\{7\}`' "$file" 2>/dev/null || true; } | cut -c3-9 | sort | uniq -c |
    awk '$1 == 1 { print $2 }' >"$WORK/once.ids"
  comm -23 "$WORK/wanted.ids" "$WORK/once.ids" | wc -l
}

# add_notes FILE: the user's notes above and below the managed block.
NOTE_ABOVE="My notes above the block: call the bank, <b>not html</b>."
NOTE_BELOW="My notes below the block: remember the milk."
add_notes() {
  awk -v above="$NOTE_ABOVE" '/^<!-- gitjournal:begin/ && !done { print above; print ""; done = 1 } { print }' "$1" >"$1.notes" &&
    printf '\n%s\n' "$NOTE_BELOW" >>"$1.notes" && mv "$1.notes" "$1"
}
notes_intact() {
  [ "$(grep -cxF "$NOTE_ABOVE" "$1")" -eq 1 ] && [ "$(tail -n 1 "$1")" = "$NOTE_BELOW" ] &&
    [ "$(grep -c '^<!-- gitjournal:begin' "$1")" -eq 1 ] && [ "$(grep -c '^<!-- gitjournal:end' "$1")" -eq 1 ]
}
temporary_files() { find "$1" -name '*.gitjournal-tmp-*' 2>/dev/null | wc -l; }

# ==== load: many repositories committing at once ============================================================
case_load() {
  world load
  local day="$TODAY" author_date="$AUTHOR_DATE" i
  for i in $(seq 1 "$SOAK_REPOS"); do
    new_repo "$W/code/repo-$i" || return
    (cd "$W/code/repo-$i" && in_world env GIT_AUTHOR_DATE="$author_date" "$GIT" commit -q --allow-empty -m "repo-$i initial")
  done
  add_notes "$JOURNAL/$day.md"
  local pids=() failed=0
  for i in $(seq 1 "$SOAK_REPOS"); do
    (
      cd "$W/code/repo-$i" || exit 1
      for c in $(seq 1 "$SOAK_COMMITS"); do
        echo "$c" >"change-$c.txt"
        in_world "$GIT" add "change-$c.txt" || exit 1
        out=$(in_world env GIT_AUTHOR_DATE="$author_date" "$GIT" commit -q -m "repo-$i commit $c" 2>&1) || exit 1
        [ -z "$out" ] || { echo "$out" >&2; exit 1; }
      done
    ) &
    pids+=($!)
    STARTED_PIDS+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || failed=$((failed + 1)); done
  local total=$((SOAK_REPOS * (SOAK_COMMITS + 1))) lost=0
  for i in $(seq 1 "$SOAK_REPOS"); do
    lost=$((lost + $(missing_commits "$JOURNAL/$day.md" "$W/code/repo-$i")))
  done
  notes_intact "$JOURNAL/$day.md" || lost=$((lost + 1))
  [ "$(temporary_files "$JOURNAL")" -eq 0 ] || failed=$((failed + 1))
  [ ! -e "$STATE/hook.log" ] || failed=$((failed + 1))
  local passed=$((total - lost))
  [ "$failed" -eq 0 ] || passed=0
  record "load: $SOAK_REPOS repos x $SOAK_COMMITS parallel commits" "$total" "$passed" "$lost"
}

# ==== crash: SIGKILL while rewriting journal files ==========================================================
# Six days of commits; each file carries a few KB of the user's notes. Before every run the files are put back
# to an old version (a front-matter value gitjournal owns is stale), so a run rewrites all of them.
case_crash_rebuild() {
  world crash
  local repo="$W/code/app" d c day
  new_repo "$repo" || return
  for d in 05 06 07 08 09 10; do
    for c in 09 11 15; do
      echo "$d$c" >"$repo/f-$d-$c.txt"
      (cd "$repo" && in_world "$GIT" add -A && in_world env GIT_AUTHOR_DATE="2026-01-${d}T$c:00:00Z" \
        "$GIT" -c core.hooksPath=/dev/null commit -q -m "Day $d change $c")
    done
  done
  (cd "$repo" && in_world "$BIN" rebuild --since 2026-01-05 --until 2026-01-10 --no-narrative >/dev/null) || return
  mkdir -p "$W/new" "$W/old"
  for day in "$JOURNAL"/*.md; do
    for c in $(seq 1 100); do echo "Note $c, written by hand, must survive every kill."; done >"$W/notes"
    awk -v notes="$W/notes" '/^<!-- gitjournal:begin/ && !done { while ((getline line < notes) > 0) print line; print ""; done = 1 } { print }' \
      "$day" >"$W/new/${day##*/}"
    sed 's/^commits: 3$/commits: 0/' "$W/new/${day##*/}" >"$W/old/${day##*/}"
    cp "$W/new/${day##*/}" "$day"
  done
  local args=(rebuild --since 2026-01-05 --until 2026-01-10 --no-narrative)
  # How long a whole run takes bounds the moments to kill at.
  cp "$W"/old/*.md "$JOURNAL/"
  local t0 t1 full
  t0=$(date +%s%N); (cd "$repo" && in_world "$BIN" "${args[@]}" >/dev/null); t1=$(date +%s%N)
  full=$(((t1 - t0) / 1000))
  cmp -s "$W/new/2026-01-05.md" "$JOURNAL/2026-01-05.md" || { say "soak: a full rebuild does not give the new files"; return; }

  local kills=0 passed=0 lost=0 attempts=0 mixed=0 leftovers=0 pid status name old new broken
  while [ "$kills" -lt "$SOAK_KILLS" ] && [ "$attempts" -lt $((SOAK_KILLS * 3)) ] && time_left; do
    attempts=$((attempts + 1))
    cp "$W"/old/*.md "$JOURNAL/"
    (cd "$repo" && exec env -i HOME="$H" PATH=/usr/bin:/bin GIT_CONFIG_NOSYSTEM=1 TZ=UTC "$BIN" "${args[@]}" >/dev/null 2>&1) &
    pid=$!
    sleep "$(random_moment "$full")"
    kill -KILL "$pid" 2>/dev/null
    { wait "$pid"; status=$?; } 2>/dev/null
    [ "$status" -eq 137 ] || continue
    kills=$((kills + 1))
    old=0; new=0; broken=0
    for name in "$W"/new/*.md; do
      name="${name##*/}"
      if cmp -s "$JOURNAL/$name" "$W/new/$name"; then new=$((new + 1))
      elif cmp -s "$JOURNAL/$name" "$W/old/$name"; then old=$((old + 1))
      else broken=$((broken + 1)); say "soak: kill $kills left $name partial"; fi
    done
    [ "$old" -gt 0 ] && [ "$new" -gt 0 ] && mixed=$((mixed + 1))
    [ "$(temporary_files "$JOURNAL")" -gt 0 ] && leftovers=$((leftovers + 1))
    # The next run is not blocked by the dead one's lock, finishes the job and removes its leftovers.
    (cd "$repo" && in_world timeout 30 "$BIN" "${args[@]}" >/dev/null 2>&1); status=$?
    local repaired=1
    for name in "$W"/new/*.md; do cmp -s "$JOURNAL/${name##*/}" "$name" || repaired=0; done
    if [ "$broken" -eq 0 ] && [ "$repaired" -eq 1 ] && [ "$status" -eq 0 ] && [ "$(temporary_files "$JOURNAL")" -eq 0 ]; then
      passed=$((passed + 1))
    fi
    [ "$broken" -eq 0 ] && [ "$repaired" -eq 1 ] || lost=$((lost + 1))
  done
  NOTES+=("crash: $kills kills of a rebuild rewriting 6 files: $mixed between two files, $leftovers left a temporary file (all removed by the next run)")
  record "crash: SIGKILL during rebuild" "$kills" "$passed" "$lost"
}

# The post-commit hook itself killed at random moments: the file is the old or the new version, and the next
# hook run journals every commit.
case_crash_hook() {
  world hookkill
  local repo="$W/code/app" day kills=0 passed=0 lost=0 attempts=0 pid status full t0 t1
  new_repo "$repo" || return
  (cd "$repo" && in_world "$GIT" commit -q --allow-empty -m "first")
  day="$TODAY"
  add_notes "$JOURNAL/$day.md"
  # A long page of notes, so that a write cut short cannot go unnoticed and takes long enough to be hit.
  for c in $(seq 1 3000); do echo "Hand-written line $c of a long day, kept whatever happens."; done >"$W/long"
  awk -v notes="$W/long" '/^<!-- gitjournal:begin/ && !done { while ((getline line < notes) > 0) print line; print ""; done = 1 } { print }' \
    "$JOURNAL/$day.md" >"$W/with-long" && mv "$W/with-long" "$JOURNAL/$day.md"
  t0=$(date +%s%N); (cd "$repo" && in_world "$BIN" hook post-commit); t1=$(date +%s%N)
  full=$(((t1 - t0) / 1000))
  while [ "$kills" -lt "$SOAK_HOOK_KILLS" ] && [ "$attempts" -lt $((SOAK_HOOK_KILLS * 3)) ] && time_left; do
    attempts=$((attempts + 1))
    # A commit whose hook does not run: the journal is now one commit behind.
    (cd "$repo" && in_world "$GIT" -c core.hooksPath=/dev/null commit -q --allow-empty -m "hook kill $attempts")
    cp "$JOURNAL/$day.md" "$W/old.md"
    (cd "$repo" && exec env -i HOME="$H" PATH=/usr/bin:/bin GIT_CONFIG_NOSYSTEM=1 TZ=UTC "$BIN" hook post-commit) &
    pid=$!
    sleep "$(random_moment "$full")"
    kill -KILL "$pid" 2>/dev/null
    { wait "$pid"; status=$?; } 2>/dev/null
    cp "$JOURNAL/$day.md" "$W/killed.md"
    # The next hook run (the next commit's) finishes the job.
    (cd "$repo" && in_world timeout 30 "$BIN" hook post-commit)
    local recovered=$?
    [ "$status" -eq 137 ] || continue # it had finished before the signal
    kills=$((kills + 1))
    if ! cmp -s "$W/killed.md" "$W/old.md" && ! cmp -s "$W/killed.md" "$JOURNAL/$day.md"; then
      say "soak: hook kill $kills left a partial file"
      lost=$((lost + 1))
      continue
    fi
    if [ "$recovered" -eq 0 ] && [ "$(missing_commits "$JOURNAL/$day.md" "$repo")" -eq 0 ] && notes_intact "$JOURNAL/$day.md" &&
      [ "$(temporary_files "$JOURNAL")" -eq 0 ]; then
      passed=$((passed + 1))
    else
      lost=$((lost + 1))
    fi
  done
  record "crash: SIGKILL during the post-commit hook" "$kills" "$passed" "$lost"
}

# A process hangs while holding the journal lock (as a gitjournal stopped with Ctrl-Z or hung on a network mount
# would) and is killed: the writer waiting behind it goes on at once.
case_crash_lock() {
  world lock
  local repo="$W/code/app" i passed=0 tried=0 hung waiting t0 t1 status
  new_repo "$repo" || return
  (cd "$repo" && in_world env GIT_AUTHOR_DATE="2026-02-02T10:00:00Z" "$GIT" commit -q --allow-empty -m "day two")
  for i in $(seq 1 "$SOAK_LOCK_KILLS"); do
    time_left || break
    tried=$((tried + 1))
    rm -f "$JOURNAL/2026-02-02.md"
    mkdir -p "$H/.local/state/gitjournal"
    # flock(1) locks a descriptor of the shell, which then becomes sleep: one process holds the lock.
    sh -c 'exec 9>>"$0" && flock 9 && exec sleep 300' "$H/.local/state/gitjournal/journal.lock" &
    hung=$!
    STARTED_PIDS+=("$hung")
    for _ in $(seq 1 500); do flock -n "$H/.local/state/gitjournal/journal.lock" true || break; sleep 0.01; done
    (cd "$repo" && exec env -i HOME="$H" PATH=/usr/bin:/bin GIT_CONFIG_NOSYSTEM=1 TZ=UTC "$BIN" rebuild 2026-02-02 --no-narrative >/dev/null 2>&1) &
    waiting=$!
    STARTED_PIDS+=("$waiting")
    sleep 0.3
    local blocked=0
    kill -0 "$waiting" 2>/dev/null && [ ! -e "$JOURNAL/2026-02-02.md" ] && blocked=1
    t0=$(date +%s%N)
    kill -KILL "$hung"; { wait "$hung"; } 2>/dev/null
    for _ in $(seq 1 500); do kill -0 "$waiting" 2>/dev/null || break; sleep 0.01; done
    t1=$(date +%s%N)
    kill -KILL "$waiting" 2>/dev/null
    { wait "$waiting"; status=$?; } 2>/dev/null
    if [ "$blocked" -eq 1 ] && [ "$status" -eq 0 ] && [ $(((t1 - t0) / 1000000)) -lt 5000 ] && grep -q "day two" "$JOURNAL/2026-02-02.md"; then
      passed=$((passed + 1))
    fi
  done
  record "crash: lock held by a killed writer" "$tried" "$passed" 0
}

# ==== hostile input: random bytes as commit messages ========================================================
case_fuzz() {
  world fuzz
  local repo="$W/code/app" day i passed=0 tried=0 lost=0 out
  new_repo "$repo" || return
  (cd "$repo" && in_world "$GIT" commit -q --allow-empty -m "first")
  day="$TODAY"
  add_notes "$JOURNAL/$day.md"
  for i in $(seq 1 "$SOAK_FUZZ"); do
    time_left || break
    tried=$((tried + 1))
    # Random bytes, NULs removed (git refuses them); often a marker, a fence or HTML mixed in.
    { head -c $((RANDOM % 400 + 1)) /dev/urandom | tr -d '\000'
      case $((RANDOM % 5)) in
        0) printf '\n<!-- gitjournal:end checksum=000000000000 -->\n' ;;
        1) printf -- '---\ndate: 1999-01-01\n---\n' ;;
        2) printf '<script>x</script>\r\n' ;;
      esac; } >"$W/message"
    if [ $((RANDOM % 2)) -eq 0 ]; then { printf 'Subject %s ' "$i"; cat "$W/message"; } >"$W/m2" && mv "$W/m2" "$W/message"; fi
    echo "$i" >"$repo/f.txt"
    out=$(cd "$repo" && in_world "$GIT" add f.txt && in_world "$GIT" commit -q --allow-empty-message --cleanup=verbatim -F "$W/message" 2>&1 | grep -i gitjournal)
    if [ -z "$out" ] && notes_intact "$JOURNAL/$day.md" && [ "$(missing_commits "$JOURNAL/$day.md" "$repo")" -eq 0 ] &&
      iconv -f UTF-8 -t UTF-8 "$JOURNAL/$day.md" >/dev/null 2>&1; then
      passed=$((passed + 1))
    else
      lost=$((lost + 1))
      say "soak: fuzz commit $i broke the journal (${out:-no hook output})"
    fi
  done
  record "hostile: random-byte commit messages" "$tried" "$passed" "$lost"
}

# ==== disk full: a 64 KiB tmpfs as the journal folder ======================================================
case_disk_full() {
  world disk
  local mnt="$W/small" repo="$W/code/app" day i passed=0 tried=0 lost=0
  mkdir -p "$mnt"
  if ! mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
    NOTES+=("disk: skipped, mounting a tmpfs is not permitted here (run as root)")
    return
  fi
  MOUNTED="$mnt"
  "$GIT" config -f "$CONFIG" journal.dir "$mnt/journal"
  JOURNAL="$mnt/journal"
  new_repo "$repo" || return
  (cd "$repo" && in_world "$GIT" commit -q --allow-empty -m "before the disk filled up")
  day="$TODAY"
  add_notes "$JOURNAL/$day.md"
  for i in $(seq 1 "$SOAK_DISK_CYCLES"); do
    time_left || break
    tried=$((tried + 1))
    cp "$JOURNAL/$day.md" "$W/before.md"
    dd if=/dev/zero of="$mnt/filler" bs=1k 2>/dev/null
    local full_ok=1
    (cd "$repo" && in_world "$GIT" commit -q --allow-empty -m "while full $i" 2>/dev/null) || full_ok=0
    cmp -s "$JOURNAL/$day.md" "$W/before.md" || full_ok=0
    grep -q "No space left on device" "$STATE/hook.log" || full_ok=0
    [ "$(temporary_files "$JOURNAL")" -eq 0 ] || full_ok=0
    rm -f "$mnt/filler"
    (cd "$repo" && in_world "$GIT" commit -q --allow-empty -m "after freeing $i")
    if [ "$(missing_commits "$JOURNAL/$day.md" "$repo")" -eq 0 ] && notes_intact "$JOURNAL/$day.md"; then
      [ "$full_ok" -eq 1 ] && passed=$((passed + 1))
    else
      lost=$((lost + 1))
    fi
  done
  umount "$mnt" && MOUNTED=""
  record "disk: full disk (64 KiB tmpfs), commit while full" "$tried" "$passed" "$lost"
}

# ==== model: the server dies in the middle of an answer and comes back =======================================
# The guard keeps only a sentence that says something the facts say: it names the parser the commits are about.
MODEL_SENTENCE="Soak spent the day polishing the parser and keeping the journal tidy."
write_model_server() {
  cat >"$WORK/model-server.py" <<'PY'
# A loopback Ollama for the soak: /api/tags and /api/generate. With MODE_FILE saying "die", it answers the next
# generation with half a response and exits, as a server that crashes mid-answer. Every request body is
# appended to LOG_FILE.
import http.server, json, os, sys
port, mode_file, log_file, sentence = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def reply(self, body, status=200):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def do_GET(self):
        with open(log_file, "a") as log: log.write(json.dumps({"path": self.path, "body": ""}) + "\n")
        if self.path == "/api/tags":
            self.reply(json.dumps({"models": [{"name": "gemma3:4b", "model": "gemma3:4b"}]}).encode())
        else:
            self.reply(b"Ollama is running")
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with open(log_file, "a") as log:
            log.write(json.dumps({"path": self.path, "body": body.decode("utf-8", "replace")}) + "\n")
        answer = json.dumps({"model": "gemma3:4b", "response": sentence, "done": True, "done_reason": "stop"}).encode()
        mode = open(mode_file).read().strip() if os.path.exists(mode_file) else "ok"
        if mode == "die":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer[: len(answer) // 2])
            self.wfile.flush()
            os._exit(3)
        self.reply(answer)

http.server.ThreadingHTTPServer.allow_reuse_address = True
http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
PY
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start_model_server() { # port
  python3 "$WORK/model-server.py" "$1" "$W/mode" "$W/requests.log" "$MODEL_SENTENCE" 2>/dev/null &
  SERVER=$!
  STARTED_PIDS+=("$SERVER")
  for _ in $(seq 1 200); do
    python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $1), 0.2)" 2>/dev/null && return 0
    sleep 0.05
  done
  return 1
}

case_model() {
  command -v python3 >/dev/null || { NOTES+=("model: skipped, python3 is missing"); return; }
  world model
  write_model_server
  local port repo="$W/code/app" secret="$W/code/secret" i tried=0 passed=0 lost=0 idle_tried=0 idle_passed=0
  port=$(free_port)
  new_repo "$repo" || return
  new_repo "$secret" || return
  "$GIT" config -f "$CONFIG" repo.secret.private true
  # An empty repository would be reported as skipped by every hook.
  local r
  for r in "$repo" "$secret"; do
    (cd "$r" && in_world env GIT_AUTHOR_DATE="2026-01-01T10:00:00Z" "$GIT" -c core.hooksPath=/dev/null commit -q --allow-empty -m "start")
  done
  "$GIT" config -f "$CONFIG" narrative.engine ollama
  "$GIT" config -f "$CONFIG" narrative.url "http://127.0.0.1:$port"
  "$GIT" config -f "$CONFIG" narrative.healthTimeout 2
  "$GIT" config -f "$CONFIG" narrative.timeout 5
  "$GIT" config -f "$CONFIG" narrative.retryDelay "$SOAK_RETRY_DELAY"
  # Each cycle is its own past day, so its file starts without a sentence.
  for i in $(seq 1 "$SOAK_MODEL_CYCLES"); do
    time_left || break
    tried=$((tried + 1))
    local day author
    day=$(date -u -d "-$((i + 1)) days" +%F)
    author="${day}T10:00:00Z"
    echo die >"$W/mode"
    start_model_server "$port" || { say "soak: the model server did not start"; return; }
    local server=$SERVER
    (cd "$secret" && in_world env GIT_AUTHOR_DATE="$author" "$GIT" commit -q --allow-empty -m "SECRETSOAK client memo $i")
    (cd "$repo" && in_world env GIT_AUTHOR_DATE="$author" "$GIT" commit -q --allow-empty -m "Polish the parser $i")
    # The narrator the hook started asks for the sentence; the server dies half-way through its answer.
    local waited=0
    while kill -0 "$server" 2>/dev/null && [ "$waited" -lt 200 ]; do sleep 0.05; waited=$((waited + 1)); done
    { wait "$server"; } 2>/dev/null
    local died_at
    died_at=$(date +%s%N)
    echo ok >"$W/mode"
    sleep 0.5
    start_model_server "$port" || return
    # The user goes on working, a commit every two seconds; no one runs narrate or rebuild. Each commit
    # changes the facts, so a sentence shows only once the narrator has caught up with the newest ones.
    local appeared=0 deadline=$((SECONDS + SOAK_RETRY_DELAY + 10)) c=0 poll
    while [ "$SECONDS" -lt "$deadline" ] && [ "$appeared" -eq 0 ]; do
      c=$((c + 1))
      (cd "$repo" && in_world env GIT_AUTHOR_DATE="$author" "$GIT" commit -q --allow-empty -m "More parser polish $i.$c")
      for poll in $(seq 1 20); do
        if grep -qF "$MODEL_SENTENCE" "$JOURNAL/$day.md" 2>/dev/null; then appeared=1; break; fi
        sleep 0.1
      done
    done
    local after_ms=$((($(date +%s%N) - died_at) / 1000000))
    local missing
    missing=$(($(missing_commits "$JOURNAL/$day.md" "$repo" "$day") + $(missing_commits "$JOURNAL/$day.md" "$secret" "$day")))
    if [ "$appeared" -eq 1 ] && [ "$after_ms" -ge $((SOAK_RETRY_DELAY * 1000)) ] && [ "$missing" -eq 0 ]; then
      passed=$((passed + 1))
    fi
    [ "$missing" -eq 0 ] || lost=$((lost + 1))
    if [ "$appeared" -eq 1 ]; then
      say "soak: model cycle $i: the sentence appeared $after_ms ms after the server died (retry delay ${SOAK_RETRY_DELAY} s)"
      SENTENCE_DELAYS+=("$after_ms")
    else
      say "soak: model cycle $i: no sentence within the retry delay + 10 s"
    fi
    kill -KILL "$SERVER" 2>/dev/null; { wait "$SERVER"; } 2>/dev/null
    kill_narrators
  done
  # The same death with nobody committing afterwards: the narrator itself must come back after the pause.
  local idle_delays=() idle_lost=0
  for i in $(seq 1 "$SOAK_MODEL_CYCLES"); do
    time_left || break
    idle_tried=$((idle_tried + 1))
    local day author server
    day=$(date -u -d "-$((SOAK_MODEL_CYCLES + i + 2)) days" +%F)
    author="${day}T10:00:00Z"
    echo die >"$W/mode"
    start_model_server "$port" || return
    server=$SERVER
    (cd "$repo" && in_world env GIT_AUTHOR_DATE="$author" "$GIT" commit -q --allow-empty -m "Last parser polish of day $i")
    local waited=0
    while kill -0 "$server" 2>/dev/null && [ "$waited" -lt 200 ]; do sleep 0.05; waited=$((waited + 1)); done
    { wait "$server"; } 2>/dev/null
    local died_at appeared=0
    died_at=$(date +%s%N)
    echo ok >"$W/mode"
    sleep 0.5
    start_model_server "$port" || return
    local deadline=$((SECONDS + SOAK_RETRY_DELAY + 10))
    while [ "$SECONDS" -lt "$deadline" ]; do
      if grep -qF "$MODEL_SENTENCE" "$JOURNAL/$day.md" 2>/dev/null; then appeared=1; break; fi
      sleep 0.1
    done
    local after_ms=$((($(date +%s%N) - died_at) / 1000000))
    [ "$(missing_commits "$JOURNAL/$day.md" "$repo" "$day")" -eq 0 ] || idle_lost=$((idle_lost + 1))
    if [ "$appeared" -eq 1 ] && [ "$after_ms" -ge $((SOAK_RETRY_DELAY * 1000)) ]; then
      idle_passed=$((idle_passed + 1))
      idle_delays+=("$after_ms")
      say "soak: model idle cycle $i: the sentence appeared $after_ms ms after the server died, with no commit"
    else
      say "soak: model idle cycle $i: no sentence within the retry delay + 10 s, with no commit"
    fi
    kill -KILL "$SERVER" 2>/dev/null; { wait "$SERVER"; } 2>/dev/null
    kill_narrators
  done
  local leaks
  leaks=$(grep -c SECRETSOAK "$W/requests.log")
  local generations
  generations=$(grep -c '"/api/generate"' "$W/requests.log")
  [ "$leaks" -eq 0 ] || lost=$((lost + leaks))
  NOTES+=("model: $generations generation requests captured, $leaks carried a private subject")
  [ "${#SENTENCE_DELAYS[@]}" -eq 0 ] ||
    NOTES+=("model: with commits going on, the sentence appeared $(IFS=/; echo "${SENTENCE_DELAYS[*]}") ms after the server died mid-answer (retry delay ${SOAK_RETRY_DELAY} s)")
  [ "${#idle_delays[@]}" -eq 0 ] ||
    NOTES+=("model: with no commit at all, the sentence appeared $(IFS=/; echo "${idle_delays[*]}") ms after the server died mid-answer")
  record "model: server dies mid-answer, back; commits go on" "$tried" "$passed" "$lost"
  [ "$idle_tried" -eq 0 ] || record "model: server dies mid-answer, back; no commit" "$idle_tried" "$idle_passed" "$idle_lost"
}

say "soak: binary $BIN; work folder $WORK; at most $SOAK_SECONDS s"
for c in ${SOAK_CASES:-load crash_rebuild crash_hook crash_lock fuzz disk_full model}; do
  time_left && "case_$c"
done

total_lost=0
printf '\n%-52s %7s %7s %10s\n' "case" "tried" "passed" "data lost"
for c in "${CASES[@]}"; do
  printf '%-52s %7s %7s %10s\n' "$c" "${TRIED[$c]}" "${PASSED[$c]}" "${LOST[$c]}"
  total_lost=$((total_lost + LOST[$c]))
done
for n in "${NOTES[@]}"; do printf '  * %s\n' "$n"; done
printf '\n%s s on %s (%s cores, %s), %s\n' "$((SECONDS - START))" "$(uname -sr)" "$(nproc)" \
  "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')" "$BIN"
all_passed=1
for c in "${CASES[@]}"; do [ "${PASSED[$c]}" -eq "${TRIED[$c]}" ] || all_passed=0; done
[ "$total_lost" -eq 0 ] && [ "$all_passed" -eq 1 ]
