//===- MemoryBench.cpp - Memory-bound kernels against a C stream add ------===//
//
// Each memory-bound kernel kind (add, row-sum, row-max, softmax, layer norm,
// 2x2 max pooling) as a one-node program on f32 [R x 1024] (R = 1024: 4 MiB,
// R = 16384: 64 MiB), compiled by fuel-compile and run through libfuelrt in
// a session on one thread, against a streaming add written in plain C and
// memcpy in the same process. Contenders run interleaved in rounds
// (bench/common/KernelBench.h: bursts of calls, a cool-down between thread
// pools); best and median of every call. Bytes are counted as
// docs/PERFORMANCE.md says (no write-allocate traffic): stream add and add
// 3S, memcpy 2S, row-sum and row-max S, softmax 2S, layer norm 2S plus gamma
// and beta, max pooling S + S/4. Each kernel's output is checked against a
// plain C reference before it is timed. Not a test: prints the fraction of
// the stream add's bandwidth each kernel reaches.
//
// Usage: fuel-bench-cpu-memory [--rounds=N] [--rows=R]... [--topology=FILE]
//                              [--quick|--smoke]
//
// --topology pins the ISA class the kernels are compiled for (a topology's
// `cpu_target`, e.g. test/topologies/cpu-target.json for AVX2). --quick: 4
// rounds of 5 ms bursts. --smoke: R = 64 only, one call of each contender,
// checked (a test of the whole route, not a measurement).
//
//===----------------------------------------------------------------------===//

#include "../common/KernelBench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace fuel::bench;

namespace {

constexpr uint32_t kCols = 1024;

/// The streaming add the kernels are measured against: what a C compiler
/// makes of the plain loop (vectorized at -O3 for the build's target).
__attribute__((noinline)) void streamAdd(const float *__restrict a,
                                         const float *__restrict b,
                                         float *__restrict c, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

//===----------------------------------------------------------------------===//
// The programs and their references
//===----------------------------------------------------------------------===//

std::string replaceAll(std::string s, const std::string &from,
                       const std::string &to) {
  for (size_t at = s.find(from); at != std::string::npos;
       at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

struct MemoryKernel {
  const char *name;
  /// The program; R and H (R / 2) stand for the row counts.
  const char *program;
  /// Element counts of the inputs and the output, for R rows.
  std::function<std::vector<uint64_t>(uint64_t)> inputs;
  std::function<uint64_t(uint64_t)> output;
  /// Bytes counted for R rows.
  std::function<double(uint64_t)> bytes;
  /// The reference output, for R rows.
  std::function<void(uint64_t, const std::vector<const float *> &, float *)>
      reference;
  double tolerance;
};

const char *kAdd = R"mlir(
#id = affine_map<(i, j) -> (i, j)>
func.func @add(%a: tensor<Rx1024xf32>, %b: tensor<Rx1024xf32>) -> tensor<Rx1024xf32> {
  %e = tensor.empty() : tensor<Rx1024xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<Rx1024xf32>, tensor<Rx1024xf32>) outs(%e : tensor<Rx1024xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<Rx1024xf32>
  return %r : tensor<Rx1024xf32>
}
)mlir";

const char *kRowSum = R"mlir(
func.func @row_sum(%a: tensor<Rx1024xf32>) -> tensor<Rxf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<Rxf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<Rxf32>) -> tensor<Rxf32>
  %r = linalg.reduce ins(%a : tensor<Rx1024xf32>) outs(%f : tensor<Rxf32>) dimensions = [1]
    (%x: f32, %y: f32) { %s = arith.addf %x, %y : f32
      linalg.yield %s : f32 }
  return %r : tensor<Rxf32>
}
)mlir";

const char *kRowMax = R"mlir(
func.func @row_max(%a: tensor<Rx1024xf32>) -> tensor<Rxf32> {
  %z = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<Rxf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<Rxf32>) -> tensor<Rxf32>
  %r = linalg.reduce ins(%a : tensor<Rx1024xf32>) outs(%f : tensor<Rxf32>) dimensions = [1]
    (%x: f32, %y: f32) { %s = arith.maximumf %x, %y : f32
      linalg.yield %s : f32 }
  return %r : tensor<Rxf32>
}
)mlir";

