#!/usr/bin/env bash
# `make test-e2e`: the desktop (1280x800) and phone (390x844) projects run at the same time, each
# against its own server, data dir and output dir (tests inside a project share one server and
# run in order, so their inventory assertions never see the other project's writes). Halves the
# suite's wall time on a 2-core machine. Extra arguments go to both `playwright test` runs.
set -uo pipefail
cd "$(dirname "$0")/.."

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

pids=()
for project in desktop phone; do
  port=${E2E_PORT:-$(free_port)}
  [ -n "${E2E_PORT:-}" ] && [ "$project" = phone ] && port=$((E2E_PORT + 1))
  ( PORT=$port E2E_OUTPUT=test-results/$project npx playwright test --project="$project" "$@" 2>&1 | sed -u "s/^/[$project] /" ; exit "${PIPESTATUS[0]}" ) &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
exit $status
