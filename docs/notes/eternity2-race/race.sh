#!/bin/bash
# The Eternity II race: Blackwood's record method (the Rust port of his
# solver, NickButcher1/EternityII_Solver) against Tessera's break search
# (`edgematch solve -algo partial`), at equal CPU: for each seed both start
# at the same moment, the peer pinned to core 0 and Tessera (GOMAXPROCS=1,
# one worker) to core 1, for SECS seconds of wall clock. Run from the
# repository root after build.sh (needs taskset, /usr/bin/time, jq):
#
#   bash docs/notes/eternity2-race/race.sh [OUTDIR]
#
# Settings (environment): SEEDS (default "1 2 3 4"), SECS (default 900),
# AT (default 463: the score a board must reach to count), FLOOR (default
# 461: the peer's partial boards are completed exactly when they can reach
# it, so that every score from FLOOR up is exact on both sides), TFLAGS
# (default empty: more flags for Tessera's solve, e.g. -no-exact-fill).
#
# What counts, on both sides: every distinct complete board (all 256 pieces,
# the starter piece 139 at I8) of AT or more, rescored by `tessera edgematch
# score`. Tessera writes every distinct board it completes from 460 up
# (-emit, -emit-at 460). The peer saves every restart's new deepest partial
# board from depth 240 on (build.sh); each is completed in the best way by
# `tessera edgematch score -complete -complete-min FLOOR` (branch and bound
# over its empty cells, the placed pieces kept) after the race, and the
# distinct completed boards are counted. CPU seconds are user+sys from
# /usr/bin/time of each side.
set -u
root=$(pwd)
race=$root/.race-e2
out=${1:-$race/out-$(date -u +%Y%m%dT%H%M%SZ)}
SEEDS=${SEEDS:-"1 2 3 4"}
SECS=${SECS:-900}
AT=${AT:-463}
FLOOR=${FLOOR:-461}
TFLAGS=${TFLAGS:-}
D=${TESSERA_DATA:-$root/../shared/data}/edgematch
P=$D/eternity2.txt
H=(-hints "$D/eternity2_clues.txt" -nhints 1)
for f in e2peer tessera; do
	test -x "$race/$f" || { echo "missing $race/$f (docs/notes/eternity2-race/build.sh)" >&2; exit 1; }
done
mkdir -p "$out"
T=$race/tessera
# The load average once a minute while the race runs.
(while :; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 60; done) >"$out/load.log" &
loadpid=$!
trap 'kill $loadpid 2>/dev/null' EXIT
{
	echo "started $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD), seeds $SEEDS, $SECS s each"
	echo "peer: NickButcher1/EternityII_Solver 8ff3126 (rust/), build.sh; tessera: .race-e2/tessera built from this commit, flags: ${TFLAGS:-none}"
} >"$out/info.txt"

for s in $SEEDS; do
	dir=$out/s$s
	mkdir -p "$dir/peer" "$dir/tessera"
	echo "seed $s start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/info.txt"
	(cd "$dir/peer" && E2_SEED=$s E2_OUT=$PWD CORES=2 taskset -c 0 /usr/bin/time -v -o time.txt \
		timeout "$SECS" "$race/e2peer" >log.txt 2>&1) &
	peer=$!
	(cd "$dir/tessera" && GOMAXPROCS=1 taskset -c 1 /usr/bin/time -v -o time.txt \
		"$T" edgematch solve -algo partial $TFLAGS -workers 1 -seed "$s" "${H[@]}" -timeout "${SECS}s" \
		-emit boards.jsonl -emit-at 460 -o best.board -json "$P" >result.json 2>err.txt) &
	tess=$!
	wait $peer $tess
	echo "seed $s end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/info.txt"
done
kill $loadpid 2>/dev/null

# Scoring, after the race (nothing else runs then).
cpu() { # time.txt: user+sys seconds
	awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$1"
}
summary=$out/summary.txt
echo "seed side cpu_s boards_ge$AT best ge${FLOOR}_hist" >"$summary"
for s in $SEEDS; do
	dir=$out/s$s
	# Tessera: rescore every board it wrote.
	: >"$dir/tessera/scores.txt"
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		jq -r .board <<<"$line" >"$dir/tessera/b.board"
		sc=$("$T" edgematch score -json "${H[@]}" "$P" "$dir/tessera/b.board" | jq -r 'select(.complete and .frame_errors == 0) | .score')
		echo "$n ${sc:-invalid} $(jq -r .after_s <<<"$line")" >>"$dir/tessera/scores.txt"
		if [ "${sc:-0}" -ge "$AT" ]; then cp "$dir/tessera/b.board" "$dir/tessera/ge$AT-$n.board"; fi
	done <"$dir/tessera/boards.jsonl"
	rm -f "$dir/tessera/b.board"
	# The peer: complete every saved partial board, then keep the distinct.
	: >"$dir/peer/scores.txt"
	mkdir -p "$dir/peer/done"
	for f in "$dir"/peer/EternitySolutions/*.txt; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .txt)
		{ echo "16 16"; head -16 "$f" | sed 's#---/-#0/0#g'; } >"$dir/peer/p.board"
		sc=$("$T" edgematch score -json -complete -complete-min "$FLOOR" -o "$dir/peer/done/$name.board" "${H[@]}" "$P" "$dir/peer/p.board" 2>"$dir/peer/c.err" |
			jq -r 'select(.complete and .frame_errors == 0) | .score')
		how=$(grep -o 'proven the best\|not proven\|no completion' "$dir/peer/c.err")
		echo "$name ${name%%_*} ${sc:-invalid} ${how// /_} $(grep -v '^#' "$dir/peer/done/$name.board" | md5sum | cut -c1-12)" >>"$dir/peer/scores.txt"
	done
	rm -f "$dir/peer/p.board" "$dir/peer/c.err"
	for side in peer tessera; do
		if [ $side = peer ]; then
			# name depth score how digest: distinct completed boards
			sc=$(sort -u -k5,5 "$dir/peer/scores.txt" | awk '{print $3}')
		else
			sc=$(awk '{print $2}' "$dir/tessera/scores.txt")
		fi
		ge=$(awk -v a="$AT" '$1 >= a' <<<"$sc" | grep -c .)
		best=$(sort -n <<<"$sc" | tail -1)
		hist=$(awk -v f="$FLOOR" '$1 >= f {h[$1]++} END {for (k in h) printf "%s:%d,", k, h[k]}' <<<"$sc")
		echo "$s $side $(cpu "$dir/$side/time.txt") $ge ${best:-none} ${hist:-none}" >>"$summary"
	done
done
cat "$summary"
