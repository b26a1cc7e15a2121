#!/usr/bin/env bash
# `make test-e2e`: the desktop (1280x800) and phone (390x844) projects run at the same time,
# each against its own server, data dir and output dir (tests inside a run share one server and
# run in order, so their inventory assertions never see another run's writes). With E2E_PARTS=2
# (the default on 4 or more cores) each project runs in its two parts (E2E_PART,
# playwright.config.ts): four runs. Extra arguments go to every `playwright test` run.
set -uo pipefail
cd "$(dirname "$0")/.."

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# Two parts a project only where there are cores for them (4 or more): on 2 cores four runs
# use more CPU than two and end no sooner (measured: each part took as long as its whole
# project did, 15-18 min, and make test took 1235 s against 1032 s with two runs).
cores=$(nproc 2>/dev/null || echo 2)
parts=("")
[ "${E2E_PARTS:-$([ "$cores" -ge 4 ] && echo 2 || echo 1)}" = 2 ] && parts=(1 2)
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
