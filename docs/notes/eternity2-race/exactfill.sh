#!/bin/bash
# Tessera's break search with and without the exact fill (the default since
# issue 43; -no-exact-fill turns it off) at the same node
# budget: with one worker the backtracker places the same pieces and
# completes the same partial boards either way, so the boards of 463+ per
# CPU-hour differ only by how the boards are completed. For each seed both
# runs start together, pinned to cores 0 and 1 (swapped on odd seeds).
#
#   bash docs/notes/eternity2-race/exactfill.sh [OUTDIR]
#
# Needs .race-e2/tessera (build.sh) and jq. Settings: SEEDS (default
# "1 2 3 4"), NODES (default 4000000000 placements per run), AT (463).
set -u
root=$(pwd)
race=$root/.race-e2
out=${1:-$race/exactfill-$(date -u +%Y%m%dT%H%M%SZ)}
SEEDS=${SEEDS:-"1 2 3 4"}
NODES=${NODES:-4000000000}
AT=${AT:-463}
D=${TESSERA_DATA:-$root/../shared/data}/edgematch
T=$race/tessera
mkdir -p "$out"
echo "started $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD), seeds $SEEDS, $NODES placements each" >"$out/info.txt"
for s in $SEEDS; do
	echo "seed $s start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/info.txt"
	for v in plain exact; do
		core=0
		[ $v = exact ] && core=1
		[ $((s % 2)) = 1 ] && core=$((1 - core))
		flag=-no-exact-fill
		[ $v = exact ] && flag=
		mkdir -p "$out/s$s-$v"
		(cd "$out/s$s-$v" && GOMAXPROCS=1 taskset -c $core /usr/bin/time -v -o time.txt "$T" edgematch solve -algo partial $flag \
			-workers 1 -seed "$s" -max-nodes "$NODES" -timeout 0 -hints "$D/eternity2_clues.txt" -nhints 1 \
			-emit boards.jsonl -emit-at 460 -json "$D/eternity2.txt" >result.json 2>err.txt) &
	done
	wait
	echo "seed $s end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/info.txt"
done
echo "seed variant cpu_s nodes completed best boards_ge$AT (rescored)" >"$out/summary.txt"
for s in $SEEDS; do
	for v in plain exact; do
		dir=$out/s$s-$v
		n=0
		while IFS= read -r line; do
			jq -r .board <<<"$line" >"$dir/b.board"
			sc=$("$T" edgematch score -json -hints "$D/eternity2_clues.txt" -nhints 1 "$D/eternity2.txt" "$dir/b.board" | jq -r 'select(.complete and .frame_errors == 0) | .score')
			[ "${sc:-0}" -ge "$AT" ] && n=$((n + 1))
		done <"$dir/boards.jsonl"
		rm -f "$dir/b.board"
		cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$dir/time.txt")
		echo "$s $v $cpu $(jq -r '[.nodes, .completed, .score] | map(tostring) | join(" ")' "$dir/result.json") $n" >>"$out/summary.txt"
	done
done
cat "$out/summary.txt"
