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

# The release binary, built with the Swift runtime linked in (as install.sh builds it). GITJOURNAL=<binary>
# measures that binary instead (another commit's build, side by side with this one's).
build_release() {
  if [ -n "${GITJOURNAL:-}" ]; then return; fi
  (cd "$PROJECT" && swift build -c release --static-swift-stdlib --product gitjournal >&2)
  GITJOURNAL="$(cd "$PROJECT" && swift build -c release --static-swift-stdlib --show-bin-path)/gitjournal"
}

command -v hyperfine >/dev/null || { echo "bench: hyperfine is missing (apt-get install hyperfine)" >&2; exit 1; }
