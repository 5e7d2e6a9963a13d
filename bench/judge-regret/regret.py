#!/usr/bin/python3
"""Selection regret of planning with measured costs (docs/PERFORMANCE.md,
"Measured costs: selection regret").

For each example (examples/{mlp,convnet,transformer}.mlir):

1. `fuel-judge EXAMPLE --db=DB` measures every retained alternative of
   every node (the database the planner reads; its own time per kernel is
   reported).
2. A second, independent measurement: `fuel-judge --emit-jobs`, the
   manifest's jobs shuffled (seeded), `fuel-run --measure` in a fresh
   process. Every figure below comes from this second run, never from DB.
3. The plan without the database and with it (`fuel-plan profile=DB`,
   export-plan): per node, the chosen kernel's time against the fastest
   kernel measured for that node; the median and worst node regret.
4. End to end: each example compiled without and with the database, and
   with each single kernel source alone (generated, openblas, blis: the
   best single-source plan), run by `fuel-run --repeat` (median wall time
   of a run); the predicted total beside the measured one.

  regret.py --build BUILD [--topology T] [--budget S] [--seed N] [--work DIR]

Everything runs with one CPU thread (fuel-judge --cpu-threads=1, fuel-run
--threads=1), the planner's default pool size for profile lookups.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Failed(Exception):
    pass


def run(cmd, may_fail=False, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0 and may_fail:
        raise Failed(r.stderr.strip().splitlines()[0] if r.stderr.strip() else "")
    if r.returncode != 0:
        sys.exit("regret: %s failed (%d):\n%s%s" % (" ".join(cmd), r.returncode,
                                                    r.stdout, r.stderr))
    return r


def plan_winners(bin_dir, example, topology, extra, work, tag):
    out = os.path.join(work, "%s.%s.plan.json" % (os.path.basename(example), tag))
    opts = "topology=%s export-plan=%s %s" % (topology, out, extra)
    run([os.path.join(bin_dir, "fuel-opt"), example, "--fuel-plan=" + opts,
         "-o", os.devnull], may_fail=True)
    with open(out) as f:
        plan = json.load(f)
    winners = {}
    for fn in plan["functions"]:
        for node in fn["nodes"]:
            winners[(fn["name"], node["id"])] = (node["winner"]["kernel"],
                                                 node["placement"])
    return winners


def end_to_end(bin_dir, example, topology, plan, work, tag, repeat):
    exe = os.path.join(work, "%s.%s.fuelx" % (os.path.basename(example), tag))
    cmd = [os.path.join(bin_dir, "fuel-compile"), example, "-o", exe,
           "--topology=" + topology]
    if plan:
        cmd.append("--plan=" + plan)
    run(cmd, may_fail=True)
    r = run([os.path.join(bin_dir, "fuel-run"), exe, "--input=random:1",
             "--threads=1",
             "--warmup=3", "--repeat=%d" % repeat, "--report=json"])
    rep = json.loads(r.stdout)
    return rep["run_median_ns"], rep["total_predicted_ns"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--topology", default="",
                    help="default: this machine's, from fuel-topology probe "
                         "(the planner finds a measurement under the device "
                         "identity its topology carries)")
    ap.add_argument("--budget", type=float, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--work", default="/tmp/fuel-judge-regret")
    ap.add_argument("--examples", default="mlp,convnet,transformer")
    args = ap.parse_args()
    bin_dir = os.path.join(args.build, "bin")
    os.makedirs(args.work, exist_ok=True)
    rng = random.Random(args.seed)
    if not args.topology:
        args.topology = os.path.join(args.work, "probe.json")
        r = run([os.path.join(bin_dir, "fuel-topology"), "probe"])
        with open(args.topology, "w") as f:
            f.write(r.stdout)
    print("topology: %s; second measurement shuffled with seed %d" %
          (args.topology, args.seed))
    all_with, all_without = [], []
    for name in args.examples.split(","):
        example = os.path.join(ROOT, "examples", name + ".mlir")
        db = os.path.join(args.work, name + ".db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        t0 = time.monotonic()
        r = run([os.path.join(bin_dir, "fuel-judge"), example,
                 "--topology=" + args.topology, "--db=" + db, "--cpu-threads=1",
                 "--budget=%g" % args.budget])
        judge_s = time.monotonic() - t0
        measured = int(r.stdout.split(" measured,")[0].split(": ")[-1])

        # The second measurement: fresh process, shuffled order.
        jobs_dir = os.path.join(args.work, name + ".jobs")
        run([os.path.join(bin_dir, "fuel-judge"), example,
             "--topology=" + args.topology, "--emit-jobs=" + jobs_dir])
        with open(os.path.join(jobs_dir, "manifest.json")) as f:
            manifest = json.load(f)
        rng.shuffle(manifest["jobs"])
        shuffled = os.path.join(jobs_dir, "shuffled.json")
        with open(shuffled, "w") as f:
            json.dump(manifest, f)
        results = os.path.join(args.work, name + ".second.json")
        run([os.path.join(bin_dir, "fuel-run"), "--measure=" + shuffled,
             "--json=" + results, "--threads=1", "--budget=%g" % args.budget])
        with open(results) as f:
            second = json.load(f)
        by_id = {j["id"]: j for j in second["jobs"] if j["state"] == "measured"}
        # Per node: (kernel, device) -> second-run median.
        node_times = {}
        for job in manifest["jobs"]:
            if job["id"] not in by_id:
                continue
            for fn, nid in job["nodes"]:
                node_times.setdefault((fn, nid), {})[
                    (job["kernel"], job["device"])] = by_id[job["id"]]["median_ns"]

        without = plan_winners(bin_dir, example, args.topology, "", args.work, "static")
        try:
            withdb = plan_winners(bin_dir, example, args.topology,
                                  "profile=" + db, args.work, "measured")
        except Failed as e:
            print("planning with profile= failed (%s): the database column "
                  "stays empty" % e)
            withdb = {}
        print("\n## %s: %d kernels measured by fuel-judge in %.1f s (%.2f s per "
              "kernel)" % (name, measured, judge_s, judge_s / max(measured, 1)))
        print("%-12s %-34s %9s %-34s %9s %12s" % ("node", "chosen (Layer 1)", "regret",
                                                "chosen (database)", "regret",
                                                "fastest ns"))
        for key in sorted(node_times):
            times = node_times[key]
            fastest = min(times.values())
            row = []
            for plan, acc in ((without, all_without), (withdb, all_with)):
                chosen = plan.get(key)
                t = times.get(chosen) if chosen else None
                if t is None:
                    row += ["-", "-"]
                    continue
                regret = t / fastest - 1
                acc.append(regret)
                row += [chosen[0], "%.1f%%" % (100 * regret)]
            print("%-12s %-34s %9s %-34s %9s %12.0f" % (
                "@%s/%d" % key, row[0], row[1], row[2], row[3], fastest))

        e2e = {}
        for tag, plan in [("Layer 1", ""), ("database", "profile=" + db),
                          ("generated only", "kernel-sources=generated"),
                          ("openblas only", "kernel-sources=generated,openblas"),
                          ("blis only", "kernel-sources=generated,blis")]:
            try:
                e2e[tag] = end_to_end(bin_dir, example, args.topology, plan,
                                      args.work, tag.replace(" ", "-"),
                                      args.repeat)
            except Failed as e:
                print("  %s: not compiled (%s)" % (tag, e))
        best_single = min(v[0] for k, v in e2e.items() if k.endswith("only"))
        print("end to end (median of %d runs):" % args.repeat)
        for tag, (ns, pred) in e2e.items():
            print("  %-16s measured %10d ns  predicted %10d ns  vs best "
                  "single-source %+.1f%%" % (tag, ns, pred,
                                            100 * (ns / best_single - 1)))

    for label, acc in (("Layer 1", all_without), ("database", all_with)):
        if acc:
            print("\nnode regret, %s: median %.1f%%, worst %.1f%% over %d nodes" %
                  (label, 100 * statistics.median(acc), 100 * max(acc), len(acc)))


if __name__ == "__main__":
    main()
