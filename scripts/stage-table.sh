#!/usr/bin/env bash
# Prints the stages `make test` recorded in $STAGE_DIR (scripts/stage.sh): each one's start and
# end (offsets from the first start), its time, the CPU seconds it used and its result, ordered
# by start; a stage that
# started and never ended says so. Run by .ci/run whether the tests passed or not.
shopt -s nullglob
dir=${STAGE_DIR:-.stages}
files=("$dir"/*)
[ ${#files[@]} -eq 0 ] && { echo "no stage times recorded in $dir"; exit 0; }
now=$(date +%s)
first=$(cat "${files[@]}" | awk '{print $1}' | sort -n | head -1)
last=$first
echo "==== make test stages (seconds from the first stage's start) ===="
printf '%-14s %7s %7s %7s %7s  %s\n' stage start end time cpu result
for f in "${files[@]}"; do
  read -r start end status cpu <"$f"
  printf '%s %s %s %s %s\n' "$start" "$(basename "$f")" "$end" "${status:--}" "${cpu:--}"
done | sort -n | while read -r start name end status cpu; do
  if [ "$end" = "-" ]; then
    printf '%-14s %7d %7s %7d %7s  %s\n' "$name" $((start - first)) "-" $((now - start)) "-" "did not end (stopped)"
  else
    result=ok
    [ "$status" != 0 ] && result="FAILED (exit $status)"
    printf '%-14s %7d %7d %7d %7s  %s\n' "$name" $((start - first)) $((end - first)) $((end - start)) "$cpu" "$result"
  fi
done
ends=$(for f in "${files[@]}"; do awk '$2 != "-" {print $2}' "$f"; done | sort -n | tail -1)
[ -n "$ends" ] && last=$ends
printf '%-14s %7s %7s %7d %7s  %s\n' "all" 0 $((last - first)) $((last - first)) "" "wall time from the first stage's start to the last stage's end"
