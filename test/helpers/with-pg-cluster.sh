#!/bin/sh
# with-pg-cluster.sh COMMAND...: runs COMMAND with SESSIONKEEP_TEST_PG_URL naming a throwaway
# PostgreSQL server (test/helpers/pg-cluster.mjs, in a fresh folder under /tmp, which the
# unprivileged server user can reach), and always stops the server and removes the folder
# after, whether COMMAND passes, fails or is interrupted. Exits with COMMAND's status.
set -u
here=$(dirname "$0")
dir=$(mktemp -d "${TMPDIR:-/tmp}/sessionkeep-pg.XXXXXX") || exit 1
cleanup() {
  node "$here/pg-cluster.mjs" stop "$dir" >/dev/null 2>&1
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
url=$(node "$here/pg-cluster.mjs" start "$dir") || { echo "with-pg-cluster: the server did not start" >&2; exit 1; }
echo "with-pg-cluster: PostgreSQL at $url" >&2
SESSIONKEEP_TEST_PG_URL=$url "$@"
