#!/bin/bash
# The 24-puzzle race: clausecker/24puzzle's pdbsearch (a zero-aware 6-tile
# catalogue of its, CAT, with the transposes, -t) against Tessera's
# npuzzle bench (6-6-6-6+zero with its reflection, -fsm F), each on its own
# core, the two runs of an instance started together. Run from the
# repository root after build.sh, on a quiet machine with two cores:
#
#   bash docs/notes/npuzzle-race/race.sh OUTDIR
#
# Settings (environment): INSTANCES (default the ten cheapest by Korf and
# Felner's counts: 38 40 25 32 44 37 30 13 1 28), LIMIT (seconds an instance,
# default 600), FSM (Tessera's -fsm, default 12), PEER_FSM (the peer's
# automaton, -m; default .race-24/fsm12.fsm from build.sh; "none": its
# built-in one, which prunes only the move back), CAT (the peer's catalogue
# in its catalogues/, default clausecker.cat: four tables; small-compound.cat,
# the one its README recommends, has fourteen: build.sh with CAT=... builds
# the tables), SET (default $TESSERA_DATA/sliding/korf-felner-24.txt),
# SIDES (both, the default; peer: the peer alone, on core PEER_CORE, default
# 0, so that two catalogues can run at once, one a core).
#
# OUTDIR/summary.txt has a line an instance: instance, optimal length, the
# peer's length, expanded nodes (those whose children it generates), its
# own search seconds and its process's user CPU seconds (the tables are
# mapped from .race-24/pdb), then Tessera's length, expanded and generated
# nodes and search seconds (one worker: CPU seconds; its table load is apart).
set -u
root=$(pwd)
r=$root/.race-24
out=$(realpath -m "${1:?usage: race.sh OUTDIR}")
data=${TESSERA_DATA:-$root/../shared/data}
SET=${SET:-$data/sliding/korf-felner-24.txt}
INSTANCES=${INSTANCES:-"38 40 25 32 44 37 30 13 1 28"}
LIMIT=${LIMIT:-600}
FSM=${FSM:-12}
PEER_FSM=${PEER_FSM:-$r/fsm12.fsm}
CAT=${CAT:-clausecker.cat}
SIDES=${SIDES:-both}
PEER_CORE=${PEER_CORE:-0}
pm=()
[ "$PEER_FSM" = none ] || pm=(-m "$(realpath "$PEER_FSM")")
for f in src/cmd/pdbsearch tessera "pdb/0,1,2,5,6,10,11.pdb" "src/catalogues/$CAT"; do
	test -e "$r/$f" || { echo "missing $r/$f (docs/notes/npuzzle-race/build.sh)" >&2; exit 1; }
done
mkdir -p "$out"
sum=$out/summary.txt
echo "# instance optimal | peer: length expanded search_s user_s | tessera: length expanded generated search_s; FSM=$FSM CAT=$CAT PEER_FSM=$PEER_FSM LIMIT=$LIMIT ($(git rev-parse --short HEAD), $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg))" >"$sum"
for i in $INSTANCES; do
	line=$(sed -n "${i}p" "$SET")
	opt=${line##* }
	echo "$line" | awk '{NF--; print}' | tr ' ' ',' >"$out/$i.in"
	( cd "$r/src" && /usr/bin/time -f 'time %e %U %S %M' -o "$out/$i.peer.time" \
		timeout "$LIMIT" taskset -c "$PEER_CORE" cmd/pdbsearch -j 1 -t "${pm[@]}" -d "$r/pdb" "catalogues/$CAT" \
		<"$out/$i.in" >"$out/$i.peer.out" 2>"$out/$i.peer.err" ) &
	[ "$SIDES" = peer ] || /usr/bin/time -f 'time %e %U %S %M' -o "$out/$i.tessera.time" \
		taskset -c 1 "$r/tessera" npuzzle bench -set "$SET" -goal blank-first -partition 6-6-6-6+zero \
		-fsm "$FSM" -instances "$i" -workers 1 -max-mem 4096 -timeout "${LIMIT}s" -json \
		>"$out/$i.tessera.json" 2>"$out/$i.tessera.err"
	wait
	psol=$(sed -n 's/^.*Solution found: //p' "$out/$i.peer.out" | head -1)
	plen=$([ -n "$psol" ] && echo "$psol" | awk -F, '{print NF}')
	pexp=$(sed -n 's/^Expanded \([0-9]*\) nodes in total.*/\1/p' "$out/$i.peer.err" | tail -1)
	psec=$(sed -n 's/^Spent \([0-9.]*\) seconds in total.*/\1/p' "$out/$i.peer.err" | tail -1)
	puser=$(awk '/^time/{print $3}' "$out/$i.peer.time")
	tl=$(head -1 "$out/$i.tessera.json" 2>/dev/null)
	tlen=$(echo "$tl" | sed -n 's/.*"length":\([0-9]*\).*/\1/p')
	tsolved=$(echo "$tl" | sed -n 's/.*"solved":\([a-z]*\).*/\1/p')
	texp=$(echo "$tl" | sed -n 's/.*"expanded":\([0-9]*\).*/\1/p')
	tgen=$(echo "$tl" | sed -n 's/.*"generated":\([0-9]*\).*/\1/p')
	tsec=$(echo "$tl" | sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p')
	[ "$tsolved" = true ] || tlen=-
	echo "$i $opt | ${plen:--} ${pexp:--} ${psec:--} ${puser:--} | ${tlen:--} ${texp:--} ${tgen:--} ${tsec:--}" | tee -a "$sum"
done
echo "# end $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$sum"
