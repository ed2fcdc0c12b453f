# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/test: runs a job as named steps, times each one and prints their table when
# the job ends, whether it passed or failed, so the next person sees where the time goes.
#
#   step NAME COMMAND [ARG...]             runs COMMAND in the foreground; fails the job if it fails
#   step_background NAME COMMAND [ARG...]  starts COMMAND beside the foreground steps, its output
#                                          kept in $steps_logs/NAME.log and shown when it is waited for
#   step_wait NAME                         waits for a background step; fails the job if it failed
#
# A NAME has no quote: it is a key of bash's associative arrays, and `unset "steps_pids[$name]"`
# misreads a key with one (the step was then reported a second time at the end).
#
# The table gives each step's start (seconds since the job began), its wall time, the CPU time
# its processes used (user and system, of every process it waited for: what it costs the other
# steps on a machine whose cores are all busy) and its result; a background step is marked "bg"
# and its wall time runs from its start to the moment it is waited for. The job's total is the
# last line. Budgets per step: CONTRIBUTING.md, "How long CI takes".

steps_started=$SECONDS
steps_logs="${TMPDIR:-/tmp}/satchel-steps.$$"
mkdir -p "$steps_logs"
steps_rows=()
declare -A steps_pids=() steps_begin=()

steps_slug() { tr -c 'A-Za-z0-9\n' '-' <<<"$1"; }

steps_result() { # STATUS
  if [ "$1" -eq 0 ]; then echo passed; else echo "FAILED ($1)"; fi
}

# `bash -c "$steps_run" steps CPU-FILE COMMAND [ARG...]` runs COMMAND and, when it ends, writes
# the CPU seconds of the processes it waited for (bash's `times`, its second line) to CPU-FILE;
# it exits with COMMAND's status.
# shellcheck disable=SC2016  # expanded by the bash that runs it
steps_run='cpu_file=$1; shift; status=0; "$@" || status=$?
times >"$cpu_file"  # a file, not a pipe: the subshell of a pipeline has no children
awk '"'"'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%d\n", t }'"'"' \
  "$cpu_file" >"$cpu_file.s" && mv "$cpu_file.s" "$cpu_file"
exit $status'

steps_row() { # NAME KIND START END RESULT
  local cpu
  cpu=$(cat "$steps_logs/$(steps_slug "$1").cpu" 2>/dev/null || echo -)
  steps_rows+=("$(printf '%-44s %-3s %6d %6d %6s  %s' "$1" "$2" "$(($3 - steps_started))" "$(($4 - $3))" "$cpu" "$5")")
}

step() {
  local name=$1 begin=$SECONDS status=0
  shift
  echo "::step $name" >&2
  bash -c "$steps_run" steps "$steps_logs/$(steps_slug "$name").cpu" "$@" || status=$?
  steps_row "$name" fg "$begin" "$SECONDS" "$(steps_result "$status")"
  return $status
}

step_background() {
  case $1 in *\'* | *\"*) echo "steps: the step name \"$1\" has a quote" >&2; return 64 ;; esac
  local name=$1
  shift
  echo "::step $name (in the background; log: $steps_logs/$(steps_slug "$name").log)" >&2
  steps_begin[$name]=$SECONDS
  # A session of its own, so that stopping it stops its children too (steps_report).
  setsid bash -c "$steps_run" steps "$steps_logs/$(steps_slug "$name").cpu" "$@" \
    >"$steps_logs/$(steps_slug "$name").log" 2>&1 &
  steps_pids[$name]=$!
}

# A background step that runs at idle priority (`chrt --idle 0`) takes only the CPU nothing else
# wants; once the job waits for it, it is the job's foreground, and an unrelated load on the
# machine would starve it (stress-ng's workers leave idle tasks next to nothing): each of its
# processes gets a normal share from then on (their later children inherit it).
steps_promote() { # SESSION-ID
  local pid
  for pid in $(ps -o pid= -s "$1" 2>/dev/null); do chrt --other -a -p 0 "$pid" >/dev/null 2>&1 || true; done
}

step_wait() {
  local name=$1 status=0
  steps_promote "${steps_pids[$name]}"
  wait "${steps_pids[$name]}" || status=$?
  echo "::step $name ended; its output:" >&2
  cat "$steps_logs/$(steps_slug "$name").log" >&2
  steps_row "$name" bg "${steps_begin[$name]}" "$SECONDS" "$(steps_result "$status")"
  unset "steps_pids[$name]"
  return $status
}

steps_report() {
  local status=$? name
  # A background step not waited for (a foreground step failed first): its result if it has
  # ended, else it is stopped.
  for name in "${!steps_pids[@]}"; do
    local pid=${steps_pids[$name]} result=stopped
    if kill -0 "$pid" 2>/dev/null; then
      kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
    elif wait "$pid"; then
      result="passed (ended before it was waited for)"
    else
      result=$(steps_result $?)
    fi
    steps_row "$name" bg "${steps_begin[$name]}" "$SECONDS" "$result"
    echo "::step $name ($result); the end of its output:" >&2
    tail -n 40 "$steps_logs/$(steps_slug "$name").log" >&2 2>/dev/null || true
  done
  {
    echo
    printf '%-44s %-3s %6s %6s %6s  %s\n' step "" start wall cpu result
    printf '%s\n' "${steps_rows[@]}"
    printf '%-44s %-3s %6s %6d %6s  %s\n' total "" "" "$((SECONDS - steps_started))" "" \
      "$(steps_result "$status")"
  } >&2
  rm -rf "$steps_logs"
}
trap steps_report EXIT
