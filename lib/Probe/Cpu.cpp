//===- Cpu.cpp - Describe the host CPU ------------------------------------===//
//
// The host CPU as one device: usable logical cores (the affinity mask), the
// SIMD width the CPU and the OS both support (cpuid + xgetbv on x86, cpuinfo
// flags elsewhere), the name and nominal clock, physical memory, and a
// conservative peak estimate. docs/PROBE.md lists the sources in order.
//
//===----------------------------------------------------------------------===//

#include "fuel/Probe/Probe.h"

#include "Support.h"

#include <algorithm>
#include <cstring>
#include <sched.h>
#include <thread>
#include <unistd.h>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define FUEL_PROBE_X86 1
#endif

namespace fuel::probe {

using detail::format;
using detail::parseDouble;
using detail::parseUnsigned;
using detail::readFile;
using detail::trim;

CpuInfoText parseCpuInfo(std::string_view text) {
  CpuInfoText info;
  bool sawFlags = false, sawMhz = false;
  while (!text.empty()) {
    size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view()
                                         : text.substr(eol + 1);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos)
      continue;
    std::string_view key = trim(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    // Per-processor blocks repeat every key; the first block describes them
    // all on the machines we care about, so only the first value is kept.
    if (key == "processor") {
      ++info.processors;
    } else if (key == "model name" || key == "Model name" ||
               key == "Hardware") {
      if (info.modelName.empty())
        info.modelName = std::string(value);
    } else if (key == "vendor_id") {
      if (info.vendor.empty())
        info.vendor = std::string(value);
    } else if (key == "cpu MHz") {
      if (!sawMhz)
        if (std::optional<double> mhz = parseDouble(value)) {
          info.mhz = *mhz;
          sawMhz = true;
        }
    } else if (key == "siblings") {
      if (!info.siblings)
        info.siblings = static_cast<uint32_t>(parseUnsigned(value).value_or(0));
    } else if (key == "cpu cores") {
      if (!info.cpuCores)
        info.cpuCores = static_cast<uint32_t>(parseUnsigned(value).value_or(0));
    } else if (key == "flags" || key == "Features") {
      if (sawFlags)
        continue;
      sawFlags = true;
      while (!value.empty()) {
        size_t space = value.find_first_of(" \t");
        std::string_view flag = value.substr(0, space);
        if (!flag.empty())
          info.flags.emplace_back(flag);
        if (space == std::string_view::npos)
          break;
        value = trim(value.substr(space + 1));
      }
    }
  }
  return info;
}

std::string cpuTargetFeaturesFromFlags(const std::vector<std::string> &flags) {
  static constexpr std::pair<const char *, const char *> kFeatures[] = {
      {"sse4_2", "+sse4.2"},     {"avx", "+avx"},
      {"avx2", "+avx2"},         {"fma", "+fma"},
      {"f16c", "+f16c"},         {"bmi2", "+bmi2"},
      {"avx512f", "+avx512f"},   {"avx512bw", "+avx512bw"},
      {"avx512vl", "+avx512vl"}, {"avx512dq", "+avx512dq"}};
  std::string out;
  for (const auto &[flag, feature] : kFeatures)
    if (std::find(flags.begin(), flags.end(), flag) != flags.end())
      out += (out.empty() ? "" : ",") + std::string(feature);
  return out;
}

std::string cpuTargetCpuFromFlags(const std::vector<std::string> &flags) {
  if (std::find(flags.begin(), flags.end(), "sse2") != flags.end())
    return "x86-64";
  return {};
}

uint32_t vectorBitsFromFlags(const std::vector<std::string> &flags) {
  auto has = [&flags](const char *name) {
    return std::find(flags.begin(), flags.end(), name) != flags.end();
  };
  // The kernel lists a flag only when the OS also saves the register state,
  // so no separate xgetbv check is needed here.
  if (has("avx512f"))
    return 512;
  if (has("avx2") || has("avx"))
    return 256;
  if (has("sse2") || has("asimd") || has("neon"))
    return 128;
  return 0;
}

double clockFromModelName(std::string_view modelName) {
  // Intel writes the nominal clock as "... @ 2.50GHz"; AMD usually does not.
  size_t at = modelName.rfind('@');
  if (at == std::string_view::npos)
    return 0;
  std::string_view rest = trim(modelName.substr(at + 1));
  std::optional<double> value = parseDouble(rest);
  if (!value || *value <= 0)
    return 0;
  size_t unit = rest.find_first_not_of("0123456789.");
  std::string_view suffix = unit == std::string_view::npos
                                ? std::string_view()
                                : trim(rest.substr(unit));
  if (suffix.substr(0, 3) == "GHz")
    return *value;
  if (suffix.substr(0, 3) == "MHz")
    return *value / 1000;
  return 0;
}

double cpuPeakF32FlopsPerNs(uint32_t physicalCores, double clockGHz,
                            uint32_t vectorBits, bool fma) {
  if (!physicalCores || clockGHz <= 0 || !vectorBits)
    return 0;
  // One vector instruction per core per cycle: many cores issue two FMAs per
  // cycle, but some split 512-bit operations in halves, so one is the figure
  // that is never above the truth. An FMA counts as two flops per lane.
  double lanes = vectorBits / 32.0;
  return physicalCores * clockGHz * lanes * (fma ? 2.0 : 1.0);
}

namespace {

/// What cpuid and xgetbv report on x86.
struct CpuidFacts {
  bool known = false;
  uint32_t vectorBits = 0;
  bool fma = false;
  std::string brand;
};

#ifdef FUEL_PROBE_X86
/// Reads XCR0, the register-state components the OS saves on a context
/// switch. Only valid when cpuid reports OSXSAVE.
uint64_t readXcr0() {
  uint32_t lo, hi;
  // The raw opcode keeps this free of the -mxsave target flag.
  __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}
#endif

CpuidFacts queryCpuid() {
  CpuidFacts facts;
#ifdef FUEL_PROBE_X86
  unsigned eax, ebx, ecx, edx;
  unsigned maxLeaf = __get_cpuid_max(0, nullptr);
  if (maxLeaf < 1 || !__get_cpuid(1, &eax, &ebx, &ecx, &edx))
    return facts;
  facts.known = true;
  bool sse2 = edx & (1u << 26);
  bool fma = ecx & (1u << 12);
  bool osxsave = ecx & (1u << 27);
  bool avx = ecx & (1u << 28);
  bool avx2 = false, avx512f = false;
  if (maxLeaf >= 7) {
    unsigned a7, b7, c7, d7;
    __cpuid_count(7, 0, a7, b7, c7, d7);
    avx2 = b7 & (1u << 5);
    avx512f = b7 & (1u << 16);
  }
  // A wide unit is usable only when the OS saves its registers: XMM and YMM
  // state (XCR0 bits 1-2) for AVX, plus opmask and both ZMM halves (bits 5-7)
  // for AVX-512.
  uint64_t xcr0 = osxsave ? readXcr0() : 0;
  bool osAvx = (xcr0 & 0x6) == 0x6;
  bool osAvx512 = osAvx && (xcr0 & 0xe0) == 0xe0;
  if (avx512f && osAvx512)
    facts.vectorBits = 512;
  else if ((avx2 || avx) && osAvx)
    facts.vectorBits = 256;
  else if (sse2)
    facts.vectorBits = 128;
  facts.fma = fma && osAvx;

  // The brand string, a fallback name when /proc/cpuinfo has none.
  unsigned maxExt = __get_cpuid_max(0x80000000u, nullptr);
  if (maxExt >= 0x80000004u) {
    char brand[49] = {};
    for (unsigned i = 0; i < 3; ++i) {
      unsigned regs[4];
      __get_cpuid(0x80000002u + i, &regs[0], &regs[1], &regs[2], &regs[3]);
      std::memcpy(brand + 16 * i, regs, sizeof(regs));
    }
    facts.brand = std::string(trim(brand));
  }
#endif
  return facts;
}

/// The logical cores this process may run on: the affinity mask (what nproc
/// reports, and what a container's cpuset allows), else the online count.
uint32_t usableLogicalCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0)
      return static_cast<uint32_t>(count);
  }
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0)
    return static_cast<uint32_t>(online);
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Reads a cpufreq file of cpu0 (in kHz) and returns GHz, or 0.
double cpufreqGHz(const char *file) {
  std::string path =
      std::string("/sys/devices/system/cpu/cpu0/cpufreq/") + file;
  std::optional<std::string> text = readFile(path.c_str());
  if (!text)
    return 0;
  std::optional<uint64_t> khz = parseUnsigned(trim(*text));
  return khz ? *khz / 1e6 : 0;
}