const char *kSoftmax = R"mlir(
func.func @softmax(%a: tensor<Rx1024xf32>) -> tensor<Rx1024xf32> {
  %e = tensor.empty() : tensor<Rx1024xf32>
  %s = linalg.softmax dimension(1) ins(%a : tensor<Rx1024xf32>) outs(%e : tensor<Rx1024xf32>) -> tensor<Rx1024xf32>
  return %s : tensor<Rx1024xf32>
}
)mlir";

// As examples/transformer.mlir writes layer norm: two row reductions and two
// elementwise ops.
const char *kLayerNorm = R"mlir(
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#id = affine_map<(i, j) -> (i, j)>
func.func @layer_norm(%x: tensor<Rx1024xf32>, %g: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<Rx1024xf32> {
  %zero = arith.constant 0.0 : f32
  %width = arith.constant 1024.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<Rxf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<Rxf32>) -> tensor<Rxf32>
  %e = tensor.empty() : tensor<Rx1024xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<Rx1024xf32>) outs(%zr : tensor<Rxf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  } -> tensor<Rxf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<Rx1024xf32>, tensor<Rxf32>) outs(%e : tensor<Rx1024xf32>) {
  ^bb0(%v: f32, %sum: f32, %o: f32):
    %m = arith.divf %sum, %width : f32
    %r = arith.subf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<Rx1024xf32>
  %q = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%d : tensor<Rx1024xf32>) outs(%zr : tensor<Rxf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<Rxf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d, %q, %g, %b : tensor<Rx1024xf32>, tensor<Rxf32>, tensor<1024xf32>, tensor<1024xf32>)
      outs(%e : tensor<Rx1024xf32>) {
  ^bb0(%v: f32, %qq: f32, %gg: f32, %bb: f32, %o: f32):
    %var = arith.divf %qq, %width : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %nv = arith.mulf %v, %rs : f32
    %sc = arith.mulf %nv, %gg : f32
    %r = arith.addf %sc, %bb : f32
    linalg.yield %r : f32
  } -> tensor<Rx1024xf32>
  return %n : tensor<Rx1024xf32>
}
)mlir";

// 2x2, stride 2, NCHW: one image, one channel of R x 1024.
const char *kMaxPool = R"mlir(
func.func @max_pool(%a: tensor<1x1xRx1024xf32>) -> tensor<1x1xHx512xf32> {
  %z = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x1xHx512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1xHx512xf32>) -> tensor<1x1xHx512xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%a, %w : tensor<1x1xRx1024xf32>, tensor<2x2xf32>) outs(%f : tensor<1x1xHx512xf32>) -> tensor<1x1xHx512xf32>
  return %r : tensor<1x1xHx512xf32>
}
)mlir";

