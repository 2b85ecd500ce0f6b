#!/bin/sh
# Fuzz every /proc parser with libFuzzer (ASan+UBSan), from the seed corpora
# of real /proc files in tests/fuzz/corpus/<parser>/ (captured on the host
# and under Linux 6.1). New inputs go to a scratch corpus under the build
# directory, never into the repository.
#   tests/fuzz.sh BUILD_DIR SECONDS_PER_PARSER
# make check runs it for a few seconds a parser, make fuzz for minutes.
# A crash leaves its input as BUILD_DIR/fuzz/crash-<parser>-*; to replay
# it: BUILD_DIR/fuzz/fuzz-<parser> FILE. Last line: "# fuzz: N passed, N failed".
set -u
build=${1:?build dir}
secs=${2:-3}
here=$(dirname "$0")
passed=0
failed=0
for f in "$build"/fuzz/fuzz-*; do
	[ -x "$f" ] || continue
	p=${f##*/fuzz-}
	work="$build/fuzz/corpus-$p"
	mkdir -p "$work"
	log="$build/fuzz/log-$p"
	# The scratch corpus first: libFuzzer writes new inputs to the first
	# directory only, and reads the seeds from the second.
	if "$f" -max_total_time="$secs" -max_len=16384 -timeout=10 \
		-rss_limit_mb=2048 -artifact_prefix="$build/fuzz/crash-$p-" \
		-print_final_stats=1 "$work" "$here/fuzz/corpus/$p" > "$log" 2>&1
	then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "ok - fuzz-$p: ${runs:-?} inputs in ${secs}s, no report"
		passed=$((passed + 1))
	else
		grep -E 'ERROR|SUMMARY|Test unit written|runtime error' "$log" | head -n 5
		echo "not ok - fuzz-$p (log: $log)"
		failed=$((failed + 1))
	fi
done
if [ $((passed + failed)) -eq 0 ]; then
	echo "not ok - no fuzzer in $build/fuzz (make O=$build fuzzers)"
	failed=1
fi
echo "# fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
