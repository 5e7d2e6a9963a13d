//===- ShimBench.cpp - The sgemm shims through the runtime ----------------===//
//
// Per shape (M x K x N, row-major C = A * B), each library's sgemm shim run
// through the runtime (an executable with one library-kernel dispatch, run
// in a session) against direct calls of the same library in the same
// process (cblas_sgemm, and the call the shim makes: cblas_sgemm for
// OpenBLAS, the typed bli_sgemm for BLIS), and OpenBLAS against BLIS. On one
// thread the shim runs one workgroup of M rows, so the ratio is the runtime's
// and the shim's overhead; on every core it runs one row block per thread, so
// the ratio is the speed-up over the library's serial call. Best and median of
// a fixed number of runs after warm-up. Not a test: prints ratios.
//
// Usage: fuel-bench-cpu-shims [SHIM_DIR]
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/ExecutableWriter.h"
#include "fuel/Runtime/Runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <thread>
#include <time.h>
#include <vector>

using namespace fuel::rt;

namespace {

struct Shape {
  uint32_t m, k, n;
};
const Shape kShapes[] = {{64, 784, 1024},
                         {64, 1024, 1024},
                         {128, 256, 1024},
                         {256, 256, 256},
                         {512, 512, 512}};

struct Lib {
  const char *name;
  const char *shimFile;
  const char *env;     ///< The shim's override variable.
  const char *library; ///< What the shim opens first without it.
};
const Lib kLibs[] = {
    {"openblas", "libfuel-shim-openblas.so", "FUEL_OPENBLAS_LIBRARY",
     "/usr/lib/x86_64-linux-gnu/openblas-serial/libopenblas.so.0"},
    {"blis", "libfuel-shim-blis.so", "FUEL_BLIS_LIBRARY",
     "/usr/lib/x86_64-linux-gnu/blis-serial/libblis.so.4"},
};

using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float *,
                            int, const float *, int, float, float *, int);
/// BLIS's typed bli_sgemm, which its shim calls (dim_t and inc_t 64-bit).
using BliSgemm = void (*)(int, int, int64_t, int64_t, int64_t, const float *,
                          const float *, int64_t, int64_t, const float *,
                          int64_t, int64_t, const float *, float *, int64_t,
                          int64_t);

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

/// 64-byte-aligned floats, as the runtime's buffers are, so that direct
/// calls and inputs bound zero-copy read the same kind of memory.
struct Floats {
  explicit Floats(uint64_t n)
      : n(n), p(static_cast<float *>(
                  std::aligned_alloc(64, (n * 4 + 63) / 64 * 64))) {}
  ~Floats() { std::free(p); }
  Floats(const Floats &) = delete;
  Floats &operator=(const Floats &) = delete;
  float *data() const { return p; }
  uint64_t size() const { return n; }
  float &operator[](uint64_t i) { return p[i]; }
  uint64_t n;
  float *p;
};

struct Stats {
  double best, median;
};

/// Milliseconds of one call of `f`.
template <typename F> double timeMs(F &&f) {
  uint64_t t0 = nowNs();
  f();
  return double(nowNs() - t0) / 1e6;
}

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "fuel-bench-cpu-shims: %s\n", what.c_str());
  std::exit(1);
}

/// C (m x n) = A (m x k) * B (k x n) through `lib`'s shim, in blocks of
/// `rows` rows.
std::vector<uint8_t> program(const Lib &lib, const Shape &s, uint32_t rows) {
  ExecutableWriter w;
  w.setFuelVersion("fuel bench");
  w.setFunction("sgemm");
  uint32_t cpu = w.addDevice(::fuel::Device::cpu(), 64);
  const Program &p = w.program();
  uint64_t aN = uint64_t(s.m) * s.k, bN = uint64_t(s.k) * s.n,
           cN = uint64_t(s.m) * s.n;
  uint32_t a =
      p.inputs[w.addInput("a", ElementType::F32, {s.m, s.k}, cpu)].buffer;
  uint32_t b =
      p.inputs[w.addInput("b", ElementType::F32, {s.k, s.n}, cpu)].buffer;
  uint32_t c =
      p.outputs[w.addOutput("c", ElementType::F32, {s.m, s.n}, cpu)].buffer;
  LibraryKernel lk;
  lk.device = cpu;
  lk.kernelId = std::string("cpu.") + lib.name + ".matmul_f32";
  lk.shim = lib.shimFile;
  lk.entry = std::string("fuel_shim_") + lib.name + "_sgemm";
  lk.params = {s.m, s.n, s.k, s.k, s.n, s.n, 0, 0, rows};
  uint32_t kernel = w.addLibraryKernel(lk);
  Dispatch d;
  d.source = KernelSource::Library;
  d.kernel = kernel;
  d.grid = {(s.m + rows - 1) / rows, 1, 1};
  d.bindings = {{a, 0, aN * 4}, {b, 0, bN * 4}, {c, 0, cN * 4}};
  w.addDispatch(d, {});
  StatusOr<std::vector<uint8_t>> bytes = w.finish();
  if (!bytes)
    die(bytes.status().toString());
  return *bytes;
}

