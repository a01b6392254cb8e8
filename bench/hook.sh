#!/usr/bin/env bash
# How much gitjournal's post-commit hook adds to `git commit`, side by side in one hyperfine run:
#   no hook | an empty #!/bin/sh hook | gitjournal's hook | a do-it-yourself hook running
#   `git log --since=midnight` in each journaled repository, the one committed in included.
# The journal reads REPOS (default 10) repositories of 3,000 commits besides the one committed in, the first ten
# (ACTIVE, default 10) with commits today, the others quiet (see journaled_repos in lib.sh); BIG=1: the last one
# has 100k commits.
# BASELINE=<binary>: a fifth variant, that build's hook in a clone and HOME of its own (the same repositories),
# so that two builds are timed in one run. INTERLEAVE=1: the variants' runs interleaved (bench/interleave.py)
# instead of hyperfine's one command after the other, for a machine whose load changes. MACHINES=<n> (default 1):
# the journal already holds COMMITS (default 40) commits of today made through the hook, and the records of today
# of n-1 other machines sharing the journal folder, each with as many commits of its own (see other_machines).
# Prints hyperfine's table and the ratios the README reports.
source "$(dirname "$0")/lib.sh"
build_release

export HOME="$BENCH/hook-home"
rm -rf "$HOME"; mkdir -p "$HOME"
git config --global user.email me@example.com
git config --global user.name Me
export GIT_CONFIG_NOSYSTEM=1

mapfile -t repos < <(journaled_repos "${REPOS:-10}")
if [ "${BIG:-0}" = 1 ]; then
  make_repo "$BENCH/repos/big" 100000 --seed 99 --branches 8 --days 2000 --files 2000
  repos[${#repos[@]}-1]="$BENCH/repos/big"
fi

# A clone of the first journaled repository to commit in for each variant; gitjournal's install registers its own
# clone beside the REPOS journaled ones.
variants="none empty gitjournal diy${BASELINE:+ baseline}"
for variant in $variants; do
  rm -rf "$BENCH/commit-$variant"
  git clone -q "${repos[0]}" "$BENCH/commit-$variant"
done
printf '#!/bin/sh\n' > "$BENCH/commit-empty/.git/hooks/post-commit"
chmod +x "$BENCH/commit-empty/.git/hooks/post-commit"
# The DIY hook reads what gitjournal's reads: the journaled repositories and the one committed in, which
# `gitjournal install` registers.
{
  echo '#!/bin/sh'
  for repo in "$BENCH/commit-diy" "${repos[@]}"; do echo "git -C '$repo' log --since=midnight --shortstat >/dev/null"; done
} > "$BENCH/commit-diy/.git/hooks/post-commit"
chmod +x "$BENCH/commit-diy/.git/hooks/post-commit"

for repo in "${repos[@]}"; do "$GITJOURNAL" repos add "$repo" >/dev/null; done
(cd "$BENCH/commit-gitjournal" && "$GITJOURNAL" install >/dev/null)
if [ "${MACHINES:-1}" -gt 1 ]; then
  for n in $(seq 1 "${COMMITS:-40}"); do
    (cd "$BENCH/commit-gitjournal" && echo "$n" >> counter && git add counter && git commit -q -m "today $n")
  done
  other_machines "$HOME/journal/.gitjournal" "$(date +%F)" "$MACHINES"
fi
if [ -n "${BASELINE:-}" ]; then
  baseline_home="$BENCH/hook-home-baseline"
  rm -rf "$baseline_home"; mkdir -p "$baseline_home"
  cp "$HOME/.gitconfig" "$baseline_home/"
  for repo in "${repos[@]}"; do HOME="$baseline_home" "$BASELINE" repos add "$repo" >/dev/null; done
  (cd "$BENCH/commit-baseline" && HOME="$baseline_home" "$BASELINE" install >/dev/null)
  if [ "${MACHINES:-1}" -gt 1 ]; then
    for n in $(seq 1 "${COMMITS:-40}"); do
      (cd "$BENCH/commit-baseline" && echo "$n" >> counter && git add counter &&
        HOME="$baseline_home" git commit -q -m "today $n")
    done
    other_machines "$baseline_home/journal/.gitjournal" "$(date +%F)" "$MACHINES"
  fi
fi

commit() { echo "cd '$BENCH/commit-$1' && echo \$RANDOM >> counter && git add counter && git commit -q -m bench"; }
baseline=()
if [ -n "${BASELINE:-}" ]; then
  baseline=(-n "baseline gitjournal hook" "sh -c \"export HOME='$baseline_home' && $(commit baseline)\"")
fi
if [ "${INTERLEAVE:-0}" = 1 ]; then
  # One run of each variant in turn (see interleave.py): on a shared machine the ratios then hold.
  variant_args=(
    "no hook" "$(commit none)" "empty hook" "$(commit empty)" "gitjournal hook" "$(commit gitjournal)"
    "diy git-log hook" "$(commit diy)"
  )
  if [ -n "${BASELINE:-}" ]; then
    variant_args+=("baseline gitjournal hook" "export HOME='$baseline_home' && $(commit baseline)")
  fi
  python3 "$BENCH_ROOT/interleave.py" "${RUNS:-60}" "${variant_args[@]}" | tee "$BENCH/hook.tsv"
  python3 - "$BENCH/hook.tsv" <<'PY'
import sys
ms = dict((name, float(value)) for name, value in (line.rstrip("\n").split("\t") for line in open(sys.argv[1])))
empty, ours, diy = ms["empty hook"], ms["gitjournal hook"], ms["diy git-log hook"]
print(f"gitjournal / empty hook = {ours/empty:.2f}x (target <= 2.0x); gitjournal / diy = {ours/diy:.2f}x (target <= 1.0x)")
if "baseline gitjournal hook" in ms:
    base = ms["baseline gitjournal hook"]
    print(f"baseline / empty hook = {base/empty:.2f}x; gitjournal / baseline = {ours/base:.2f}x")
PY
  exit 0
fi
hyperfine -N --warmup 5 --runs "${RUNS:-60}" --export-json "$BENCH/hook.json" \
  -n "no hook" "sh -c \"$(commit none)\"" \
  -n "empty hook" "sh -c \"$(commit empty)\"" \
  -n "gitjournal hook" "sh -c \"$(commit gitjournal)\"" \
  -n "diy git-log hook" "sh -c \"$(commit diy)\"" \
  "${baseline[@]}"

python3 - "$BENCH/hook.json" <<'PY'
import json, sys
results = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
empty, ours, diy = results["empty hook"], results["gitjournal hook"], results["diy git-log hook"]
print(f"median ms: no hook {results['no hook']*1000:.1f}, empty hook {empty*1000:.1f}, "
      f"gitjournal {ours*1000:.1f}, diy {diy*1000:.1f}")
print(f"gitjournal / empty hook = {ours/empty:.2f}x (target <= 2.0x); gitjournal / diy = {ours/diy:.2f}x (target <= 1.0x)")
if "baseline gitjournal hook" in results:
    base = results["baseline gitjournal hook"]
    print(f"baseline {base*1000:.1f} ms: baseline / empty hook = {base/empty:.2f}x; gitjournal / baseline = {ours/base:.2f}x")
PY
test -s "$HOME/journal/$(date +%F).md" && echo "journal file written: $HOME/journal/$(date +%F).md"
