#!/usr/bin/env bash
# Full-history rebuild against `git log --branches --no-merges --shortstat -M100%` on the same repository,
# side by side in one hyperfine run: cold (no caches), then a second identical rebuild (stats cached).
# Also peak memory (/usr/bin/time) and a day-by-day check that the numbers equal git log's.
#
# Repository: REAL_REPO=/path/to/repo (e.g. a clone of libgit2 with its pull requests as branches), else a
# generated one of 20,000 commits on 2,000 branches (made once under bench/work). A clone's index and working tree
# must hold no .gitattributes (`git read-tree --empty`): git log applies them (binary files count no lines),
# gitjournal reads history only.
# BASELINE=<binary>: that build's cold and second rebuilds too, in the same hyperfine run, with a HOME of its own.
# INTERLEAVE=1: one run of each command in turn (bench/interleave.py) instead of hyperfine's runs of one command
# after the other: hyperfine times this build's cold runs first, and on a machine whose load changes, interleaved
# runs give both builds the same machine. SETTLE=<seconds>: the wait before the timed runs (see below).
source "$(dirname "$0")/lib.sh"
build_release

if [ -n "${REAL_REPO:-}" ]; then
  repo="$REAL_REPO"
else
  repo="$BENCH/repos/history-20k"
  make_repo "$repo" 20000 --seed 7 --branches 2000 --days 2500 --files 1500
fi

export HOME="$BENCH/rebuild-home" TZ=UTC GIT_CONFIG_NOSYSTEM=1
rm -rf "$HOME"; mkdir -p "$HOME"
"$GITJOURNAL" repos add "$repo" >/dev/null
first=$(git -C "$repo" log --branches --format=%ad --date=format:%Y-%m-%d | sort | sed -n 1p)
branches=$(git -C "$repo" for-each-ref refs/heads | wc -l)
commits=$(git -C "$repo" rev-list --branches --no-merges | wc -l)
echo "repository: $repo ($commits non-merge commits on $branches branches, since $first)"

gitlog="git -C '$repo' log --branches --no-merges --shortstat -M100%"
rebuild="'$GITJOURNAL' rebuild --since $first --all-authors --no-narrative"
# A cold run starts without caches or journal. The previous run's files are moved aside, not deleted: on an
# ext4 file system without a journal (as on some VMs), creating thousands of files seconds after deleting
# thousands makes the kernel step over every recently freed inode (`recently_deleted`), which costs the
# benchmark seconds that a user's rebuild does not pay. They are deleted after the timed runs.
trash="$BENCH/rebuild-trash"
rm -rf "$trash"; mkdir -p "$trash"
set_aside="n=\$(date +%s%N); mkdir '$trash/'\$n; mv '$HOME/.cache' '$HOME/journal' '$trash/'\$n/ 2>/dev/null; true"
baseline=()
if [ -n "${BASELINE:-}" ]; then
  baseline_home="$BENCH/rebuild-home-baseline"
  rm -rf "$baseline_home"; mkdir -p "$baseline_home"
  HOME="$baseline_home" "$BASELINE" repos add "$repo" >/dev/null
  baseline_rebuild="HOME='$baseline_home' '$BASELINE' rebuild --since $first --all-authors --no-narrative"
  baseline_aside="n=\$(date +%s%N); mkdir '$trash/'\$n; mv '$baseline_home/.cache' '$baseline_home/journal' '$trash/'\$n/ 2>/dev/null; true"
  baseline=(--prepare "$baseline_aside" -n "baseline rebuild (cold)" "$baseline_rebuild"
    --prepare "true" -n "baseline rebuild (again)" "$baseline_rebuild")
