#!/usr/bin/env bash
# What the global hook (`install --global`, with automatic registration) adds to `git commit`, side by side in one
# hyperfine run with a repository's own hook, in bench/hook.sh's world (10 journaled repositories of 3,000 commits):
#   empty hook | gitjournal's own hook (install) | the global hook, registered repository |
#   the global hook, first commit (each run registers the repository anew) | [MAIN=<binary>: main's own hook]
# and, with valgrind, the instructions of `gitjournal hook post-commit` against `... --global` in a repository that is
# registered. The global variants commit with GIT_CONFIG_GLOBAL naming a git config of their own.
# GITJOURNAL=<binary> measures that binary instead of building this tree's.
source "$(dirname "$0")/lib.sh"
build_release

export HOME="$BENCH/global-home" GIT_CONFIG_NOSYSTEM=1 SWIFT_DETERMINISTIC_HASHING=1
rm -rf "$HOME"; mkdir -p "$HOME"
git config --global user.email me@example.com
git config --global user.name Me
cp "$HOME/.gitconfig" "$BENCH/global.gitconfig"

repos=()
for i in $(seq 1 10); do
  make_repo "$BENCH/repos/r$i" 3000 --seed "$i" --branches 4 --days 200
  repos+=("$BENCH/repos/r$i")
done
for repo in "${repos[@]}"; do "$GITJOURNAL" repos add "$repo" >/dev/null; done

variants=(empty own global first)
[ -n "${MAIN:-}" ] && variants+=(main)
for variant in "${variants[@]}"; do
  rm -rf "$BENCH/commit-$variant"
  git clone -q "$BENCH/repos/r1" "$BENCH/commit-$variant"
done
printf '#!/bin/sh\n' > "$BENCH/commit-empty/.git/hooks/post-commit"
chmod +x "$BENCH/commit-empty/.git/hooks/post-commit"
(cd "$BENCH/commit-own" && "$GITJOURNAL" install >/dev/null)
[ -n "${MAIN:-}" ] && (cd "$BENCH/commit-main" && "$MAIN" install >/dev/null)
GIT_CONFIG_GLOBAL="$BENCH/global.gitconfig" "$GITJOURNAL" install --global >/dev/null
config="$HOME/.config/gitjournal/config"

commit() { echo "cd '$BENCH/commit-$1' && echo \$RANDOM >> counter && git add counter && git commit -q -m bench"; }
global() { echo "env GIT_CONFIG_GLOBAL='$BENCH/global.gitconfig' sh -c \"$(commit "$1")\""; }
# The first-commit variant forgets its registration before each run (git config exits 5 when there is none).
forget="sh -c \"git config -f '$config' --remove-section repo.commit-first 2>/dev/null; true\""
names=(-n "empty hook" -n "own hook" -n "global hook" -n "global hook, first commit")
commands=("sh -c \"$(commit empty)\"" "sh -c \"$(commit own)\"" "$(global global)" "$(global first)")
prepares=(--prepare true --prepare true --prepare true --prepare "$forget")
if [ -n "${MAIN:-}" ]; then
  names+=(-n "main, own hook"); commands+=("sh -c \"$(commit main)\""); prepares+=(--prepare true)
fi
args=()
for index in "${!commands[@]}"; do args+=("${names[$((index * 2))]}" "${names[$((index * 2 + 1))]}" "${commands[$index]}"); done
hyperfine -N --warmup 5 --runs "${RUNS:-40}" --export-json "$BENCH/global-hook.json" "${prepares[@]}" "${args[@]}"
git config -f "$config" --get-all repo.commit-global.path >/dev/null || { echo "bench: not registered" >&2; exit 1; }

python3 - "$BENCH/global-hook.json" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
empty = r["empty hook"]
for name, median in r.items():
    print(f"{name}: {median*1000:.1f} ms, {median/empty:.2f}x the empty hook")
print(f"global / own hook = {r['global hook']/r['own hook']:.2f}x; "
      f"first commit / own hook = {r['global hook, first commit']/r['own hook']:.2f}x")
PY

if command -v valgrind >/dev/null; then
  strip -g -o "$BENCH/gitjournal-global-measured" "$GITJOURNAL"
  measured="$BENCH/gitjournal-global-measured"
  count() { # count <folder> <arguments...>
    local folder="$1"; shift
    (cd "$folder" && valgrind --tool=callgrind --callgrind-out-file=/dev/null "$measured" "$@" 2>&1 >/dev/null) |
      sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | awk '{ printf "%.1f M", $1 / 1e6 }'
  }
  echo "instructions, own hook: $(count "$BENCH/commit-own" hook post-commit --config "$config")"
  echo "instructions, global hook: $(count "$BENCH/commit-global" hook post-commit --global --config "$config")"
fi
