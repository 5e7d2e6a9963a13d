#!/usr/bin/python3
"""Checks what fuel-judge and fuel-run --measure wrote, independently of them.

  judge_check.py results RESULTS.json --measured N [--skipped M]
      every job's state; measured ones have 0 < p10 <= median <= p90,
      noise >= 0, at least 10 iterations, a device name, pool threads >= 1
  judge_check.py db DB [--results RESULTS.json] --rows N
      PRAGMA integrity_check is ok, the database holds N measurements, each
      key once, each with sane figures; with --results every measured job's
      median is the row's (by kernel and device)
  judge_check.py jobs MANIFEST --harness RUN_AND_CHECK
      runs each job's executable with the integration harness against its
      numpy reference (matmul, elementwise add)
"""

import argparse
import json
import os
import sqlite3
import subprocess
import sys


def fail(msg):
    print("judge_check: FAIL: " + msg)
    sys.exit(1)


def check_results(args):
    with open(args.file) as f:
        doc = json.load(f)
    if doc.get("format") != "fuel-judge-results" or doc.get("version") != 1:
        fail("not a version-1 results file")
    states = {}
    for job in doc["jobs"]:
        states[job["state"]] = states.get(job["state"], 0) + 1
        if job["state"] == "measured":
            if not (0 < job["p10_ns"] <= job["median_ns"] <= job["p90_ns"]):
                fail("job %s: p10/median/p90 out of order" % job["id"])
            if job["noise_ns"] < 0 or job["iterations"] < 10:
                fail("job %s: noise or iterations" % job["id"])
            if not job["device_name"] or job["pool_threads"] < 1:
                fail("job %s: no device identity" % job["id"])
            if job["key"]["kernel_id"] != job["kernel"]:
                fail("job %s: key and kernel differ" % job["id"])
        elif not job.get("reason"):
            fail("job %s is %s without a reason" % (job["id"], job["state"]))
    if states.get("measured", 0) != args.measured:
        fail("%d measured, expected %d" % (states.get("measured", 0), args.measured))
    if states.get("skipped", 0) != args.skipped:
        fail("%d skipped, expected %d" % (states.get("skipped", 0), args.skipped))
    print("judge_check: results ok: %s" % ", ".join(
        "%d %s" % (n, s) for s, n in sorted(states.items())))


def check_db(args):
    con = sqlite3.connect(args.file)
    ok = con.execute("PRAGMA integrity_check").fetchone()[0]
    if ok != "ok":
        fail("integrity_check: " + ok)
    rows = con.execute(
        "SELECT key_text, kernel_id, device_kind, device_ordinal, median_ns, "
        "p10_ns, p90_ns, noise_ns, iterations FROM measurements").fetchall()
    keys = [r[0] for r in rows]
    if len(set(keys)) != len(keys):
        fail("a key is stored twice")
    for r in rows:
        if not (0 < r[5] <= r[4] <= r[6]) or r[7] < 0 or r[8] < 1:
            fail("row %s: figures not sane" % r[1])
    if len(rows) != args.rows:
        fail("%d rows, expected %d" % (len(rows), args.rows))
    if args.results:
        with open(args.results) as f:
            doc = json.load(f)
        for job in doc["jobs"]:
            if job["state"] != "measured":
                continue
            dev = job["device"].split(":")
            match = [r for r in rows if r[1] == job["kernel"] and r[2] == dev[0]]
            if len(match) != 1 or abs(match[0][4] - job["median_ns"]) > 0.5:
                fail("job %s: not stored as measured" % job["id"])
    print("judge_check: db ok: %d rows, integrity ok" % len(rows))


REFS = {("matmul", ()): "matmul", ("elementwise", (("fn", "add"),)): "add"}


def check_jobs(args):
    with open(args.file) as f:
        doc = json.load(f)
    base = os.path.dirname(os.path.abspath(args.file))
    checked = 0
    for job in doc["jobs"]:
        key = job["key"]
        ref = REFS.get((key["op_kind"], tuple(tuple(p) for p in key["params"])))
        if ref is None or job["device"] != "cpu":
            continue
        work = os.path.join(args.work, job["id"])
        r = subprocess.run(
            ["/usr/bin/python3", args.harness, "--executable",
             os.path.join(base, job["executable"]), "--ref", ref,
             "--rtol", "1e-4", "--atol", "1e-4", "--work", work],
            capture_output=True, text=True)
        if r.returncode != 0:
            fail("job %s (%s): %s%s" % (job["id"], job["kernel"], r.stdout, r.stderr))
        checked += 1
    print("judge_check: %d job executables match numpy" % checked)


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="what", required=True)
    r = sub.add_parser("results")
    r.add_argument("file")
    r.add_argument("--measured", type=int, required=True)
    r.add_argument("--skipped", type=int, default=0)
    d = sub.add_parser("db")
    d.add_argument("file")
    d.add_argument("--rows", type=int, required=True)
    d.add_argument("--results")
    j = sub.add_parser("jobs")
    j.add_argument("file")
    j.add_argument("--harness", required=True)
    j.add_argument("--work", required=True)
    args = p.parse_args()
    {"results": check_results, "db": check_db, "jobs": check_jobs}[args.what](args)


if __name__ == "__main__":
    main()
