#!/usr/bin/env bash
# Smoke test of the compose stack (docker-compose.yml), as the GitHub workflow runs it:
# up with two API instances, wait healthy, use the bootstrap key, ping, a store that stops answering
# gives 503 with Retry-After within the deadline, recovery, down.
set -euo pipefail
cd "$(dirname "$0")/.."

export VIGIL_BOOTSTRAP_API_KEY="${VIGIL_BOOTSTRAP_API_KEY:-ci-bootstrap-key-$(date +%s)-0123456789}"
export VIGIL_METRICS_TOKEN="${VIGIL_METRICS_TOKEN:-ci-metrics-token-0123456789}"
export VIGIL_STORE_TIMEOUT_MS=2000
export VIGIL_PORT="${VIGIL_PORT:-3000}"
BASE="http://127.0.0.1:${VIGIL_PORT}"
AUTH=(-H "Authorization: Bearer ${VIGIL_BOOTSTRAP_API_KEY}")

# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  status=$?
  if [ "$status" -ne 0 ]; then docker compose ps; docker compose logs --no-color --tail=200; fi
  docker compose down -v --remove-orphans
  exit "$status"
}
trap cleanup EXIT

docker compose up --build --detach --wait --wait-timeout 300 --scale api=2

# Ready: both stores answer and the read models caught up.
for _ in $(seq 1 60); do
  if curl -fsS "${BASE}/readyz" >/dev/null; then break; fi
  sleep 2
done
curl -fsS "${BASE}/readyz"; echo

check=$(curl -fsS "${AUTH[@]}" -H 'Content-Type: application/json' \
  -d '{"name":"ci smoke","heartbeat":{"period":1,"periodUnit":"hours","grace":10,"graceUnit":"minutes"}}' \
  "${BASE}/v1/checks/heartbeat")
check_id=$(node -e 'console.log(JSON.parse(process.argv[1]).id)' "$check")
token=$(node -e 'console.log(JSON.parse(process.argv[1]).heartbeat.pingToken)' "$check")
curl -fsS "${BASE}/ping/${token}"; echo
# Read-your-writes across instances: the proxy spreads these over both API instances.
for _ in 1 2 3 4; do curl -fsS "${AUTH[@]}" "${BASE}/v1/checks/${check_id}" >/dev/null; done
# Metrics from every API instance, each scraped inside its own container (the proxy would pick one):
# each answers, and the accepted pings they count add up to the one ping sent.
instances=$(docker compose ps --quiet api)
test "$(echo "$instances" | wc -l)" -eq 2
accepted=0
for container in $instances; do
  docker exec --env VIGIL_METRICS_TOKEN "$container" node -e \
    "fetch('http://127.0.0.1:3000/metrics', { headers: { authorization: 'Bearer ' + process.env.VIGIL_METRICS_TOKEN } }).then(async (r) => { if (!r.ok) process.exit(1); process.stdout.write(await r.text()); }, () => process.exit(1))" \
    >"/tmp/smoke-metrics-${container}"
  grep -q '^vigil_store_call_duration_seconds_count{store="read"' "/tmp/smoke-metrics-${container}"
  count=$(awk '/^vigil_pings_total\{outcome="accepted"/ { sum += $2 } END { print sum + 0 }' "/tmp/smoke-metrics-${container}")
  echo "instance ${container:0:12}: ${count} accepted pings"
  accepted=$(( accepted + count ))
done
test "$accepted" -eq 1

# A MongoDB that stops answering (paused: connections stay open, nothing comes back).
docker compose pause mongo
started=$(date +%s%3N)
status=$(curl -s -o /tmp/smoke-body -D /tmp/smoke-headers -w '%{http_code}' --max-time 30 "${AUTH[@]}" "${BASE}/v1/checks/${check_id}")
elapsed=$(( $(date +%s%3N) - started ))
docker compose unpause mongo
echo "with MongoDB paused: ${status} after ${elapsed} ms"; cat /tmp/smoke-body; echo
test "$status" = 503
grep -qi '^retry-after:' /tmp/smoke-headers
test "$elapsed" -lt $(( VIGIL_STORE_TIMEOUT_MS * 3 ))

for _ in $(seq 1 30); do
  if curl -fsS "${AUTH[@]}" "${BASE}/v1/checks/${check_id}" >/dev/null; then echo "recovered"; exit 0; fi
  sleep 2
done
echo "did not recover after MongoDB came back" >&2
exit 1
