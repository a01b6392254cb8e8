#!/usr/bin/env bash
# Instructions executed (callgrind), the figure that repeats on a shared machine where wall times do not:
#   hook, unchanged:  `gitjournal hook post-commit` again with nothing changed (every record from the caches)
#   hook, 1 commit:   the hook after one new commit in the committing repository (three commits, each shown)
#   rebuild cold:     `rebuild` of one 3,000-commit repository's whole history with no caches
#   rebuild again:    the same rebuild a second time (statistics cached, the history cache answers)
#   rebuild after a commit: the rebuild again after one more commit (the history cache misses, statistics cached)
# The world is bench/hook.sh's: REPOS (default 10) journaled repositories of 3,000 commits (ACTIVE of them with
# commits today, see journaled_repos in lib.sh), committing in a clone of the first, whose day already holds COMMITS
# (default 40) commits made through the hook. Commits get fixed times of today, so two builds measured the same day
# meet the same work.
# GITJOURNAL=<binary> measures that binary instead of building this tree's; HOOK_ONLY=1 leaves out the rebuild;
# ENGINE=<engine> sets narrative.engine (off: no model, as a user without one; the default config says ollama).
# PROFILE=<folder> keeps each measurement's callgrind profile there (for callgrind_annotate), in the order made.
# MACHINES=<n> (default 1) puts the records of today of n-1 other machines writing the same journal beside this
# one's, each with COMMITS commits of its own in projects of the same names (a build before issue 20 ignores them).
source "$(dirname "$0")/lib.sh"
build_release
command -v valgrind >/dev/null || { echo "bench: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
# Debian 12's valgrind gives up on the debug information of the multi-target build ("possibly corrupted
# debuginfo file"); a copy without it runs the same instructions.
strip -g -o "$BENCH/gitjournal-measured" "$GITJOURNAL"
if [ -n "${PROFILE:-}" ]; then mkdir -p "$PROFILE"; PROFILE="$(cd "$PROFILE" && pwd)"; fi
GITJOURNAL="$BENCH/gitjournal-measured"

export HOME="$BENCH/instructions-home" GIT_CONFIG_NOSYSTEM=1 SWIFT_DETERMINISTIC_HASHING=1
rm -rf "$HOME"; mkdir -p "$HOME"
git config --global user.email me@example.com
git config --global user.name Me

mapfile -t repos < <(journaled_repos "${REPOS:-10}")
clone="$BENCH/commit-instructions"
rm -rf "$clone"
git clone -q "${repos[0]}" "$clone"
for repo in "${repos[@]}"; do "$GITJOURNAL" repos add "$repo" >/dev/null; done
if [ -n "${ENGINE:-}" ]; then git config -f "$HOME/.config/gitjournal/config" narrative.engine "$ENGINE"; fi
(cd "$clone" && "$GITJOURNAL" install >/dev/null)

today=$(date +%F)
n=0
commit() { # commit [git options...]: one more commit at a fixed time of today
  n=$((n + 1))
  local at; at="$today $(printf '12:%02d:%02d' $((n / 60)) $((n % 60)))"
  echo "$n" >> "$clone/counter"
  git -C "$clone" add counter
  GIT_AUTHOR_DATE="$at" GIT_COMMITTER_DATE="$at" git -C "$clone" "$@" commit -q -m "bench $n"
}
for _ in $(seq 1 "${COMMITS:-40}"); do commit; done
other_machines "$HOME/journal/.gitjournal" "$today" "${MACHINES:-1}"

instructions() { # instructions <folder> <gitjournal arguments...>
  local folder="$1" out=/dev/null; shift
  if [ -n "${PROFILE:-}" ]; then out="$PROFILE/callgrind.$(date +%s%N)"; fi
  (cd "$folder" && valgrind --tool=callgrind --callgrind-out-file="$out" "$GITJOURNAL" "$@" 2>&1 >/dev/null) |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
millions() { awk -v n="$1" 'BEGIN { printf "%.1f M", n / 1e6 }'; }

(cd "$clone" && "$GITJOURNAL" hook post-commit >/dev/null 2>&1) || true
echo "hook, unchanged: $(millions "$(instructions "$clone" hook post-commit)")"
for _ in 1 2 3; do
  commit -c core.hooksPath=/dev/null
  echo "hook, 1 commit: $(millions "$(instructions "$clone" hook post-commit)")"
done

[ "${HOOK_ONLY:-0}" = 1 ] && exit 0

# The rebuild reads one repository only: a config of its own.
export HOME="$BENCH/instructions-rebuild-home"
rm -rf "$HOME"; mkdir -p "$HOME"
make_repo "$BENCH/repos/r2" 3000 --seed 2 --branches 4 --days 200
"$GITJOURNAL" repos add "$BENCH/repos/r2" >/dev/null
first=$(git -C "$BENCH/repos/r2" log --branches --format=%ad --date=format:%Y-%m-%d | sort | sed -n 1p)
echo "rebuild cold: $(millions "$(instructions "$HOME" rebuild --since "$first" --all-authors --no-narrative)")"
echo "rebuild again: $(millions "$(instructions "$HOME" rebuild --since "$first" --all-authors --no-narrative)")"
# One more commit, on a branch of its own (made with plumbing, so the working tree stays as it is): a reference
# moved, so the history cache misses and the rebuild walks again, taking the statistics of the 3,000 commits from
# the statistics cache. The branch is removed afterwards; its commit is the same object at every run.
r2="$BENCH/repos/r2"
last=$(git -C "$r2" log -1 --format=%ad --date=iso-strict main)
extra=$(GIT_AUTHOR_DATE="$last" GIT_COMMITTER_DATE="$last" git -C "$r2" commit-tree -p main -m "One more" "main^{tree}")
git -C "$r2" update-ref refs/heads/bench-extra "$extra"
echo "rebuild after a commit: $(millions "$(instructions "$HOME" rebuild --since "$first" --all-authors --no-narrative)")"
git -C "$r2" update-ref -d refs/heads/bench-extra
