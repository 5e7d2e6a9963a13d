#!/usr/bin/python3
"""fuel-judge's crash safety and concurrent writers (ctest
fuel-judge-crash-safety).

1. A run to the end on a fresh database: how many jobs, and how long.
2. Runs killed with SIGKILL at random moments (a seeded generator: the same
   moments on every run of the test, relative to the time a whole run
   takes); the database starts afresh every other run so kills keep landing
   while jobs are measured. After each kill: PRAGMA integrity_check is ok,
   every row has sane figures and each key is stored once, and every row
   committed before the run is still there, unchanged.
3. A rerun without a kill completes the rest: every job stored once.
4. Two fuel-judge processes started together on one fresh database both
   succeed, and the database holds every job once.
"""

import argparse
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time


def fail(msg):
    print("judge_crash_test: FAIL: " + msg)
    sys.exit(1)


def judge_cmd(args, db):
    return [os.path.join(args.tools, "fuel-judge"), args.program,
            "--topology=" + args.topology, "--db=" + db, "--budget=120"]


def rows(db):
    """Every row, by key, after checking the file's integrity."""
    if not os.path.exists(db):
        return {}
    con = sqlite3.connect(db)
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            fail("integrity_check of %s: %s" % (db, ok))
        tables = {r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "measurements" not in tables:
            return {}
        out = {}
        for r in con.execute(
                "SELECT key_text, median_ns, p10_ns, p90_ns, noise_ns, "
                "iterations, fuel_version FROM measurements"):
            if r[0] in out:
                fail("key stored twice: " + r[0])
            if not (0 < r[2] <= r[1] <= r[3]) or r[4] < 0 or r[5] < 1 or not r[6]:
                fail("row with figures that are not sane: %r" % (r,))
            out[r[0]] = r[1:]
        return out
    finally:
        con.close()


def run_to_end(args, db):
    start = time.monotonic()
    p = subprocess.run(judge_cmd(args, db), capture_output=True, text=True)
    took = time.monotonic() - start
    if p.returncode != 0:
        fail("fuel-judge exited %d: %s" % (p.returncode, p.stderr))
    m = re.search(r"fuel-judge: (\d+) jobs: .* (\d+) left", p.stdout)
    if not m:
        fail("no summary in: " + p.stdout)
    return int(m.group(1)), int(m.group(2)), took


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--topology", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)

    # 1. A whole run.
    jobs, left, whole = run_to_end(args, os.path.join(args.work, "whole.db"))
    if left or len(rows(os.path.join(args.work, "whole.db"))) != jobs:
        fail("a whole run did not store every job")
    print("judge_crash_test: %d jobs, a whole run takes %.2f s" % (jobs, whole))

    # 2. Kills at random moments.
    rng = random.Random(args.seed)
    db = os.path.join(args.work, "crash.db")
    kills = 0
    for i in range(args.runs):
        if i % 2 == 0:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
        before = rows(db)
        delay = rng.uniform(0.0, whole * 0.9)
        p = subprocess.Popen(judge_cmd(args, db), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(delay)
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            kills += 1
        p.wait()
        after = rows(db)
        for key, value in before.items():
            if after.get(key) != value:
                fail("run %d: a committed row changed or vanished: %s" % (i, key))
        print("judge_crash_test: run %d: killed after %.2f s, %d rows" %
              (i, delay, len(after)))
    if kills < args.runs // 3:
        fail("only %d of %d runs were killed" % (kills, args.runs))

    # 3. A rerun completes the rest.
    before = rows(db)
    jobs2, left, _ = run_to_end(args, db)
    after = rows(db)
    if jobs2 != jobs or left or len(after) != jobs:
        fail("the rerun left %d jobs, %d rows of %d" % (left, len(after), jobs))
    for key, value in before.items():
        if after.get(key) != value:
            fail("the rerun changed a committed row: " + key)
    print("judge_crash_test: %d kills; the rerun completed %d jobs" %
          (kills, jobs - len(before)))

    # 4. Two processes on one database.
    db = os.path.join(args.work, "concurrent.db")
    procs = [subprocess.Popen(judge_cmd(args, db), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    for p in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            fail("a concurrent fuel-judge exited %d: %s" % (p.returncode, err))
    stored = rows(db)
    if len(stored) != jobs:
        fail("two processes stored %d rows of %d jobs" % (len(stored), jobs))
    print("judge_crash_test: two processes: %d rows, each job once" % len(stored))
    print("judge_crash_test: PASS")


if __name__ == "__main__":
    main()
