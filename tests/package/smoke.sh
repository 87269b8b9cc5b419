#!/usr/bin/env bash
# Smoke test of the one-file build (npm run package): tests/package/smoke.sh [path/to/cloud-drive-linux-x64]
# Runs the executable with an empty environment (a PATH with no node or npm) in a fresh folder:
# first start unpacks and prints the setup token; SIGTERM stops it cleanly; `setup` installs
# unattended; the second start reuses the cache; a user registers, uploads through tus (curl:
# POST then PATCH), downloads byte-exact; two racing starts on an empty cache both work; a damaged
# cache is unpacked again. Waits for log lines and answers, bounded; prints "N passed, N failed".
set -uo pipefail
EXE="$(realpath "${1:-$(dirname "$0")/../../release/cloud-drive-linux-x64}")"
WORK="$(mktemp -d /tmp/cloud-drive-smoke.XXXXXX)"
mkdir -p "$WORK/bin" "$WORK/home" "$WORK/run"
cd "$WORK/run"
passed=0
failed=0
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill -KILL "$SERVER_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
ok() { echo "ok: $1"; passed=$((passed + 1)); }
bad() { echo "FAILED: $1"; failed=$((failed + 1)); }
check() { local what="$1"; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
finish() {
  echo "smoke: $passed passed, $failed failed"
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] && exit 0 || exit 1
}

# No node anywhere the executable could look: an empty PATH folder, no HOME node_modules, no NODE_* variables.
# CLOUD_DRIVE_SMOKE_RUNNER runs another processor's build, e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu".
read -r -a RUNNER <<< "${CLOUD_DRIVE_SMOKE_RUNNER:-}"
run() { env -i PATH="$WORK/bin" HOME="$WORK/home" "${RUNNER[@]}" "$EXE" "$@"; }
not() { ! "$@"; }
check "no node on the executable's PATH" bash -c "! env -i PATH='$WORK/bin' /bin/sh -c 'command -v node || command -v npm' >/dev/null"

