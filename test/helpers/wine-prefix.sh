#!/bin/sh
# wine-prefix.sh <prefix> makes the Wine prefix the Wine test runs Windows Node in: created
# by wineboot, set to Windows 10 (Node 20 refuses older), with the test-only
# bcryptprimitives.dll (wine-bcryptprimitives.c) in its system32. `make test` makes it once
# under build/; the prefix is written last, so an interrupted run starts again.
set -eu
prefix=$1
wine=${WINE:-/usr/lib/wine/wine64}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$prefix" "$prefix.tmp"
mkdir -p "$prefix.tmp"
export WINEPREFIX="$(cd "$prefix.tmp" && pwd)" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
"$wine" wineboot --init
"$wine" winecfg /v win10
"${wine%64}server" -w
x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
  "$here/wine-bcryptprimitives.c" -ladvapi32
mv "$prefix.tmp" "$prefix"
