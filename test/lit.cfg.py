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
    "fuel-import-onnx",
    "fuel-judge",
    "fuel-opt",
    "fuel-profile-db",
    "fuel-run",
    "fuel-topology",
    ToolSubst("%python", config.python_executable, unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The integration harness (test/Integration/run-and-check.py) finds
# fuel-compile and fuel-run here.
config.environment["FUEL_TOOLS_DIR"] = config.fuel_tools_dir


# Code compiled for a pinned cpu target (test/topologies/cpu-target.json,
# cpu-avx512.json) compiles and FileChecks everywhere; the tests run it
# through test/Integration/run-and-check.py or run-if-cpu.py, which run it
# only where `fuel-run --check-cpu` (the loader's check of every feature the
# executable records) says this CPU can, never on the strength of a single
# flag such as avx2 or avx512f.

# SPIR-V tools (Debian spirv-tools, scripts/install-deps.sh): the tests of
# the Vulkan kernels validate every SPIR-V module they make with spirv-val
# (`REQUIRES: spirv-tools`). Without them those tests skip with this note,
# except under CI=true, where a missing package is an error.
import shutil

_spirv_val = shutil.which("spirv-val")
if _spirv_val:
    config.available_features.add("spirv-tools")
    config.substitutions.append(("%spirv-val", _spirv_val))
elif os.environ.get("CI") == "true":
    lit_config.fatal(
        "spirv-val not found (install spirv-tools: scripts/install-deps.sh); "
        "CI=true requires the SPIR-V validation tests to run"
    )
else:
    lit_config.note(
        "spirv-val not found (spirv-tools): the SPIR-V validation tests "
        "(REQUIRES: spirv-tools) will skip"
    )

# ptxas of the CUDA toolkit (found by CMake, cmake/FuelCudaToolkit.cmake):
# the tests that assemble the PTX fuel makes for the chip of the topology
# (`REQUIRES: ptxas`, %ptxas). Without it they skip with this note, except
# under CI=true, where the CI machine's toolkit must be found.
_ptxas = getattr(config, "fuel_ptxas", "")
if _ptxas and not _ptxas.endswith("-NOTFOUND") and os.path.exists(_ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", _ptxas))
    # The toolkit around it, when it has libdevice: the tests that link it
    # (`REQUIRES: libdevice`, %cuda_toolkit).
    _toolkit = os.path.dirname(os.path.dirname(_ptxas))
    if os.path.isfile(
        os.path.join(_toolkit, "nvvm", "libdevice", "libdevice.10.bc")
    ):
        config.available_features.add("libdevice")
        config.substitutions.append(("%cuda_toolkit", _toolkit))
elif os.environ.get("CI") == "true":
    lit_config.fatal(
        "ptxas not found (the CUDA toolkit, under /usr/local/cuda on the CI "
        "machines; reconfigure with -DFUEL_PTXAS=<path>); CI=true requires the "
        "PTX assembly tests to run"
    )
else:
    lit_config.note(
        "ptxas not found (CUDA toolkit): the PTX assembly tests "
        "(REQUIRES: ptxas) will skip"
    )

# A Vulkan device (Mesa lavapipe on CI, scripts/install-deps.sh): the tests
# that run SPIR-V kernels (`REQUIRES: vulkan`, test/Integration/vulkan/)
# need one. Without one they skip with this note, except under CI=true,
# where its absence is an error.
import subprocess


def _vulkan_device():
    """The first Vulkan device's name, or why there is none."""
    try:
        result = subprocess.run(
            ["vulkaninfo", "--summary"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"vulkaninfo could not run ({error})"
    for line in result.stdout.splitlines():
        if "deviceName" in line and "=" in line:
            return line.split("=", 1)[1].strip(), None
    return None, f"vulkaninfo --summary lists no device (exit {result.returncode})"


_vulkan_name, _vulkan_why = _vulkan_device()
if _vulkan_name:
    config.available_features.add("vulkan")
elif os.environ.get("CI") == "true":
    lit_config.fatal(
        f"no Vulkan device: {_vulkan_why}; CI=true requires the Vulkan tests "
        "to run (mesa-vulkan-drivers and vulkan-tools: scripts/install-deps.sh)"
    )
else:
    lit_config.note(
        f"no Vulkan device ({_vulkan_why}): the Vulkan tests (REQUIRES: vulkan) "
        "will skip"
    )
