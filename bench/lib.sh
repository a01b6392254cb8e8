# Shared helpers for the benchmark scripts. Source it; it sets BENCH (a work folder under bench/work).
set -euo pipefail
BENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PROJECT="$(dirname "$BENCH_ROOT")"
BENCH="${BENCH_WORK:-$BENCH_ROOT/work}"
mkdir -p "$BENCH"

# make_repo DIR COMMITS [make-repo.py options...]: a generated repository, made once and reused.
make_repo() {
  local dir="$1"; shift
  if [ ! -d "$dir/.git" ]; then
    git init -q -b main "$dir"
    python3 "$BENCH_ROOT/make-repo.py" "$@" | git -C "$dir" fast-import --quiet
    git -C "$dir" checkout -q -f main
    git -C "$dir" config user.email me@example.com
    git -C "$dir" config user.name Me
  fi
}

# journaled_repos N: the paths of N generated repositories of 3,000 commits, one a line. The first ACTIVE (default
# 10, at most 10) of them, r1..r10, each have 7 commits today (one every 96 minutes, up to noon) whatever the time
# the benchmark runs, so that a day's measurements meet the same work (they are made again on another day). The
# others are quiet (nothing in the last three days): clones of ten generated repositories, so that a hundred take
# minutes to make, not a quarter of an hour.
journaled_repos() {
  local count="$1" active="${ACTIVE:-10}" i today noon
  today=$(date +%F)
  noon=$(date -d "$today 12:00" +%s)
  for i in $(seq 1 "$count"); do
    if [ "$i" -le "$active" ] && [ "$i" -le 10 ]; then
      if [ "$(cat "$BENCH/repos/r$i.day" 2>/dev/null)" != "$today" ]; then
        rm -rf "$BENCH/repos/r$i"
        make_repo "$BENCH/repos/r$i" 3000 --seed "$i" --branches 4 --days 200 --end "$noon" >&2
        echo "$today" > "$BENCH/repos/r$i.day"
      fi
      echo "$BENCH/repos/r$i"
    else
      local base="$BENCH/repos/quiet$(( (i - 1) % 10 + 1 ))"
      make_repo "$base" 3000 --seed "$(( 100 + (i - 1) % 10 ))" --branches 4 --days 200 \
        --end "$(( $(date +%s) - 3 * 86400 ))" >&2
      [ -d "$BENCH/repos/q$i/.git" ] || git clone -q "$base" "$BENCH/repos/q$i" >&2
      echo "$BENCH/repos/q$i"
    fi
  done
}

# other_machines RECORDS DAY N: beside this machine's record of DAY in the folder of day records RECORDS, the records
# of N-1 other machines writing the same journal, each a copy of this machine's with other commit ids (the same
# projects, subjects and counts), as a synced journal folder holds them. N <= 1 adds none.
other_machines() {
  [ "$3" -gt 1 ] || return 0
  python3 - "$1" "$2" "$3" <<'PYTHON'
import hashlib, os, sys
root, day, machines = sys.argv[1], sys.argv[2], int(sys.argv[3])
own = [name for name in os.listdir(root) if os.path.isfile(os.path.join(root, name, day + ".tsv"))][0]
lines = open(os.path.join(root, own, day + ".tsv"), encoding="utf-8").read().splitlines(keepends=True)
for k in range(1, machines):
    out = []
    for line in lines:
        fields = line.split("\t")
        if fields[0] == "commit":
            fields[1] = hashlib.sha1(f"{k}:{fields[1]}".encode()).hexdigest()
        out.append("\t".join(fields))
    os.makedirs(os.path.join(root, f"machine-{k}"), exist_ok=True)
    with open(os.path.join(root, f"machine-{k}", day + ".tsv"), "w", encoding="utf-8") as file:
        file.write("".join(out))
PYTHON
}

# The release binary, built with the Swift runtime linked in (as install.sh builds it). GITJOURNAL=<binary>
# measures that binary instead (another commit's build, side by side with this one's).
build_release() {
  if [ -n "${GITJOURNAL:-}" ]; then return; fi
  (cd "$PROJECT" && swift build -c release --static-swift-stdlib --product gitjournal >&2)
  GITJOURNAL="$(cd "$PROJECT" && swift build -c release --static-swift-stdlib --show-bin-path)/gitjournal"
}

command -v hyperfine >/dev/null || { echo "bench: hyperfine is missing (apt-get install hyperfine)" >&2; exit 1; }
