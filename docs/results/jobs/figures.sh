#!/bin/bash
# Figures for docs/results/jobs.md. Usage: figures.sh OUTDIR
set -u
B=/tmp/tessera-jobs
O=$1; mkdir -p $O
PORT=14300; URL=nats://127.0.0.1:$PORT
ARGS="samegame bench -rules dust -algo exact -n 200 -size 6x6 -seed 8001 -timeout 0 -table-bits 18 -cpu -json"
cd /work/wt-jobs
uptime > $O/load-start.txt
rm -rf $O/store
$B jobs server -addr 127.0.0.1:$PORT -store $O/store -ack-wait 5s > $O/server.log 2>&1 &
SP=$!
sleep 2
# per-job overhead: 10,000 empty jobs, one in flight, one worker process
$B worker -nats $URL -workers 1 -name ovh > $O/ovh-worker.log 2>&1 &
WP=$!
sleep 1
( uptime; $B jobs bench -nats $URL -n 10000 -json; uptime ) > $O/overhead-nats.txt 2>&1
kill $WP; wait $WP 2>/dev/null
( uptime; $B jobs bench -n 10000 -workers 1 -json; uptime ) > $O/overhead-embedded.txt 2>&1
for W in 1 2 4; do
  PIDS=()
  for k in $(seq $W); do $B worker -nats $URL -workers 1 -name w$W-$k > $O/w$W-$k.log 2>&1 & PIDS+=($!); done
  sleep 1
  uptime > $O/load-n$W.txt
  /usr/bin/time -f "%e s wall %U s user %S s sys" -o $O/time-n$W.txt $B $ARGS -workers 2 -nats $URL > $O/nats-$W.jsonl 2> $O/nats-$W.err
  uptime >> $O/load-n$W.txt
  for p in ${PIDS[@]}; do kill $p; done; wait ${PIDS[@]} 2>/dev/null
done
# killed twice: three worker processes; at two random moments one random worker is killed with SIGKILL and a fresh one started
PIDS=()
for k in 1 2 3; do $B worker -nats $URL -workers 1 -name k$k > $O/k$k.log 2>&1 & PIDS+=($!); done
sleep 1
uptime > $O/load-kill.txt
/usr/bin/time -f "%e s wall %U s user %S s sys" -o $O/time-kill.txt $B $ARGS -workers 2 -nats $URL > $O/nats-kill.jsonl 2> $O/nats-kill.err &
BP=$!
for round in 1 2; do
  sleep $((10 + RANDOM % 20))
  i=$((RANDOM % 3))
  echo "$(date +%T) round $round: SIGKILL worker pid ${PIDS[$i]}" >> $O/kills.txt
  kill -KILL ${PIDS[$i]}
  $B worker -nats $URL -workers 1 -name r$round > $O/r$round.log 2>&1 & PIDS[$i]=$!
done
wait $BP
uptime >> $O/load-kill.txt
for p in ${PIDS[@]}; do kill $p; done; wait ${PIDS[@]} 2>/dev/null
$B jobs list -nats $URL -json > $O/jobs-list.jsonl
kill $SP; wait $SP 2>/dev/null
# local reference last
uptime > $O/load-local.txt
/usr/bin/time -f "%e s wall %U s user %S s sys" -o $O/time-local.txt $B $ARGS -workers 2 > $O/local.jsonl 2> $O/local.err
uptime >> $O/load-local.txt
echo finished > $O/done
