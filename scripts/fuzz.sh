#!/usr/bin/env bash
# A fuzzing campaign over every fuzz target (docs/RELIABILITY.md): builds the
# libFuzzer binaries in the ASan + UBSan tree <build-dir>-asan (the one
# scripts/test-sanitizers.sh uses), runs each target for SECONDS on its seed
# corpus (the test inputs and what its seed maker writes) with its
# dictionary, minimises any failing input, and prints executions, coverage
# and failures per target in one table.
#
# A failing input (crash, sanitizer report, timeout, unbounded allocation,
# an output that does not round-trip) is minimised into
# test/fuzz-regressions/<target>/, where the replay tests run it from then
# on, and fails the campaign -- unless every frame of its symbolized stack
# below the sanitizer and libc frames and above the fuzz target lies in
# libMLIR, an upstream fault: then it is kept under
# test/fuzz-regressions/upstream/ with its stack (<name>.stack) and the
# campaign goes on.
#
# Usage: scripts/fuzz.sh [SECONDS per target, default 60] [build-dir]
# FUEL_FUZZ_TARGETS: the targets to run (space-separated; default all).
# FUEL_FUZZ_SEED: libFuzzer's -seed (default 0: a new seed each run).
# FUEL_JOBS: build jobs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
build="${2:-$root/build}"
asan="${build%/}-asan"
jobs="${FUEL_JOBS:-2}"
symbolizer=/usr/lib/llvm-22/bin/llvm-symbolizer

# The tree scripts/test-sanitizers.sh uses.
"$root/scripts/configure-asan.sh" "$asan"
ninja -C "$asan" -j "$jobs" fuel-fuzzers

manifest="$asan/fuzz/targets.txt"
work="$asan/fuzz/campaign"
mkdir -p "$work"
export ASAN_SYMBOLIZER_PATH="$symbolizer"
export ASAN_OPTIONS="abort_on_error=1:symbolize=1:detect_leaks=1:external_symbolizer_path=$symbolizer"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:symbolize=1:external_symbolizer_path=$symbolizer"

# Prints "upstream" when every frame of the first stack in the log that lies
# between the sanitizer/libc frames and the fuzz target's entry point is in
# libMLIR, else "fuel".
# "upstream" or "fuel": by the faulting frames (scripts/fuzz-classify.py).
classify() {
  /usr/bin/python3 "$root/scripts/fuzz-classify.py" "$1"
}

