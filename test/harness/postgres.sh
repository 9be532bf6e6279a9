#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server beside it, for the sandbox's `--database` tests:
#   bash test/harness/postgres.sh npm test
# - installs Debian's `postgresql` package when it is missing (Debian 12 gives PostgreSQL 15);
# - initdb's a temporary cluster in a fresh directory under $TMPDIR, owned by the `postgres` user when run as root
#   (PostgreSQL refuses to run as root), trust authentication, listening on 127.0.0.1 only at a free port, its
#   Unix socket in the same temporary directory (not /var/run/postgresql);
# - exports TPP_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:<port>/postgres to the command;
# - stops the cluster and deletes its directory when the command ends (or fails, or is interrupted),
#   and exits with the command's status.
# Idempotent: nothing it starts outlives it, and a machine that already has the package skips the install.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 <command> [args...]" >&2; exit 2; }

SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
if ! dpkg -s postgresql >/dev/null 2>&1; then
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q postgresql
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
[ -x "$PGBIN/initdb" ] || { echo "postgres.sh: no initdb under /usr/lib/postgresql" >&2; exit 1; }

DIR=$(mktemp -d "${TMPDIR:-/tmp}/tpp-pg-XXXXXX")
# As root, the server runs as `postgres`; otherwise as the calling user.
AS=()
if [ "$(id -u)" = 0 ]; then chown postgres: "$DIR"; AS=(runuser -u postgres --); fi

stop() {
  "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT
trap 'exit 130' INT TERM

PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
"${AS[@]}" "$PGBIN/initdb" -D "$DIR/data" -U postgres --auth-local=trust --auth-host=trust -E UTF8 --no-instructions >"$DIR/initdb.log" 2>&1 \
  || { cat "$DIR/initdb.log" >&2; exit 1; }
"${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR" start >/dev/null \
  || { cat "$DIR/server.log" >&2; exit 1; }
"$PGBIN/pg_isready" -h 127.0.0.1 -p "$PORT" -t 30 >/dev/null

export TPP_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "postgres.sh: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') at $TPP_TEST_DATABASE_URL (loopback only)"
set +e
"$@"
status=$?
exit "$status"
