#!/bin/sh
# Builds gitjournal in release mode and installs it into ${PREFIX:-~/.local}/bin.
# Installs what the build needs when it is missing: libgit2's development files and pkg-config
# (apt on Debian/Ubuntu, Homebrew on macOS). Safe to run again.
set -eu

cd "$(dirname "$0")"
PREFIX="${PREFIX:-$HOME/.local}"
BIN="$PREFIX/bin"

say() { printf 'install.sh: %s\n' "$*"; }

install_dependencies() {
  if pkg-config --exists libgit2 2>/dev/null; then
    say "libgit2 and pkg-config are present"
    return
  fi
  case "$(uname -s)" in
    Linux)
      if ! command -v apt-get >/dev/null 2>&1; then
        say "please install libgit2's development package and pkg-config with your package manager, then run me again"
        exit 1
      fi
      SUDO=""
      if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
      say "installing libgit2-dev and pkg-config with apt-get"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libgit2-dev pkg-config
      ;;
    Darwin)
      if ! command -v brew >/dev/null 2>&1; then
        say "please install Homebrew (https://brew.sh), then run me again"
        exit 1
      fi
      say "installing libgit2 and pkg-config with brew"
      brew install libgit2 pkg-config
      ;;
    *)
      say "unsupported system $(uname -s): install libgit2 and pkg-config yourself, then run me again"
      exit 1
      ;;
  esac
}

install_dependencies

if ! command -v swift >/dev/null 2>&1; then
  say "no Swift toolchain on PATH: install Swift 6 or later from swift.org, then run me again"
  exit 1
fi

# On Linux the Swift runtime is linked in: the binary starts in a few milliseconds (it runs on every commit)
# and keeps working when the toolchain is upgraded or removed.
static=""
if [ "$(uname -s)" = Linux ]; then static="--static-swift-stdlib"; fi
say "building gitjournal (release)"
swift build -c release $static --product gitjournal
built="$(swift build -c release $static --show-bin-path)/gitjournal"

mkdir -p "$BIN"
# Copy then rename, so a hook running during the install never sees a half-written binary.
cp "$built" "$BIN/.gitjournal.new"
chmod 755 "$BIN/.gitjournal.new"
mv -f "$BIN/.gitjournal.new" "$BIN/gitjournal"
say "installed $BIN/gitjournal ($("$BIN/gitjournal" --version))"

case ":$PATH:" in
  *":$BIN:"*) ;;
  *) say "warning: $BIN is not on your PATH; add  export PATH=\"$BIN:\$PATH\"  to your shell's profile" ;;
esac
