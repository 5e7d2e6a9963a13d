# -*- Python -*-
# lit configuration of the fuel test suites.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "fuel"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fuel_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
# The schedule files (kernels/schedules), for tests that load one directly.
config.substitutions.append(
    ("%fuel_schedules", os.path.join(config.fuel_src_root, "kernels", "schedules"))
)
# Topology files of the tests: explicit machines, never the one running them.
config.substitutions.append(
    ("%topologies", os.path.join(config.fuel_src_root, "test", "topologies"))
)

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.fuel_tools_dir, config.llvm_tools_dir]
tools = [
    "fuel-compile",
    "fuel-opt",
    "fuel-run",
    "fuel-topology",
    ToolSubst("%python", config.python_executable, unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The integration harness (test/Integration/run-and-check.py) finds
# fuel-compile and fuel-run here.
config.environment["FUEL_TOOLS_DIR"] = config.fuel_tools_dir


# The instruction sets this machine can run, for the integration tests that
# run code compiled for a pinned cpu target (`REQUIRES: cpu-avx512f`). Code
# for any target compiles and FileChecks everywhere; only running it needs
# the hardware.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                for isa in ("avx2", "fma", "avx512f"):
                    if isa in flags:
                        config.available_features.add("cpu-" + isa)
                break
except OSError:
    pass
