//===- MemoryBench.cpp - Memory-bound kernels against a C stream add ------===//
//
// Each memory-bound kernel kind (add, row-sum, row-max, softmax, layer norm,
// 2x2 max pooling) as a one-node program on f32 [R x 1024] (R = 1024: 4 MiB,
// R = 16384: 64 MiB), compiled by fuel-compile and run through the runtime
// in a session on one thread, against a streaming add written in plain C
// and memcpy in the same process. Contenders are interleaved (the order
// rotates each round); best and median over the rounds. Bytes are counted
// as docs/PERFORMANCE.md says (no write-allocate traffic): stream add and
// add 3S, memcpy 2S, row-sum and row-max S, softmax 2S, layer norm 2S plus
// gamma and beta, max pooling S + S/4. Each kernel's output is checked
// against a plain C reference first. Not a test: prints ratios.
//
// Usage: fuel-bench-cpu-memory [--rounds N] [--rows R]... [--topology FILE]
//                              [--fuel-compile PATH] [--keep DIR]
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vector>

using namespace fuel::rt;

namespace {

constexpr uint32_t kCols = 1024;

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "fuel-bench-cpu-memory: %s\n", what.c_str());
  std::exit(1);
}

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

/// 64-byte-aligned floats, as the runtime's buffers are (inputs bind
/// zero-copy).
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
  float operator[](uint64_t i) const { return p[i]; }
  uint64_t n;
  float *p;
};

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
       0});
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
               0});
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
               0});
  return k;
}

//===----------------------------------------------------------------------===//
// Compiling and running
//===----------------------------------------------------------------------===//

struct Options {
  int rounds = 15;
  std::vector<uint64_t> rows;
  std::string topology;
  std::string fuelCompile = FUEL_BENCH_FUEL_COMPILE;
  std::string keep;
};

/// The files compile() wrote, removed at the end unless --keep.
std::vector<std::string> written;

