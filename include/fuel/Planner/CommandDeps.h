//===- CommandDeps.h - Command dependencies from byte ranges ----*- C++ -*-===//
//
// The dependencies of the host program's commands (docs/LOWERING.md, "Host
// program"): a command waits for every earlier command that writes bytes it
// reads or writes, or reads bytes it writes, except where that order is
// already implied through another dependency (a transitive reduction).
//
// Near-linear: a sweep over the commands keeps, per memory space, the last
// writer of every byte range and the readers since that write, so a command
// meets only the earlier commands that touched its bytes last; every other
// conflicting command is an ancestor of one of those. The reduction then
// walks the dependency graph back from the conflicts, no further than the
// earliest of them.
//
// IR-free: the pass fuel-plan-buffers translates the IR into CommandAccess.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_COMMANDDEPS_H
#define FUEL_PLANNER_COMMANDDEPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace fuel::plan {

/// Bytes [begin, end) of memory space `space` (an id chosen by the caller:
/// ranges of different spaces never overlap). An empty range touches
/// nothing.
struct ByteRange {
  uint64_t space = 0;
  uint64_t begin = 0, end = 0;
};

/// What one command reads and writes.
struct CommandAccess {
  llvm::SmallVector<ByteRange, 4> reads, writes;
};

/// For each command, in command order, the earlier commands it depends on,
/// ascending: command `p < c` conflicts with `c` when a write of one
/// overlaps a read or a write of the other; `c` depends on the conflicting
/// `p` not reachable from another conflicting command of `c` through
/// dependencies. Deterministic: a function of the accesses alone.
/// O((commands + ranges) · log) for the sweep, plus the reduction's walks
/// back to the earliest conflict of each command.
std::vector<llvm::SmallVector<int64_t, 4>>
commandDependencies(llvm::ArrayRef<CommandAccess> commands);

} // namespace fuel::plan

#endif // FUEL_PLANNER_COMMANDDEPS_H
