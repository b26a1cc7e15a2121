#!/usr/bin/env bash
# `scripts/stage.sh NAME CMD...`: runs one stage of `make test` (CMD), prefixing each line it
# prints with [NAME] (the stages run at once: make -j), and records in $STAGE_DIR/NAME its start
# and end (epoch seconds), exit status and CPU seconds (user + system of everything it ran: on a
# shared machine the CPU column says more than the wall time); scripts/stage-table.sh prints
# them as a table.
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
# `times`' second line: the user and system time of this shell's finished children
times >"$dir/.$name.times" # in this shell: a subshell's `times` knows none of these children
cpu=$(tail -1 "$dir/.$name.times" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%d", n + 0.5 }')
rm -f "$dir/.$name.times"
printf '%s %s %s %s\n' "$start" "$end" "$status" "$cpu" >"$dir/$name"
echo "[$name] ended $(date -u +%H:%M:%S) after $((end - start)) s (CPU $cpu s), exit $status"
exit "$status"
