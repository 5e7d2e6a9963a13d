//===- KernelLoweringTest.cpp - Registry lowerings against the tree -------===//
//
// Every registry record names its lowering: the schedule file of a generated
// kernel, the shim entry of a library kernel (docs/KERNELS.md). These tests
// check that every lowering is well-formed and belongs to one kernel only,
// and tie the source tree to docs/KERNELS.md's table of kernels whose
// efficiency and precision figures are estimates: a record is listed there
// exactly when its schedule file or shim entry is not in the tree yet, with
// its lowering, and the table lists registered kernels only. Landing a kernel
// without updating the document fails, and so does a stale row.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/KernelRegistry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

using namespace fuel;
using namespace fuel::target;

namespace {

/// `relative` under the source tree.
std::string sourcePath(llvm::StringRef relative) {
  llvm::SmallString<256> path(FUEL_SOURCE_DIR);
  llvm::sys::path::append(path, relative);
  return std::string(path);
}

/// True when a file under kernels/shims/ mentions `entry` as a whole
/// identifier (a shim defines its entry there).
bool shimExists(llvm::StringRef entry) {
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator
           it(sourcePath("kernels/shims"), ec),
       end;
       it != end && !ec; it.increment(ec)) {
    if (it->type() != llvm::sys::fs::file_type::regular_file)
      continue;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(it->path());
    if (!file)
      continue;
    llvm::StringRef text = (*file)->getBuffer();
    auto isIdentifierChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
    for (size_t at = text.find(entry); at != llvm::StringRef::npos;
         at = text.find(entry, at + 1)) {
      size_t after = at + entry.size();
      if ((at == 0 || !isIdentifierChar(text[at - 1])) &&
          (after == text.size() || !isIdentifierChar(text[after])))
        return true;
    }
  }
  return false;
}

/// True when the record's schedule file or shim entry is in the tree.
bool loweringExists(const KernelRecord &r) {
  if (r.source == KernelSource::Generated)
    return llvm::sys::fs::is_regular_file(sourcePath(r.lowering));
  return shimExists(r.lowering);
}

/// The rows of docs/KERNELS.md's estimates table: kernel id -> lowering.
/// Rows read "| `<id>` | `<lowering>` |" below the section heading.
std::map<std::string, std::string> estimatedKernels() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> doc =
      llvm::MemoryBuffer::getFile(sourcePath("docs/KERNELS.md"));
  EXPECT_TRUE(bool(doc)) << "cannot read docs/KERNELS.md";
  std::map<std::string, std::string> rows;
  if (!doc)
    return rows;
  static const llvm::Regex kRow("^\\| `([^`]+)` \\| `([^`]+)` \\|");
  llvm::SmallVector<llvm::StringRef> lines;
  (*doc)->getBuffer().split(lines, '\n');
  bool inSection = false, sawHeading = false;
  for (llvm::StringRef line : lines) {
    if (line.starts_with("## ")) {
      inSection = line == "## Kernels whose figures are estimates";
      sawHeading |= inSection;
      continue;
    }
    llvm::SmallVector<llvm::StringRef, 3> groups;
    if (inSection && kRow.match(line, &groups))
      EXPECT_TRUE(rows.emplace(groups[1].str(), groups[2].str()).second)
          << "listed twice: " << groups[1].str();
  }
  EXPECT_TRUE(sawHeading) << "docs/KERNELS.md has no section "
                             "'## Kernels whose figures are estimates'";
  return rows;
}

// A generated kernel names a schedule file of its backend's folder
// (kernels/schedules/cpu/, or gpu/ for Vulkan and CUDA, whose kernels share
// one schedule set: gpu/per_element.mlir serves every kind but softmax), a
// library kernel the shim entry of its library; a shim entry calls one
// kernel, so no two records name the same one.
TEST(KernelLowering, WellFormedAndEachShimEntryOnce) {
  std::map<std::string, std::string> owners;
  for (const KernelRecord &r : KernelRegistry::get().records()) {
    std::string folder(scheduleFolder(r.backend));
    std::string source(stringifyKernelSource(r.source));
    bool generated = r.source == KernelSource::Generated;
    llvm::Regex form(generated ? "^kernels/schedules/" + folder +
                                     "/[a-z0-9_]+\\.mlir$"
                               : "^fuel_shim_" + source + "_[a-z0-9_]+$");
    EXPECT_TRUE(form.match(r.lowering)) << r.id << ": " << r.lowering;
    if (generated)
      continue;
    auto [it, inserted] = owners.emplace(r.lowering, r.id);
    EXPECT_TRUE(inserted) << r.lowering << " is the lowering of both "
                          << it->second << " and " << r.id;
  }
}

// Vulkan and CUDA generated kernels of the same op compile from the same
// schedule file: one GPU schedule set, no per-target copies.
TEST(KernelLowering, GpuBackendsShareTheirSchedules) {
  const KernelRegistry &reg = KernelRegistry::get();
  unsigned pairs = 0;
  for (const KernelRecord &r : reg.records()) {
    if (r.backend != plan::DeviceKind::Vulkan ||
        r.source != KernelSource::Generated)
      continue;
    std::string cudaId = "cuda" + r.id.substr(std::string("vulkan").size());
    const KernelRecord *cuda = reg.find(cudaId);
    if (!cuda)
      continue;
    ++pairs;
    EXPECT_EQ(cuda->lowering, r.lowering) << r.id << " and " << cudaId;
    EXPECT_TRUE(KernelRegistry::scheduleFileText(r.lowering).has_value())
        << r.id << ": " << r.lowering << " is not built in";
  }
  EXPECT_GT(pairs, 0u);
}

TEST(KernelLowering, EstimatesTableMatchesTheTree) {
  std::map<std::string, std::string> estimated = estimatedKernels();
  const KernelRegistry &reg = KernelRegistry::get();
  for (const KernelRecord &r : reg.records()) {
    auto row = estimated.find(r.id);
    bool listed = row != estimated.end();
    if (loweringExists(r))
      EXPECT_FALSE(listed)
          << r.id << ": " << r.lowering
          << " exists; remove the kernel from docs/KERNELS.md's estimates "
             "table once its figures are measured";
    else
      EXPECT_TRUE(listed) << r.id << ": " << r.lowering
                          << " is not in the tree; list the kernel in "
                             "docs/KERNELS.md's estimates table";
    if (listed)
      EXPECT_EQ(row->second, r.lowering) << r.id;
  }
  for (const auto &[id, lowering] : estimated)
    EXPECT_NE(reg.find(id), nullptr)
        << "docs/KERNELS.md lists '" << id << "', which is not registered";
}

} // namespace
