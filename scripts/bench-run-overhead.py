#!/usr/bin/python3
"""The whole-run overhead of the runtime, over fresh processes.

usage: bench-run-overhead.py [--bench PATH] [--processes N] [--runs N]
           [--warmup N] [--threads 1,2] [--run-on caller,queues] [--json FILE]

Runs fuel-bench-run-overhead (chains of 1, 10, 30 and 100 tiny dependent
dispatches and a fan-out of 1 + 10, each through Session::run) in
--processes fresh processes per configuration (threads x run-on), the
configurations interleaved process by process so that a change in the
machine's load hits all of them alike. Each process does --warmup untimed
runs and --runs timed ones per case. Per case and configuration it prints,
over every timed run of every process: the median and p90 of the overhead
(wall time of Session::run minus the commands' own times), p90/p50, the
median overhead per command, and the spread of the per-process medians
(largest / smallest). The machine's load (/proc/loadavg) is printed before
and after. run-on=queues, the runtime's queue threads, is the baseline the
calling-thread path (caller, the default of run()) is compared with.

Targets (docs/PERFORMANCE.md, "Whole-run overhead"): median overhead
<= 2 us per command on one thread and on two; per-process medians within
1.3x of each other; p90/p50 <= 1.5. They are printed as met or missed and
never change the exit code; a failing process does (exit 1).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

from fueltools import loadavg, percentile


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=os.path.join(
        here, "..", "build", "bin", "fuel-bench-run-overhead"))
    ap.add_argument("--processes", type=int, default=20)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--run-on", default="caller,queues")
    ap.add_argument("--json")
    args = ap.parse_args(argv[1:])
    if args.processes < 1 or args.runs < 1:
        ap.error("--processes and --runs must be at least 1")

    configs = [(int(t), r) for t in args.threads.split(",")
               for r in args.run_on.split(",")]
    print(f"whole-run overhead: {args.processes} processes x {args.runs} runs "
          f"(after {args.warmup} warm-up runs) per configuration, "
          f"{os.cpu_count()} cores, load before: {loadavg()}")
    # results[(case, threads, run_on)] = list of per-process overhead lists
    results, commands, actual = {}, {}, {}
    for p in range(args.processes):
        order = configs[p % len(configs):] + configs[:p % len(configs)]
        for threads, run_on in order:
            cmd = [args.bench, f"--threads={threads}", f"--run-on={run_on}",
                   f"--runs={args.runs}", f"--warmup={args.warmup}"]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                sys.stderr.write(proc.stderr)
                print(f"FAIL: {' '.join(cmd)} exited {proc.returncode}")
                return 1
            for line in proc.stdout.splitlines():
                row = json.loads(line)
                key = (row["case"], threads, run_on)
                results.setdefault(key, []).append(row["overhead_ns"])
                commands[row["case"]] = row["commands"]
                actual[key] = (row["run_on"], row["lanes"])
    print(f"load after: {loadavg()}")
    print()
    print("| case | threads | run on | lanes | median us | p90 us | p90/p50 "
          "| us per command | process spread |")
    print("|---|---|---|---|---|---|---|---|---|")
    summary = []
    for key in sorted(results, key=lambda k: (k[1], commands[k[0]], k[0],
                                               k[2])):
        case, threads, run_on = key
        runs = [v for proc in results[key] for v in proc]
        med = statistics.median(runs)
        p90 = percentile(runs, 0.9)
        per_proc = [statistics.median(proc) for proc in results[key]]
        spread = max(per_proc) / max(min(per_proc), 1.0)
        per_cmd = med / commands[case]
        ran_on, lanes = actual[key]
        print(f"| {case} | {threads} | {ran_on} | {lanes} | {med / 1e3:.2f} | "
              f"{p90 / 1e3:.2f} | {p90 / max(med, 1.0):.2f} | "
              f"{per_cmd / 1e3:.3f} | {spread:.2f} |")
        summary.append({"case": case, "threads": threads, "run_on": ran_on,
                        "lanes": lanes, "commands": commands[case],
                        "median_ns": med, "p90_ns": p90,
                        "per_command_ns": per_cmd,
                        "process_spread": spread})
    print()
    # Ratios against the queue threads, measured beside them.
    for s in summary:
        if s["run_on"] != "caller":
            continue
        base = [b for b in summary if b["case"] == s["case"] and
                b["threads"] == s["threads"] and b["run_on"] == "queues"]
        if base:
            print(f"{s['case']}, {s['threads']} thread(s): caller / queues "
                  f"median = {s['median_ns'] / max(base[0]['median_ns'], 1):.3f}")
    print()
    for s in summary:
        if s["run_on"] != "caller":
            continue
        name = f"{s['case']}, {s['threads']} thread(s)"
        checks = [("<= 2 us per command", s["per_command_ns"] <= 2000),
                  ("process spread <= 1.3", s["process_spread"] <= 1.3),
                  ("p90/p50 <= 1.5",
                   s["p90_ns"] <= 1.5 * max(s["median_ns"], 1.0))]
        print(name + ": " + ", ".join(
            f"{what} {'met' if ok else 'MISSED'}" for what, ok in checks))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
