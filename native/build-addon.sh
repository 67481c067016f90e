#!/bin/sh
# build-addon.sh builds build/Release/sessionkeep.node: the Go core as a c-shared library
# that Node loads as a Node-API addon. `make addon` and node-gyp (binding.gyp) both run it,
# so the two builds are the same. Headers come from the node-api-headers npm package,
# wherever npm placed it.
set -eu
cd "$(dirname "$0")/.."
headers=$(node -p "require('node-api-headers').include_dir")
mkdir -p build/Release
CGO_CFLAGS="-I$headers ${CGO_CFLAGS:-}" CGO_ENABLED=1 go build -trimpath -buildmode=c-shared \
  -o build/Release/sessionkeep.node ./native/addon
rm -f build/Release/sessionkeep.h
