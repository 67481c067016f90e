#!/bin/sh
# build-addon.sh [platform [output]] builds the addon: the Go core as a c-shared library that
# Node loads as a Node-API addon. Without arguments it builds for this machine into
# build/Release/sessionkeep.node (what `make addon` and a source install run); with a
# platform (linux-x64-gnu, linux-arm64-gnu, linux-x64-musl, linux-arm64-musl, win32-x64,
# darwin-arm64, darwin-x64) it cross-builds for `make pack`: Linux and Windows with Debian's
# toolchains, macOS with Zig (ZIG, which the Makefile installs from npm into build/zig), text
# stubs of the frameworks Go imports (packaging/darwin-stubs.mjs) and Node-API's symbols left
# to the node process that loads the addon (-undefined dynamic_lookup). Every build is stripped, uses Go's
# own DNS resolver and user lookup (netgo, osusergo: no glibc resolver symbols), and glibc
# builds bind their libc symbols at versions glibc 2.28 has (see glibc-pins.h).
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
platform=${1:-}
out=${2:-build/Release/sessionkeep.node}
headers=$(node -p "require('node-api-headers').include_dir")

# host_libc prints gnu or musl for a Linux machine: musl's ldd says so on stderr.
host_libc() {
  if ldd --version 2>&1 | grep -qi musl; then echo musl; else echo gnu; fi
}

goos=$(go env GOOS)
goarch=$(go env GOARCH)
cc=${CC:-}
libc=
ext_ldflags=
case "$platform" in
  '')
    if [ "$goos" = linux ]; then libc=$(host_libc); fi ;;
  linux-x64-gnu)    goos=linux; goarch=amd64; libc=gnu;  cc=x86_64-linux-gnu-gcc ;;
  linux-arm64-gnu)  goos=linux; goarch=arm64; libc=gnu;  cc=aarch64-linux-gnu-gcc ;;
  linux-x64-musl)   goos=linux; goarch=amd64; libc=musl; cc=musl-gcc ;;
  # Debian has no aarch64 musl-gcc; its musl-dev:arm64 ships the specs file that turns the
  # aarch64 cross gcc into one.
  linux-arm64-musl) goos=linux; goarch=arm64; libc=musl
                    cc="aarch64-linux-gnu-gcc -specs /usr/lib/aarch64-linux-musl/musl-gcc.specs" ;;
  win32-x64)        goos=windows; goarch=amd64; cc=x86_64-w64-mingw32-gcc ;;
  # macOS 12 is the oldest Go 1.26 runs on.
  darwin-arm64)     goos=darwin; goarch=arm64; cc="$root/native/packaging/zig-cc.sh ${ZIG:?} aarch64-macos.12.0" ;;
  darwin-x64)       goos=darwin; goarch=amd64; cc="$root/native/packaging/zig-cc.sh ${ZIG:?} x86_64-macos.12.0" ;;
  *) echo "build-addon.sh: unknown platform '$platform'" >&2; exit 2 ;;
esac

cflags="-I$headers"
if [ "$libc" = gnu ]; then
  cflags="$cflags -include $root/native/glibc-pins.h"
  # libpthread.so.0 is where glibc before 2.34 defines the pinned pthread functions.
  ext_ldflags="-Wl,--no-as-needed -l:libpthread.so.0"
fi
if [ "$goos" = windows ]; then
  # Windows resolves Node-API through an import library of node.exe, made from the .def
  # files of node-api-headers.
  implib=build/win32-x64/libnode.a
  mkdir -p build/win32-x64
  x86_64-w64-mingw32-dlltool -d "$(node -p "require('node-api-headers').def_paths.node_api_def")" -l "$implib"
  ext_ldflags="-L$root/build/win32-x64 -lnode"
fi
if [ "$goos" = darwin ]; then
  stubs=$root/build/darwin-stubs
  node native/packaging/darwin-stubs.mjs "$stubs"
  ext_ldflags="-F$stubs -L$stubs -Wl,-undefined,dynamic_lookup"
  # Zig's caches stay in build/, beside the Zig the Makefile installed there.
  export ZIG_GLOBAL_CACHE_DIR="$root/build/zig/cache" ZIG_LOCAL_CACHE_DIR="$root/build/zig/cache"
fi

# The tokenizer's vocabulary is generated, never committed or shipped (session/tokens/vocab.go):
# make generates it first; a source install from the npm package generates it here, from the
# tiktoken-go module that the build downloads anyway. It is the host's Go that runs vocabgen.
if [ ! -f session/tokens/o200k_base.vocab.gz ]; then
  go generate ./session/tokens
fi

mkdir -p "$(dirname "$out")"
env ${cc:+CC="$cc"} GOOS="$goos" GOARCH="$goarch" CGO_ENABLED=1 \
  CGO_CFLAGS="$cflags ${CGO_CFLAGS:-}" \
  go build -trimpath -buildmode=c-shared -tags netgo,osusergo \
  -ldflags "-s -w${ext_ldflags:+ -extldflags '$ext_ldflags'}" \
  -o "$out" ./native/addon
rm -f "${out%.node}.h"
