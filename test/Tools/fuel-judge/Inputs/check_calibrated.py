#!/usr/bin/python3
"""Checks a calibrated topology against the one it came from and the
database: the links cpu<->vulkan:0 carry the fitted figures stored in the
links table (bandwidth as bytes per second, latency rounded), every device
present got a positive streaming bandwidth and dispatch overhead, and the
figures that are not measured (names, peaks, limits) are unchanged."""

import json
import sqlite3
import sys

measured = json.load(open(sys.argv[1]))
con = sqlite3.connect(sys.argv[2])
original = json.load(open(sys.argv[3]))

assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
rows = con.execute(
    "SELECT from_device, to_device, latency_ns, bandwidth_bytes_per_sec "
    "FROM links").fetchall()
links = {(l["from"], l["to"]): l for l in measured["links"]}
for frm, to, lat, bw in rows:
    link = links[(frm, to)]
    assert abs(link["bandwidth_bytes_per_s"] - bw) <= 1, (link, bw)
    assert abs(link["latency_ns"] - lat) <= 1, (link, lat)
    assert link["path_class"] == "shared-memory"
by_name = {d["device"]: d for d in original["devices"]}
for d in measured["devices"]:
    o = by_name[d["device"]]
    assert d["bytes_per_ns"] > 0 and d["dispatch_overhead_ns"] > 0, d
    for key in ("name", "peak_flops_per_ns", "memory_bytes", "alignment"):
        assert d.get(key) == o.get(key), key
    assert d.get("limits") == o.get("limits")
print("calibrated topology ok: %d links measured, %d in the database"
      % (len(links), len(rows)))
