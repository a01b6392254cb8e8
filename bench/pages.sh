#!/usr/bin/env bash
# How much the day links and the week and month pages add to the hook (issue 16): the hook with them on (the
# default) and off. Wall times side by side in one hyperfine run, then callgrind instruction counts alternating.
# The world: 10 generated repositories of 3,000 commits, two clones of the first to commit in, each journaled
# with the 10 under its own config and journal, the last 7 days rebuilt first.
source "$(dirname "$0")/lib.sh"
build_release
export HOME="$BENCH/pages-home" GIT_CONFIG_NOSYSTEM=1
rm -rf "$HOME"; mkdir -p "$HOME"
git config --global user.email me@example.com
git config --global user.name Me
for i in $(seq 1 10); do make_repo "$BENCH/repos/r$i" 3000 --seed "$i" --branches 4 --days 200; done
for variant in on off; do
  rm -rf "$BENCH/commit-pages-$variant" "$BENCH/journal-$variant"
  git clone -q "$BENCH/repos/r1" "$BENCH/commit-pages-$variant"
  config="$BENCH/pages-$variant.config"
  rm -f "$config"
  git config -f "$config" journal.dir "$BENCH/journal-$variant"
  git config -f "$config" narrative.engine off
  if [ "$variant" = off ]; then
    git config -f "$config" journal.links false
    git config -f "$config" journal.weekly false
    git config -f "$config" journal.monthly false
  fi
  for i in $(seq 1 10); do GITJOURNAL_CONFIG="$config" "$GITJOURNAL" repos add "$BENCH/repos/r$i" >/dev/null; done
  (cd "$BENCH/commit-pages-$variant" && GITJOURNAL_CONFIG="$config" "$GITJOURNAL" install >/dev/null)
  # A few days of the week already journaled, as on a Thursday.
  (cd "$BENCH/commit-pages-$variant" && GITJOURNAL_CONFIG="$config" "$GITJOURNAL" rebuild --since -6 >/dev/null)
done
commit() { echo "cd '$BENCH/commit-pages-$1' && echo \$RANDOM >> counter && git add counter && git commit -q -m bench"; }
hyperfine -N --warmup 5 --runs "${RUNS:-60}" --export-json "$BENCH/pages.json" \
  -n "hook, pages off" "sh -c \"$(commit off)\"" \
  -n "hook, pages on" "sh -c \"$(commit on)\""
ls "$BENCH/journal-on" | tail -4

# Instructions (callgrind) of one hook run after one commit, three times each, alternating.
strip -g -o "$BENCH/gitjournal-pages" "$GITJOURNAL"
for round in 1 2 3; do
  for variant in off on; do
    clone="$BENCH/commit-pages-$variant"
    echo "$round" >> "$clone/counter"; git -C "$clone" add counter
    git -C "$clone" -c core.hooksPath=/dev/null commit -q -m "measured $round"
    n=$(cd "$clone" && GITJOURNAL_CONFIG="$BENCH/pages-$variant.config" valgrind --tool=callgrind \
      --callgrind-out-file=/dev/null "$BENCH/gitjournal-pages" hook post-commit 2>&1 >/dev/null |
      sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    echo "instructions, pages $variant, round $round: $n"
  done
done
