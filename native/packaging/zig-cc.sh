#!/bin/sh
# zig-cc.sh <zig> <target> [cc arguments] is the C compiler and linker of a darwin cross-build
# (native/build-addon.sh): `zig cc -target <target>` with the arguments Go passes, less the
# ones Zig 0.11's Mach-O linker rejects: -Wl,-x (strip local symbols; the build strips with
# -s -w anyway) and --compress-debug-sections (there are no debug sections).
set -eu
zig=$1 target=$2
shift 2
for arg; do
  shift
  case "$arg" in
    -Wl,-x|-Wl,--compress-debug-sections*|--compress-debug-sections*) ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec "$zig" cc -target "$target" "$@"