std::vector<MemoryKernel> kernels() {
  auto rowsS = [](uint64_t r) { return double(r) * kCols * 4; };
  std::vector<MemoryKernel> k;
  k.push_back(
      {"add", kAdd,
       [](uint64_t r) { return std::vector<uint64_t>{r * kCols, r * kCols}; },
       [](uint64_t r) { return r * kCols; },
       [=](uint64_t r) { return 3 * rowsS(r); },
       [](uint64_t r, const std::vector<const float *> &in, float *o) {
         for (uint64_t i = 0; i < r * kCols; ++i)
           o[i] = in[0][i] + in[1][i];
       },
       1e-7});
  k.push_back({"row-sum", kRowSum,
               [](uint64_t r) { return std::vector<uint64_t>{r * kCols}; },
               [](uint64_t r) { return r; }, rowsS,
               [](uint64_t r, const std::vector<const float *> &in, float *o) {
                 for (uint64_t i = 0; i < r; ++i) {
                   double s = 0;
                   for (uint32_t j = 0; j < kCols; ++j)
                     s += in[0][i * kCols + j];
                   o[i] = float(s);
                 }
               },
               1e-4});
  k.push_back({"row-max", kRowMax,
               [](uint64_t r) { return std::vector<uint64_t>{r * kCols}; },
               [](uint64_t r) { return r; }, rowsS,
               [](uint64_t r, const std::vector<const float *> &in, float *o) {
                 for (uint64_t i = 0; i < r; ++i) {
                   float m = -INFINITY;
                   for (uint32_t j = 0; j < kCols; ++j)
                     m = std::max(m, in[0][i * kCols + j]);
                   o[i] = m;
                 }
               },
               1e-7});
  k.push_back({"softmax", kSoftmax,
               [](uint64_t r) { return std::vector<uint64_t>{r * kCols}; },
               [](uint64_t r) { return r * kCols; },
               [=](uint64_t r) { return 2 * rowsS(r); },
               [](uint64_t r, const std::vector<const float *> &in, float *o) {
                 for (uint64_t i = 0; i < r; ++i) {
                   const float *x = in[0] + i * kCols;
                   double m = -INFINITY, s = 0;
                   for (uint32_t j = 0; j < kCols; ++j)
                     m = std::max(m, double(x[j]));
                   for (uint32_t j = 0; j < kCols; ++j)
                     s += std::exp(double(x[j]) - m);
                   for (uint32_t j = 0; j < kCols; ++j)
                     o[i * kCols + j] = float(std::exp(double(x[j]) - m) / s);
                 }
               },
               1e-5});
  k.push_back({"layer norm", kLayerNorm,
               [](uint64_t r) {
                 return std::vector<uint64_t>{r * kCols, kCols, kCols};
               },
               [](uint64_t r) { return r * kCols; },
               [=](uint64_t r) { return 2 * rowsS(r) + 2.0 * kCols * 4; },
               [](uint64_t r, const std::vector<const float *> &in, float *o) {
                 for (uint64_t i = 0; i < r; ++i) {
                   const float *x = in[0] + i * kCols;
                   double m = 0, v = 0;
                   for (uint32_t j = 0; j < kCols; ++j)
                     m += x[j];
                   m /= kCols;
                   for (uint32_t j = 0; j < kCols; ++j)
                     v += (x[j] - m) * (x[j] - m);
                   v /= kCols;
                   double rs = 1 / std::sqrt(v + 1e-5);
                   for (uint32_t j = 0; j < kCols; ++j)
                     o[i * kCols + j] =
                         float((x[j] - m) * rs * in[1][j] + in[2][j]);
                 }
               },
               1e-4});
  k.push_back({"max-pool 2x2/2", kMaxPool,
               [](uint64_t r) { return std::vector<uint64_t>{r * kCols}; },
               [](uint64_t r) { return r / 2 * (kCols / 2); },
               [=](uint64_t r) { return 1.25 * rowsS(r); },
               [](uint64_t r, const std::vector<const float *> &in, float *o) {
                 for (uint64_t i = 0; i < r / 2; ++i)
                   for (uint32_t j = 0; j < kCols / 2; ++j) {
                     const float *x = in[0] + 2 * i * kCols + 2 * j;
                     o[i * (kCols / 2) + j] =
                         std::max(std::max(x[0], x[1]),
                                  std::max(x[kCols], x[kCols + 1]));
                   }
               },
               1e-7});
  return k;
}

} // namespace

