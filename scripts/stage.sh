#!/usr/bin/env bash
# `scripts/stage.sh NAME CMD...`: runs one stage of `make test` (CMD), prefixing each line it
# prints with [NAME] (the stages run at once: make -j), and records in $STAGE_DIR/NAME its start
# and end (epoch seconds) and exit status; scripts/stage-table.sh prints them as a table.
# Exits with CMD's status.
set -uo pipefail
name=$1
shift
dir=${STAGE_DIR:-.stages}
mkdir -p "$dir"
start=$(date +%s)
printf '%s %s\n' "$start" "-" >"$dir/$name"
echo "[$name] started $(date -u +%H:%M:%S)"
"$@" 2>&1 | sed -u "s/^/[$name] /"
status=${PIPESTATUS[0]}
end=$(date +%s)
printf '%s %s %s\n' "$start" "$end" "$status" >"$dir/$name"
echo "[$name] ended $(date -u +%H:%M:%S) after $((end - start)) s, exit $status"
exit "$status"
