#!/bin/bash
# trust-sigint.sh BIN DIR: issue 38's figure "every command of item 6 ends
# within 2 s of a SIGINT". Each command is started, sent SIGINT after a
# delay, and the time to its exit printed. DIR must hold e28.txt
# (tessera edgematch generate -size 28x28 -colors 20 -seed 1 -o DIR/e28.txt)
# and big.webp (a 10000x10000 lossless WebP of one colour, 34 bytes: the
# solidWebP(10000, 10000) of cmd/tessera/interrupt_test.go). The FIFO cases
# must end before the signal: a FIFO is refused before it is opened.
B=${1:?tessera binary}
W=${2:?scratch folder}
D=${TESSERA_DATA:-/work/shared/data}/jigsaw
one() { # delay, then the command
	local delay=$1
	shift
	"$B" "$@" >/dev/null 2>"$W/err.txt" &
	local pid=$!
	sleep "$delay"
	if ! kill -0 $pid 2>/dev/null; then
		wait $pid
		echo "ended before the SIGINT (exit $?): $* :: $(head -1 "$W/err.txt")"
		return
	fi
	local t0 t1 rc
	t0=$(date +%s.%N)
	kill -INT $pid
	wait $pid
	rc=$?
	t1=$(date +%s.%N)
	printf '%.2f s after SIGINT, exit %d: %s :: %s\n' "$(echo "$t1 - $t0" | bc)" $rc "$*" "$(tail -1 "$W/err.txt")"
}
one 1 npuzzle shuffle -size 10x10 -moves 100000000
one 2 tangram bench -n 100000 -algo exact
one 3 edgematch solve -algo lp -timeout 60s "$W/e28.txt"
one 2 jigsaw mosaic -cols 3 -crop 1652x1120 -o "$W/m.png" $D/bgu3300/{1,2,3}.jpg $D/bgu2360/{1,2,3}.jpg
one 1 jigsaw scramble -piece 100 -o "$W/s.png" "$W/big.webp"
one 1 jigsaw neural solve "$W/big.webp"
rm -f "$W/fifo"
mkfifo "$W/fifo"
one 1 edgematch solve -count -split 2 -journal "$W/fifo" "$W/e28.txt"
one 1 edgematch solve "$W/fifo"
