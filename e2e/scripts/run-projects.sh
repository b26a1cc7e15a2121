#!/usr/bin/env bash
# `make test-e2e`: the desktop (1280x800) and phone (390x844) projects, each in its two parts
# (E2E_PART, playwright.config.ts), run at the same time: four Playwright runs, each against its
# own server, data dir and output dir (tests inside a run share one server and run in order, so
# their inventory assertions never see another run's writes). The suite waits far more than it
# computes (throttled first screens, realtime, toasts), so four runs on 2 cores end in about the
# time of the longest part. E2E_PARTS=1 runs each project whole instead. Extra arguments go to
# every `playwright test` run.
set -uo pipefail
cd "$(dirname "$0")/.."

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

parts=(1 2)
[ "${E2E_PARTS:-2}" = 1 ] && parts=("")
pids=()
n=0
for project in desktop phone; do
  for part in "${parts[@]}"; do
    port=${E2E_PORT:-$(free_port)}
    [ -n "${E2E_PORT:-}" ] && port=$((E2E_PORT + n))
    n=$((n + 1))
    name=$project${part:+-$part}
    ( E2E_PART=$part PORT=$port E2E_OUTPUT=test-results/$name npx playwright test --project="$project" "$@" 2>&1 | sed -u "s/^/[$name] /" ; exit "${PIPESTATUS[0]}" ) &
    pids+=($!)
  done
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
exit $status