/// A session running `lib`'s shim for `s` on `threads` threads, one row
/// block per thread, inputs bound.
struct ShimRun {
  std::unique_ptr<Runtime> rt;
  std::unique_ptr<Session> session;
  void run() {
    if (Status st = session->run(); !st)
      die(st.toString());
  }
};
ShimRun shimSession(const std::string &shimDir, const Lib &lib, const Shape &s,
                    unsigned threads, const Floats &a, const Floats &b) {
  ShimRun r;
  RuntimeOptions o;
  o.threads = threads;
  o.shimDirectory = shimDir;
  auto rt = Runtime::create(o);
  if (!rt)
    die(rt.status().toString());
  r.rt = std::move(*rt);
  uint32_t rows = (s.m + threads - 1) / threads;
  std::vector<uint8_t> bytes = program(lib, s, rows);
  auto exe = r.rt->loadExecutableBytes(bytes.data(), bytes.size());
  if (!exe)
    die(exe.status().toString());
  auto session = Session::create(*exe);
  if (!session)
    die(session.status().toString());
  r.session = std::move(*session);
  if (Status st = r.session->bindInput(0, ElementType::F32, {s.m, s.k},
                                       a.data(), a.size() * 4);
      !st)
    die(st.toString());
  if (Status st = r.session->bindInput(1, ElementType::F32, {s.k, s.n},
                                       b.data(), b.size() * 4);
      !st)
    die(st.toString());
  return r;
}

Stats stats(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return {t.front(), t[t.size() / 2]};
}

} // namespace

int main(int argc, char **argv) {
  std::string shimDir = argc > 1 ? argv[1] : FUEL_BENCH_SHIM_DIR;
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf("fuel-bench-cpu-shims: shims in %s, %u cores\n", shimDir.c_str(),
              cores);
  CblasSgemm direct[2];
  BliSgemm bliSgemm = nullptr;
  for (int l = 0; l < 2; ++l) {
    // The library the shim opens, so both calls run the same code.
    const char *path = std::getenv(kLibs[l].env);
    if (!path || !*path)
      path = kLibs[l].library;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
      die(dlerror());
    direct[l] = reinterpret_cast<CblasSgemm>(dlsym(h, "cblas_sgemm"));
    if (!direct[l])
      die(std::string(path) + " has no cblas_sgemm");
    if (l == 1 &&
        !(bliSgemm = reinterpret_cast<BliSgemm>(dlsym(h, "bli_sgemm"))))
      die(std::string(path) + " has no bli_sgemm");
  }
  std::printf("\nms as best / median; GFLOP/s of the best call. \"same "
              "call\": the call the shim makes, directly (cblas_sgemm for "
              "OpenBLAS, bli_sgemm for BLIS)\n");
  std::printf("\n| M x K x N | library | cblas_sgemm ms (GFLOP/s) | same "
              "call ms (GFLOP/s) | shim, 1 thread, ms | shim 1 thread / same "
              "call | shim, %u threads, ms | same call / shim %u threads |\n",
              cores, cores);
  std::printf("|---|---|---|---|---|---|---|---|\n");
  double best[2][sizeof kShapes / sizeof kShapes[0]];
  double cblasBest[2][sizeof kShapes / sizeof kShapes[0]];
  for (size_t si = 0; si < sizeof kShapes / sizeof kShapes[0]; ++si) {
    const Shape &s = kShapes[si];
    Floats a(uint64_t(s.m) * s.k), b(uint64_t(s.k) * s.n),
        c(uint64_t(s.m) * s.n);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = float(int(i % 17) - 8) / 8.0f;
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = float(int(i % 13) - 6) / 6.0f;
    double flops = 2.0 * s.m * s.n * s.k;
    int runs = flops > 2e8 ? 41 : 101, warm = 5;
    for (int l = 0; l < 2; ++l) {
      ShimRun one = shimSession(shimDir, kLibs[l], s, 1, a, b);
      ShimRun all = shimSession(shimDir, kLibs[l], s, cores, a, b);
      auto cblas = [&] {
        direct[l](101, 111, 111, s.m, s.n, s.k, 1.0f, a.data(), s.k, b.data(),
                  s.n, 0.0f, c.data(), s.n);
      };
      auto same = [&] {
        static const float one = 1.0f, zero = 0.0f;
        if (l == 0)
          cblas();
        else
          bliSgemm(0, 0, s.m, s.n, s.k, &one, a.data(), s.k, 1, b.data(), s.n,
                   1, &zero, c.data(), s.n, 1);
      };
      // Interleaved, so that load from elsewhere hits all four alike.
      std::vector<double> tc, td, t1, tn;
      for (int i = 0; i < warm + runs; ++i) {
        double w = timeMs(cblas), x = timeMs(same),
               y = timeMs([&] { one.run(); }), z = timeMs([&] { all.run(); });
        if (i >= warm) {
          tc.push_back(w);
          td.push_back(x);
          t1.push_back(y);
          tn.push_back(z);
        }
      }
      Stats cb = stats(tc), d = stats(td), s1 = stats(t1), sn = stats(tn);
      best[l][si] = s1.best;
      cblasBest[l][si] = cb.best;
      std::printf("| %u x %u x %u | %s | %.3f / %.3f (%.1f) | %.3f / %.3f "
                  "(%.1f) | %.3f / %.3f | %.2f / %.2f | %.3f / %.3f | %.2f / "
                  "%.2f |\n",
                  s.m, s.k, s.n, kLibs[l].name, cb.best, cb.median,
                  flops / cb.best / 1e6, d.best, d.median, flops / d.best / 1e6,
                  s1.best, s1.median, s1.best / d.best, s1.median / d.median,
                  sn.best, sn.median, d.best / sn.best, d.median / sn.median);
    }
  }
  std::printf("\n| M x K x N | OpenBLAS / BLIS time, shim on 1 thread | "
              "OpenBLAS / BLIS time, cblas_sgemm |\n");
  std::printf("|---|---|---|\n");
  for (size_t si = 0; si < sizeof kShapes / sizeof kShapes[0]; ++si)
    std::printf("| %u x %u x %u | %.2f | %.2f |\n", kShapes[si].m,
                kShapes[si].k, kShapes[si].n, best[0][si] / best[1][si],
                cblasBest[0][si] / cblasBest[1][si]);
  return 0;
}
