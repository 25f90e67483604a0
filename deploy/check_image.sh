#!/usr/bin/env bash
# Builds deploy/Dockerfile with podman and checks that the image runs as the Dockerfile's header says:
# read-only root, tmpfs /tmp, a named volume for /app/data, production settings from an env file,
# the port published on 127.0.0.1. One PASS/FAIL line per check, then "N passed, N failed"; the exit
# status is 1 when any check failed.
#
#   build        the image builds (time and size printed; NO_CACHE=1 for a build from scratch)
#   health       GET /health answers 200
#   page         GET /en/ answers 200 with HTML
#   donor        POST /api/user with a donor answers 201 with an id
#   uid          the server process runs as uid 10001
#   writes       /app is read-only to the app, /app/data (the volume) is writable
#   healthcheck  the image has a HEALTHCHECK and `podman healthcheck run` passes
#   restart      after `podman restart` the donor is read back (GET /api/user/<id>): data is on the volume
#   stop         `podman stop` ends the server by SIGTERM, exit code 0, within STOP_LIMIT seconds
#
# Needs: root (rootful podman), the Debian packages podman and curl, and debootstrap when the base
# image is missing (on hosts with hybrid cgroups, as some VMs have, also runc: crun refuses them).
# It installs nothing; it names the missing packages. Network: a Debian mirror (debootstrap and apt
# in the build) and registry.npmjs.org (Deno and the npm packages), nothing else.
#
# Base image: debian:bookworm-slim may be out of reach (no Docker Hub), so BASE_IMAGE
# (localhost/debian-bookworm-base) is made once with debootstrap from the mirror apt uses here,
# trimmed like the slim image, and passed as --build-arg DEBIAN_IMAGE. It is only made when missing;
# `podman rmi localhost/debian-bookworm-base` makes it again. Images are kept for a faster rerun;
# the container, its volume and the temporary files are removed on exit.
#
# Adjustments for the machine, each made only when needed and printed:
# - rlimits: where root lacks CAP_SYS_RESOURCE, containers get the host's limits instead of
#   podman's defaults, which they could not set; with hybrid cgroups the runtime is runc.
# - TLS interception: where registry.npmjs.org answers with a certificate that Debian's Mozilla roots
#   do not accept, the host's extra CAs (/usr/local/share/ca-certificates, or EXTRA_CA_FILE) go into a
#   layer on the base, BASE_IMAGE-hostca, with DENO_CERT naming them, so that curl and Deno in the
#   build trust the proxy. The container is then run with --unsetenv DENO_CERT.
#
# Settings (environment): IMAGE (museum-donations), BASE_IMAGE, DEBIAN_MIRROR, NO_CACHE=1,
# BUILD_NETWORK (e.g. host, for the build's RUN steps), STOP_LIMIT (5), EXTRA_CA_FILE.
#
#   sudo deploy/check_image.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IMAGE=${IMAGE:-museum-donations}
BASE_IMAGE=${BASE_IMAGE:-localhost/debian-bookworm-base}
STOP_LIMIT=${STOP_LIMIT:-5}
NAME="museum-donations-check-$$"
VOLUME="$NAME-data"
UID_EXPECTED=10001

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS %-12s %s\n' "$1" "$2"; }
fail() { failed=$((failed + 1)); printf 'FAIL %-12s %s\n' "$1" "$2"; }
note() { printf '     %s\n' "$*"; }
die() { printf 'check_image: %s\n' "$*" >&2; exit 2; }
finish() {
  echo "check_image: $passed passed, $failed failed"
  [ "$failed" -eq 0 ] && exit 0 || exit 1
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# --- what the host must have ------------------------------------------------------------------------
[ "$(id -u)" -eq 0 ] || die "run as root (rootful podman)"
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v curl >/dev/null || missing+=(curl)
[ ${#missing[@]} -eq 0 ] || die "missing: apt-get install -y ${missing[*]}"

TMP=$(mktemp -d /tmp/check_image.XXXXXX)
cleanup() {
  podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true
  podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true
  # A debootstrap cut short can leave proc/sys mounted in the target: unmount before removing.
  awk -v d="$TMP/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r | xargs -r umount -l || true
  rm -rf --one-file-system "$TMP"
}
trap cleanup EXIT
trap 'echo "check_image: unexpected failure at line $LINENO" >&2' ERR
trap 'exit 130' INT TERM

# --- the base image ---------------------------------------------------------------------------------
# The first URI apt uses whose path ends in /$1 (debian, debian-security), one-line or deb822 sources.
apt_uri() {
  {
    grep -hsE '^[[:space:]]*URIs:' /etc/apt/sources.list.d/*.sources | awk '{ for (i = 2; i <= NF; i++) print $i }'
    grep -hsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
      sed -E 's/\[[^]]*\]//' | awk '{ print $2 }'
  } | grep -E "/$1/?\$" | head -n 1 | sed -E 's#/$##' || true
}

if ! podman image exists "$BASE_IMAGE"; then
  command -v debootstrap >/dev/null || die "$BASE_IMAGE is missing and so is debootstrap: apt-get install -y debootstrap"
  MIRROR=${DEBIAN_MIRROR:-$(apt_uri debian)}
  MIRROR=${MIRROR:-http://deb.debian.org/debian}
  SECURITY=$(apt_uri debian-security)
  SECURITY=${SECURITY:-http://deb.debian.org/debian-security}
  echo "check_image: making $BASE_IMAGE with debootstrap from $MIRROR (about a minute)"
  rootfs="$TMP/rootfs"
  if ! debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$TMP/debootstrap.log" 2>&1; then
    tail -n 20 "$TMP/debootstrap.log" >&2
    die "debootstrap failed"
  fi
  # Like debian:bookworm-slim: updates and security in apt's sources, no docs, man pages or
  # translations (now or from later installs), no apt caches.
  printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
    "$MIRROR" "$MIRROR" "$SECURITY" >"$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
  find "$rootfs/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
  find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$rootfs"/usr/share/{groff,info,linda,lintian/overrides,locale,man}/* \
    "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/var/log/*
  tar --numeric-owner -C "$rootfs" -c . | podman import --quiet --change 'CMD ["bash"]' - "$BASE_IMAGE" >/dev/null
  rm -rf --one-file-system "$rootfs"
fi

# --- what this machine's podman needs -------------------------------------------------------------
PODMAN=(podman)
LIMITS=()
probe() { "${PODMAN[@]}" run --rm --network none "${LIMITS[@]}" "$BASE_IMAGE" true >/dev/null 2>>"$TMP/probe.log"; }
host_limits() {
  local nofile nproc
  nofile=$(ulimit -Hn); [ "$nofile" = unlimited ] || [ "$nofile" -gt 1048576 ] && nofile=1048576
  # podman lowers its own RLIMIT_NPROC to 32768; without CAP_SYS_RESOURCE a container gets no more.
  nproc=$(ulimit -Hu); [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ] && nproc=32768
  LIMITS=(--ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc")
}
if ! probe; then
  host_limits
  if probe; then
    note "containers get the host's rlimits: ${LIMITS[*]}"
  else
    command -v runc >/dev/null || { cat "$TMP/probe.log" >&2; die "podman cannot start a container (with hybrid cgroups: apt-get install -y runc)"; }
    PODMAN=(podman --runtime runc)
    LIMITS=()
    probe || host_limits
    probe || { cat "$TMP/probe.log" >&2; die "podman cannot start a container, even with runc"; }
    note "runtime runc${LIMITS[*]:+, host rlimits: ${LIMITS[*]}}"
  fi
fi

# --- a proxy that re-signs TLS? -------------------------------------------------------------------
BUILD_BASE=$BASE_IMAGE
RUN_ENV=()
extra_ca=""
if [ -n "${EXTRA_CA_FILE:-}" ]; then
  extra_ca=$EXTRA_CA_FILE
elif ls /usr/share/ca-certificates/mozilla/*.crt >/dev/null 2>&1; then
  # Debian's Mozilla roots alone (an empty --capath: curl would also read /etc/ssl/certs).
  cat /usr/share/ca-certificates/mozilla/*.crt >"$TMP/mozilla.pem"
  mkdir "$TMP/no-capath"
  if ! curl -sS -o /dev/null --max-time 20 --cacert "$TMP/mozilla.pem" --capath "$TMP/no-capath" \
    https://registry.npmjs.org/ 2>/dev/null &&
    curl -sS -o /dev/null --max-time 20 https://registry.npmjs.org/ 2>/dev/null; then
    find /usr/local/share/ca-certificates -name '*.crt' -type f -exec cat {} + >"$TMP/extra-ca.pem" 2>/dev/null || true
    [ -s "$TMP/extra-ca.pem" ] || die "registry.npmjs.org is reached through a proxy whose CA is not in /usr/local/share/ca-certificates: give it in EXTRA_CA_FILE"
    extra_ca="$TMP/extra-ca.pem"
  fi
fi
if [ -n "$extra_ca" ]; then
  mkdir -p "$TMP/hostca"
  cp "$extra_ca" "$TMP/hostca/host-extra-ca.crt"
  printf 'FROM %s\nCOPY host-extra-ca.crt /usr/local/share/ca-certificates/host-extra-ca.crt\nENV DENO_CERT=/usr/local/share/ca-certificates/host-extra-ca.crt\n' \
    "$BASE_IMAGE" >"$TMP/hostca/Containerfile"
  BUILD_BASE="$BASE_IMAGE-hostca"
  "${PODMAN[@]}" build -q -t "$BUILD_BASE" "$TMP/hostca" >/dev/null
  RUN_ENV=(--unsetenv DENO_CERT)
  note "TLS to registry.npmjs.org is re-signed here: building on $BUILD_BASE (the host's extra CAs)"
fi

# --- build ------------------------------------------------------------------------------------------
build_args=(--format docker -f "$ROOT/deploy/Dockerfile" --ignorefile "$ROOT/deploy/Dockerfile.dockerignore"
  --build-arg "DEBIAN_IMAGE=$BUILD_BASE" -t "$IMAGE")
[ "${NO_CACHE:-}" = 1 ] && build_args+=(--no-cache)
[ -n "${BUILD_NETWORK:-}" ] && build_args+=(--network "$BUILD_NETWORK")
start=$(now_ms)
if "${PODMAN[@]}" build "${build_args[@]}" "${LIMITS[@]}" "$ROOT" >"$TMP/build.log" 2>&1; then
  secs=$(( ($(now_ms) - start + 500) / 1000 ))
  size=$(podman image inspect -f '{{.Size}}' "$IMAGE")
  cached=$(grep -c -- '--> Using cache' "$TMP/build.log" || true)
  pass build "$secs s (cached steps: $cached), image $((size / 1000000)) MB ($IMAGE)"
else
  tail -n 30 "$TMP/build.log"
  fail build "podman build failed (log above)"
  finish
fi

# --- run --------------------------------------------------------------------------------------------
cat >"$TMP/app.env" <<EOF
DENO_ENV=production
APP_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
PUBLIC_URL=https://donate.example.org
ADMIN_REGISTRATION=closed
PAYMENT_PROVIDER=sandbox
SANDBOX_ALLOWED=1
SMTP_URL=smtp://127.0.0.1:9
MAIL_FROM=donations@example.org
EOF
chmod 0600 "$TMP/app.env"

BASE_URL=""
# Waits until /health answers 200 (at most 60 s) and sets BASE_URL; the host port is podman's choice.
wait_healthy() {
  local _ port
  for _ in $(seq 1 240); do
    port=$(podman port "$NAME" 8000/tcp 2>/dev/null | head -n 1 || true)
    if [ -n "$port" ]; then
      BASE_URL="http://$port"
      [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$BASE_URL/health" || true)" = 200 ] && return 0
    fi
    [ "$(podman inspect -f '{{.State.Running}}' "$NAME" 2>/dev/null)" = true ] || break
    sleep 0.25
  done
  return 1
}
# http METHOD PATH [BODY]: prints the status code; the body is in $TMP/body, its type in $TMP/type.
http() {
  local args=(-s -o "$TMP/body" -w '%{http_code} %{content_type}' --max-time 10 -X "$1")
  [ $# -ge 3 ] && args+=(-H 'content-type: application/json' --data "$3")
  local out
  out=$(curl "${args[@]}" "$BASE_URL$2" || true)
  echo "${out#* }" >"$TMP/type"
  echo "${out%% *}"
}

podman volume create "$VOLUME" >/dev/null
start=$(now_ms)
if ! "${PODMAN[@]}" run -d --name "$NAME" --restart on-failure --env-file "$TMP/app.env" "${RUN_ENV[@]}" \
  "${LIMITS[@]}" -p 127.0.0.1::8000 --read-only --tmpfs /tmp -v "$VOLUME:/app/data" "$IMAGE" \
  >/dev/null 2>"$TMP/run.log"; then
  cat "$TMP/run.log"
  fail health "podman run failed"
  finish
fi
if wait_healthy; then
  pass health "200 after $(($(now_ms) - start)) ms ($BASE_URL)"
else
  podman logs "$NAME" 2>&1 | tail -n 20
  fail health "/health never answered 200 (logs above)"
  finish
fi

code=$(http GET /en/)
if [ "$code" = 200 ] && grep -q 'text/html' "$TMP/type" && grep -qi '<html' "$TMP/body"; then
  pass page "/en/ 200 $(cat "$TMP/type"), $(wc -c <"$TMP/body") bytes"
else
  fail page "/en/ answered $code $(cat "$TMP/type")"
fi

EMAIL="dana.levi.$$@example.org"
code=$(http POST /api/user "{\"firstName\":\"Dana\",\"lastName\":\"Levi\",\"email\":\"$EMAIL\",\"country\":\"Israel\"}")
DONOR=$(grep -oE '"id":"[A-Za-z0-9_-]+"' "$TMP/body" | head -n 1 | cut -d'"' -f4 || true)
if [ "$code" = 201 ] && [ -n "$DONOR" ]; then
  pass donor "POST /api/user 201, id $DONOR"
else
  fail donor "POST /api/user answered $code: $(head -c 300 "$TMP/body")"
fi

pid=$(podman inspect -f '{{.State.Pid}}' "$NAME")
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")
cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" | cut -c1-40)
if [ "$uid" = "$UID_EXPECTED" ]; then
  pass uid "uid $uid: $cmd..."
else
  fail uid "the server runs as uid $uid, not $UID_EXPECTED"
fi

if ! podman exec "$NAME" sh -c 'touch /app/probe' 2>/dev/null &&
  podman exec "$NAME" sh -c 'touch /app/data/probe && rm /app/data/probe'; then
  pass writes "/app read-only, /app/data writable"
else
  fail writes "expected /app read-only and /app/data writable"
fi

hc=$(podman image inspect -f '{{if .Config.Healthcheck}}{{json .Config.Healthcheck.Test}}{{end}}' "$IMAGE" 2>/dev/null || true)
if [ -z "$hc" ]; then
  fail healthcheck "the image has no HEALTHCHECK (built in OCI format?)"
elif out=$("${PODMAN[@]}" healthcheck run "$NAME" 2>&1); then
  pass healthcheck "podman healthcheck run: ${out:-healthy}"
else
  fail healthcheck "podman healthcheck run failed: $out"
fi

start=$(now_ms)
"${PODMAN[@]}" restart "$NAME" >/dev/null 2>>"$TMP/run.log"
if wait_healthy; then
  code=$(http GET "/api/user/$DONOR")
  if [ -n "$DONOR" ] && [ "$code" = 200 ] && grep -q "\"email\":\"$EMAIL\"" "$TMP/body"; then
    pass restart "healthy $(($(now_ms) - start)) ms after podman restart; donor $DONOR read back"
  else
    fail restart "GET /api/user/$DONOR after restart answered $code: $(head -c 300 "$TMP/body")"
  fi
else
  podman logs "$NAME" 2>&1 | tail -n 20
  fail restart "not healthy again after podman restart (logs above)"
fi

# The log keeps both runs: the restart's SIGTERM is already in it, this stop must add one.
sigterms() { podman logs "$NAME" 2>&1 | grep -c '"msg":"shutting down","signal":"SIGTERM"' || true; }
before=$(sigterms)
start=$(now_ms)
"${PODMAN[@]}" stop -t 10 "$NAME" >/dev/null 2>>"$TMP/run.log" || true
ms=$(($(now_ms) - start))
exit_code=$(podman inspect -f '{{.State.ExitCode}}' "$NAME")
if [ "$exit_code" = 0 ] && [ "$ms" -le $((STOP_LIMIT * 1000)) ] && [ "$(sigterms)" -gt "$before" ]; then
  pass stop "SIGTERM: shut down in $ms ms, exit code 0"
else
  podman logs "$NAME" 2>&1 | tail -n 5
  fail stop "podman stop took $ms ms (limit ${STOP_LIMIT}s), exit code $exit_code"
fi

finish
