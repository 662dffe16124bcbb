# shellcheck shell=bash disable=SC2154 # $python is the sourcing script's
# Sourced by the device-call checks (run_all_check.sh, lease_check.sh): a call of bench/gpu/run-all.sh killed at
# its limit as the device tool ends a command, and what its archive holds. Needs $python.

# The cells of a dataset or checkpoint; 0 when it is absent.
cells_in() {
  "$python" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$1" 2> /dev/null || echo 0
}

# packed ARCHIVE PATTERN: the archive is there and lists a path that matches PATTERN (grep).
packed() {
  [[ -f $1 ]] && tar tzf "$1" 2> /dev/null | grep -q "$2"
}

# kill_when CALL STDOUT COMMAND...: once COMMAND succeeds, kills everything the call started with setsid as CALL
# (the steps run in process groups of their own, under timeout, but in the call's session), with SIGKILL, as the
# device tool ends a command at its limit. Fails, printing the call's STDOUT, if the call ends first.
kill_when() {
  local call=$1 stdout=$2
  shift 2
  for _ in $(seq 900); do
    "$@" && break
    kill -0 "$call" 2> /dev/null || { cat "$stdout"; echo "the call ended before it was killed"; exit 1; }
    sleep 0.2
  done
  pkill -KILL -s "$call" || true
  wait "$call" 2> /dev/null || true
}
