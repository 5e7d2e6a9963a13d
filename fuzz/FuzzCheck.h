//===- FuzzCheck.h - How a fuel fuzz target reports a failure ---*- C++ -*-===//
//
// A fuzz target finds more than crashes: a reader that refuses an input
// without saying why, or accepts one whose printed form does not read back
// the same, is a failure too. fuzzFail prints what differed, prefixed by the
// target's name, and aborts, so that libFuzzer (and the replay driver) report
// the input like a crash. fuzzNoteRefusal shows a refusal's message when
// FUEL_FUZZ_VERBOSE is set. LLVM-free: the runtime's targets use it as well.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_FUZZ_FUZZCHECK_H
#define FUEL_FUZZ_FUZZCHECK_H

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace fuel::fuzz {

/// Prints `fuel-fuzz-<target>: <what>` and, when given, the two texts that
/// should have been equal, then aborts.
[[noreturn]] inline void fuzzFail(std::string_view target,
                                  std::string_view what,
                                  std::string_view first = {},
                                  std::string_view second = {}) {
  std::fprintf(stderr, "fuel-fuzz-%.*s: %.*s\n", int(target.size()),
               target.data(), int(what.size()), what.data());
  if (!first.empty() || !second.empty())
    std::fprintf(stderr, "--- first:\n%.*s\n--- second:\n%.*s\n",
                 int(first.size()), first.data(), int(second.size()),
                 second.data());
  std::fflush(stderr);
  std::abort();
}

/// With FUEL_FUZZ_VERBOSE set, prints why the reader refused an input, so
/// that a replay shows the diagnostics a corpus provokes.
inline void fuzzNoteRefusal(std::string_view target, std::string_view why) {
  static const bool verbose = std::getenv("FUEL_FUZZ_VERBOSE") != nullptr;
  if (verbose)
    std::fprintf(stderr, "fuel-fuzz-%.*s: refused: %.*s\n", int(target.size()),
                 target.data(), int(why.size()), why.data());
}

} // namespace fuel::fuzz

#endif // FUEL_FUZZ_FUZZCHECK_H
