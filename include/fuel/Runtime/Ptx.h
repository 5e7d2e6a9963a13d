//===- Ptx.h - A bounded reader of PTX module text --------------*- C++ -*-===//
//
// The few facts of a CUDA module's PTX the loader checks before a CUDA device
// sees it: the segment is PTX text ending in exactly one NUL byte (the C
// string cuModuleLoadDataEx reads), it states a `.version` and a `.target`,
// and the names of its `.entry` functions. The reader scans the text once,
// never past the end, so garbage yields a Status, never a crash. LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_PTX_H
#define FUEL_RUNTIME_PTX_H

#include "fuel/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fuel::rt {

/// The threads of one CUDA block on every chip since compute capability
/// 2.0: the most a kernel entry's workgroup size may hold.
inline constexpr uint64_t kMaxCudaThreadsPerBlock = 1024;

/// What the loader reads of a PTX module.
struct PtxModuleInfo {
  /// The `.version` directive's operand, e.g. "8.0".
  std::string version;
  /// The `.target` directive's first operand, e.g. "sm_90".
  std::string target;
  /// The names of the `.entry` functions (kernels), in text order.
  std::vector<std::string> entries;
};

/// Reads a CUDA module's segment. Refuses an empty segment, one whose last
/// byte is not NUL or with a NUL before it, a byte that is neither
/// printable ASCII nor whitespace, and text without a `.version` or a
/// `.target` directive.
StatusOr<PtxModuleInfo> readPtxModule(const void *data, size_t size);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_PTX_H
