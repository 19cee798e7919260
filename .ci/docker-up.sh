#!/usr/bin/env bash
# docker-up.sh starts a Docker engine for the container specs of this
# repository, on a machine that has none running and no registry in reach.
#
# - Installs Debian's docker.io when dockerd is missing.
# - Starts `dockerd --iptables=false --ip6tables=false` in the background (the
#   firewall is left as it is), with its log in $SERVEBENCH_DOCKER_STATE/dockerd.log.
# - Waits, bounded by $SERVEBENCH_DOCKER_WAIT_S seconds (default 60), until
#   `docker info` answers.
# - Writes the PID of the dockerd it started to $SERVEBENCH_DOCKER_STATE/dockerd.pid,
#   so that docker-down.sh stops exactly that process.
#
# An engine that already answers is left alone and no PID file is written.
set -euo pipefail

state_dir="${SERVEBENCH_DOCKER_STATE:-/tmp/servebench-dockerd}"
wait_s="${SERVEBENCH_DOCKER_WAIT_S:-60}"
pid_file="$state_dir/dockerd.pid"
log_file="$state_dir/dockerd.log"
mkdir -p "$state_dir"

if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
	echo "docker-up: a Docker engine already answers; not starting another"
	exit 0
fi

if ! command -v dockerd >/dev/null 2>&1; then
	echo "docker-up: dockerd not found; installing Debian's docker.io"
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y docker.io
fi

if [[ -f "$pid_file" ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
	echo "docker-up: dockerd $(cat "$pid_file") from an earlier start is still running; waiting for it"
else
	# --iptables=false: a default start rewrites the firewall (FORWARD policy
	# drop, NAT rules). The default bridge network is kept: testcontainers
	# needs it.
	nohup dockerd --iptables=false --ip6tables=false >"$log_file" 2>&1 &
	echo $! >"$pid_file"
	echo "docker-up: started dockerd (pid $(cat "$pid_file"), log $log_file)"
fi

pid="$(cat "$pid_file")"
for ((i = 0; i < wait_s; i++)); do
	if docker info >/dev/null 2>&1; then
		echo "docker-up: engine ready after ${i}s ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo unknown version))"
		exit 0
	fi
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "docker-up: dockerd (pid $pid) exited; last lines of $log_file:" >&2
		tail -n 30 "$log_file" >&2 || true
		rm -f "$pid_file"
		exit 1
	fi
	sleep 1
done

echo "docker-up: docker info did not answer within ${wait_s}s; last lines of $log_file:" >&2
tail -n 30 "$log_file" >&2 || true
exit 1
