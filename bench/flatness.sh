#!/usr/bin/env bash
# Whether the hook is flat in the number of journaled repositories: bench/instructions.sh's world with 1 and with
# REPOS (default 100) repositories (ACTIVE=1: one of them with commits today besides the committing clone, whose
# day already holds 40 commits made through the hook), first their instructions (callgrind), then wall times of
# `gitjournal hook post-commit`, every build and world in turn and without a shell (bench/flatness.py):
#   after a commit:  right after one new commit made with hooks off (RUNS rounds, default 50; each adds a commit)
#   nothing new:     again with nothing changed, every repository answered from its stored read (6 x RUNS rounds)
# GITJOURNAL=<binary> measures that build instead of this tree's; BASELINE=<binary> times a second build in the same
# rounds and worlds (each build keeps its own caches when their formats differ). Copy both binaries afresh before a
# run: a binary written long ago starts measurably slower here than a fresh copy of the same file.
source "$(dirname "$0")/lib.sh"
build_release
worlds=()
for count in 1 "${REPOS:-100}"; do
  world="$BENCH/flatness-$count"
  echo "== $count journaled $( [ "$count" = 1 ] && echo repository || echo repositories )"
  BENCH_WORK="$world" REPOS="$count" ACTIVE=1 HOOK_ONLY=1 GITJOURNAL="$GITJOURNAL" "$BENCH_ROOT/instructions.sh"
  worlds+=("$world")
done
python3 "$BENCH_ROOT/flatness.py" "${RUNS:-50}" "${worlds[@]}" -- "$GITJOURNAL" ${BASELINE:+"$BASELINE"}
