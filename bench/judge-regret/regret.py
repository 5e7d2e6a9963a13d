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
   best single-source plan). Identical executables are run once; the
   distinct ones run interleaved, in shuffled order, over several rounds
   (`fuel-run --repeat`, the median wall time of a run per round), and each
   figure is the median round; a paired ratio against the best
   single-source plan's same round cancels the machine's drift. The
   predicted total stands beside the measured one.

  regret.py --build BUILD [--topology T] [--budget S] [--seed N] [--work DIR]
            [--rounds R] [--repeat N]

Everything runs with one CPU thread (fuel-judge --cpu-threads=1, fuel-run
--threads=1), the planner's default pool size for profile lookups.
"""

import argparse
import hashlib
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


def compile_variant(bin_dir, example, topology, plan, work, tag):
    exe = os.path.join(work, "%s.%s.fuelx" % (os.path.basename(example), tag))
    cmd = [os.path.join(bin_dir, "fuel-compile"), example, "-o", exe,
           "--topology=" + topology]
    if plan:
        cmd.append("--plan=" + plan)
    run(cmd, may_fail=True)
    with open(exe, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    return exe, digest


def run_once(bin_dir, exe, repeat):
    r = run([os.path.join(bin_dir, "fuel-run"), exe, "--input=random:1",
             "--threads=1",
             "--warmup=3", "--repeat=%d" % repeat, "--report=json"])
    rep = json.loads(r.stdout)
    return rep["run_median_ns"], rep["total_predicted_ns"]


def end_to_end(bin_dir, example, topology, db, work, rounds, repeat, rng):
    """Compiles every variant, keeps the distinct executables, and runs them
    interleaved: `rounds` rounds, each running every distinct executable once
    (`repeat` timed runs, their median) in a shuffled order, so that the
    machine's drift lands on all of them alike. Returns, per variant, the
    median over rounds, the predicted total, the executable it shares, and
    the per-round times."""
    variants = [("Layer 1", ""), ("database", "profile=" + db),
                ("generated only", "kernel-sources=generated"),
                ("openblas only", "kernel-sources=generated,openblas"),
                ("blis only", "kernel-sources=generated,blis")]
    exes = {}  # digest -> (exe, first variant)
    of = {}    # variant -> digest
    for tag, plan in variants:
        try:
            exe, digest = compile_variant(bin_dir, example, topology, plan, work,
                                          tag.replace(" ", "-"))
        except Failed as e:
            print("  %s: not compiled (%s)" % (tag, e))
            continue
        exes.setdefault(digest, (exe, tag))
        of[tag] = digest
    times = {d: [] for d in exes}
    predicted = {}
    for _ in range(rounds):
        order = sorted(exes)
        rng.shuffle(order)
        for d in order:
            ns, pred = run_once(bin_dir, exes[d][0], repeat)
            times[d].append(ns)
            predicted[d] = pred
    return {tag: (statistics.median(times[d]), predicted[d], exes[d][1], times[d])
            for tag, d in of.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--topology", default="",
                    help="default: this machine's, from fuel-topology probe "
                         "(the planner finds a measurement under the device "
                         "identity its topology carries)")
    ap.add_argument("--budget", type=float, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=30,
                    help="timed runs per round (their median is the round's)")
    ap.add_argument("--rounds", type=int, default=9,
                    help="interleaved rounds over the distinct executables")
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

        e2e = end_to_end(bin_dir, example, args.topology, db, args.work,
                         args.rounds, args.repeat, rng)
        singles = {k: v for k, v in e2e.items() if k.endswith("only")}
        if not singles:
            print("end to end: no single-source plan compiled; nothing to "
                  "compare with")
            continue
        best_tag = min(singles, key=lambda k: singles[k][0])
        best = singles[best_tag]
        print("end to end (%d interleaved rounds, each the median of %d runs; "
              "the median round):" % (args.rounds, args.repeat))
        for tag, (ns, pred, same, per_round) in e2e.items():
            # Paired: this variant's round against the best single-source
            # one's same round.
            paired = statistics.median(a / b for a, b in zip(per_round, best[3]))
            note = "" if same == tag else "  (the same executable as %s)" % same
            print("  %-16s measured %10d ns  predicted %10d ns  vs best "
                  "single-source %+.1f%% (paired %+.1f%%), predicted/measured "
                  "%.2f%s" % (tag, ns, pred, 100 * (ns / best[0] - 1),
                              100 * (paired - 1), pred / ns, note))
        spread = max(max(v[3]) / min(v[3]) for v in e2e.values())
        print("  largest spread of one executable over its rounds: %.2fx" % spread)

    for label, acc in (("Layer 1", all_without), ("database", all_with)):
        if acc:
            print("\nnode regret, %s: median %.1f%%, worst %.1f%% over %d nodes" %
                  (label, 100 * statistics.median(acc), 100 * max(acc), len(acc)))


if __name__ == "__main__":
    main()
