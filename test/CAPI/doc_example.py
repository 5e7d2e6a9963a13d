#!/usr/bin/python3
"""Runs the ctypes example of docs/EMBEDDING.md ("The C API") as written.

  doc_example.py EMBEDDING.md libFuelCAPI.so TOPOLOGY.json WORK_DIR

Takes the ```python block of the section "## The C API", writes it to
WORK_DIR/example.py and runs it with /usr/bin/python3 and the library and
topology as its arguments, so the page's example cannot drift from the API.
"""

import os
import re
import subprocess
import sys


def main():
    doc, lib, topology, work = sys.argv[1:5]
    with open(doc) as f:
        text = f.read()
    section = re.search(r"^## The C API\n(.*?)(?=^## )", text, re.S | re.M)
    if not section:
        print("doc_example: no section '## The C API'")
        return 1
    blocks = re.findall(r"^```python\n(.*?)^```", section.group(1),
                        re.S | re.M)
    if len(blocks) != 1:
        print(f"doc_example: {len(blocks)} python blocks, expected 1")
        return 1
    os.makedirs(work, exist_ok=True)
    example = os.path.join(work, "example.py")
    with open(example, "w") as f:
        f.write(blocks[0])
    result = subprocess.run(["/usr/bin/python3", example, lib, topology])
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
