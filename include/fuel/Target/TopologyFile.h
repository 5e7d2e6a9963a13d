//===- TopologyFile.h - Reading, writing and probing topologies -*- C++ -*-===//
//
// The topology file format (version 1, documented in docs/TOPOLOGY.md), the
// built-in default topology and the probed topology (SEMANTICS §9 `topology`
// option). Everything here produces or consumes the shared plain struct
// fuel::plan::Topology; every Topology returned is canonical (devices in
// device order, links sorted, SEMANTICS §5) and passes Topology::validate().
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_TARGET_TOPOLOGYFILE_H
#define FUEL_TARGET_TOPOLOGYFILE_H

#include "fuel/Planner/Topology.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fuel::probe {
struct ProbeResult;
} // namespace fuel::probe

namespace fuel::target {

/// The only topology file version this build reads and writes.
inline constexpr int64_t kTopologyFormatVersion = 1;

/// Parses a topology file's text. `fileName` only labels diagnostics. Errors
/// are a single line:
///   - syntax: `<file>:<line>:<col>: error: <what the JSON parser expected>`
///   - content: `<file>: error: <JSON path>: <what was expected>`, where the
///     path is written `$.devices[1].alignment`.
/// Unknown keys are errors, so a misspelt figure is never silently ignored.
llvm::Expected<plan::Topology> parseTopology(llvm::StringRef text,
                                             llvm::StringRef fileName);

/// Reads and parses the topology file at `path`; a file that cannot be read
/// is an error naming it.
llvm::Expected<plan::Topology> loadTopologyFile(llvm::StringRef path);

/// Prints `topology` as a version-1 topology file: keys in a fixed order,
/// devices in device order, links sorted, doubles in the shortest form that
/// reads back to the same value, and a final newline. For every topology t
/// that parseTopology accepts, parseTopology(printTopologyJSON(t)) equals t
/// (topologiesEqual), so a user may save, edit and pass the text back.
std::string printTopologyJSON(const plan::Topology &topology);

/// Field-by-field equality of two topologies, names included, after
/// canonicalising both.
bool topologiesEqual(const plan::Topology &a, const plan::Topology &b);

/// The built-in default topology (SEMANTICS §9): one host `cpu` with fixed
/// constants (docs/TOPOLOGY.md lists them), no other device, no links. It is
/// never probed, so every call on every machine returns the same value. The
/// host offers every kernel source the registry has for `cpu`.
plan::Topology defaultTopology();

/// Constants the probe uses where the machine does not report a figure, and
/// for what it cannot observe at all (dispatch overheads, alignments, links).
/// docs/TOPOLOGY.md explains each.
struct ProbeConstants {
  /// Clock assumed for a CPU whose clock is unknown, in GHz.
  double cpuClockGHz = 2.0;
  /// Vector width assumed for a CPU whose width is unknown, in bits.
  uint32_t cpuVectorBits = 128;
  /// Host memory bandwidth when unknown (the OS never reports it), in B/ns.
  double cpuBytesPerNs = 20.0;
  /// Dispatch overheads, in ns: waking a host thread pool, a CUDA launch, a
  /// Vulkan submit on a GPU, a Vulkan submit on a CPU-type driver.
  int64_t cpuDispatchOverheadNs = 2'000;
  int64_t cudaDispatchOverheadNs = 5'000;
  int64_t vulkanGpuDispatchOverheadNs = 10'000;
  int64_t vulkanCpuDispatchOverheadNs = 20'000;
  /// Buffer alignments, in bytes.
  uint64_t cpuAlignment = 64;
  uint64_t gpuAlignment = 256;
  /// The host <-> discrete GPU link each way (a PCIe 4.0 x16 device copy).
  int64_t pcieBandwidthBytesPerSec = 25'000'000'000;
  int64_t pcieLatencyNs = 10'000;
};

/// Builds a topology from enumerated devices (SEMANTICS §1, §5):
///   - the host from the probed CPU: its f32 peak as the probe estimates it,
///     or, when the probe could not, physical cores x clock x (vector bits /
///     32) lanes x 2 flops (one FMA per core per cycle) with the constants
///     filling in unknown figures; its f64 peak is half the f32 peak;
///   - every CUDA device with a device-copy link each way to the host;
///   - every Vulkan device as what it is: a CPU-type one (Mesa lavapipe)
///     stays `cpu_type` and reaches the host through shared-memory links
///     (the class defaults), a GPU through device-copy links.
/// GPU figures the probe reports as 0 (unknown) are left out, so the
/// planner's priors apply (SEMANTICS §3 step 6). Two probed devices with one
/// identity are an error. When no CPU was probed the host takes the default
/// topology's figures. The probe's notes, then one line per figure a constant
/// supplied, are appended to `notes` when given.
llvm::Expected<plan::Topology>
topologyFromProbe(const probe::ProbeResult &probed,
                  std::vector<std::string> *notes = nullptr,
                  const ProbeConstants &constants = ProbeConstants());

/// Enumerates this machine (fuel::probe::probeAll: CPU, CUDA through the
/// driver loaded at run time, Vulkan through the loader; a missing driver or
/// loader just means no such devices) and builds its topology with
/// topologyFromProbe. Never used unless asked for; lit tests pass topology
/// files instead, so they mean the same on every machine.
llvm::Expected<plan::Topology>
probeTopology(std::vector<std::string> *notes = nullptr);

/// Resolves the `topology` pipeline option (SEMANTICS §9): "" gives
/// defaultTopology(), "probe" gives probeTopology(), anything else is a path
/// to a topology file (write `./probe` for a file named probe).
llvm::Expected<plan::Topology> resolveTopology(llvm::StringRef spec);

} // namespace fuel::target

#endif // FUEL_TARGET_TOPOLOGYFILE_H
