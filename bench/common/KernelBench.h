//===- KernelBench.h - Shared support of CPU kernel benchmarks --*- C++ -*-===//
//
// What the LLVM-free CPU kernel benchmarks (bench/cpu-kernels and the others
// of their shape) share: compiling a one-node program with the fuel-compile
// tool, loading it with libfuelrt and running it in a session on N threads;
// 64-byte-aligned buffers; contenders timed in interleaved rounds with a
// cool-down whenever the next contender uses another thread pool, reported as
// best and median; the vendor libraries (OpenBLAS, BLIS, serial and pthread
// flavours) opened with dlopen; outputs checked against one reference.
//
// Every failure prints "<program>: <what>" and exits 1: a benchmark that
// cannot measure what it claims must not print figures.
//
// A benchmark links FuelBenchCommon (bench/CMakeLists.txt) and reads:
//
//   std::string exe = compileProgram("add", mlirText,
//                                    {"--plan=kernel-sources=generated"});
//   auto rt = makeRuntime(1);                  // 0: every core
//   KernelSession k(rt, exe);
//   Floats x(n), y(n), out(n);
//   x.fillPattern(1);
//   k.bindInput(0, {int64_t(n)}, x);
//   k.run();
//   k.readOutput(0, out);
//   checkClose("add", out.data(), ref.data(), n);
//   Timings t = timeInterleaved(
//       {{"fuel", "fuel 1 thread", [&] { k.run(); }},
//        {"baseline", "caller", [&] { baseline(x, y); }}},
//       RoundOptions());
//   Stats s = t.stats(0);                      // best, median (ms)
//   double r = t.pairedRatio(0, 1);            // per-round fuel / baseline
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_BENCH_COMMON_KERNELBENCH_H
#define FUEL_BENCH_COMMON_KERNELBENCH_H

#include "fuel/Runtime/Runtime.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fuel::bench {

//===----------------------------------------------------------------------===//
// Basics
//===----------------------------------------------------------------------===//

/// The name failures are reported under (default "fuel-bench").
void setProgramName(const std::string &name);
/// Prints "<program>: <what>" to stderr and exits 1.
[[noreturn]] void die(const std::string &what);
/// CLOCK_MONOTONIC in nanoseconds.
uint64_t nowNs();
/// Sleeps `ms` milliseconds.
void sleepMs(unsigned ms);
/// The cores of this machine (at least 1).
unsigned coreCount();
/// Whether /proc/cpuinfo lists `flag` (e.g. "avx512f") for this CPU.
bool cpuHasFlag(const std::string &flag);

/// `n` floats at a 64-byte-aligned address, as the runtime's buffers are,
/// so that direct library calls and inputs bound zero-copy read the same
/// kind of memory. Zero-initialised.
class Floats {
public:
  explicit Floats(uint64_t n);
  ~Floats();
  Floats(const Floats &) = delete;
  Floats &operator=(const Floats &) = delete;
  float *data() const { return p_; }
  uint64_t size() const { return n_; }
  uint64_t bytes() const { return n_ * sizeof(float); }
  float &operator[](uint64_t i) { return p_[i]; }
  float operator[](uint64_t i) const { return p_[i]; }
  /// Deterministic values in [-1, 1], distinct per `seed`, exactly
  /// representable so that sums of products stay accurate.
  void fillPattern(unsigned seed);
  void fill(float v);

private:
  uint64_t n_;
  float *p_;
};

/// Best and median of a set of samples (same unit as the samples).
struct Stats {
  double best = 0, median = 0;
  size_t samples = 0;
};
Stats statsOf(std::vector<double> samples);

/// Largest |out - ref| / (atol + rtol |ref|) over `n` elements; > 1 is a
/// mismatch. `worst` receives the index of the worst element when given.
double mismatch(const float *out, const float *ref, uint64_t n, double rtol,
                double atol, uint64_t *worst = nullptr);
/// Dies naming `what` and the worst element unless out matches ref.
void checkClose(const std::string &what, const float *out, const float *ref,
                uint64_t n, double rtol = 1e-4, double atol = 1e-4);

//===----------------------------------------------------------------------===//
// fuel-compile and the runtime
//===----------------------------------------------------------------------===//

/// The fuel-compile tool: $FUEL_COMPILE, else the one of the build this
/// library was built in.
std::string fuelCompilePath();
/// A directory for this process's programs, created on first use and
/// removed at exit unless $FUEL_BENCH_KEEP is set.
const std::string &workDirectory();
/// Writes `mlir` to <work>/<name>.mlir and compiles it with
/// `fuel-compile <name>.mlir -o <name>.fuelx <args...>`; returns the
/// executable's path. Dies with fuel-compile's output when it fails.
std::string compileProgram(const std::string &name, const std::string &mlir,
                           const std::vector<std::string> &args = {});

/// The directory of the shims of the build this library was built in.
std::string defaultShimDirectory();
/// A runtime of `threads` CPU threads (0: every core); shims from
/// `shimDirectory` (empty: defaultShimDirectory()).
std::shared_ptr<rt::Runtime> makeRuntime(unsigned threads,
                                         const std::string &shimDirectory = "");

/// One executable loaded on a runtime and run in a session, inputs bound
/// zero-copy from Floats the caller keeps alive.
class KernelSession {
public:
  /// Loads the executable file at `path` on `runtime` and opens a session.
  KernelSession(std::shared_ptr<rt::Runtime> runtime, const std::string &path);
  ~KernelSession();
  KernelSession(KernelSession &&) noexcept;
  KernelSession &operator=(KernelSession &&) noexcept;

