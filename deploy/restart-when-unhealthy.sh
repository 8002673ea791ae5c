#!/bin/sh
# Health check that restarts what it guards: runs the check given as arguments; after RETRIES failures
# in a row, kills the app (the child of the container's init), so the container exits and Docker's
# restart policy starts it again. Docker alone only marks a container unhealthy.
#   restart-when-unhealthy.sh RETRIES command [args...]
retries="$1"
shift
count_file=/tmp/vigil-health-failures
if "$@"; then
  rm -f "$count_file"
  exit 0
fi
failures=$(( $(cat "$count_file" 2>/dev/null || echo 0) + 1 ))
echo "$failures" >"$count_file"
if [ "$failures" -ge "$retries" ]; then
  rm -f "$count_file"
  # With `init: true` the app is PID 1's only child.
  # shellcheck disable=SC2013 # the file is one line of space-separated pids
  for pid in $(cat /proc/1/task/1/children 2>/dev/null); do kill -KILL "$pid"; done
fi
exit 1
