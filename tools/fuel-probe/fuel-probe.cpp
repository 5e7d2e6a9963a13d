//===- fuel-probe.cpp - Print the devices of this machine -----------------===//
//
// A small command-line front end to the FuelProbe library: one line per
// device found (cpu first, then cuda, then vulkan), then the notes about what
// was not found. Like the library, it links neither LLVM nor MLIR.
//
//   fuel-probe [--no-cuda] [--no-vulkan] [--cuda-library=NAME]
//              [--vulkan-library=NAME]
//
//===----------------------------------------------------------------------===//

#include "fuel/Probe/Probe.h"

#include <cstdio>
#include <cstring>

namespace {

void printUsage(std::FILE *out) {
  std::fputs("usage: fuel-probe [--no-cuda] [--no-vulkan] "
             "[--cuda-library=NAME] [--vulkan-library=NAME]\n"
             "Prints one line per device of this machine, then notes on what "
             "was not found.\n",
             out);
}

/// Returns the value of `--name=value` in `arg`, or nullptr.
const char *optionValue(const char *arg, const char *name) {
  size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) == 0 && arg[length] == '=')
    return arg + length + 1;
  return nullptr;
}

} // namespace

int main(int argc, char **argv) {
  fuel::probe::ProbeOptions options;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (std::strcmp(arg, "--no-cuda") == 0) {
      options.cuda = false;
    } else if (std::strcmp(arg, "--no-vulkan") == 0) {
      options.vulkan = false;
    } else if (const char *value = optionValue(arg, "--cuda-library")) {
      options.cudaLibrary = value;
    } else if (const char *value = optionValue(arg, "--vulkan-library")) {
      options.vulkanLibrary = value;
    } else if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
      printUsage(stdout);
      return 0;
    } else {
      std::fprintf(stderr, "fuel-probe: unknown argument '%s'\n", arg);
      printUsage(stderr);
      return 2;
    }
  }

  fuel::probe::ProbeResult result = fuel::probe::probeAll(options);
  for (const fuel::probe::ProbedDevice &device : result.devices) {
    std::printf("%s\n", device.describe().c_str());
    for (const std::string &line : device.describeDetails())
      std::printf("  %s\n", line.c_str());
  }
  for (const std::string &note : result.notes)
    std::printf("note: %s\n", note.c_str());
  return 0;
}
