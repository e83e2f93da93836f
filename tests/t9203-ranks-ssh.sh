#!/bin/sh
# tl-ranks --sshlogin: the map over ssh, through GNU parallel, against an
# sshd this test starts on this machine (a spare port on 127.0.0.1, a host
# key and a user key generated in the scratch folder, nothing of the
# system's changed) and stops.  The job report equals the local one, byte
# for byte.
. "$TL_SRC/tests/lib.sh"

sshd=/usr/sbin/sshd
why=
if ! command -v parallel >/dev/null 2>&1; then why='GNU parallel is not installed (apt-get install parallel)'
elif ! [ -x "$sshd" ]; then why='no sshd (apt-get install openssh-server)'
elif ! command -v ssh >/dev/null 2>&1 || ! command -v ssh-keygen >/dev/null 2>&1; then why='no ssh client'
elif [ "$(id -u)" != 0 ]; then why='not root: sshd needs root to start a login session here'
elif [ "${TL_SAN:-}" = 1 ]; then why='SAN=1: the ssh login does not carry the sanitizer settings to the remote ranks (run it in the plain build)'
fi
if [ -n "$why" ]; then
	test_skip 'tl-ranks --sshlogin against a local sshd' "$why"
	test_done
	exit
fi

S=$TRASH/ssh
mkdir -p "$S" && chmod 700 "$S"
ssh-keygen -q -t ed25519 -N '' -f "$S/hostkey" && ssh-keygen -q -t ed25519 -N '' -f "$S/userkey" &&
	cp "$S/userkey.pub" "$S/authorized_keys" || exit 1
# sshd refuses to start without its privilege separation folder; a fresh
# machine where the service never ran lacks it.  Made here, removed after.
made_run=
if [ ! -d /run/sshd ]; then mkdir -m 755 /run/sshd && made_run=1; fi

# A port nobody listens on, tried in turn until sshd starts on one.  A
# root whose password is locked ("!" in /etc/shadow, as a fresh install
# may have it) cannot log in with UsePAM no; then UsePAM yes is tried.
listening() { awk -v p="$(printf '%04X' "$1")" 'NR > 1 && $4 == "0A" { split($2, a, ":"); if (a[2] == p) f = 1 } END { exit !f }' /proc/net/tcp; }
pid=
port=$((20000 + $$ % 20000))
tries=0
usepam=no
while [ -z "$pid" ] && [ $tries -lt 20 ]; do
	tries=$((tries + 1))
	port=$((port + 1))
	listening $port && continue
	cat >"$S/sshd_config" <<-EOF
	Port $port
	ListenAddress 127.0.0.1
	HostKey $S/hostkey
	AuthorizedKeysFile $S/authorized_keys
	PidFile $S/sshd.pid
	StrictModes no
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	PermitRootLogin prohibit-password
	UsePAM $usepam
	EOF
	"$sshd" -D -f "$S/sshd_config" -E "$S/sshd.log" &
	pid=$!
	printf '[127.0.0.1]:%s %s\n' $port "$(cut -d' ' -f1,2 "$S/hostkey.pub")" >"$S/known_hosts"
	login="ssh -p $port -i $S/userkey -o BatchMode=yes -o UserKnownHostsFile=$S/known_hosts -o StrictHostKeyChecking=yes -o LogLevel=ERROR $(id -un)@127.0.0.1"
	i=0
	until $login true 2>/dev/null; do
		i=$((i + 1))
		if ! kill -0 $pid 2>/dev/null || [ $i -gt 25 ] ||
				{ [ $i -gt 3 ] && listening $port; }; then
			# not started, or started and refusing the login
			listening $port && [ $usepam = no ] && usepam=yes
			kill $pid 2>/dev/null; wait $pid 2>/dev/null; pid=; break
		fi
		sleep 0.2
	done
done
stop() {
	[ -z "$pid" ] || { kill $pid 2>/dev/null; wait $pid 2>/dev/null; }
	[ -z "$made_run" ] || rmdir /run/sshd 2>/dev/null
}
if [ -z "$pid" ]; then
	stop
	test_skip 'tl-ranks --sshlogin against a local sshd' "sshd did not start: $(tail -n 3 "$S/sshd.log" 2>/dev/null | tr '\n' ' ')"
	test_done
	exit
fi

# The ranks: the shipped sample as 3 ranks (distinct distributedInfo.rank);
# the corpus's V100 set when it is there.
mkdir in
for i in 0 1 2; do
	sed "s/\"rank\": 0, \"world_size\": 2/\"rank\": $i, \"world_size\": 3/" \
		"$TL_SRC/share/tl/sample/trace.json" >in/rank$i.json
done
ranks="$PWD/in/rank0.json $PWD/in/rank1.json $PWD/in/rank2.json"
nranks=3
if have_shared; then
	ranks=
	for i in 0 1 2 3 4 5 6 7; do ranks="$ranks $SHARED/corpus/multirank-dlrm-v100x8/ranks/rank$i.json.gz"; done
	nranks=8
fi
# PATH (and the sanitizers' settings under SAN=1) go to the remote side
# with GNU parallel's own --env, through its PARALLEL variable.
PARALLEL="--env PATH --env ASAN_OPTIONS --env UBSAN_OPTIONS --env LSAN_OPTIONS"
export PARALLEL
mkdir local remote
test_expect_success 'the map over ssh (tl-ranks --sshlogin, GNU parallel)' '
	(cd remote && tl-ranks -j 2 --sshlogin "$login" -o job $ranks >out 2>err) &&
	test "$(cat remote/out)" = job &&
	grep -q "Accepted publickey" "$S/sshd.log"
'
test_expect_success 'every rank ran on the other side of ssh' '
	n=$(grep -c "Accepted publickey" "$S/sshd.log") && echo "# $n ssh logins for $nranks ranks" &&
	test "$n" -ge $nranks
'
test_expect_success 'the same bytes as the local run' '
	(cd local && tl-ranks --xargs -j 2 -o job $ranks >out 2>err) &&
	diff -r -x .tl-ranks local/job remote/job
'
test_expect_success '--sshloginfile is passed through as well' '
	echo "$login" >logins &&
	(cd remote && tl-ranks -j 1 --sshloginfile ../logins -o job2 $ranks >out2 2>err2) &&
	sed "s/job2/job/" remote/job2/report.md >r.md && test_cmp local/job/report.md r.md &&
	diff -r -x .tl-ranks -x report.md -x report.html local/job remote/job2
'
stop
test_expect_success 'the sshd this test started is gone' '! kill -0 $pid 2>/dev/null'
test_done