failed=0
rows=()
while IFS='|' read -r name dict seeds maker options; do
  [ -n "$name" ] || continue
  if [ -n "${FUEL_FUZZ_TARGETS:-}" ] &&
     [[ " $FUEL_FUZZ_TARGETS " != *" $name "* ]]; then
    continue
  fi
  bin="$asan/fuzz/fuel-fuzz-$name"
  corpus="$asan/fuzz/corpus/$name"
  out="$work/$name"
  rm -rf "$out"
  mkdir -p "$corpus" "$out"
  # The seed corpus: the test inputs by content hash, and the maker's files.
  for glob in $seeds; do
    for f in $root/$glob; do
      [ -f "$f" ] || continue
      cp -n "$f" "$corpus/seed-$(sha1sum "$f" | cut -c1-16)"
    done
  done
  if [ -n "$maker" ]; then
    "$maker" "$corpus" >/dev/null
  fi
  # Fork mode (one worker) goes on after a failing input, so that an upstream
  # fault does not end the target's time; every failing input is kept.
  # shellcheck disable=SC2086 # options are separate flags
  "$bin" -seed="${FUEL_FUZZ_SEED:-0}" -max_total_time="$seconds" \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    -dict="$root/$dict" -artifact_prefix="$out/" -print_final_stats=1 \
    $options "$corpus" >"$out/log" 2>&1 || true
  execs=$(grep -oE '^#[0-9]+' "$out/log" | tail -1 | tr -d '#')
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$out/log" | tail -1 |
    sed 's/cov: \([0-9]*\) ft: \([0-9]*\)/\1 \2/')
  fuel_crashes=0
  upstream_crashes=0
  seen_upstream=" "
  for artifact in "$out"/crash-* "$out"/timeout-* "$out"/oom-* "$out"/leak-*; do
    [ -f "$artifact" ] || continue
    kind="$(basename "$artifact" | cut -d- -f1)"
    # (In a subshell, so that the shell's "Aborted" goes with the rest.)
    ("$bin" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=2048 $options \
      "$artifact" >"$artifact.stack" 2>&1) 2>/dev/null || true
    if [ "$(classify "$artifact.stack")" = upstream ]; then
      # One reproducer per faulting upstream function.
      where=$(grep -oE '#[0-9]+ 0x[0-9a-f]+ in [^ (]+' "$artifact.stack" |
        grep -v -E '__sanitizer|__asan|__ubsan|__interceptor' | head -1 |
        sed 's/.* in //' || true)
      if [[ "$seen_upstream" == *" $where "* ]]; then
        continue
      fi
      seen_upstream="$seen_upstream$where "
      upstream_crashes=$((upstream_crashes + 1))
      dest="$root/test/fuzz-regressions/upstream"
      hash=$(sha1sum "$artifact" | cut -c1-16)
      mkdir -p "$dest"
      cp "$artifact" "$dest/$name-$kind-$hash"
      sed -n '/ERROR\|runtime error\|ALARM/,/SUMMARY/p' "$artifact.stack" \
        >"$dest/$name-$kind-$hash.stack"
      echo "fuzz.sh: $name: upstream $kind kept as" \
        "test/fuzz-regressions/upstream/$name-$kind-$hash" >&2
      continue
    fi
    min="$out/min-$(basename "$artifact")"
    # Minimise a crash that happens again alone (minimising one that does
    # not would run the input over and over).
    if { [ "$kind" = crash ] || [ "$kind" = leak ]; } &&
       grep -qE 'ERROR|runtime error|^fuel-fuzz-' "$artifact.stack"; then
      ("$bin" -minimize_crash=1 -max_total_time=30 -runs=10000 \
        -exact_artifact_path="$min" $options "$artifact" \
        >"$out/minimize.log" 2>&1) 2>/dev/null || true
    fi
    [ -f "$min" ] || cp "$artifact" "$min"
    ("$bin" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=2048 $options \
      "$min" >"$min.stack" 2>&1) 2>/dev/null || true
    # The minimised input must fail as the original did (the same class).
    if [ "$(classify "$min.stack")" = upstream ]; then
      cp "$artifact" "$min"
      cp "$artifact.stack" "$min.stack"
    fi
    fuel_crashes=$((fuel_crashes + 1))
    hash=$(sha1sum "$min" | cut -c1-16)
    dest="$root/test/fuzz-regressions/$name"
    mkdir -p "$dest"
    cp "$min" "$dest/$kind-$hash"
    if ! grep -qE 'ERROR|runtime error|^fuel-fuzz-' "$min.stack"; then
      # Fork mode reports the failure but keeps no stack; an input that
      # does not fail again alone depends on what ran before it.
      echo "fuzz.sh: $name: a $kind that does not happen again when its" \
        "input runs alone (see $out/log); kept as" \
        "test/fuzz-regressions/$name/$kind-$hash" >&2
    fi
    echo "fuzz.sh: $name: $kind in fuel's code, minimised into" \
      "test/fuzz-regressions/$name/$kind-$hash; its stack:" >&2
    grep -E '^fuel-fuzz-|ERROR|runtime error|SUMMARY|#[0-9]+ ' "$min.stack" |
      head -30 >&2 || true
    failed=1
  done
  rows+=("$(printf '%-18s %6s %10s %6s %7s %6s %6s %8s' "$name" "$seconds" \
    "${execs:-?}" ${cov:-? ?} "$(ls "$corpus" | wc -l)" "$fuel_crashes" \
    "$upstream_crashes")")
done <"$manifest"

printf '%-18s %6s %10s %6s %7s %6s %6s %8s\n' target seconds executions \
  cov ft corpus fuel upstream
for row in "${rows[@]}"; do
  echo "$row"
done
exit "$failed"
