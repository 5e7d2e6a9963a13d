//===- ReplayMain.cpp - Runs a fuzz target on saved inputs ----------------===//
//
// The plain-executable form of every fuzz target: the target's entry point
// linked with this driver instead of libFuzzer, built in every
// configuration, so that ctest replays each saved input (test/fuzz-
// regressions/<target>/) without an instrumented build. Each argument is a
// file or a directory, whose regular files are run in name order. A failing
// input aborts as it would under libFuzzer; the driver names each input
// before running it, so the log says which.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc,
                                                          char ***argv);

namespace fs = std::filesystem;

static bool readFile(const fs::path &path, std::vector<uint8_t> &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  out.assign(std::istreambuf_iterator<char>(in),
             std::istreambuf_iterator<char>());
  return !in.bad();
}

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    fs::path arg(argv[i]);
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> files;
      for (const fs::directory_entry &e : fs::directory_iterator(arg, ec))
        if (e.is_regular_file() && e.path().filename().string()[0] != '.')
          files.push_back(e.path());
      std::sort(files.begin(), files.end());
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else if (fs::is_regular_file(arg, ec)) {
      inputs.push_back(arg);
    } else {
      std::fprintf(stderr, "%s: no such file or directory: %s\n", argv[0],
                   argv[i]);
      return 2;
    }
  }
  std::vector<uint8_t> bytes;
  for (const fs::path &path : inputs) {
    if (!readFile(path, bytes)) {
      std::fprintf(stderr, "%s: cannot read %s\n", argv[0], path.c_str());
      return 2;
    }
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", path.c_str(),
                 bytes.size());
    // A copy of exactly `size` bytes, so that a read past the end is one
    // under a sanitizer, as under libFuzzer.
    std::vector<uint8_t> input(bytes);
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  std::printf("replayed %zu inputs\n", inputs.size());
  return 0;
}
