//===- TestSupport.h - Helpers of the device tests --------------*- C++ -*-===//
//
// Reading a built test module's bytes, loading the test kernels, and the
// DT_NEEDED entries of an ELF shared object (parsed here rather than with
// readelf, so the tests need no binutils).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_UNITTESTS_RUNTIME_DEVICE_TESTSUPPORT_H
#define FUEL_UNITTESTS_RUNTIME_DEVICE_TESTSUPPORT_H

#include "fuel/Runtime/Device.h"

#include <cstdint>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fuel::rt::test {

inline std::vector<uint8_t> readFileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

/// The kernels of TestKernels.c, in this order.
inline const std::vector<std::string> &testKernelNames() {
  static const std::vector<std::string> names = {
      "fuel_test_vadd",       "fuel_test_wgid",  "fuel_test_workspace_sum",
      "fuel_test_deep_stack", "fuel_test_empty", "fuel_test_sleep",
      "fuel_test_thread_id"};
  return names;
}
enum TestKernel {
  kVadd,
  kWgid,
  kWorkspaceSum,
  kDeepStack,
  kEmpty,
  kSleep,
  kThreadId
};

/// Loads TestKernels.c's module from its bytes.
inline StatusOr<ModuleHandle> loadTestKernels(Device &device) {
  std::vector<uint8_t> bytes = readFileBytes(FUEL_TEST_KERNELS_PATH);
  ModuleImage image;
  image.data = bytes.data();
  image.size = bytes.size();
  image.kernelNames = testKernelNames();
  return device.loadModule(image);
}

/// The DT_NEEDED names of the ELF64 file `bytes`, or an error string in
/// `error`.
inline std::vector<std::string> elfNeeded(const std::vector<uint8_t> &bytes,
                                          std::string &error) {
  std::vector<std::string> needed;
  Elf64_Ehdr eh;
  if (bytes.size() < sizeof eh) {
    error = "too small";
    return needed;
  }
  std::memcpy(&eh, bytes.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64) {
    error = "not ELF64";
    return needed;
  }
  auto phdr = [&](unsigned i) {
    Elf64_Phdr p;
    std::memcpy(&p, bytes.data() + eh.e_phoff + i * sizeof p, sizeof p);
    return p;
  };
  // Maps a virtual address to a file offset through the PT_LOAD segments.
  auto fileOffset = [&](uint64_t vaddr, uint64_t &off) {
    for (unsigned i = 0; i < eh.e_phnum; ++i) {
      Elf64_Phdr p = phdr(i);
      if (p.p_type == PT_LOAD && vaddr >= p.p_vaddr &&
          vaddr < p.p_vaddr + p.p_filesz) {
        off = vaddr - p.p_vaddr + p.p_offset;
        return true;
      }
    }
    return false;
  };
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr p = phdr(i);
    if (p.p_type != PT_DYNAMIC)
      continue;
    std::vector<uint64_t> neededOffsets;
    uint64_t strtab = 0;
    for (uint64_t o = p.p_offset;
         o + sizeof(Elf64_Dyn) <= p.p_offset + p.p_filesz;
         o += sizeof(Elf64_Dyn)) {
      Elf64_Dyn d;
      std::memcpy(&d, bytes.data() + o, sizeof d);
      if (d.d_tag == DT_NULL)
        break;
      if (d.d_tag == DT_NEEDED)
        neededOffsets.push_back(d.d_un.d_val);
      if (d.d_tag == DT_STRTAB)
        strtab = d.d_un.d_ptr;
    }
    uint64_t strOff;
    if (!fileOffset(strtab, strOff)) {
      error = "DT_STRTAB outside the loaded segments";
      return needed;
    }
    for (uint64_t n : neededOffsets)
      needed.emplace_back(
          reinterpret_cast<const char *>(bytes.data() + strOff + n));
  }
  return needed;
}

} // namespace fuel::rt::test

#endif // FUEL_UNITTESTS_RUNTIME_DEVICE_TESTSUPPORT_H