ProbeResult computeCpu() {
  ProbeResult result;
  ProbedDevice cpu;
  cpu.kind = Kind::Cpu;
  cpu.ordinal = 0;
  cpu.cpuType = true;

  CpuInfoText info;
  if (std::optional<std::string> text = readFile("/proc/cpuinfo"))
    info = parseCpuInfo(*text);
  else
    result.notes.push_back("cpu: /proc/cpuinfo not readable");
  CpuidFacts cpuid = queryCpuid();

  cpu.name = !info.modelName.empty() ? info.modelName : cpuid.brand;
  if (cpu.name.empty())
    cpu.name = "unknown CPU";

  cpu.cores = usableLogicalCores();
  // siblings / cpu cores is the SMT factor of a package; divide it out so the
  // peak counts each physical core's vector units once.
  if (info.siblings && info.cpuCores && info.siblings >= info.cpuCores) {
    uint32_t smt = info.siblings / info.cpuCores;
    cpu.physicalCores = std::max(1u, cpu.cores / std::max(1u, smt));
  } else {
    result.notes.push_back(
        "cpu: SMT factor unknown, counting every logical core as physical");
    cpu.physicalCores = cpu.cores;
  }

  bool fma;
  if (cpuid.known) {
    cpu.vectorBits = cpuid.vectorBits;
    fma = cpuid.fma;
  } else {
    cpu.vectorBits = vectorBitsFromFlags(info.flags);
    fma = std::find(info.flags.begin(), info.flags.end(), "fma") !=
              info.flags.end() ||
          std::find(info.flags.begin(), info.flags.end(), "asimd") !=
              info.flags.end();
  }
  if (!cpu.vectorBits)
    result.notes.push_back("cpu: SIMD width unknown");

  cpu.targetCpu = cpuTargetCpuFromFlags(info.flags);
  if (!cpu.targetCpu.empty())
    cpu.targetFeatures = cpuTargetFeaturesFromFlags(info.flags);

  // Nominal clocks first; the current frequency ("cpu MHz") only when nothing
  // else is known, since it moves with load on hosts that scale frequency.
  cpu.clockGHz = clockFromModelName(cpu.name);
  if (cpu.clockGHz <= 0)
    cpu.clockGHz = cpufreqGHz("base_frequency");
  if (cpu.clockGHz <= 0)
    cpu.clockGHz = cpufreqGHz("cpuinfo_max_freq");
  if (cpu.clockGHz <= 0 && info.mhz > 0) {
    cpu.clockGHz = info.mhz / 1000;
    result.notes.push_back(format("cpu: clock %.3f GHz taken from 'cpu MHz' "
                                  "(current, not nominal, frequency)",
                                  cpu.clockGHz));
  }
  if (cpu.clockGHz <= 0) {
    cpu.clockGHz = 0;
    result.notes.push_back("cpu: clock unknown");
  }

  long pages = sysconf(_SC_PHYS_PAGES);
  long pageSize = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0)
    cpu.memoryBytes =
        static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
  else
    result.notes.push_back("cpu: physical memory size unknown");

  cpu.peakF32FlopsPerNs = cpuPeakF32FlopsPerNs(cpu.physicalCores, cpu.clockGHz,
                                               cpu.vectorBits, fma);
  result.devices.push_back(std::move(cpu));
  return result;
}

} // namespace

ProbeResult probeCpu() {
  // The host does not change while a process runs, and "cpu MHz" may: probe
  // once so that every caller sees the same description (thread-safe static
  // initialization).
  static const ProbeResult cached = computeCpu();
  return cached;
}

} // namespace fuel::probe
