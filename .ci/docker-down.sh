#!/usr/bin/env bash
# docker-down.sh undoes docker-up.sh: it removes the containers that
# testcontainers left behind (label org.testcontainers=true; Ryuk, the reaper
# that would normally do it, is disabled because its image cannot be pulled)
# and stops exactly the dockerd whose PID docker-up.sh recorded. An engine
# that docker-up.sh did not start is left running.
set -uo pipefail

state_dir="${SERVEBENCH_DOCKER_STATE:-/tmp/servebench-dockerd}"
wait_s="${SERVEBENCH_DOCKER_WAIT_S:-60}"
pid_file="$state_dir/dockerd.pid"

if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
	leftovers="$(docker ps -aq --filter label=org.testcontainers=true)"
	if [[ -n "$leftovers" ]]; then
		echo "docker-down: removing leftover containers: $(echo "$leftovers" | tr '\n' ' ')"
		echo "$leftovers" | xargs -r docker rm -f >/dev/null
	fi
fi

if [[ ! -f "$pid_file" ]]; then
	echo "docker-down: no dockerd was started by docker-up.sh; nothing to stop"
	exit 0
fi

pid="$(cat "$pid_file")"
if ! kill -0 "$pid" 2>/dev/null; then
	echo "docker-down: dockerd $pid is no longer running"
	rm -f "$pid_file"
	exit 0
fi

kill -TERM "$pid"
for ((i = 0; i < wait_s; i++)); do
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "docker-down: dockerd $pid stopped after ${i}s"
		rm -f "$pid_file"
		exit 0
	fi
	sleep 1
done

echo "docker-down: dockerd $pid did not stop within ${wait_s}s; sending SIGKILL" >&2
kill -KILL "$pid" 2>/dev/null || true
rm -f "$pid_file"
exit 1
