#!/bin/sh
# tl-ranks --slurm on a real one-node Slurm cluster this test starts from
# Debian's packages (munge, slurmctld, slurmd; a generated munge key and
# slurm.conf in the scratch folder, its own munge socket and spare ports,
# so nothing of the system's is used or changed) and stops: the map as a
# job array, the reduce as a job after it (afterok), --wait, and outputs
# equal to the local run's, byte for byte.
. "$TL_SRC/tests/lib.sh"

why=
for p in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd; do
	[ -x $p ] || why="$why ${p##*/}"
done
for p in sbatch scontrol sinfo munge; do
	command -v $p >/dev/null 2>&1 || why="$why $p"
done
if [ -n "$why" ]; then
	why="missing:$why (apt-get install slurm-wlm munge)"
elif [ "$(id -u)" != 0 ]; then
	why='not root: slurmd runs jobs as their users and must be root'
fi
if [ -n "$why" ]; then
	test_skip 'tl-ranks --slurm on a one-node Slurm' "$why"
	test_done
	exit
fi

S=$TRASH/slurm
mkdir -p "$S/state" "$S/spool"	# munged wants its socket's folder searchable by all
host=$(hostname -s)
pids=
stop() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	pids=
}
trap stop EXIT INT TERM

# munge with its own key and socket
dd if=/dev/urandom of="$S/munge.key" bs=1024 count=1 2>/dev/null && chmod 600 "$S/munge.key"
/usr/sbin/munged -F --socket="$S/munge.socket" --key-file="$S/munge.key" \
	--pid-file="$S/munged.pid" --seed-file="$S/munged.seed" 2>"$S/munged.log" &
pids="$pids $!"
i=0
until timeout 5 munge -S "$S/munge.socket" -n >/dev/null 2>&1 || [ $i -gt 50 ]; do sleep 0.2; i=$((i + 1)); done

listening() { awk -v p="$(printf '%04X' "$1")" 'NR > 1 && $4 == "0A" { split($2, a, ":"); if (a[2] == p) f = 1 } END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null; }
port=$((30000 + $$ % 20000))
while listening $port || listening $((port + 1)); do port=$((port + 2)); done
cat >"$S/slurm.conf" <<EOF
ClusterName=tltest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$S/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=tl Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$S/slurm.conf
export SLURM_CONF
/usr/sbin/slurmctld -D -i -f "$S/slurm.conf" >"$S/slurmctld.out" 2>&1 &
pids="$pids $!"
/usr/sbin/slurmd -D -f "$S/slurm.conf" -N "$host" >"$S/slurmd.out" 2>&1 &
pids="$pids $!"
node_state() { timeout 10 sinfo -h -o %T 2>&1 | head -n 1; }
i=0
until [ "$(node_state)" = idle ] || [ $i -gt 60 ]; do sleep 0.5; i=$((i + 1)); done
# Everything it needs is installed and we are root: a cluster that does
# not come up is a failure, not a skip.
test_expect_success 'the one-node cluster comes up (munged, slurmctld, slurmd)' '
	state=$(node_state) && test "$state" = idle || {
		echo "node: $state"; tail -n 5 "$S"/munged.log "$S"/slurmctld.log "$S"/slurmd.log; exit 1; }
'
if [ "$(node_state)" != idle ]; then
	stop
	test_done
	exit
fi

# The ranks: the corpus's 8 V100 ranks, or the sample as 3 ranks.
ranks= nranks=
if have_shared; then
	for i in 0 1 2 3 4 5 6 7; do ranks="$ranks $SHARED/corpus/multirank-dlrm-v100x8/ranks/rank$i.json.gz"; done
	nranks=8
else
	mkdir in
	for i in 0 1 2; do
		sed "s/\"rank\": 0, \"world_size\": 2/\"rank\": $i, \"world_size\": 3/" \
			"$TL_SRC/share/tl/sample/trace.json" >in/rank$i.json
		ranks="$ranks $PWD/in/rank$i.json"
	done
	nranks=3
fi
first=$(echo $ranks | cut -d" " -f1)
mkdir local slurm chunk
test_expect_success 'the local run' '
	(cd local && tl-ranks --xargs -j 2 -o job $ranks >out 2>err)
'
test_expect_success 'tl-ranks --slurm --wait: a job array, then the reduce, job ids printed' '
	(cd slurm && tl-ranks --slurm --wait -o job $ranks >out 2>err) &&
	sed -n 1p slurm/out | grep -q "^map [0-9][0-9]*$" &&
	sed -n 2p slurm/out | grep -q "^reduce [0-9][0-9]*$" &&
	sed -n 3p slurm/out | grep -qx job
'
test_expect_success 'one array task per rank ran, the reduce after them' '
	ls slurm/job/.tl-ranks/slurm-map-*.out | wc -l >n && echo $nranks >want && test_cmp want n &&
	test -f slurm/job/.tl-ranks/slurm-reduce.out
'
test_expect_success 'the Slurm outputs equal the local run'"'"'s, byte for byte' '
	diff -r -x .tl-ranks local/job slurm/job &&
	for k in $(seq 0 $((nranks - 1))); do
		cmp local/job/.tl-ranks/rank_$k.coll slurm/job/.tl-ranks/rank_$k.coll || exit 1
	done
'
test_expect_success '--slurm-chunk 3: tasks of three ranks, the same bytes' '
	(cd chunk && tl-ranks --slurm --slurm-chunk 3 --wait -o job $ranks >out 2>err) &&
	ls chunk/job/.tl-ranks/slurm-map-*.out | wc -l >n &&
	echo $(((nranks + 2) / 3)) >want && test_cmp want n &&
	diff -r -x .tl-ranks local/job chunk/job
'
test_expect_success 'without --wait: the ids, at once; the report comes when the reduce ends' '
	mkdir nowait && (cd nowait && tl-ranks --slurm -o job $ranks >out 2>err) &&
	red=$(sed -n "s/^reduce //p" nowait/out) && test -n "$red" &&
	i=0 && while [ $i -lt 600 ] && scontrol show job -o "$red" 2>/dev/null | grep -qE "JobState=(PENDING|RUNNING|COMPLETING|CONFIGURING)"; do
		sleep 0.5; i=$((i + 1))
	done &&
	diff -r -x .tl-ranks local/job nowait/job
'
printf '{"traceEvents": [ {"ph": ' >bad.json
test_expect_success 'a failing rank: --wait exits 1, names it, and the reduce does not run' '
	mkdir failing && (cd failing && test_must_fail tl-ranks --slurm --wait -o job $first "$PWD/../bad.json" >out 2>err) &&
	grep -q "ranks without a report: 1" failing/err &&
	! test -f failing/job/report.md
'
test_expect_success '--slurm-opts go to sbatch (a partition that does not exist)' '
	mkdir opts && (cd opts && test_must_fail tl-ranks --slurm --slurm-opts "--partition=nosuch" -o job $ranks >out 2>err) &&
	grep -q "sbatch failed to submit the map" opts/err
'
stop
test_expect_success 'every daemon this test started is gone' '
	for f in munged.pid slurmctld.pid slurmd.pid; do
		p=$(cat "$S/$f" 2>/dev/null) || continue
		! kill -0 "$p" 2>/dev/null || { echo "# ${f%.pid} ($p) still runs"; exit 1; }
	done
'
test_done
