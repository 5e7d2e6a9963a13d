#!/usr/bin/python3
"""The examples placed across cpu + vulkan:0 by the planner against the
same examples on the cpu alone: measured ratio beside predicted ratio.

  bench/vulkan-placement/run.py [--build DIR] [--rounds N] [--repeat N]
      [--examples mlp,convnet,transformer] [--work DIR]

Each example is compiled twice with fuel-compile, unpinned: for
test/topologies/cpu-only.json and for test/topologies/cpu-lavapipe-split.json
(lavapipe priced as a faster compute device than it is, so that the planner
splits the examples). Both executables run with `fuel-run --report=json` on
the same seeded inputs, interleaved (cpu-only, split, cpu-only, ...) for
--rounds rounds of --repeat runs each after one warm-up run, so that drift
of a shared machine falls on both alike. Prints per example the number of
dispatches on each device and copies each way, the median measured time of
each, the measured ratio split / cpu-only and the planner's predicted ratio
(the reports' `total_predicted_ns`), > 1 meaning the split is slower. The
two executables' outputs are compared with each other (within 1e-4 of
the largest magnitude) as a sanity check; the integration tests compare them with numpy."""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOPOLOGIES = {
    "cpu-only": os.path.join(ROOT, "test", "topologies", "cpu-only.json"),
    "split": os.path.join(ROOT, "test", "topologies",
                          "cpu-lavapipe-split.json"),
}


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("run.py: failed (exit %d):\n  $ %s\n%s%s" % (
            result.returncode, " ".join(command), result.stdout,
            result.stderr))
    return result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--examples", default="mlp,convnet,transformer")
    parser.add_argument("--work", help="directory for the files it writes")
    args = parser.parse_args()
    if args.rounds < 1 or args.repeat < 1:
        sys.exit("run.py: --rounds and --repeat must be at least 1")
    bin_dir = os.path.join(args.build, "bin")
    compile_tool = os.path.join(bin_dir, "fuel-compile")
    run_tool = os.path.join(bin_dir, "fuel-run")
    for tool in (compile_tool, run_tool):
        if not os.path.exists(tool):
            sys.exit("run.py: %s not found (build it, or pass --build)" % tool)
    work = args.work or tempfile.mkdtemp(prefix="fuel-vulkan-placement-")
    os.makedirs(work, exist_ok=True)

    print("%-12s %-26s %12s %12s %9s %10s" % (
        "example", "split placement", "cpu-only ms", "split ms",
        "measured", "predicted"))
    for example in args.examples.split(","):
        source = os.path.join(ROOT, "examples", example + ".mlir")
        exes, samples, predicted, placement, outputs = {}, {}, {}, {}, {}
        for name, topology in TOPOLOGIES.items():
            exe = os.path.join(work, "%s.%s.fuelx" % (example, name))
            run([compile_tool, source, "--topology=" + topology, "-o", exe])
            exes[name] = exe
            samples[name] = []
        for _ in range(args.rounds):
            for name, exe in exes.items():
                out = os.path.join(work, "%s.%s.npy" % (example, name))
                report = json.loads(run([
                    run_tool, exe, "--input=random:1", "--output=@" + out,
                    "--report=json", "--warmup=1",
                    "--repeat=%d" % args.repeat]))
                samples[name].append(report["run_median_ns"])
                predicted[name] = report["total_predicted_ns"]
                commands = report["commands"]
                dispatches = {}
                for c in commands:
                    if c["kind"] == "dispatch":
                        dispatches[c["device"]] = dispatches.get(
                            c["device"], 0) + 1
                to_vk = sum(1 for c in commands if c["kind"] == "copy"
                            and c["device"] == "cpu->vulkan:0")
                from_vk = sum(1 for c in commands if c["kind"] == "copy"
                              and c["device"] == "vulkan:0->cpu")
                placement[name] = "cpu %d, vk %d, copies %d/%d" % (
                    dispatches.get("cpu", 0), dispatches.get("vulkan:0", 0),
                    to_vk, from_vk)
                outputs[name] = np.load(out)
        # Relative to the largest magnitude: the devices sum in different
        # orders, and cancellation leaves elements near 0 with no relative
        # accuracy.
        scale = float(np.max(np.abs(outputs["cpu-only"])))
        if not np.all(np.abs(outputs["split"] - outputs["cpu-only"])
                      <= 1e-4 * scale + 1e-6):
            sys.exit("run.py: %s: the split executable's output differs "
                     "from the cpu-only one's" % example)
        cpu = statistics.median(samples["cpu-only"])
        split = statistics.median(samples["split"])
        print("%-12s %-26s %12.3f %12.3f %8.1fx %9.2fx" % (
            example, placement["split"], cpu / 1e6, split / 1e6, split / cpu,
            predicted["split"] / predicted["cpu-only"]))
    print("(ratios split / cpu-only, > 1: the split is slower; median of "
          "%d rounds of %d runs; copies cpu->vk/vk->cpu)" % (
              args.rounds, args.repeat))


if __name__ == "__main__":
    main()
