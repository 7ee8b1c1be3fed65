#!/bin/bash
# The standard 20, a long run through the jobs: a `tessera jobs server`, a
# `tessera worker -workers W` beside it, and for each position one
# `tessera samegame solve -algo nrpa -dist W -tabu-colors 5 -nats URL
# -timeout SECS -seed S -json`: the distributed NRPA (Negrevergne and
# Cazenave) whose root runs in the solve process and whose W level-2
# searches at a time are jobs on the worker; on positions 11-15 its
# restarts keep their five tied colours for last in turn. Every line is
# rescored by `tessera samegame score`. Run from the repository root on a
# quiet machine after build.sh (it uses .race/tessera):
#
#   bash docs/notes/samegame-race/longrun.sh OUTDIR
#
# Settings (environment): SECS (wall seconds a position, default 150), W
# (default nproc), SEED (default 1), POSITIONS (default 1-20), FLAGS (more
# solve flags), PORT (default 24744).
#
# OUTDIR/summary.txt: a line a position with its reported and rescored
# score, its wall seconds and the worker's CPU seconds for it (user+system,
# from /proc), then the total.
set -u
root=$(pwd)
race=$root/.race
out=$(realpath -m "${1:?usage: longrun.sh OUTDIR}")
SECS=${SECS:-150}
W=${W:-$(nproc)}
SEED=${SEED:-1}
POSITIONS=${POSITIONS:-$(seq 1 20)}
FLAGS=${FLAGS:-}
PORT=${PORT:-24744}
set20=$race/standard20.txt
test -x "$race/tessera" -a -f "$set20" || { echo "missing .race/tessera or .race/standard20.txt (build.sh)" >&2; exit 1; }
mkdir -p "$out/store"
url=nats://127.0.0.1:$PORT
"$race/tessera" jobs server -addr "127.0.0.1:$PORT" -store "$out/store" >"$out/server.log" 2>&1 &
server=$!
sleep 2
export TESSERA_NATS_CREDS=$out/store/token
"$race/tessera" worker -nats "$url" -workers "$W" -name longrun >"$out/worker.log" 2>&1 &
worker=$!
trap 'kill $worker $server 2>/dev/null; wait 2>/dev/null' EXIT
sleep 1
cpu() { awk '{print $14 + $15}' "/proc/$worker/stat"; }
tick=$(getconf CLK_TCK)
sum=$out/summary.txt
echo "# position reported rescored wall_s worker_cpu_s; SECS=$SECS W=$W SEED=$SEED FLAGS='$FLAGS' ($(git rev-parse --short HEAD), $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg))" >"$sum"
total=0
for p in $POSITIONS; do
	c0=$(cpu)
	t0=$(date +%s.%N)
	"$race/tessera" samegame solve -algo nrpa -dist "$W" -tabu-colors 5 $FLAGS -nats "$url" \
		-timeout "${SECS}s" -seed "$SEED" -json "$set20:$p" >"$out/$p.json" 2>"$out/$p.err"
	t1=$(date +%s.%N)
	c1=$(cpu)
	reported=$(sed -n 's/.*"score":\([0-9-]*\).*/\1/p' "$out/$p.json" | head -1)
	moves=$(sed -n 's/.*"moves":"\([^"]*\)".*/\1/p' "$out/$p.json" | head -1)
	rescored=$("$race/tessera" samegame score -json "$set20:$p" "$moves" | sed -n 's/.*"score":\([0-9-]*\).*/\1/p')
	total=$((total + ${rescored:-0}))
	printf '%s %s %s %.1f %.1f\n' "$p" "${reported:--}" "${rescored:--}" "$(echo "$t1 - $t0" | bc)" "$(echo "($c1 - $c0) / $tick" | bc -l)" | tee -a "$sum"
done
echo "# total $total; end $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$sum"
