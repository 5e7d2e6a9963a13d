//===- CommandDeps.cpp - Command dependencies from byte ranges ------------===//
//
// The sweep of CommandDeps.h. Per written memory space, an ordered map of
// disjoint byte segments, each with its last writer and the readers since
// that write. A command's conflicts with earlier commands are then:
//   - for a byte it reads: the byte's last writer;
//   - for a byte it writes: the byte's last writer and its readers since.
// Any other conflicting command is an ancestor of one of these: an earlier
// writer of the byte is an ancestor of the last writer (write after write),
// an earlier reader is an ancestor of the writer that followed it (write
// after read). So the reduction over these conflicts alone gives exactly
// the reduction over all of them.
//
// The reduction visits the conflicts latest first; each one not reached yet
// from a kept one is kept, and the commands reachable from it through
// dependencies are marked. Dependencies point to earlier commands, so the
// walk stops at the earliest conflict: nothing before it can be asked.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/CommandDeps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>
#include <map>

using namespace fuel::plan;

namespace {

/// Bytes [key, end) of one space, with the command that wrote them last (-1:
/// none) and the commands that read them since, in command order.
struct Segment {
  uint64_t end = 0;
  int64_t writer = -1;
  llvm::SmallVector<uint32_t, 2> readers;
};

using SpaceMap = std::map<uint64_t, Segment>;

/// Makes `pos` a segment boundary: a segment strictly containing it is cut
/// in two that keep its writer and readers.
void splitAt(SpaceMap &map, uint64_t pos) {
  auto it = map.upper_bound(pos);
  if (it == map.begin())
    return;
  --it;
  if (it->first < pos && pos < it->second.end) {
    Segment tail = it->second;
    it->second.end = pos;
    map.emplace_hint(std::next(it), pos, std::move(tail));
  }
}

/// The conflicts of an access to `range` with the commands before it.
void collect(SpaceMap &map, const ByteRange &range, bool write,
             llvm::SmallVectorImpl<uint32_t> &out) {
  splitAt(map, range.begin);
  splitAt(map, range.end);
  for (auto it = map.lower_bound(range.begin);
       it != map.end() && it->first < range.end; ++it) {
    if (it->second.writer >= 0)
      out.push_back(uint32_t(it->second.writer));
    if (write)
      out.append(it->second.readers.begin(), it->second.readers.end());
  }
}

/// Records that `command` reads `range`: it joins the readers of every byte.
void noteRead(SpaceMap &map, const ByteRange &range, uint32_t command) {
  splitAt(map, range.begin);
  splitAt(map, range.end);
  uint64_t pos = range.begin;
  auto it = map.lower_bound(range.begin);
  while (pos < range.end) {
    if (it == map.end() || it->first > pos) {
      // Bytes nobody touched yet: a new segment up to the next one.
      Segment fresh;
      fresh.end = it == map.end() ? range.end : std::min(it->first, range.end);
      fresh.readers.push_back(command);
      uint64_t end = fresh.end;
      it = std::next(map.emplace_hint(it, pos, std::move(fresh)));
      pos = end;
      continue;
    }
    llvm::SmallVectorImpl<uint32_t> &readers = it->second.readers;
    if (readers.empty() || readers.back() != command)
      readers.push_back(command);
    pos = it->second.end;
    ++it;
  }
}

/// Records that `command` writes `range`: one segment, no readers since.
void noteWrite(SpaceMap &map, const ByteRange &range, uint32_t command) {
  splitAt(map, range.begin);
  splitAt(map, range.end);
  auto first = map.lower_bound(range.begin);
  auto last = map.lower_bound(range.end);
  auto hint = map.erase(first, last);
  Segment segment;
  segment.end = range.end;
  segment.writer = command;
  map.emplace_hint(hint, range.begin, std::move(segment));
}

bool isEmpty(const ByteRange &r) { return r.begin >= r.end; }

} // namespace

std::vector<llvm::SmallVector<int64_t, 4>>
fuel::plan::commandDependencies(llvm::ArrayRef<CommandAccess> commands) {
  const size_t n = commands.size();
  std::vector<llvm::SmallVector<int64_t, 4>> deps(n);

  // Only a space some command writes can hold a conflict: reads alone
  // never order commands, so the other spaces are not tracked at all.
  llvm::DenseSet<uint64_t> written;
  for (const CommandAccess &c : commands)
    for (const ByteRange &w : c.writes)
      if (!isEmpty(w))
        written.insert(w.space);
  llvm::DenseMap<uint64_t, SpaceMap> spaces;
  auto tracked = [&](const ByteRange &r) -> SpaceMap * {
    if (isEmpty(r) || !written.contains(r.space))
      return nullptr;
    return &spaces[r.space];
  };

  constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  // mark[p] == c: p is reachable from a kept dependency of command c.
  std::vector<uint32_t> mark(n, kNone);
  llvm::SmallVector<uint32_t, 16> conflicts;
  std::vector<uint32_t> stack;
  for (size_t ci = 0; ci < n; ++ci) {
    const uint32_t c = uint32_t(ci);
    const CommandAccess &access = commands[ci];
    conflicts.clear();
    for (const ByteRange &r : access.reads)
      if (SpaceMap *map = tracked(r))
        collect(*map, r, /*write=*/false, conflicts);
    for (const ByteRange &w : access.writes)
      if (SpaceMap *map = tracked(w))
        collect(*map, w, /*write=*/true, conflicts);
    // Reads first, then writes: a byte this command reads and writes ends
    // up written by it, with no reader since.
    for (const ByteRange &r : access.reads)
      if (SpaceMap *map = tracked(r))
        noteRead(*map, r, c);
    for (const ByteRange &w : access.writes)
      if (SpaceMap *map = tracked(w))
        noteWrite(*map, w, c);
    if (conflicts.empty())
      continue;

    // The transitive reduction, latest conflict first.
    llvm::sort(conflicts, std::greater<uint32_t>());
    conflicts.erase(std::unique(conflicts.begin(), conflicts.end()),
                    conflicts.end());
    const uint32_t earliest = conflicts.back();
    llvm::SmallVector<int64_t, 4> &kept = deps[ci];
    for (uint32_t p : conflicts) {
      if (mark[p] == c)
        continue;
      kept.push_back(p);
      mark[p] = c;
      stack.push_back(p);
      while (!stack.empty()) {
        uint32_t v = stack.back();
        stack.pop_back();
        for (int64_t d : deps[v])
          if (uint32_t(d) >= earliest && mark[d] != c) {
            mark[d] = c;
            stack.push_back(uint32_t(d));
          }
      }
    }
    std::reverse(kept.begin(), kept.end());
  }
  return deps;
}
