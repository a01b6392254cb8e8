#!/bin/sh
# Builds gitjournal in release mode and installs it into ${PREFIX:-~/.local}/bin, with its shell completions and
# its manual page where bash-completion, zsh, fish and man look for them. Installs what the build needs when it is
# missing: libgit2's and libdeflate's development files and pkg-config (apt on Debian/Ubuntu, Homebrew on macOS).
# Safe to run again.
#
#   ./install.sh               build and install
#   ./install.sh --uninstall   remove exactly what the last install put in place (its manifest says what)
#
# GITJOURNAL_BUILT=<binary> installs that binary instead of building one.
set -eu

cd "$(dirname "$0")"
PREFIX="${PREFIX:-$HOME/.local}"
BIN="$PREFIX/bin"
SHARE="$PREFIX/share"
# On macOS with Homebrew and no PREFIX of your own, the completions and the manual go under Homebrew's prefix,
# whose folders Homebrew's shells and man already search.
if [ "$(uname -s)" = Darwin ] && [ "$PREFIX" = "$HOME/.local" ] && command -v brew >/dev/null 2>&1; then
  SHARE="$(brew --prefix)/share"
fi
# bash-completion (2.11, Debian 12's) and fish look in XDG data home, not beside PATH entries: with the default
# prefix, their files go there.
DATA="$SHARE"
if [ "$PREFIX" = "$HOME/.local" ] && [ "$SHARE" = "$PREFIX/share" ]; then DATA="${XDG_DATA_HOME:-$HOME/.local/share}"; fi
MANIFEST="$SHARE/gitjournal/install-manifest"

say() { printf 'install.sh: %s\n' "$*"; }

uninstall() {
  if [ ! -f "$MANIFEST" ]; then
    say "nothing to remove: no manifest at $MANIFEST"
    return
  fi
  # Files first, then the folders this install created (lines ending in /), deepest first, and only when empty.
  while IFS= read -r path; do
    case $path in
      */) ;;
      *) if [ -f "$path" ] || [ -L "$path" ]; then rm -f "$path" && say "removed $path"; fi ;;
    esac
  done <"$MANIFEST"
  folders=$(grep '/$' "$MANIFEST" | awk '{ print length($0) " " $0 }' | sort -rn | cut -d' ' -f2- || true)
  rm -f "$MANIFEST"
  rmdir "$SHARE/gitjournal" 2>/dev/null || true
  printf '%s\n' "$folders" | while IFS= read -r folder; do
    if [ -n "$folder" ]; then rmdir "$folder" 2>/dev/null || true; fi
  done
}

case "${1:-}" in
  --uninstall) uninstall; exit 0 ;;
  "") ;;
  *) say "usage: ./install.sh [--uninstall]"; exit 64 ;;
esac

install_dependencies() {
  # The system's time zone files: gitjournal reads the journal's time zone from them (minimal Debian images leave
  # them out; without them every zone but UTC is unknown).
  if [ "$(uname -s)" = Linux ] && [ ! -d /usr/share/zoneinfo ] && command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    say "installing tzdata (the system's time zones) with apt-get"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tzdata
  fi
  if pkg-config --exists libgit2 libdeflate 2>/dev/null; then
    say "libgit2, libdeflate and pkg-config are present"
    return
  fi
  case "$(uname -s)" in
    Linux)
      if ! command -v apt-get >/dev/null 2>&1; then
        say "please install libgit2's and libdeflate's development packages and pkg-config with your package manager, then run me again"
        exit 1
      fi
      SUDO=""
      if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
      say "installing libgit2-dev, libdeflate-dev and pkg-config with apt-get"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libgit2-dev libdeflate-dev pkg-config
      ;;
    Darwin)
      if ! command -v brew >/dev/null 2>&1; then
        say "please install Homebrew (https://brew.sh), then run me again"
        exit 1
      fi
      say "installing libgit2, libdeflate and pkg-config with brew"
      brew install libgit2 libdeflate pkg-config
      ;;
    *)
      say "unsupported system $(uname -s): install libgit2, libdeflate and pkg-config yourself, then run me again"
      exit 1
      ;;
  esac
}

if [ -n "${GITJOURNAL_BUILT:-}" ]; then
  built="$GITJOURNAL_BUILT"
