# Sourced by scripts/deploy/install-chart.sh and scripts/deploy/operations-commands.sh: the
# servers they start in the background, a throwaway folder, and how they fail.
# Set `name` (the script's name in messages) before sourcing; then `pids+=($!)` after each
# server started, `fail MESSAGE` to stop with the last lines of "$work"/*.log.
work="$(mktemp -d)"
pids=()
# Stopped newest first, each as a process group when it leads one (setsid); whatever is
# left after 10 s is killed (kube-apiserver does not stop on SIGTERM while etcd is gone).
stop_background() {
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -- "-${pids[i]}" 2>/dev/null || kill "${pids[i]}" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "${pids[i]}" 2>/dev/null || break; sleep 0.5; done
    kill -9 "${pids[i]}" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap stop_background EXIT
fail() {
  echo "$name: $*" >&2
  for log in "$work"/*.log; do echo "--- $log (last lines)" >&2; tail -n 20 "$log" >&2; done
  exit 1
}
# free_port: a port below the kernel's ephemeral range (scripts/free-port.sh says why).
source "$(dirname "${BASH_SOURCE[0]}")/../free-port.sh"
