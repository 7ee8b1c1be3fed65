#!/bin/bash
# The SameGame race: bnegreve/nrpa (level 3, 100 iterations, one thread)
# against Tessera's NRPA, every process on its own core, every answer
# rescored by `tessera samegame score`. Run from the repository root after
# build.sh, on a quiet Linux machine (no network needed):
#
#   bash docs/notes/samegame-race/race.sh [OUTDIR]
#
# It needs .race/same, .race/tessera, .race/problems.txt and
# .race/standard20.txt (build.sh makes the first three; the last is
# shared/data/samegame/standard20.txt). Settings (environment):
#
#   POSITIONS  the race's positions (default "1 2 3 11 16")
#   SEEDS      the seeds, the same for both sides (default "1 2 3 4")
#   SECS       seconds per race run (default 30; wall clock, one core each)
#   VARIANTS   Tessera's sides, "NAME=FLAGS" separated by ';', each run as
#              solve -algo nrpa FLAGS (default: "base=;stab4=-stabilize 4;
#              pairs_stab4=-tabu-pairs -stabilize 4")
#   STD20      Tessera sides that also run the standard 20 at STD20_SECS
#              (names from VARIANTS, space-separated; default "base stab4";
#              "none": no standard-20 run)
#   STD20_SECS seconds per position of the standard-20 run (default 60)
#   STD20_SEEDS seeds of the standard-20 run (default "1")
#   PEER20     1: the peer runs the standard 20 too (default 0)
#   JOBS       processes at a time (default: nproc)
#   PEER       the peer's binary in .race (default same; same-cpu on a loaded
#              machine, with CPU=1; none: Tessera's variants only, a screen)
#   CPU        1: Tessera counts its -timeout in CPU time (-cpu; default 0)
#
# Sizing, 16 cores: the default is 4 sides (the peer and 3 variants) x 5
# positions x 4 seeds = 80 runs of 30 s, plus 2 x 20 runs of 60 s: 4,800
# core-seconds, about 5 minutes with the longest runs first. One variant
# against the peer (VARIANTS="tessera=FLAGS" STD20=tessera): 40 runs of 30 s
# and 20 of 60 s, about 3 minutes.
set -u
root=$(pwd)
race=$root/.race
out=${1:-$race/out-$(date -u +%Y%m%dT%H%M%SZ)}
POSITIONS=${POSITIONS:-"1 2 3 11 16"}
SEEDS=${SEEDS:-"1 2 3 4"}
SECS=${SECS:-30}
VARIANTS=${VARIANTS:-"base=;stab4=-stabilize 4;pairs_stab4=-tabu-pairs -stabilize 4"}
STD20_SECS=${STD20_SECS:-60}
STD20_SEEDS=${STD20_SEEDS:-1}
PEER20=${PEER20:-0}
JOBS=${JOBS:-$(nproc)}
PEER=${PEER:-same}
CPU=${CPU:-0}
for f in $([ "$PEER" = none ] || echo "$PEER") tessera problems.txt standard20.txt; do
	test -f "$race/$f" || { echo "missing $race/$f (docs/notes/samegame-race/build.sh)" >&2; exit 1; }
