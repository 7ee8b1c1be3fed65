#!/bin/sh
# Builds the two sides of the 24-puzzle race into .race-24/ (git-ignored):
#
#   .race-24/src        clausecker/24puzzle at 5e6b627 (git archive of its HEAD,
#                       without doc/), built with GNU cc and bmake (-O3
#                       -march=native, its Makefile's flags; clang is its
#                       default compiler and is not installed here)
#   .race-24/pdb        its zero-aware 6-tile tables of catalogues/$CAT (default
#                       clausecker.cat: four tables, 181 MB each, 46 CPU-s each
#                       here; small-compound.cat: fourteen; the search adds
#                       their transposes)
#   .race-24/fsm12.fsm  its move-pruning automaton from the blank's loops of up
#                       to 12 moves a side from every square (cmd/genloops -l 12
#                       -s 0..24, cmd/compilefsm): of the depths tried on
#                       instance 38 (none, 12, 14, 16), 12 took the least time
#                       (5.5 s, against 6.6 s without, 6.0 s and 6.5 s)
#   .race-24/tessera    cmd/tessera
#
# genloops and compilefsm are built apart at -O1: at -O2 and -O3 gcc's
# genloops prints only the four trivial loops of its square (an -O0 build
# and an -O1 build print the same 76 loops for -l 8 -s 12).
#
# Two edits to the peer's sources, by sed; the search is otherwise untouched:
#
# - struct patterndb and struct bitpdb hold an index_aux declared
#   alignas(32), and the code allocates them with malloc, which glibc aligns
#   to 16 bytes; gcc vectorises make_index_aux's loop with aligned 32-byte
#   stores, so pdbsearch crashes at once (SIGSEGV in make_index_aux). The
#   three malloc calls become aligned_alloc(64, ...).
# - its -t (catalogue_add_transpositions in catalogue.c) builds each
#   transposed partition's set of tables with "newset |= transposed[i]", an
#   index where a bit is meant: clausecker.cat -t then searched with its own
#   partition and a sum over three of its tables (the transposes unused),
#   and small-compound.cat -t returned lengths above the optimum (106 for
#   instance 38, whose optimum is 96). The line becomes
#   "newset |= 1ULL << transposed[i]".
#
# Run from the repository root with the peer's tree in .race-24/peer-src
# (git clone https://github.com/clausecker/24puzzle, or the fetch tool's
# mirror): sh docs/notes/npuzzle-race/build.sh (tables it has are loaded,
# not built again)
set -eu
root=$(pwd)
peer=$root/.race-24/peer-src
test -f "$peer/index.c" || { echo "missing $peer/index.c: put clausecker/24puzzle's tree there" >&2; exit 1; }
work=$root/.race-24/src
rm -rf "$work" && mkdir -p "$work" && cp -r "$peer"/. "$work"/ && rm -rf "$work/.git"
cd "$work"
sed -i 's/^\tpdb = malloc(sizeof \*pdb);/\tpdb = aligned_alloc(64, (sizeof *pdb + 63) \& ~(size_t)63);/' pdb.c
grep -q 'pdb = aligned_alloc' pdb.c
sed -i 's/bpdb = malloc(sizeof \*bpdb);/bpdb = aligned_alloc(64, (sizeof *bpdb + 63) \& ~(size_t)63);/' bitpdb.c
test "$(grep -c 'bpdb = aligned_alloc' bitpdb.c)" = 2
sed -i 's/^\t\t\tnewset |= transposed\[ctzll(set)\];/\t\t\tnewset |= 1ULL << transposed[ctzll(set)];/' catalogue.c
grep -q 'newset |= 1ULL << transposed' catalogue.c
bmake CC=cc cmd/pdbsearch >build.log 2>&1 || { tail build.log; exit 1; }
if ! test -s "$root/.race-24/fsm12.fsm"; then
	tools=$root/.race-24/tools
	rm -rf "$tools" && mkdir -p "$tools" && cp -r "$work"/. "$tools"/
	(cd "$tools" && bmake clean >/dev/null 2>&1; bmake CC=cc CFLAGS="-O1 -march=native" cmd/genloops cmd/compilefsm >build.log 2>&1) || { tail "$tools/build.log"; exit 1; }
	for sq in $(seq 0 24); do "$tools/cmd/genloops" -l 12 -s "$sq"; done >"$root/.race-24/loops12.txt"
	"$tools/cmd/compilefsm" <"$root/.race-24/loops12.txt" >"$root/.race-24/fsm12.fsm"
fi
mkdir -p "$root/.race-24/pdb"
# The tables: pdbsearch builds what the catalogue lacks, stores it in -d, and
# stops at the end of its input (3 minutes a table on one core here).
/usr/bin/time -f '%e s wall %U s user %M KiB' cmd/pdbsearch -j "${JOBS:-1}" -d "$root/.race-24/pdb" "catalogues/${CAT:-clausecker.cat}" </dev/null
cd "$root"
go build -o .race-24/tessera ./cmd/tessera
echo "built .race-24/src/cmd/pdbsearch and .race-24/tessera"