int main(int argc, char **argv) {
  setProgramName("fuel-bench-cpu-memory");
  RoundOptions ro;
  std::vector<uint64_t> rows;
  std::string topology;
  bool smoke = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *key) -> const char * {
      size_t n = std::strlen(key);
      return arg.compare(0, n, key) == 0 ? argv[i] + n : nullptr;
    };
    if (const char *v = value("--rounds="))
      ro.rounds = unsigned(std::max(1, std::atoi(v)));
    else if (const char *v = value("--rows="))
      rows.push_back(std::strtoull(v, nullptr, 10));
    else if (const char *v = value("--topology="))
      topology = v;
    else if (arg == "--quick") {
      ro.rounds = 4;
      ro.burstMs = 5;
    } else if (arg == "--smoke")
      smoke = true;
    else
      die("unknown argument " + arg +
          " (--rounds=N, --rows=R, --topology=FILE, --quick, --smoke)");
  }
  if (smoke) {
    rows = {64};
    ro.rounds = 1;
    ro.warmupCalls = 0;
    ro.minCalls = ro.maxCalls = 1;
    ro.coolDownMs = 0;
  }
  if (rows.empty())
    rows = {1024, 16384};
  for (uint64_t r : rows)
    if (r < 2 || r % 2)
      die("--rows must be even and at least 2");
  std::vector<std::string> compileArgs;
  if (!topology.empty())
    compileArgs.push_back("--topology=" + topology);

  std::shared_ptr<fuel::rt::Runtime> runtime = makeRuntime(1);
  std::printf("fuel-bench-cpu-memory: f32 [R x %u], 1 thread, %u rounds of "
              "%.0f ms bursts, ISA class of %s (avx512f %s, avx2 %s)\n",
              kCols, ro.rounds, ro.burstMs,
              topology.empty() ? "this host" : topology.c_str(),
              cpuHasFlag("avx512f") ? "yes" : "no",
              cpuHasFlag("avx2") ? "yes" : "no");
  std::printf("\nfraction = the kernel's bandwidth (bytes counted / time) "
              "over the C stream add's, from the best times (from the median "
              "times; the median over rounds of the per-round ratio); GB/s "
              "of the best call\n");
  std::printf("\n| R x 1024 | kernel | bytes counted | best ms | median ms | "
              "GB/s | / stream add, best (median; paired) | / memcpy, best "
              "(median) |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");

  std::vector<MemoryKernel> ks = kernels();
  for (uint64_t r : rows) {
    uint64_t n = r * kCols;
    double s = double(n) * 4;
    Floats sa(n), sb(n), sc(n);
    sa.fillPattern(1);
    sb.fillPattern(2);

    std::vector<Contender> cs;
    std::vector<double> bytes;
    cs.push_back({"C stream add", "caller",
                  [&] { streamAdd(sa.data(), sb.data(), sc.data(), n); }});
    bytes.push_back(3 * s);
    cs.push_back({"memcpy", "caller",
                  [&] { std::memcpy(sc.data(), sa.data(), n * 4); }});
    bytes.push_back(2 * s);
    std::vector<std::unique_ptr<KernelSession>> sessions;
    std::vector<std::unique_ptr<Floats>> buffers;
    for (const MemoryKernel &k : ks) {
      std::string text =
          replaceAll(replaceAll(k.program, "xR", "x" + std::to_string(r)), "<R",
                     "<" + std::to_string(r));
      text = replaceAll(text, "xH", "x" + std::to_string(r / 2));
      std::string name = replaceAll(replaceAll(k.name, " ", "_"), "/", "s") +
                         "_" + std::to_string(r);
      auto session = std::make_unique<KernelSession>(
          runtime, compileProgram(name, text, compileArgs));
      const fuel::rt::Program &p = session->session().program();
      std::vector<uint64_t> sizes = k.inputs(r);
      if (p.inputs.size() != sizes.size() || p.outputs.size() != 1)
        die(name + ": unexpected program signature");
      std::vector<const float *> in;
      for (size_t i = 0; i < sizes.size(); ++i) {
        buffers.push_back(std::make_unique<Floats>(sizes[i]));
        Floats &f = *buffers.back();
        f.fillPattern(unsigned(i) + 3);
        // Logits of a few units, so that softmax's exp has work to do.
        for (uint64_t j = 0; j < f.size(); ++j)
          f[j] *= 4.0f;
        in.push_back(f.data());
        std::vector<int64_t> shape(p.inputs[i].shape.begin(),
                                   p.inputs[i].shape.end());
        session->bindInput(i, shape, f);
      }
      // Checked before it is timed.
      session->run();
      Floats got(k.output(r)), want(k.output(r));
      session->readOutput(0, got);
      k.reference(r, in, want.data());
      checkClose(name, got.data(), want.data(), got.size(), k.tolerance,
                 k.tolerance);
      KernelSession *sp = session.get();
      sessions.push_back(std::move(session));
      cs.push_back({k.name, "fuel 1 thread", [sp] { sp->run(); }});
      bytes.push_back(k.bytes(r));
    }

    Timings t = timeInterleaved(cs, ro);
    Stats add = t.stats(0), copy = t.stats(1);
    for (size_t c = 0; c < cs.size(); ++c) {
      Stats st = t.stats(c);
      auto frac = [&](const Stats &base, double baseBytes, bool median) {
        double mine = median ? st.median : st.best;
        double other = median ? base.median : base.best;
        return (bytes[c] / mine) / (baseBytes / other);
      };
      // Bandwidth ratio from the per-round time ratio.
      double paired = (bytes[c] / bytes[0]) / t.pairedRatio(c, 0);
      std::printf("| %llu (%.0f MiB) | %s | %.1f MiB | %.3f | %.3f | %.1f | "
                  "%.2f (%.2f; %.2f) | %.2f (%.2f) |\n",
                  static_cast<unsigned long long>(r), s / 1048576.0,
                  cs[c].name.c_str(), bytes[c] / 1048576.0, st.best, st.median,
                  bytes[c] / st.best / 1e6, frac(add, bytes[0], false),
                  frac(add, bytes[0], true), paired,
                  frac(copy, bytes[1], false), frac(copy, bytes[1], true));
    }
  }
  return 0;
}
