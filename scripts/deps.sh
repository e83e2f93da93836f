#!/bin/sh
# scripts/deps.sh — make sure tl's Debian build dependencies are installed.
# As root it installs what is missing (apt-get); otherwise it prints the one
# command to run.  Idempotent: does nothing when all are present.
# Arguments name other packages to ensure instead (bench.sh: time).
pkgs=${*:-"zlib1g-dev libarchive-dev pkg-config make gcc libstdc++-12-dev libisal-dev libprotobuf-c-dev protobuf-c-compiler"}
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq $missing >/dev/null
else
	echo "deps: missing$missing; run as root: apt-get install -y$missing" >&2
	exit 1
fi
