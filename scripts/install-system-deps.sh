#!/usr/bin/env bash
# Debian packages the test suite needs; installs only what is missing.
#
# Another apt or dpkg process (unattended-upgrades, a second `make test`) may hold the
# dpkg lock: then this waits for it, up to KG_APT_LOCK_TIMEOUT seconds (default 600),
# saying so, and stops with one line naming the lock and what to do when it is still held.
set -euo pipefail
# virtuoso-opensource-7-bin: Virtuoso's virtuoso-t and isql-vt only; the virtuoso-opensource
# package would also install and start a system-wide database service.
# openjdk-17-jre-headless, maven: the real Neo4j 5.26 of the tests runs on Java 17 from its
# Maven Central jars (tests/neo4j_server).
packages=(raptor2-utils chromium chromium-driver virtuoso-opensource-7-bin openjdk-17-jre-headless maven)
timeout="${KG_APT_LOCK_TIMEOUT:-600}"
# The locks apt and dpkg take (fcntl locks, as apt-get's own); KG_APT_LOCKS overrides them (tests).
read -r -a locks <<< "${KG_APT_LOCKS:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock}"

missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

# held LOCK: 0 when another process holds LOCK (a lock we cannot open counts as free:
# apt-get itself then says what is wrong).
held() {
  python3 - "$1" <<'EOF'
import fcntl, sys
try:
    handle = open(sys.argv[1], "a")
except OSError:
    sys.exit(1)
try:
    fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
except OSError:
    sys.exit(0)
sys.exit(1)
EOF
}

# wait_for_locks: return when no lock is held; exit 1 with one line after $timeout seconds.
wait_for_locks() {
  local waited=0 said=0 lock
  while :; do
    local busy=""
    for lock in "${locks[@]}"; do
      if held "$lock"; then busy="$lock"; break; fi
    done
    [ -z "$busy" ] && return 0
    if [ "$said" -eq 0 ]; then
      echo "install-system-deps: another apt/dpkg process holds $busy; waiting for it (up to ${timeout} s)" >&2
      said=1
    fi
    if [ "$waited" -ge "$timeout" ]; then
      echo "install-system-deps: error: $busy is still held after ${timeout} s; let the other apt/dpkg process finish (or stop it), then run make test again (KG_APT_LOCK_TIMEOUT=SECONDS waits longer)" >&2
      exit 1
    fi
    sleep 2
    waited=$((waited + 2))
  done
}

if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
echo "install-system-deps: installing ${missing[*]}" >&2
wait_for_locks
# apt-get waits for the dpkg lock itself too (another process may take it between the check
# and the install): DPkg::Lock::Timeout bounds that wait.
$SUDO apt-get -o "DPkg::Lock::Timeout=$timeout" update -qq
wait_for_locks
$SUDO apt-get -o "DPkg::Lock::Timeout=$timeout" install -y -qq --no-install-recommends "${missing[@]}"