  /// Binds f32 input `index` of `shape` to `data` (its size must match).
  void bindInput(size_t index, const std::vector<int64_t> &shape,
                 const Floats &data);
  /// One run, waited for.
  void run();
  /// Copies f32 output `index` of the last run into `out`.
  void readOutput(size_t index, Floats &out) const;
  /// Sum of the commands' durations of the last run, in nanoseconds.
  uint64_t commandNs() const;
  const rt::Session &session() const { return *session_; }

private:
  std::shared_ptr<rt::Runtime> runtime_;
  std::unique_ptr<rt::Session> session_;
};

//===----------------------------------------------------------------------===//
// Interleaved timing
//===----------------------------------------------------------------------===//

/// One thing timed: `call` runs it once. Contenders whose `pool` differs use
/// different thread pools (e.g. "caller", "fuel 1 thread", "openblas
/// pthread"), so a cool-down separates them: a pool's threads spin a while
/// after their last job and would slow the next contender down.
struct Contender {
  std::string name;
  std::string pool;
  std::function<void()> call;
};

struct RoundOptions {
  unsigned rounds = 15;      ///< Rounds; every contender runs in each.
  unsigned warmupCalls = 2;  ///< Untimed calls per contender before round 1.
  double burstMs = 20;       ///< Each round, call a contender at least so long
  unsigned minCalls = 3;     ///< ... and at least so many times.
  unsigned maxCalls = 200;   ///< ... but never more.
  unsigned coolDownMs = 300; ///< Sleep between contenders of different pools.
};

/// The command-line options the kernel benchmarks share.
struct BenchOptions {
  bool one = true, all = true; ///< --threads=1|all|both
  RoundOptions rounds;         ///< --rounds=N, --quick, --smoke
  std::string only;            ///< --only=NAME (each benchmark checks NAME)
  std::string topology, plan;  ///< --topology=FILE, --plan=OPTIONS
  std::string shimDir;         ///< --shim-dir=DIR
};

/// Reads argv[1..argc) into `options`: --threads=, --rounds=, --quick,
/// --smoke (every contender run and checked once: one round of one call, no
/// warm-up or cool-down), --only=, --topology=, --plan=, --shim-dir=.
/// Anything else, or a bad value, calls `usage` (which must not return).
void parseBenchOptions(int argc, char **argv, BenchOptions &options,
                       void (*usage)());

/// The host's vector ISA as the benchmarks' banners print it.
const char *hostIsaName();

/// The samples of interleaved rounds, in milliseconds.
struct Timings {
  /// [contender][round][call].
  std::vector<std::vector<std::vector<double>>> rounds;
  /// Every call of contender `c`.
  std::vector<double> samples(size_t c) const;
  /// Best and median of every call of contender `c`.
  Stats stats(size_t c) const;
  /// The median over rounds of (c's median in the round / base's median in
  /// the same round): contenders of one round see the same load from
  /// elsewhere, so this ratio is steadier than the ratio of overall medians
  /// on a shared machine.
  double pairedRatio(size_t c, size_t base) const;
};

/// Times every contender: a warm-up, then `rounds` rounds in which the
/// contenders run in order, each for a burst of calls timed one by one, with
/// a cool-down before a contender whose pool differs from the previous one's
/// (the last of a round counts as previous to the first of the next).
Timings timeInterleaved(const std::vector<Contender> &contenders,
                        const RoundOptions &options);
/// timeInterleaved's samples of each contender, flattened, in order.
std::vector<std::vector<double>>
runInterleaved(const std::vector<Contender> &contenders,
               const RoundOptions &options);

//===----------------------------------------------------------------------===//
// Vendor libraries
//===----------------------------------------------------------------------===//

/// Row-major cblas_sgemm (CblasRowMajor = 101, CblasNoTrans = 111).
using CblasSgemmFn = void (*)(int, int, int, int, int, int, float,
                              const float *, int, const float *, int, float,
                              float *, int);
/// BLIS's typed bli_sgemm (dim_t and inc_t 64-bit).
using BliSgemmFn = void (*)(int, int, int64_t, int64_t, int64_t, const float *,
                            const float *, int64_t, int64_t, const float *,
                            int64_t, int64_t, const float *, float *, int64_t,
                            int64_t);

/// A BLAS library opened with its own RTLD_LOCAL handle.
struct BlasLibrary {
  std::string name; ///< "openblas" or "blis"
  std::string path; ///< The file opened.
  bool threaded = false;
  CblasSgemmFn cblasSgemm = nullptr;
  BliSgemmFn bliSgemm = nullptr; ///< BLIS only.
  /// Sets the library's thread count (threaded flavours; no-op otherwise).
  std::function<void(int)> setThreads;

  /// Row-major C (m x n) = A (m x k) * B (k x n), contiguous, through
  /// cblas_sgemm (OpenBLAS) or bli_sgemm (BLIS: the call its shim makes).
  void sgemm(int m, int n, int k, const float *a, const float *b,
             float *c) const;
};

/// The serial OpenBLAS the shim opens ($FUEL_OPENBLAS_LIBRARY, else
/// Debian's openblas-serial), or the pthread flavour (Debian's
/// libopenblas0-pthread, openblas-pthread/libopenblas.so.0). Dies when
/// the library is missing, unless `optional` (then returns null).
std::unique_ptr<BlasLibrary> openOpenBlas(bool threaded, bool optional = false);
/// The same for BLIS ($FUEL_BLIS_LIBRARY, blis-serial, blis-pthread).
std::unique_ptr<BlasLibrary> openBlis(bool threaded, bool optional = false);

/// Row-major reference C = A * B accumulated in double, for checks.
void referenceSgemm(int m, int n, int k, const float *a, const float *b,
                    float *c);

} // namespace fuel::bench

#endif // FUEL_BENCH_COMMON_KERNELBENCH_H
