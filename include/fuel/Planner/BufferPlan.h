//===- BufferPlan.h - Arena offsets by interval packing ---------*- C++ -*-===//
//
// Buffer planning of the host program (docs/LOWERING.md, "Buffers"): every
// intermediate buffer of a program gets an offset in its device's arena so
// that no two buffers live at the same time share a byte, by greedy
// best-fit interval packing. A kernel result may take the place of a buffer
// whose last reader is the kernel producing it, where the kernel allows it
// (an in-place hint). Inputs, outputs and constants are not arena buffers:
// they never enter the plan, so nothing is ever placed over them.
//
// IR-free: the pass fuel-plan-buffers translates the IR into BufferRequests.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_BUFFERPLAN_H
#define FUEL_PLANNER_BUFFERPLAN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace fuel::plan {

/// The default alignment of a buffer and of an arena, in bytes.
inline constexpr uint64_t kDefaultBufferAlignment = 64;

/// One buffer to place. Its live interval is [firstUse, lastUse] in command
/// order: it is written by command `firstUse` and last read by command
/// `lastUse` (both inclusive, so a buffer written and read by the same
/// command still occupies its bytes during that command).
struct BufferRequest {
  /// The device whose arena holds the buffer (an index chosen by the caller).
  unsigned device = 0;
  /// Bytes; a buffer of 0 bytes is placed at offset 0 and takes no space.
  uint64_t size = 0;
  /// A power of two.
  uint64_t alignment = kDefaultBufferAlignment;
  unsigned firstUse = 0;
  unsigned lastUse = 0;
  /// The index of a buffer this one may overwrite in place: the kernel that
  /// writes this buffer (command `firstUse`) allows its result to share the
  /// bytes of that operand. Honoured when the operand is on the same device,
  /// dies at exactly this command (its lastUse == firstUse), is at least as
  /// large, at least as aligned and not already taken over by another
  /// buffer; ignored otherwise.
  std::optional<unsigned> inPlaceOf;
};

/// The plan: offsets of the requests, in request order, and arena sizes.
struct BufferPlan {
  /// The offset of each request in its device's arena.
  std::vector<uint64_t> offsets;
  /// For each request, the request whose bytes it took over in place, if
  /// its hint was honoured.
  std::vector<std::optional<unsigned>> sharesWith;
  /// Bytes of each device's arena, indexed by device (0 for a device without
  /// buffers); a multiple of kDefaultBufferAlignment.
  std::vector<uint64_t> arenaBytes;
  /// The largest alignment of each device's buffers (at least
  /// kDefaultBufferAlignment).
  std::vector<uint64_t> arenaAlignment;
};

/// Places `requests` (devices 0 .. numDevices-1). Deterministic: the result
/// depends on the requests' contents, not on the order of requests that are
/// interchangeable (equal in every field, hints included). Fails on a
/// request with firstUse > lastUse, an alignment that is not a power of
/// two, a device or hint out of range, or an arena whose size overflows 64
/// bits.
llvm::Expected<BufferPlan> planBuffers(llvm::ArrayRef<BufferRequest> requests,
                                       unsigned numDevices);

/// The largest sum of sizes of buffers of `device` live at one command,
/// where a chain of buffers that took over each other's bytes in place
/// (`plan.sharesWith`) counts once, with its largest member: the least
/// arena any plan with the same in-place sharing could use.
uint64_t peakLiveBytes(llvm::ArrayRef<BufferRequest> requests,
                       const BufferPlan &plan, unsigned device);

} // namespace fuel::plan

#endif // FUEL_PLANNER_BUFFERPLAN_H
