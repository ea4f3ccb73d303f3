#!/usr/bin/env bash
# A throw-away PostgreSQL cluster in a temp folder, run as a normal user, on 127.0.0.1 and a free port.
#
#   scripts/pg-throwaway.sh install        install PostgreSQL (Debian packages) if initdb is missing
#   scripts/pg-throwaway.sh start          start one; prints "DIR URL" (the URL has no password: trust on loopback)
#   scripts/pg-throwaway.sh stop DIR       stop it and remove its folder
#   scripts/pg-throwaway.sh run CMD...     start one, run CMD with COMPANION_TEST_PG=URL, stop it on any exit
#
# PostgreSQL refuses to run as root: as root, the cluster runs as the user $PG_USER (created if missing).
set -euo pipefail

PG_USER=${PG_USER:-pgtest}

pg_bin() {
    local dir
    for dir in $(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)") /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

install_pg() {
    pg_bin >/dev/null && return 0
    echo "PostgreSQL is missing: installing it from the Debian packages" >&2
    [ "$(id -u)" = 0 ] || { echo "run as root (or install postgresql) first" >&2; exit 1; }
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
    pg_bin >/dev/null
}

as_owner() {
    if [ "$(id -u)" = 0 ]; then
        (cd / && runuser -u "$PG_USER" -- "$@") # from /: the owner may not be allowed into the caller's folder
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    install_pg
    local bin dir port
    bin=$(pg_bin)
    if [ "$(id -u)" = 0 ] && ! id "$PG_USER" >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_USER"
    fi
    dir=$(mktemp -d "${TMPDIR:-/tmp}/companion-pg.XXXXXX")
    [ "$(id -u)" = 0 ] && chown "$PG_USER" "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U companion --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }
    port=$(free_port)
    # Durable like production (fsync stays on); small buffers; the socket lives in the temp folder.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200 -c shared_buffers=64MB" \
        start >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
    echo "$dir postgresql://companion@127.0.0.1:$port/postgres"
}

stop() {
    local dir=${1:?usage: stop DIR}
    [ -d "$dir/data" ] && as_owner "$(pg_bin)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}

case "${1:-}" in
install) install_pg ;;
start) start ;;
stop) stop "${2:-}" ;;
run)
    shift
    read -r PG_DIR PG_URL < <(start) || true
    [ -n "${PG_URL:-}" ] || { echo "the throw-away cluster did not start" >&2; exit 1; }
    trap 'stop "$PG_DIR"' EXIT
    echo "throw-away PostgreSQL at $PG_URL" >&2
    COMPANION_TEST_PG=$PG_URL "$@"
    ;;
*)
    sed -n '2,9p' "$0" >&2
    exit 2
    ;;
esac
