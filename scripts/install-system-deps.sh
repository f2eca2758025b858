#!/usr/bin/env bash
# Debian packages the test suite needs; installs only what is missing.
set -euo pipefail
# virtuoso-opensource-7-bin: Virtuoso's virtuoso-t and isql-vt only; the virtuoso-opensource
# package would also install and start a system-wide database service.
# openjdk-17-jre-headless, maven: the real Neo4j 5.26 of the tests runs on Java 17 from its
# Maven Central jars (tests/neo4j_server).
packages=(raptor2-utils chromium chromium-driver virtuoso-opensource-7-bin openjdk-17-jre-headless maven)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
