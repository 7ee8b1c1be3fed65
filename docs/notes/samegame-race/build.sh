#!/bin/sh
# Builds the two sides of the SameGame race into .race/ (git-ignored), on a
# machine with Go, g++ and network access to nothing: the peer's sources must
# already be in .race/peer-src (bnegreve/nrpa at 8c11001, `git archive HEAD src`).
#
#   .race/same          bnegreve/nrpa's SameGame program, statically linked, with
#                       three missing return statements added (undefined
#                       behaviour at -O3) and one added line that writes every
#                       improving rollout's clicks to stderr ("best SCORE: x,y ...",
#                       x from the left, y from the bottom) so that Tessera can
#                       rescore its answers; the search itself is untouched
#   .race/same-cpu      the same, its -t timeout counted in CPU time (for a
#                       loaded machine: race.sh with PEER=same-cpu)
#   .race/tessera       cmd/tessera, CGO_ENABLED=0
#   .race/problems.txt  the peer's copy of the standard set
#
# Run from the repository root: sh docs/notes/samegame-race/build.sh
set -eu
root=$(pwd)
src=$root/.race/peer-src/src
test -f "$src/same.cpp" || { echo "missing $src/same.cpp: git archive bnegreve/nrpa's HEAD src into .race/peer-src" >&2; exit 1; }
work=$root/.race/peer-build
rm -rf "$work" && mkdir -p "$work" && cp -r "$src"/. "$work"/
cd "$work"
# The three functions that fall off their end without a return.
sed -i 's/inline int setScore(int score) { _score = score; }/inline int setScore(int score) { _score = score; return score; }/' rollout.hpp
grep -q 'return score; }' rollout.hpp
awk '/^istream &operator>>\(istream &is, Rollout<PL> &r\)/{f=1} f&&/^}/{print "  return is;"; f=0} {print}' rollout.inl >r.tmp && mv r.tmp rollout.inl
grep -q '  return is;' rollout.inl
sed -i 's/^  test(o); $/  return test(o);/' nrpa.inl
grep -q 'return test(o);' nrpa.inl
# The line that reports the best rollout's clicks (cell locations are
# row-major from the top-left of the 15x15 board).
sed -i 's/^  double score = board.score(); $/&\n  { static double raceBest = -1; if (score > raceBest) { raceBest = score; fprintf(stderr, "best %d:", (int)score); for (int i = 0; i < board.length; i++) fprintf(stderr, " %d,%d", board.rollout[i].locations[0] % 15, 14 - board.rollout[i].locations[0] \/ 15); fprintf(stderr, "\\n"); } }/' nrpa.inl
grep -q raceBest nrpa.inl
static="-static -pthread -Wl,--whole-archive -lpthread -Wl,--no-whole-archive"
g++ -O3 -DNDEBUG -std=c++11 -Werror=return-type -o same same.cpp nrpa.cpp $static
# same-cpu, for loaded machines only: the timeout (-t) counts the process's
# CPU time (clock()) instead of wall-clock time.
sed -i 's/^\([[:space:]]*\)_doneCond.wait_until(lk, _startTime + seconds(timerEvents\[i\]));/\1while (!_done \&\& clock() < (clock_t)timerEvents[i] * CLOCKS_PER_SEC) _doneCond.wait_for(lk, milliseconds(20));/' stats.hpp
grep -q 'clock() < (clock_t)timerEvents' stats.hpp
g++ -O3 -DNDEBUG -std=c++11 -Werror=return-type -o same-cpu same.cpp nrpa.cpp $static
cp same same-cpu problems.txt "$root/.race/"
cp "${TESSERA_DATA:-$root/../shared/data}/samegame/standard20.txt" "$root/.race/"
cd "$root"
CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o .race/tessera ./cmd/tessera
echo "built .race/same and .race/tessera"