fi
# This machine's ext4 has no journal: for a minute or so after thousands of files are deleted (the previous run's
# journals, the test suite's folders), making a file steps over every inode freed meanwhile (`recently_deleted`),
# and a cold rebuild, which makes thousands, then runs 30% to 60% slower, more so the sooner it runs. The timed runs
# wait for the file system to settle first (SETTLE seconds, default 60; 0 to skip).
sleep "${SETTLE:-60}"
# The medians, a line `<name>\t<milliseconds>` each, whichever way they were timed.
if [ "${INTERLEAVE:-0}" = 1 ]; then
  # The set-aside (two renames) is timed with the cold rebuild it prepares: well under a millisecond.
  commands=("git log" "$gitlog >/dev/null" "gitjournal rebuild (cold)" "$set_aside; $rebuild >/dev/null"
    "gitjournal rebuild (again)" "$rebuild >/dev/null")
  if [ -n "${BASELINE:-}" ]; then
    commands+=("baseline rebuild (cold)" "$baseline_aside; $baseline_rebuild >/dev/null"
      "baseline rebuild (again)" "$baseline_rebuild >/dev/null")
  fi
  python3 "$BENCH_ROOT/interleave.py" "${RUNS:-3}" "${commands[@]}" > "$BENCH/rebuild.tsv"
else
  hyperfine --warmup 1 --runs "${RUNS:-3}" --export-json "$BENCH/rebuild.json" \
    --prepare "true" -n "git log" "$gitlog" \
    --prepare "$set_aside" -n "gitjournal rebuild (cold)" "$rebuild" \
    --prepare "true" -n "gitjournal rebuild (again)" "$rebuild" \
    "${baseline[@]}"
  python3 - "$BENCH/rebuild.json" > "$BENCH/rebuild.tsv" <<'PY'
import json, sys
for result in json.load(open(sys.argv[1]))["results"]:
    print(result["command"] + "\t" + format(result["median"] * 1000, ".1f"))
PY
fi
rm -rf "$trash"

echo
echo "peak memory (max RSS):"
/usr/bin/time -f "  git log: %M KB" sh -c "$gitlog" >/dev/null
rm -rf "$HOME/.cache" "$HOME/journal"
/usr/bin/time -f "  gitjournal rebuild (cold): %M KB" sh -c "$rebuild" >/dev/null
if [ -n "${BASELINE:-}" ]; then
  rm -rf "$baseline_home/.cache" "$baseline_home/journal"
  /usr/bin/time -f "  baseline rebuild (cold): %M KB" sh -c "$baseline_rebuild" >/dev/null
fi

python3 - "$BENCH/rebuild.tsv" <<'PY'
import sys
results = {}
for line in open(sys.argv[1]):
    name, milliseconds = line.rstrip("\n").split("\t")
    results[name] = float(milliseconds) / 1000
git, cold, again = results["git log"], results["gitjournal rebuild (cold)"], results["gitjournal rebuild (again)"]
print(f"median s: git log {git:.2f}, rebuild cold {cold:.2f}, rebuild again {again:.2f}")
print(f"cold rebuild / git log = {cold/git:.2f}x; second / first rebuild = {again/cold:.3f}x")
if "baseline rebuild (cold)" in results:
    base_cold, base_again = results["baseline rebuild (cold)"], results["baseline rebuild (again)"]
    print(f"baseline: cold {base_cold:.2f} ({base_cold/git:.2f}x git log), again {base_again:.2f} ({base_again/base_cold:.3f}x)")
    print(f"this build / baseline: cold {cold/base_cold:.2f}x, again {again/base_again:.2f}x")
PY

echo
echo "same numbers as git log, day by day:"
python3 "$BENCH_ROOT/compare-with-git-log.py" "$repo" "$HOME/journal"
if [ -n "${BASELINE:-}" ]; then
  # Both builds' files after their cold rebuilds, byte for byte, and this build's again after a second one.
  for run in cold again; do
    [ "$run" = again ] && "$GITJOURNAL" rebuild --since "$first" --all-authors --no-narrative >/dev/null 2>&1
    diff -r "$baseline_home/journal" "$HOME/journal" >/dev/null && echo "journal folder after $run rebuild: identical to the baseline's" ||
      { echo "journal folder after $run rebuild: differs from the baseline's"; exit 1; }
  done
fi
