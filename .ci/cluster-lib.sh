# Sourced by .ci/cluster-test and .ci/cluster2-test: a Slurm cluster on
# this machine in a temporary directory, run as root (munged, slurmctld,
# and one slurmd per node), with its own key, sockets, ports and state.
#
# cluster_start NODES starts it (its ports 16807 + 10 NODES and the next,
# so that the one- and two-node tests never meet). With one node, the slurmd is this
# machine. With more, each node is a network namespace (mtb-n1, mtb-n2,
# ...) on a bridge with the controller, at 10.213.7.(10+i), its slurmd
# started there with -N; each node gets an equal share of the CPUs and
# memory, and all of them see the same file system (the shared table
# directory of a real cluster). cluster_stop (run on EXIT) stops the
# daemons, removes the namespaces and the directory.
#
# Sets T (the directory), BIN, REF and SLURM_CONF; defines expected.

BIN=$PWD/build/makruktb
REF=$PWD/data/checksums-v2.txt
BRIDGE=mtb-br0
NET=10.213.7

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	apt-get update -q && apt-get install -y -q slurm-wlm munge
fi

T=$(mktemp -d /tmp/makruktb-cluster.XXXXXX)
NODES=0

cluster_stop() {
	scontrol shutdown >/dev/null 2>&1 || true
	pids=
	for f in "$T"/*.pid; do
		if [ -f "$f" ]; then pids="$pids $(cat "$f")"; fi
	done
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	# Gone before the next cluster starts on this machine.
	for i in $(seq 30); do
		alive=
		for p in $pids; do if kill -0 "$p" 2>/dev/null; then alive=1; fi; done
		[ -z "$alive" ] && break
		sleep 1
	done
	pkill -9 -f "$T" 2>/dev/null || true
	for i in $(seq "$NODES"); do
		ip netns del "mtb-n$i" 2>/dev/null || true
	done
	ip link del "$BRIDGE" 2>/dev/null || true
	rm -rf "$T"
}

# node_namespaces N: the namespaces mtb-n1..mtb-nN, each with a veth to
# the bridge, which holds the controller's address $NET.1.
node_namespaces() {
	ip link del "$BRIDGE" 2>/dev/null || true # a run killed before its clean-up
	ip link add "$BRIDGE" type bridge
	ip addr add "$NET.1/24" dev "$BRIDGE"
	ip link set "$BRIDGE" up
	for i in $(seq "$1"); do
		ns=mtb-n$i
		ip netns del "$ns" 2>/dev/null || true
		ip netns add "$ns"
		ip link add "mtb-v$i" type veth peer name eth0 netns "$ns"
		ip link set "mtb-v$i" master "$BRIDGE" up
		ip -n "$ns" addr add "$NET.$((10 + i))/24" dev eth0
		ip -n "$ns" link set eth0 up
		ip -n "$ns" link set lo up
	done
}

cluster_start() {
	NODES=$1
	dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 status=none
	chmod 600 "$T/munge.key"
	munged --force --key-file="$T/munge.key" --socket="$T/munge.sock" --pid-file="$T/munged.pid" \
		--log-file="$T/munged.log" --seed-file="$T/munged.seed"

	host=$(hostname -s)
	cpus=$(($(nproc) / NODES))
	mem=$(awk -v n="$NODES" '/MemTotal/ {print int(($2/1024 - 1024) / n)}' /proc/meminfo)
	mkdir -p "$T/state" "$T/spool"
	ctld=$host
	if [ "$NODES" -gt 1 ]; then
		node_namespaces "$NODES"
		ctld="$host($NET.1)"
	fi
	cat >"$T/slurm.conf" <<CONF
ClusterName=makruktb
SlurmctldHost=$ctld
SlurmctldPort=$((16807 + 10 * NODES))
SlurmdPort=$((16808 + 10 * NODES))
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool/%n
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd-%n.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
MinJobAge=3600
CONF
	if [ "$NODES" = 1 ]; then
		echo "NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN" >>"$T/slurm.conf"
		nodes=$host
	else
		for i in $(seq "$NODES"); do
			echo "NodeName=n$i NodeAddr=$NET.$((10 + i)) NodeHostname=n$i CPUs=$cpus RealMemory=$mem State=UNKNOWN" >>"$T/slurm.conf"
		done
		nodes="n[1-$NODES]"
	fi
	echo "PartitionName=debug Nodes=$nodes Default=YES MaxTime=INFINITE State=UP" >>"$T/slurm.conf"
	export SLURM_CONF=$T/slurm.conf
	slurmctld
	if [ "$NODES" = 1 ]; then
		mkdir -p "$T/spool/$host"
		slurmd
	else
		for i in $(seq "$NODES"); do
			mkdir -p "$T/spool/n$i"
			nsenter --net="/run/netns/mtb-n$i" slurmd -N "n$i"
		done
	fi
	for i in $(seq 60); do
		if [ "$(sinfo --noheader --format='%T %D' | awk '$1 == "idle" {print $2}')" = "$NODES" ]; then break; fi
		sleep 1
	done
	sinfo
}

# expected [MATERIAL...]: the file of every table the plan of the ≤4-piece
# set and the materials names, and its reference checksum, in sha256sum's
# format.
expected() {
	{ "$BIN" plan --max-pieces 4; for m in "$@"; do "$BIN" plan "$m"; done; } | awk -F' *[|] *' '/^[|] K/ {print $2}' | sort -u |
		while read -r id; do
			case $id in
			*.*) f=$id.mtbb ;;
			*) f=$id.mtbm ;;
			esac
			grep " $f\$" "$REF" || { echo "no reference checksum for $f" >&2; exit 1; }
		done
}
