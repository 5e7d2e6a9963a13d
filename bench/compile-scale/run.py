#!/usr/bin/python3
"""Compile-time benchmark: fuel-compile against fuel-plan on large programs.

For the transformer- and convnet-shaped programs of bench/planning-scale
(--ops kernel-bearing ops each, generated into the work directory), runs,
interleaved and --rounds times each, with a cool-down between the two:

  (a) plan:     fuel-opt IN --fuel-plan="topology=T" -o /dev/null
  (b) compile:  fuel-compile IN --topology=T -o OUT.fuelx --compile-stats

and prints, from the best and the median wall times, fuel-compile - fuel-plan,
the distinct kernels (from (b)'s --compile-stats line), the budget
fuel-plan + 0.1 s x distinct kernels and fuel-compile's ratio to it (target:
<= 1.0 on the median). Then the transformer at --large-ops: the growth factors
of fuel-plan and fuel-compile from --ops to --large-ops (target: fuel-compile
grows no faster than fuel-plan).

The --compile-stats line of the median compile is printed too (where the time goes).
Every compile of one program must write the same bytes: a differing
executable is an error (exit status 1), as is a failing command. Targets are
reported as PASS/MISS and never change the exit code.

Python 3 standard library only.
"""

import argparse
import hashlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GEN = os.path.join(ROOT, "bench", "planning-scale", "gen_model.py")
SECONDS_PER_KERNEL = 0.1

STATS = re.compile(r"fuel-compile: (\d+) kernels? \((\d+) generated in \d+ modules?, "
                   r"(\d+) library\), (\d+) dispatch(?:es)?")


def run(argv):
    """Runs argv; returns (wall seconds, stderr text). Exits on failure."""
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        status = subprocess.call(argv, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=err)
        wall = time.perf_counter() - start
        err.seek(0)
        text = err.read()
    if status != 0:
        sys.exit("command failed (%d): %s\n%s" % (status, " ".join(argv), text[-2000:]))
    return wall, text


def generate(work, shape, ops, seed):
    path = os.path.join(work, "%s-%d-s%d.mlir" % (shape, ops, seed))
    if not os.path.exists(path):
        subprocess.check_call([sys.executable, GEN, "--shape", shape, "--ops", str(ops),
                               "--seed", str(seed), "-o", path],
                              stderr=subprocess.DEVNULL)
    return path


def measure(bindir, topology, program, rounds, cooldown):
    """Interleaved rounds of (a) and (b); returns the two time lists, the
    --compile-stats line of the median compile and the kernel count."""
    fuel_opt = os.path.join(bindir, "fuel-opt")
    fuel_compile = os.path.join(bindir, "fuel-compile")
    out = program + ".fuelx"
    plan_times, compile_times, stats_lines, digests = [], [], [], set()
    for _ in range(rounds):
        wall, _ = run([fuel_opt, program, "--fuel-plan=topology=%s" % topology,
                       "-o", os.devnull])
        plan_times.append(wall)
        time.sleep(cooldown)
        wall, text = run([fuel_compile, program, "--topology=%s" % topology, "-o", out,
                          "--compile-stats"])
        compile_times.append(wall)
        stats_lines.append(text.strip().splitlines()[-1])
        with open(out, "rb") as f:
            digests.add(hashlib.sha256(f.read()).hexdigest())
        time.sleep(cooldown)
    if len(digests) != 1:
        sys.exit("%s: the executables of %d compiles differ" % (program, rounds))
    order = sorted(range(rounds), key=lambda i: compile_times[i])
    median_line = stats_lines[order[rounds // 2]]
    m = STATS.search(median_line)
    if not m:
        sys.exit("no --compile-stats line in fuel-compile's output: %s" % median_line)
    return plan_times, compile_times, median_line, int(m.group(1)), int(m.group(4))


def summary(times):
    return min(times), statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.environ.get("FUEL_BUILD_DIR",
                                                          os.path.join(ROOT, "build")))
    parser.add_argument("--topology",
                        default=os.path.join(ROOT, "test", "topologies", "cpu-only.json"))
    parser.add_argument("--ops", type=int, default=10000)
    parser.add_argument("--large-ops", type=int, default=100000,
                        help="the transformer size of the growth check (0: skip it)")
    parser.add_argument("--seed", type=int, default=0, help="gen_model.py's seed")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--large-rounds", type=int, default=3)
    parser.add_argument("--cooldown", type=float, default=0.3,
                        help="seconds of sleep between contenders")
    parser.add_argument("--work", default=None,
                        help="directory for the generated programs (default: a temporary one)")
    args = parser.parse_args()
    bindir = os.path.join(args.build, "bin")
    work = args.work or tempfile.mkdtemp(prefix="fuel-compile-scale-")
    os.makedirs(work, exist_ok=True)

    print("fuel-compile against fuel-plan (%s), %d rounds interleaved, wall seconds"
          % (os.path.relpath(args.topology, ROOT), args.rounds))
    print("%-24s %5s %15s %15s %15s %7s %15s %13s" % (
        "program", "", "fuel-plan", "fuel-compile", "compile-plan", "kernels",
        "budget", "ratio"))
    base = {}
    for shape in ("transformer", "convnet"):
        program = generate(work, shape, args.ops, args.seed)
        plan, comp, line, kernels, dispatches = measure(
            bindir, args.topology, program, args.rounds, args.cooldown)
        base[shape] = (plan, comp)
        for label, pick in (("best", 0), ("median", 1)):
            p, c = summary(plan)[pick], summary(comp)[pick]
            budget = p + SECONDS_PER_KERNEL * kernels
            ratio = c / budget
            verdict = ("PASS" if ratio <= 1.0 else "MISS") if label == "median" else ""
            print("%-24s %5s %15.2f %15.2f %15.2f %7d %15.2f %8.3f %4s" % (
                "%s %d" % (shape, args.ops), label, p, c, c - p, kernels, budget,
                ratio, verdict))
        print("  %s (median compile; %d dispatches)" % (line, dispatches))

    if args.large_ops:
        program = generate(work, "transformer", args.large_ops, args.seed)
        plan, comp, line, kernels, _ = measure(bindir, args.topology, program,
                                               args.large_rounds, args.cooldown)
        small_plan, small_comp = base["transformer"]
        print()
        print("growth, transformer %d -> %d ops (median wall seconds)"
              % (args.ops, args.large_ops))
        gp = statistics.median(plan) / statistics.median(small_plan)
        gc = statistics.median(comp) / statistics.median(small_comp)
        print("  fuel-plan    %8.2f -> %8.2f  x%.2f" % (
            statistics.median(small_plan), statistics.median(plan), gp))
        print("  fuel-compile %8.2f -> %8.2f  x%.2f  %s" % (
            statistics.median(small_comp), statistics.median(comp), gc,
            "PASS" if gc <= gp else "MISS"))
        print("  %s (median compile)" % line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
