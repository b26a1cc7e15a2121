#!/usr/bin/env bash
# Makes sure the browser the e2e tests drive is present: Debian's Chromium at /usr/bin/chromium
# (Playwright never downloads a browser here). As root on Debian/Ubuntu it installs it with
# apt-get; otherwise it stops at once with one line saying exactly what to install.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "make test: installing Debian's chromium (needed by the Playwright e2e tests)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation >/dev/null
  [ -x /usr/bin/chromium ] && exit 0
fi
echo "make test: the e2e tests need Chromium at /usr/bin/chromium — install it with: sudo apt-get install chromium fonts-liberation" >&2
exit 1
