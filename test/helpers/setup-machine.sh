#!/usr/bin/env bash
# setup-machine.sh installs what `make test` needs beyond Go, Node, npm and make, on a
# Debian/Ubuntu machine: as root, or through sudo, saying what it installs and why. It only
# checks when everything is there (each tool by `command -v`, each file by its path), so
# make test runs it every time. On a machine without apt-get it names what to install and
# fails. SETUP_DRY_RUN=1 names what is missing and installs nothing.
set -euo pipefail

# need holds one line per missing piece: the Debian packages, then why the suite needs them.
need=()
# require_tool adds packages when a command is missing: tool, packages, reason.
require_tool() {
  command -v "$1" >/dev/null 2>&1 || need+=("$2|$3 (no $1)")
}
# require_file adds packages when a file is missing: path glob, packages, reason.
require_file() {
  compgen -G "$1" >/dev/null || need+=("$2|$3 (no $1)")
}

for tool in go node npm; do
  command -v "$tool" >/dev/null || { echo "setup-machine: $tool is required: install it first" >&2; exit 1; }
done

require_tool gcc build-essential "cgo builds the addon with the C compiler"
require_tool make build-essential "the build is a Makefile"
# make bench builds better-sqlite3 (the harness's baseline) from source with node-gyp.
require_tool python3 python3 "make bench builds better-sqlite3 with node-gyp"
require_tool g++ g++ "make bench builds better-sqlite3 with node-gyp"
require_tool tmux tmux "test/45 drives the example agent in a real terminal"
require_tool sqlite3 sqlite3 "the torture and damaged-file tests read stores with an independent SQLite"
require_tool strace strace "test/157 runs the addon under strace"
require_file "/usr/lib/postgresql/*/bin/initdb" postgresql "the PostgreSQL tests start a throwaway server (initdb, pg_ctl)"
require_file /usr/bin/chromium chromium "test/111 drives the viewer in headless Chromium"
# make pack cross-builds the platform packages and test/92 runs the arm64 one under qemu.
cross="gcc-aarch64-linux-gnu libstdc++6-arm64-cross musl-tools musl-dev:arm64 gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 qemu-user-static binutils"
for tool in aarch64-linux-gnu-gcc musl-gcc x86_64-w64-mingw32-gcc x86_64-w64-mingw32-dlltool qemu-aarch64-static readelf; do
  require_tool "$tool" "$cross" "make pack cross-builds the arm64, musl and Windows addons; test/92 runs arm64 under qemu"
done
for file in /usr/lib/aarch64-linux-musl/musl-gcc.specs /usr/aarch64-linux-gnu/lib/libstdc++.so.6; do
  require_file "$file" "$cross" "the arm64 musl build and the arm64 Node under qemu"
done
# The Windows addon is loaded by a real Windows Node under wine; the macOS and Windows
# binaries are inspected with LLVM's object tools.
require_file /usr/lib/wine/wine64 wine64 "the Windows package's tests run its addon under wine"
require_tool llvm-readobj llvm "the macOS and Windows packages' tests read their binaries"

if ((${#need[@]} == 0)); then
  exit 0
fi

packages=$(printf '%s\n' "${need[@]}" | cut -d'|' -f1 | tr ' ' '\n' | sort -u | tr '\n' ' ')
echo "setup-machine: make test needs packages this machine lacks:" >&2
printf '%s\n' "${need[@]}" | awk -F'|' '!seen[$1]++ { print "  " $1 ": " $2 }' >&2

if ! command -v apt-get >/dev/null; then
  echo "setup-machine: this is not a Debian/Ubuntu machine; install the equivalents of: $packages" >&2
  echo "  (a C compiler, python3, g++, tmux, sqlite3, strace, PostgreSQL's server binaries, Chromium," >&2
  echo "   the aarch64-linux-gnu and x86_64-w64-mingw32 cross compilers, musl-gcc with aarch64 specs," >&2
  echo "   qemu-aarch64-static, binutils, wine64, LLVM), or run make test in a Debian container." >&2
  exit 1
fi
if [ -n "${SETUP_DRY_RUN:-}" ]; then
  echo "setup-machine: would run apt-get install $packages" >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup-machine: not root and no sudo: as root run apt-get install $packages" >&2; exit 1; }
  sudo=sudo
  echo "setup-machine: installing through sudo (you may be asked for your password)" >&2
fi
case " $packages " in
  *:arm64*) dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64 ;;
esac
echo "setup-machine: apt-get install $packages" >&2
$sudo apt-get update -qq
# chromium without its recommends: puppeteer-core drives it headless.
plain=$(echo "$packages" | tr ' ' '\n' | grep -vx chromium | tr '\n' ' ' || true)
[ -z "${plain// /}" ] || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $plain
case " $packages " in
  *" chromium "*) DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium ;;
esac
