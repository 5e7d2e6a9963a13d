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

# `fuel-lowering`: this build's fuel-opt registers every lowering pass, so programs
# can be compiled to executables and run (test/Integration/cpu needs it).
#
# Also, the passes fuel-opt registers, as lit features (`REQUIRES: pass-<name>`), so a
# test of a pipeline that spans several lowering passes states what it needs.
import subprocess

try:
    _help = subprocess.run(
        [os.path.join(config.fuel_tools_dir, "fuel-opt"), "--help"],
        capture_output=True, text=True, timeout=60,
    ).stdout
except (OSError, subprocess.SubprocessError):
    _help = ""
# Every stage must be there: the passes land one by one.
_lowering = [
    "--fuel-outline-kernels",
    "--fuel-apply-schedules",
    "--fuel-bufferize-kernels",
    "--fuel-plan-buffers",
    "--convert-fuel-to-llvm",
    "--fuel-serialize-executable",
]
if all(flag in _help for flag in _lowering):
    config.available_features.add("fuel-lowering")
for _pass in ["fuel-outline-kernels", "fuel-plan-buffers",
              "fuel-serialize-executable", "convert-fuel-to-llvm"]:
    if "--" + _pass + " " in _help or "--" + _pass + "\n" in _help:
        config.available_features.add("pass-" + _pass)
