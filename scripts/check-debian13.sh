#!/usr/bin/env bash
# Builds, installs and tests gitjournal on Debian 13 (trixie) with Debian's own packages: Swift 6.0 (swiftlang),
# libgit2 1.9, as a new user there would. Needs root (debootstrap, chroot, mounts) and a network that reaches
# Debian's mirror; takes several minutes the first time (the toolchain is about 2 GB), and is kept out of CI.
#
#   sudo scripts/check-debian13.sh            the whole check in a chroot at $CHROOT (made when missing)
#   CHROOT=/var/tmp/trixie scripts/...        where the chroot is (default: /var/tmp/gitjournal-trixie)
#   PACKAGES="libzstd-dev libgpg-error-dev"   more Debian packages (these two make libgit2's static link possible)
#   SKIP_TESTS=1                              install and commit only, no `swift test`
#
# Inside the chroot: a fresh clone of this checkout's HEAD, `./install.sh` (the README's first command), a commit
# in a new repository through the installed hook, the journal file checked, then `swift test` (the README's second).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CHROOT="${CHROOT:-/var/tmp/gitjournal-trixie}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
say() { printf 'check-debian13: %s\n' "$*"; }

[ "$(id -u)" -eq 0 ] || { say "run me as root (debootstrap, chroot and mounts need it)"; exit 1; }
command -v debootstrap >/dev/null || { say "debootstrap is missing: apt-get install debootstrap"; exit 1; }

if [ ! -x "$CHROOT/usr/bin/apt-get" ]; then
  say "making a Debian 13 chroot in $CHROOT"
  debootstrap --variant=minbase trixie "$CHROOT" "$MIRROR" >/dev/null
fi

mounted=()
mount_once() { # mount_once TYPE-OR-BIND SOURCE TARGET
  if ! mountpoint -q "$3"; then
    if [ "$1" = bind ]; then mount --bind "$2" "$3"; else mount -t "$1" "$2" "$3"; fi
    mounted=("$3" "${mounted[@]}")
  fi
}
cleanup() { for target in "${mounted[@]}"; do umount "$target" 2>/dev/null || umount -l "$target" || true; done; }
trap cleanup EXIT
mount_once proc proc "$CHROOT/proc"
mount_once bind /dev "$CHROOT/dev"
mount_once bind /dev/pts "$CHROOT/dev/pts"
cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"

in_chroot() { chroot "$CHROOT" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 "$@"; }

say "installing git, swiftlang, libgit2-dev, libdeflate-dev, pkg-config (and strace, tzdata for the tests) ${PACKAGES:-}"
# shellcheck disable=SC2086
in_chroot bash -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq &&
  apt-get install -y -qq git swiftlang libgit2-dev libdeflate-dev pkg-config ca-certificates strace tzdata ${PACKAGES:-} >/dev/null"
in_chroot swift --version
in_chroot pkg-config --modversion libgit2

# A fresh clone of what is committed here, as a new user's clone would be.
rm -rf "$CHROOT/root/gitjournal" "$CHROOT/root/project" "$CHROOT/root/journal" "$CHROOT/root/.config/gitjournal"
git clone -q "$ROOT" "$CHROOT/root/gitjournal"

say "./install.sh"
in_chroot bash -c 'cd /root/gitjournal && ./install.sh'
in_chroot /root/.local/bin/gitjournal --version --verbose

say "a commit through the installed hook"
in_chroot bash -c '
  set -e
  export PATH=/root/.local/bin:$PATH
  git config --global user.email trixie@example.com
  git config --global user.name "Trixie User"
  git init -q -b main /root/project
  cd /root/project
  gitjournal install
  echo hello >hello.txt
  git add hello.txt
  git commit -q -m "Say hello from Debian 13"
  file=/root/journal/$(date +%F).md
  test -f "$file" || { echo "no journal file at $file" >&2; exit 1; }
  grep -q "Say hello from Debian 13" "$file" || { cat "$file" >&2; echo "the commit is not in $file" >&2; exit 1; }
  echo "journaled: $file"'

if [ -z "${SKIP_TESTS:-}" ]; then
  say "swift test"
  in_chroot bash -c 'cd /root/gitjournal && swift test'
fi
say "Debian 13: install, hook and tests passed"