else
  install_dependencies
  if ! command -v swift >/dev/null 2>&1; then
    say "no Swift toolchain on PATH: install Swift 6 or later from swift.org, then run me again"
    exit 1
  fi
  # On Linux the Swift runtime is linked in, and libgit2 from its static archives where the system has them all
  # (Package.swift decides): the binary starts in a few milliseconds (it runs on every commit) and keeps working
  # when the toolchain is upgraded or removed. Both are start-up optimisations: when that build fails, the shared
  # libraries are used instead.
  static=""
  if [ "$(uname -s)" = Linux ]; then
    # The static Swift runtime is linked with libstdc++'s development files (libstdc++-<n>-dev, which Debian's
    # swiftlang does not pull in); without them it cannot link, so the shared runtime is taken from the start.
    if [ "$(cc -print-file-name=libstdc++.so 2>/dev/null || echo libstdc++.so)" != libstdc++.so ]; then
      static="--static-swift-stdlib"
    else
      say "no libstdc++ development files (on Debian 13: apt-get install libstdc++-14-dev): the Swift runtime stays shared"
    fi
  fi
  # The manifest looks at the system's libraries (Package.swift): no cached answer from before a package was added.
  fresh="--manifest-cache none"
  say "building gitjournal (release)"
  if ! swift build -c release $static $fresh --product gitjournal; then
    say "the build with static libraries failed (above); building with the shared ones instead"
    GITJOURNAL_LINK=dynamic
    export GITJOURNAL_LINK
    static=""
    swift build -c release $fresh --product gitjournal
  fi
  if [ "$(uname -s)" = Linux ] && [ -z "$static" ]; then
    say "note: this gitjournal loads the Swift runtime from the toolchain: keep the toolchain installed"
  fi
  built="$(swift build -c release $static $fresh --show-bin-path)/gitjournal"
fi

# What this install puts in place, so that --uninstall removes exactly that: the files, and the folders it had to
# create for them (kept from earlier installs too, since a second install creates none).
created=$(grep '/$' "$MANIFEST" 2>/dev/null || true)
files=""
make_folder() {
  folder=$1
  missing=""
  while [ ! -d "$folder" ]; do
    missing="$folder/
$missing"
    folder=$(dirname "$folder")
  done
  if [ -n "$missing" ]; then
    mkdir -p "$1"
    created="$created
$missing"
  fi
}

# Copy then rename, so a hook (or a shell completing) never sees a half-written file.
put() {
  source_file=$1
  target=$2
  mode=$3
  make_folder "$(dirname "$target")"
  cp "$source_file" "$target.gitjournal-new"
  chmod "$mode" "$target.gitjournal-new"
  mv -f "$target.gitjournal-new" "$target"
  files="$files
$target"
}

put "$built" "$BIN/gitjournal" 755
say "installed $BIN/gitjournal ($("$BIN/gitjournal" --version))"
"$BIN/gitjournal" --version --verbose | sed -n '2,$s/^/install.sh: /p'

generated="$(mktemp -d)"
trap 'rm -rf "$generated"' EXIT
"$BIN/gitjournal" completions bash >"$generated/bash"
"$BIN/gitjournal" completions zsh >"$generated/zsh"
"$BIN/gitjournal" completions fish >"$generated/fish"
"$BIN/gitjournal" help --man >"$generated/man"
# bash-completion loads <data>/bash-completion/completions/<command> on first use, from XDG data home and the
# XDG data folders (/usr/local/share, /usr/share); fish reads vendor_completions.d from the same places; man finds
# share/man beside each PATH entry.
put "$generated/bash" "$DATA/bash-completion/completions/gitjournal" 644
put "$generated/zsh" "$SHARE/zsh/site-functions/_gitjournal" 644
put "$generated/fish" "$DATA/fish/vendor_completions.d/gitjournal.fish" 644
put "$generated/man" "$SHARE/man/man1/gitjournal.1" 644
make_folder "$SHARE/gitjournal"
printf '%s\n%s\n' "$files" "$created" | grep -v '^$' | sort -u >"$MANIFEST.new"
mv -f "$MANIFEST.new" "$MANIFEST"
say "installed completions for bash, zsh and fish and the manual page (man gitjournal); --uninstall removes them"

case ":$PATH:" in
  *":$BIN:"*) ;;
  *) say "warning: $BIN is not on your PATH; add  export PATH=\"$BIN:\$PATH\"  to your shell's profile" ;;
esac
# zsh's default fpath holds /usr/local/share/zsh/site-functions and the system's own folders, no folder of a home
# directory, nor /opt/homebrew (Homebrew's own zsh adds that one; Apple's does not).
case "$SHARE" in
  /usr/local/share) ;;
  *) say "zsh: add  fpath=($SHARE/zsh/site-functions \$fpath)  before compinit in ~/.zshrc for its completion" ;;
esac