/// fuel-compile of `text` into DIR/NAME.fuelx; the executable's path.
std::string compile(const Options &o, const std::string &dir,
                    const std::string &name, const std::string &text) {
  std::string src = dir + "/" + name + ".mlir",
              exe = dir + "/" + name + ".fuelx";
  FILE *f = std::fopen(src.c_str(), "w");
  if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() ||
      std::fclose(f) != 0)
    die("cannot write " + src);
  written.push_back(src);
  written.push_back(exe);
  std::vector<std::string> args = {o.fuelCompile, src, "-o", exe};
  if (!o.topology.empty())
    args.push_back("--topology=" + o.topology);
  pid_t pid = fork();
  if (pid < 0)
    die("fork failed");
  if (pid == 0) {
    std::vector<char *> argv;
    for (std::string &a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    std::_Exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    die("fuel-compile failed on " + src);
  return exe;
}

struct Stats {
  double best, median;
};
Stats stats(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return {t.front(), t[t.size() / 2]};
}

/// One kernel at one size: its session with the inputs bound.
struct Contender {
  std::string name;
  double bytes = 0;
  std::function<void()> run;
  std::vector<double> ms;
};

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        die(a + " needs a value");
      return argv[++i];
    };
    if (a == "--rounds")
      o.rounds = std::max(1, std::atoi(value().c_str()));
    else if (a == "--rows")
      o.rows.push_back(std::strtoull(value().c_str(), nullptr, 10));
    else if (a == "--topology")
      o.topology = value();
    else if (a == "--fuel-compile")
      o.fuelCompile = value();
    else if (a == "--keep")
      o.keep = value();
    else
      die("unknown argument " + a +
          " (--rounds N, --rows R, --topology FILE, --fuel-compile PATH, "
          "--keep DIR)");
  }
  if (o.rows.empty())
    o.rows = {1024, 16384};
  for (uint64_t r : o.rows)
    if (r < 2 || r % 2)
      die("--rows must be even and at least 2");

  std::string dir = o.keep;
  char tmpl[] = "/tmp/fuel-bench-memory-XXXXXX";
  if (dir.empty()) {
    if (!mkdtemp(tmpl))
      die("mkdtemp failed");
    dir = tmpl;
  }

  RuntimeOptions ro;
  ro.threads = 1;
  auto rt = Runtime::create(ro);
  if (!rt)
    die(rt.status().toString());

  std::printf("fuel-bench-cpu-memory: f32 [R x %u], 1 thread, %d rounds, "
              "topology %s\n",
              kCols, o.rounds,
              o.topology.empty() ? "(built-in default: this host's ISA)"
                                 : o.topology.c_str());
  std::printf("\nfraction = the kernel's bandwidth (bytes counted / time) "
              "over the C stream add's, best (median); GB/s of the best "
              "run\n");
  std::printf("\n| R x 1024 | kernel | bytes counted | best ms | median ms | "
              "GB/s | / stream add | / memcpy |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");

  std::vector<MemoryKernel> ks = kernels();
  for (uint64_t r : o.rows) {
    uint64_t n = r * kCols;
    double s = double(n) * 4;
    // Inputs: a smooth pattern in [-4, 4), distinct per input.
    std::vector<std::unique_ptr<Floats>> pool;
    auto input = [&](uint64_t count, int salt) -> Floats & {
      pool.push_back(std::make_unique<Floats>(count));
      Floats &f = *pool.back();
      for (uint64_t i = 0; i < count; ++i)
        f[i] = float(int((i * 7 + salt * 13) % 101) - 50) / 12.5f;
      return f;
    };
    Floats &sa = input(n, 1), &sb = input(n, 2);
    Floats sc(n);

    std::vector<Contender> cs;
    cs.push_back({"C stream add",
                  3 * s,
                  [&] { streamAdd(sa.data(), sb.data(), sc.data(), n); },
                  {}});
    cs.push_back({"memcpy",
                  2 * s,
                  [&] { std::memcpy(sc.data(), sa.data(), n * 4); },
                  {}});
    std::vector<std::unique_ptr<Session>> sessions;
    for (const MemoryKernel &k : ks) {
      std::string text =
          replaceAll(replaceAll(k.program, "xR", "x" + std::to_string(r)), "<R",
                     "<" + std::to_string(r));
      text = replaceAll(text, "xH", "x" + std::to_string(r / 2));
      std::string name = replaceAll(replaceAll(k.name, " ", "_"), "/", "s") +
                         "_" + std::to_string(r);
      std::string exe = compile(o, dir, name, text);
      auto loaded = (*rt)->loadExecutableFile(exe);
      if (!loaded)
        die(loaded.status().toString());
      auto session = Session::create(*loaded);
      if (!session)
        die(session.status().toString());
      const Program &p = (*session)->program();
      std::vector<uint64_t> sizes = k.inputs(r);
      if (p.inputs.size() != sizes.size() || p.outputs.size() != 1)
        die(name + ": unexpected program signature");
      std::vector<const float *> in;
      for (size_t i = 0; i < sizes.size(); ++i) {
        Floats &f = input(sizes[i], int(i) + 3);
        in.push_back(f.data());
        if (Status st = (*session)->bindInput(
                i, ElementType::F32, p.inputs[i].shape, f.data(), sizes[i] * 4);
            !st)
          die(name + ": " + st.toString());
      }
      // Checked before it is timed.
      if (Status st = (*session)->run(); !st)
        die(name + ": " + st.toString());
      uint64_t outN = k.output(r);
      std::vector<float> got(outN), want(outN);
      if (Status st = (*session)->readOutput(0, got.data(), outN * 4); !st)
        die(name + ": " + st.toString());
      k.reference(r, in, want.data());
      for (uint64_t i = 0; i < outN; ++i)
        if (!(std::fabs(got[i] - want[i]) <=
              k.tolerance * (1 + std::fabs(want[i]))))
          die(name + ": element " + std::to_string(i) + " is " +
              std::to_string(got[i]) + ", the reference " +
              std::to_string(want[i]));
      Session *sp = session->get();
      sessions.push_back(std::move(*session));
      cs.push_back({k.name,
                    k.bytes(r),
                    [sp, name] {
                      if (Status st = sp->run(); !st)
                        die(name + ": " + st.toString());
                    },
                    {}});
    }

    // Warm-up, then interleaved rounds, the order rotating.
    for (Contender &c : cs)
      c.run();
    for (int round = 0; round < o.rounds; ++round)
      for (size_t j = 0; j < cs.size(); ++j) {
        Contender &c = cs[(j + round) % cs.size()];
        uint64_t t0 = nowNs();
        c.run();
        c.ms.push_back(double(nowNs() - t0) / 1e6);
      }
    Stats add = stats(cs[0].ms), copy = stats(cs[1].ms);
    for (Contender &c : cs) {
      Stats t = stats(c.ms);
      auto frac = [&](const Stats &base, double baseBytes) {
        return std::pair<double, double>{
            (c.bytes / t.best) / (baseBytes / base.best),
            (c.bytes / t.median) / (baseBytes / base.median)};
      };
      auto fa = frac(add, cs[0].bytes), fm = frac(copy, cs[1].bytes);
      std::printf("| %llu (%.0f MiB) | %s | %.1f MiB | %.3f | %.3f | %.1f | "
                  "%.2f (%.2f) | %.2f (%.2f) |\n",
                  static_cast<unsigned long long>(r), s / 1048576.0,
                  c.name.c_str(), c.bytes / 1048576.0, t.best, t.median,
                  c.bytes / t.best / 1e6, fa.first, fa.second, fm.first,
                  fm.second);
    }
  }
  if (o.keep.empty()) {
    // The compiled programs are scratch.
    for (const std::string &file : written)
      unlink(file.c_str());
    rmdir(dir.c_str());
  }
  return 0;
}
