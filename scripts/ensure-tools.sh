#!/usr/bin/env bash
# Makes sure the tools the tests use beyond Go and Node are present: Debian's Chromium at
# /usr/bin/chromium and its headless shell at /usr/bin/chromium-headless-shell (the Playwright
# e2e tests run in the shell, the benches in the full browser: e2e/browsers.ts; Playwright never
# downloads a browser here) and
# pdftotext and pdftoppm from poppler-utils (the Go tests read the agreement PDFs back with a
# real text extractor and render the pack label sheet) and zbarimg from zbar-tools (the label
# test decodes every QR code of the rendered sheet) and ffmpeg (the scanner's e2e test and bench
# play a video of rendered labels as Chromium's fake camera: e2e/scripts/camera-video.sh). As root on Debian/Ubuntu it installs what is missing with apt-get; otherwise it
# stops at once with one line saying exactly what to install.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "make test: installing ${missing[*]} (Chromium for the e2e tests, pdftotext for the PDF tests, zbarimg for the label QR codes, ffmpeg for the fake camera)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ] && command -v pdftotext >/dev/null 2>&1 && command -v zbarimg >/dev/null 2>&1 && command -v ffmpeg >/dev/null 2>&1 && exit 0
fi
echo "make test: the tests need ${missing[*]} — install with: sudo apt-get install ${missing[*]}" >&2
exit 1