free_port() {
  local port
  for port in $(shuf -i 20000-60000 -n 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
  done
  return 1
}
PORT="$(free_port)"
URL="http://127.0.0.1:$PORT"
# Configuration from .env in the working folder, as with npm start; DATA_DIR stays at its default ./data.
printf 'PORT=%s\nHOST=127.0.0.1\n' "$PORT" > .env

# wait_for FILE PATTERN: until the log has the line or the server has exited (at most 60 s).
wait_for() {
  local i
  for i in $(seq 1 600); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || { grep -q "$2" "$1"; return $?; }
    sleep 0.1
  done
  return 1
}
start() { # start LOG: runs the server in the background, waits for "listening"
  # env execs the executable, so $! is the server's own process id.
  env -i PATH="$WORK/bin" HOME="$WORK/home" "${RUNNER[@]}" "$EXE" > "$1" 2>&1 &
  SERVER_PID=$!
  wait_for "$1" '"msg":"listening"'
}
stop() { # SIGTERM, then the exit code must be 0 and the log must end with "stopped"
  # An answer means the start has finished, its SIGTERM handler included (it follows the "listening" line).
  curl -fsS -o /dev/null "$URL/healthz"
  kill -TERM "$SERVER_PID"
  wait "$SERVER_PID"
  local code=$?
  SERVER_PID=""
  [ "$code" -eq 0 ] && grep -q '"msg":"stopped"' "$1"
}

version_ok() { run --version | grep -q '^cloud-drive [0-9]'; }
help_ok() { run --help | grep -q 'admin:create'; }
unknown_exits_2() { run frobnicate >/dev/null 2>&1; [ $? -eq 2 ]; }
check "--version names the version" version_ok
check "--help lists the subcommands" help_ok
check "an unknown subcommand exits 2" unknown_exits_2

# 1. First start: unpacks, migrates ./data, prints the setup token.
if ! start first.log; then bad "first start listens"; cat first.log; finish; fi
ok "first start listens"
check "first start unpacked the app" grep -q 'unpacked the app into' first.log
TOKEN="$(grep -o '"setup_token":"[^"]*"' first.log | cut -d'"' -f4)"
check "first start prints the setup token" test -n "$TOKEN"
check "the install page answers" bash -c "curl -fsS -o /dev/null '$URL/install'"
check "a built asset is served" bash -c "curl -fsS '$URL/install' | grep -o '/_astro/[^\"]*\.js' | head -1 | xargs -I{} curl -fsS -o /dev/null '$URL{}'"
CHECKS="$(curl -sS -H "x-setup-token: $TOKEN" -H "Origin: $URL" -H 'X-Requested-With: XMLHttpRequest' "$URL/api/setup/status-check")"
check "sharp loads from the executable (setup checks)" grep -Eq '"id":"sharp"[^}]*"ok":true' <<< "$CHECKS"
check "the data folder defaults to ./data" test -f data/database.sqlite
check "SIGTERM stops it cleanly" stop first.log

# 2. Unattended install.
setup_ok() { run setup --admin-email admin@example.test --admin-password 'orbit-lantern-Quartz-91-meadow' --app-name 'Smoke Drive' | grep -q '^Installed'; }
check "setup installs unattended" setup_ok
# The scripts' hints name the executable, not npm.
usage_ok() { local out; out="$(run admin:create 2>&1 || true)"; grep -q "Usage: $EXE admin:create --email" <<< "$out"; }
check "a script's usage names the executable" usage_ok

# 3. Second start reuses the cache; a user registers, uploads through tus, downloads byte-exact.
if ! start second.log; then bad "second start listens"; cat second.log; finish; fi
ok "second start listens"
check "second start reuses the unpacked cache" not grep -q 'unpacked the app' second.log
check "no setup token once installed" not grep -q setup_token second.log
H=(-H "Origin: $URL" -H 'X-Requested-With: XMLHttpRequest' -H 'Accept: application/json')
REG="$(curl -sS -o /dev/null -w '%{http_code}' "${H[@]}" -H 'Content-Type: application/json' \
  -d '{"name":"Smoke User","email":"user@example.test","password":"correct horse battery","password_confirmation":"correct horse battery"}' "$URL/register")"
check "a user registers (202)" test "$REG" = 202
LOGIN="$(curl -sS -o /dev/null -w '%{http_code}' -c jar "${H[@]}" -H 'Content-Type: application/json' \
  -d '{"email":"user@example.test","password":"correct horse battery"}' "$URL/login")"
check "the user signs in (200)" test "$LOGIN" = 200
page_ok() { [ "$(curl -sS -o /dev/null -w '%{http_code}' -b jar -H 'Accept: text/html' "$URL$1")" = 200 ]; }
check "the signed-in file area renders (React on the server)" page_ok /platform/files
head -c 3000000 /dev/urandom > upload.bin
SIZE="$(stat -c %s upload.bin)"
b64() { printf %s "$1" | base64 -w0; }
# tus_upload FILE NAME TYPE: POST creates the upload, one PATCH sends the bytes; prints the new item's id.
tus_upload() {
  local size location
  size="$(stat -c %s "$1")"
  location="$(curl -sS -D - -o /dev/null -b jar "${H[@]}" -X POST -H 'Tus-Resumable: 1.0.0' -H "Upload-Length: $size" \
    -H "Upload-Metadata: filename $(b64 "$2"),filetype $(b64 "$3"),parent_id ,path " \
    "$URL/api/upload/tus" | tr -d '\r' | grep -i '^location:' | cut -d' ' -f2)"
  [ -n "$location" ] || return 1
  case "$location" in http*) ;; *) location="$URL$location" ;; esac
  curl -sS -D - -o /dev/null -b jar "${H[@]}" -X PATCH -H 'Tus-Resumable: 1.0.0' -H 'Upload-Offset: 0' \
    -H 'Content-Type: application/offset+octet-stream' --data-binary @"$1" "$location" | tr -d '\r' | grep -i '^x-item-id:' | cut -d' ' -f2
}
ITEM="$(tus_upload upload.bin smoke.bin application/octet-stream)"
check "tus (POST, then PATCH) makes an item" test -n "$ITEM"
curl -fsS -b jar "${H[@]}" -o download.bin "$URL/file/$ITEM"
check "the download is byte-exact" cmp -s upload.bin download.bin
# A zip of it (zip-stream, a CommonJS package the server imports on first use) holds the same bytes.
curl -fsS -b jar "${H[@]}" -o download.zip "$URL/api/zip?items=$ITEM%7Cfile"
zip_ok() { unzip -p download.zip smoke.bin | cmp -s - upload.bin; }
check "a zip download holds the same bytes" zip_ok
# A picture gets WebP thumbnails from the background worker (sharp and libvips from the executable).
python3 -c '
import struct, sys, zlib
w, h = 320, 200
rows = b"".join(b"\0" + bytes(v for x in range(w) for v in (x * 255 // w, y * 255 // h, 128)) for y in range(h))
chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
sys.stdout.buffer.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
' > picture.png
PICTURE="$(tus_upload picture.png picture.png image/png)"
thumbnail_ok() {
  local i
  for i in $(seq 1 300); do
    [ "$(curl -sS -o thumb.webp -w '%{http_code} %{content_type}' -b jar "${H[@]}" "$URL/thumbnail/$PICTURE/sm")" = '200 image/webp' ] && return 0
    sleep 0.1
  done
  return 1
}
check "a PNG gets a WebP thumbnail" thumbnail_ok
check "SIGTERM stops it cleanly again" stop second.log

# 4. Two starts racing on an empty cache both unpack (one rename wins) and both run.
CACHE="$WORK/home/.cache/cloud-drive"
rm -rf "$CACHE"
run migrate > race1.log 2>&1 & R1=$!
run migrate > race2.log 2>&1 & R2=$!
wait "$R1"; C1=$?
wait "$R2"; C2=$?
check "two racing starts both succeed" test "$C1$C2" = 00
check "the race leaves one cache folder and no temporary ones" test "$(ls -A "$CACHE" | wc -l)" = 1

# 5. A damaged cache is detected and unpacked again; what a start killed while unpacking left
# (a temporary folder named by a process id that is gone) is removed then.
DIR="$CACHE/$(ls "$CACHE")"
mkdir -p "$CACHE/.unpacking-999999999-dead/dist"
printf 'garbage' >> "$DIR/dist/host/main.mjs"
if ! start third.log; then bad "start with a damaged cache listens"; cat third.log; finish; fi
ok "start with a damaged cache listens"
check "the damaged cache was unpacked again" grep -q 'was damaged: unpacking it again' third.log
check "the repaired cache has its file back" not grep -q garbage "$DIR/dist/host/main.mjs"
check "a killed unpacking's leftovers are removed" test ! -e "$CACHE/.unpacking-999999999-dead"
check "SIGTERM stops it cleanly a third time" stop third.log
finish
