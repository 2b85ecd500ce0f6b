#!/bin/sh
# make stress: a tool for finding ordering races, not a CI gate. Every
# kernel run of make check (tests/check.sh with CHECK_KERNELS_ONLY: the
# host natively, emulated, and each user-mode-linux kernel), ROUNDS times
# in a row, beside two busy-loop CPU hogs. Each test gets TEST_TIMEOUT_SCALE
# times its time (10 unless set; the guests three times that), so that a
# slow machine cannot fail it: only a test that depends on which of two
# things happens first can.
#   tests/stress.sh BUILD_DIR [ROUNDS]
# Each round's whole output is kept in BUILD_DIR/stress/round-N.log; what
# failed is printed. The last line is "N passed, N failed" over all rounds.
set -u
build=${1:-build}
rounds=${2:-5}
here=$(dirname "$0")
logs="$build/stress"
mkdir -p "$logs"

hogs=""
stop_hogs() {
	for h in $hogs; do kill "$h" 2>/dev/null; done
	hogs=""
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM
for _ in 1 2; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
done

export TEST_TIMEOUT_SCALE="${TEST_TIMEOUT_SCALE:-10}"
# A whole guest run, loaded, may take several times its usual time.
export UML_TIMEOUT="${UML_TIMEOUT:-7200}"
export CHECK_KERNELS_ONLY=1
total_p=0
total_f=0
total_s=0
for i in $(seq 1 "$rounds"); do
	log="$logs/round-$i.log"
	start=$(date +%s)
	"$here/check.sh" "$build" > "$log" 2>&1
	line=$(tail -n 1 "$log")
	echo "# round $i of $rounds ($(($(date +%s) - start)) s): $line"
	grep -E 'not ok|no result|killed by signal|: # [^ ]+\.[ch]:[0-9]+: ' "$log" |
		sed "s/^/#   /"
	# "N passed, N failed", and ", N skipped" where tests skipped.
	case "$line" in
	*" passed, "*" failed"*)
		total_p=$((total_p + ${line%% passed*}))
		f=${line##*passed, }
		total_f=$((total_f + ${f%% failed*}))
		case "$line" in
		*" skipped")
			s=${line##*failed, }
			total_s=$((total_s + ${s%% skipped}))
			;;
		esac
		;;
	*)
		total_f=$((total_f + 1))
		;;
	esac
done
skips=
[ "$total_s" -eq 0 ] || skips=", $total_s skipped"
echo "$total_p passed, $total_f failed$skips"
[ "$total_f" -eq 0 ]
