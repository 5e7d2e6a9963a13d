//===- CpuHosts.h - Hosts by their /proc/cpuinfo flags ----------*- C++ -*-===//
//
// Real machines' CPU names and /proc/cpuinfo flags, for the tests of host
// targeting (the compile side) and of load decisions (the runtime side).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_UNITTESTS_CPUHOSTS_H
#define FUEL_UNITTESTS_CPUHOSTS_H

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace fuel::testing {

/// /proc/cpuinfo flags of real machines (the instruction-set ones and a few
/// others, as Linux prints them).
inline const char *const kBaseFlags =
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 "
    "clflush mmx fxsr sse sse2 ht syscall nx pdpe1gb rdtscp lm constant_tsc "
    "rep_good nopl xtopology nonstop_tsc cpuid pni pclmulqdq ssse3 fma cx16 "
    "pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx "
    "f16c rdrand hypervisor lahf_lm 3dnowprefetch fsgsbase bmi1 avx2 smep "
    "bmi2 invpcid rdseed adx smap clflushopt clwb xsaveopt xsavec xgetbv1 "
    "xsaves arat ";
inline const char *const kSkylakeAvx512Flags =
    "abm hle rtm mpx erms avx512f avx512dq avx512cd avx512bw avx512vl pku "
    "ospke";
inline const char *const kIcelakeServerFlags =
    "abm erms avx512f avx512dq avx512ifma avx512cd sha_ni avx512bw avx512vl "
    "avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni "
    "avx512_bitalg avx512_vpopcntdq rdpid wbnoinvd fsrm md_clear";
/// An AMD EPYC as a hypervisor shows it: abm and sse4a hidden.
inline const char *const kZenFlags =
    "mmxext fxsr_opt misalignsse topoext perfctr_core clzero xsaveerptr rdpru "
    "wbnoinvd erms avx512f avx512dq avx512ifma avx512cd sha_ni avx512bw "
    "avx512vl avx512_bf16 avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes "
    "vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid fsrm";
inline const char *const kZen5ExtraFlags =
    "avx_vnni movdiri movdir64b avx512_vp2intersect";

/// The flags of a space-separated list, sorted and unique.
inline std::vector<std::string> splitFlags(const std::string &text) {
  std::vector<std::string> flags;
  std::istringstream in(text);
  for (std::string flag; in >> flag;)
    flags.push_back(flag);
  std::sort(flags.begin(), flags.end());
  flags.erase(std::unique(flags.begin(), flags.end()), flags.end());
  return flags;
}

struct NamedHost {
  const char *cpu;
  std::vector<std::string> flags;
};

/// Four hosts by LLVM CPU name and /proc/cpuinfo flags, all AVX-512:
/// skylake-avx512, icelake-server, znver4 and znver5 (the last two without
/// abm and sse4a, as a hypervisor may show them).
inline std::vector<NamedHost> namedHosts() {
  std::string base = kBaseFlags;
  return {{"skylake-avx512", splitFlags(base + kSkylakeAvx512Flags)},
          {"icelake-server", splitFlags(base + kIcelakeServerFlags)},
          {"znver4", splitFlags(base + kZenFlags)},
          {"znver5", splitFlags(base + kZenFlags + " " + kZen5ExtraFlags)}};
}

} // namespace fuel::testing

#endif // FUEL_UNITTESTS_CPUHOSTS_H
