#!/usr/bin/env bash
# make run-hq (issue 45 item 7, DESIGN.md §15): three demo cities and head office following them,
# on this machine. Each city is `swapbay serve` on its own demo data (its own pack prefix, so
# serials never collide) replicating to a local directory; each city's master admin issues a
# head-office token; head office (`swapbay hq serve`) gets its first hq_admin and the three
# cities (replica, address, token) and follows their replicas. The logins are printed; Ctrl-C
# stops everything. RUN_HQ_DIR keeps the data between runs (default: a new temporary dir).
set -euo pipefail

BIN=${BIN:-bin/swapbay}
ROOT=${RUN_HQ_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/swapbay-hq-XXXXXX")}
HQ_PORT=${HQ_PORT:-8180}
HQ_EMAIL=hq@swapbay.local
HQ_PASSWORD=swapbay-hq-demo
DEMO_MASTER=master@swapbay.local
DEMO_PASSWORD=swapbay-demo
# name:prefix:time zone:currency:port
CITIES=("Paris:PAR:Europe/Paris:EUR:8181" "Berlin:BER:Europe/Berlin:EUR:8182" "Lisbon:LIS:Europe/Lisbon:EUR:8183")

mkdir -p "$ROOT"
pids=()
stop() {
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop EXIT
trap 'exit 130' INT TERM

# wait_up URL: until URL answers 200 (30 s at most)
wait_up() {
  for _ in $(seq 1 150); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = 200 ]; then return 0; fi
    sleep 0.2
  done
  echo "run-hq: $1 did not answer" >&2
  return 1
}

# json_field NAME: the string value of NAME in the JSON on stdin
json_field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"; }

key() { cat /proc/sys/kernel/random/uuid; }

for city in "${CITIES[@]}"; do
  IFS=: read -r name prefix tz currency port <<<"$city"
  dir="$ROOT/$name"
  if [ ! -f "$dir/data.db" ]; then
    "$BIN" seed-demo --dir="$dir" --pack-prefix="$prefix" >"$ROOT/$name-seed.txt"
  fi
  "$BIN" serve --dir="$dir" --http="127.0.0.1:$port" --replicate="file://$ROOT/$name-replica" >"$ROOT/$name.log" 2>&1 &
  pids+=($!)
done
for city in "${CITIES[@]}"; do
  IFS=: read -r _ _ _ _ port <<<"$city"
  wait_up "http://127.0.0.1:$port/api/health"
done

if [ ! -f "$ROOT/hq/data.db" ]; then
  "$BIN" hq user create --dir="$ROOT/hq" --email="$HQ_EMAIL" --password="$HQ_PASSWORD" --role=hq_admin --name="Head Office" >/dev/null
fi
"$BIN" hq serve --dir="$ROOT/hq" --http="127.0.0.1:$HQ_PORT" >"$ROOT/hq.log" 2>&1 &
pids+=($!)
wait_up "http://127.0.0.1:$HQ_PORT/api/health"
hq_auth=$(curl -sf -X POST "http://127.0.0.1:$HQ_PORT/api/collections/users/auth-with-password" \
  -H 'Content-Type: application/json' -d "{\"identity\":\"$HQ_EMAIL\",\"password\":\"$HQ_PASSWORD\"}" | json_field token)

known=$(curl -sf "http://127.0.0.1:$HQ_PORT/api/hq/cities" -H "Authorization: $hq_auth")
for city in "${CITIES[@]}"; do
  IFS=: read -r name prefix tz currency port <<<"$city"
  if grep -q "\"name\":\"$name\"" <<<"$known"; then continue; fi
  # the city's master admin issues head office's token (System page → Head office)
  jar="$ROOT/$name.cookies"
  curl -sf -c "$jar" -X POST "http://127.0.0.1:$port/api/login" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$DEMO_MASTER\",\"password\":\"$DEMO_PASSWORD\"}" >/dev/null
  token=$(curl -sf -b "$jar" -X POST "http://127.0.0.1:$port/api/admin/head-office/tokens" -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $(key)" -d '{"name":"Head office (make run-hq)"}' | json_field token)
  rm -f "$jar"
  curl -sf -X POST "http://127.0.0.1:$HQ_PORT/api/hq/cities" -H "Authorization: $hq_auth" -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $(key)" \
    -d "{\"name\":\"$name\",\"timeZone\":\"$tz\",\"currency\":\"$currency\",\"replicaUrl\":\"file://$ROOT/$name-replica\",\"address\":\"http://127.0.0.1:$port\",\"token\":\"$token\"}" >/dev/null
done

cat <<EOF

Head office and three demo cities are running (data in $ROOT; Ctrl-C stops them all).

  Head office   http://127.0.0.1:$HQ_PORT   $HQ_EMAIL / $HQ_PASSWORD (hq_admin: the overview, pack
                search across the cities, recalls sent to every city, packs in transit, history, cities)
EOF
for city in "${CITIES[@]}"; do
  IFS=: read -r name prefix _ _ port <<<"$city"
  printf '  %-12s  http://127.0.0.1:%s   packs %s-…, demo logins as `make run` prints them (password %s), e.g. %s\n' \
    "$name" "$port" "$prefix" "$DEMO_PASSWORD" "$DEMO_MASTER"
done
echo
wait