done
mkdir -p "$out/runs"
names=()
declare -A flags
IFS=';' read -ra vs <<<"$VARIANTS"
for v in "${vs[@]}"; do
	names+=("${v%%=*}")
	flags[${v%%=*}]=${v#*=}
done
STD20=${STD20:-"base stab4"}

# The jobs, one per line: SIDE NAME POSITION SEED SECONDS, longest first.
{
	for name in $STD20; do
		[ -n "${flags[$name]+set}" ] || continue
		for s in $STD20_SEEDS; do for p in $(seq 1 20); do echo "tessera $name $p $s $STD20_SECS std20"; done; done
	done
	if [ "$PEER20" = 1 ]; then
		for s in $STD20_SEEDS; do for p in $(seq 1 20); do echo "peer peer $p $s $STD20_SECS std20"; done; done
	fi
	for s in $SEEDS; do
		for p in $POSITIONS; do
			[ "$PEER" = none ] || echo "peer peer $p $s $SECS race"
			for name in "${names[@]}"; do echo "tessera $name $p $s $SECS race"; done
		done
	done
} >"$out/jobs.txt"

one() { # SIDE NAME POSITION SEED SECONDS SET
	local side=$1 name=$2 p=$3 s=$4 secs=$5 set=$6
	local tag=$set-$name-p$p-s$s dir=$out/runs/$set-$name-p$p-s$s
	mkdir -p "$dir"
	local TIMEFORMAT='%R %U %S'
	if [ "$side" = peer ]; then
		ln -sf "$race/problems.txt" "$dir/problems.txt"
		{ time (cd "$dir" && "$race/$PEER" $((p - 1)) -r 1 -l 3 -n 100 -x 1 -t "$secs" -a "$s" >stdout.txt 2>stderr.txt); } 2>"$dir/time.txt"
		reported=$(sed -n 's/^Bestscore: //p' "$dir/stdout.txt" | tail -1)
		line=$(grep '^best ' "$dir/stderr.txt" | tail -1 | cut -d: -f2-)
	else
		local cpu=
		[ "$CPU" = 1 ] && cpu=-cpu
		# shellcheck disable=SC2086
		{ time (cd "$dir" && GOMAXPROCS=1 "$race/tessera" samegame solve -algo nrpa ${flags[$name]} $cpu \
			-timeout "${secs}s" -seed "$s" -json "$race/standard20.txt:$p" >stdout.txt 2>stderr.txt); } 2>"$dir/time.txt"
		reported=$(sed -n 's/.*"score":\([0-9-]*\).*/\1/p' "$dir/stdout.txt" | head -1)
		line=$(sed -n 's/.*"moves":"\([^"]*\)".*/\1/p' "$dir/stdout.txt" | head -1)
	fi
	rescored=$("$race/tessera" samegame score -json "$race/standard20.txt:$p" "$line" 2>"$dir/score-err.txt" |
		sed -n 's/.*"score":\([0-9-]*\).*/\1/p')
	echo "$set $name $p $s $secs ${reported:-none} ${rescored:-invalid} $(cat "$dir/time.txt")" >"$dir/result.txt"
}
export -f one
export out race PEER CPU
# flags travel to the subshells through a file
for n in "${names[@]}"; do echo "$n=${flags[$n]}"; done >"$out/variants.txt"
run_one() {
	declare -A flags
	while IFS= read -r l; do flags[${l%%=*}]=${l#*=}; done <"$out/variants.txt"
	one "$@"
}
export -f run_one
echo "$(date -u +%FT%TZ) start: $(wc -l <"$out/jobs.txt") runs, $JOBS at a time, $(nproc) cores; $(uptime)" | tee "$out/log.txt"
xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _ <"$out/jobs.txt"
echo "$(date -u +%FT%TZ) done; $(uptime)" | tee -a "$out/log.txt"

# results.txt: SET NAME POSITION SEED SECONDS REPORTED RESCORED WALL USER SYS
cat "$out"/runs/*/result.txt | sort -k1,1 -k2,2 -k4,4n -k3,3n >"$out/results.txt"
{
	echo "# runs whose rescored score differs from the reported one (should be none):"
	awk '$6 != $7' "$out/results.txt"
	echo "# race: totals over positions ($POSITIONS) per seed, rescored"
	awk '$1=="race"{t[$2" "$4]+=$7; a[$2]+=$7; n[$2" "$4]++; cpu[$2]+=$9+$10; runs[$2]++}
		END{for (k in t) print "seed-total", k, t[k], n[k]" runs";
			for (k in a) printf "all-seeds %s %d  (mean CPU %.1f s a run)\n", k, a[k], cpu[k]/runs[k];
			for (k in a) if (k != "peer" && a["peer"] > 0) printf "ratio %s/peer %.4f\n", k, a[k]/a["peer"]}' "$out/results.txt" | sort
	echo "# standard 20: totals per side and seed, rescored"
	awk '$1=="std20"{t[$2" seed "$4]+=$7; n[$2" seed "$4]++} END{for (k in t) print "std20-total", k, t[k], n[k]" positions"}' "$out/results.txt" | sort
} | tee "$out/summary.txt"
