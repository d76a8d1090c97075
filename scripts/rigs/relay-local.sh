#!/usr/bin/env bash
# A local relay for a field test or the tests: initialises PostgreSQL 15 in DIR, makes a CA, the
# server's certificate and one client certificate per runner, starts the server with TLS and
# certificate authentication only (`hostssl ... cert`: the certificate's CN is the runner's role),
# applies the relay's migrations with `wearbridge-phone relay migrate`, enrols the runners and prints
# what each phone needs in its config.
#   scripts/rigs/relay-local.sh DIR [--port 55432] [--listen 127.0.0.1] [--host-name localhost] RUNNER...
#   scripts/rigs/relay-local.sh DIR --stop
# RELAY_MIGRATE_THROUGH=N stops the schema at version N (the benchmark's baseline).
# Runs the server as the `postgres` user when started as root (PostgreSQL refuses root).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:?usage: relay-local.sh DIR [--port N] [--listen ADDR] [--host-name NAME] RUNNER... | DIR --stop}
shift
PORT=55432 LISTEN=127.0.0.1 HOSTNAME_=localhost RUNNERS=()
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$PGBIN" ] || { echo "relay-local: PostgreSQL's server is not installed (apt-get install postgresql-15)" >&2; exit 1; }
as_server() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "${1:-}" = --stop ]; then
    [ -f "$DIR/data/postmaster.pid" ] && as_server "$PGBIN/pg_ctl" -D "$DIR/data" -m "${2:-fast}" stop >/dev/null
    exit 0
fi
while [ $# -gt 0 ]; do
    case $1 in
        --port) PORT=$2; shift 2 ;;
        --listen) LISTEN=$2; shift 2 ;;
        --host-name) HOSTNAME_=$2; shift 2 ;;
        -*) echo "relay-local: unknown option $1" >&2; exit 64 ;;
        *) [[ $1 =~ ^[a-z][a-z0-9_]{0,62}$ ]] || { echo "relay-local: a runner's name is [a-z][a-z0-9_]*: $1" >&2; exit 64; }
           RUNNERS+=("$1"); shift ;;
    esac
done
PHONE=${WEARBRIDGE_PHONE:-$ROOT/.build/debug/wearbridge-phone}
[ -x "$PHONE" ] || { echo "relay-local: $PHONE is not built (swift build --product wearbridge-phone)" >&2; exit 1; }
mkdir -p "$DIR/tls" "$DIR/run"
[ "$(id -u)" = 0 ] && chmod o+x "$DIR"
DIR=$(cd "$DIR" && pwd -P)
TLS=$DIR/tls

# Certificates: one CA for the relay; the server's names the address phones dial; each runner's CN
# is their role.
cert() { # name cn [san]
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$2" \
        -keyout "$TLS/$1.key" -out "$TLS/$1.csr" 2>/dev/null
    local ext="$TLS/$1.ext"
    if [ -n "${3:-}" ]; then printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\n' "$3" > "$ext"
    else printf 'extendedKeyUsage=clientAuth\n' > "$ext"; fi
    openssl x509 -req -in "$TLS/$1.csr" -CA "$TLS/ca.crt" -CAkey "$TLS/ca.key" -CAcreateserial -days 825 \
        -extfile "$ext" -out "$TLS/$1.crt" 2>/dev/null
    rm -f "$TLS/$1.csr" "$ext"; chmod 600 "$TLS/$1.key"
}
if [ ! -f "$TLS/ca.crt" ]; then
    openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 \
        -subj "/CN=wearbridge relay CA" -keyout "$TLS/ca.key" -out "$TLS/ca.crt" 2>/dev/null
    chmod 600 "$TLS/ca.key"
fi
[ -f "$TLS/server.crt" ] || cert server "$HOSTNAME_" "DNS:$HOSTNAME_,IP:$LISTEN"
for runner in "${RUNNERS[@]}"; do [ -f "$TLS/$runner.crt" ] || cert "$runner" "$runner"; done

# The cluster: the bootstrap superuser relay_admin logs in only over the private socket, only from
# the operating-system account that made the relay (peer authentication; the socket's directory is
# the server's alone); everyone else only over TLS with a certificate the relay's CA signed, as the
# role its CN names. Every name a stranger tries meets the same `cert` line, so the refusal is the
# same for a runner's name as for any other; no certificate maps to relay_admin.
OWNER=$(id -un)
if [ ! -f "$DIR/data/PG_VERSION" ]; then
    [ "$(id -u)" = 0 ] && chown -R postgres "$DIR/run" && install -d -o postgres "$DIR/data"
    chmod 700 "$DIR/run"
    as_server "$PGBIN/initdb" -D "$DIR/data" -U relay_admin --auth-local=reject --auth-host=reject \
        --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    install -m 600 "$TLS/server.key" "$DIR/data/server.key"
    install -m 644 "$TLS/server.crt" "$DIR/data/server.crt"
    install -m 644 "$TLS/ca.crt" "$DIR/data/ca.crt"
    [ "$(id -u)" = 0 ] && chown postgres "$DIR/data/server.key" "$DIR/data/server.crt" "$DIR/data/ca.crt"
    cat > "$DIR/data/pg_hba.conf" <<HBA
local     all  relay_admin               peer map=owner
hostssl   all  all          0.0.0.0/0    cert map=runners
hostssl   all  all          ::/0         cert map=runners
hostnossl all  all          0.0.0.0/0    reject
hostnossl all  all          ::/0         reject
HBA
    { printf 'owner %s relay_admin\n' "$OWNER"
      [ "$(id -u)" = 0 ] && printf 'owner postgres relay_admin\n'
      printf 'runners /^(?!relay_admin$)([a-z][a-z0-9_]*)$ \\1\n'; } > "$DIR/data/pg_ident.conf"
    [ "$(id -u)" = 0 ] && chown postgres "$DIR/data/pg_hba.conf" "$DIR/data/pg_ident.conf"
    cat >> "$DIR/data/postgresql.conf" <<CONF
listen_addresses = '$LISTEN'
port = $PORT
unix_socket_directories = '$DIR/run'
unix_socket_permissions = 0700
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
ssl_ca_file = 'ca.crt'
ssl_min_protocol_version = 'TLSv1.2'
max_connections = 1200
shared_buffers = 128MB
log_line_prefix = '%m [%p] %u '
CONF
fi
if ! as_server "$PGBIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
    as_server "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/run/server.log" -w -t 60 start >/dev/null
fi
ADMIN_URL="postgresql://relay_admin@/postgres?host=$DIR/run&port=$PORT"
"$PHONE" relay migrate --admin-url "$ADMIN_URL" ${RELAY_MIGRATE_THROUGH:+--through "$RELAY_MIGRATE_THROUGH"} >&2
for runner in "${RUNNERS[@]}"; do "$PHONE" relay enrol --admin-url "$ADMIN_URL" "$runner" >&2; done
echo "relay: PostgreSQL on $LISTEN:$PORT (data $DIR/data, log $DIR/run/server.log); admin: $ADMIN_URL"
for runner in "${RUNNERS[@]}"; do
    cat <<PHONECFG
# $runner's wearbridge-phone config:
[relay]
host = "$HOSTNAME_"
port = $PORT
runner = "$runner"
ca = "$TLS/ca.crt"
certificate = "$TLS/$runner.crt"
key = "$TLS/$runner.key"
PHONECFG
done
