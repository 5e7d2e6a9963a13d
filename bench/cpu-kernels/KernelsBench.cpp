//===- KernelsBench.cpp - Generated matmuls against OpenBLAS and BLIS -----===//
//
// Per shape, fuel's generated kernel (a one-node program compiled with
// fuel-compile, kernel-sources=generated, run through libfuelrt in a
// session) against the libraries called directly in the same process:
// OpenBLAS's cblas_sgemm and BLIS's bli_sgemm, on one thread (the serial
// flavours, the shims' libraries) and on every core (the runtime's pool
// against the libraries' pthread flavours). batch_matmul is also measured
// through fuel's library route (the same program compiled with
// kernel-sources=openblas, and blis: what the planner picks otherwise).
//
// Contenders run interleaved in rounds (bench/common/KernelBench.h), with a
// cool-down whenever the thread pool changes; best and median of every call,
// and the median over rounds of the per-round ratio (steadier on a shared
// machine). Every contender's output is checked against one reference
// (double accumulation) before timing. Ratios are time / OpenBLAS's time.
// Not a test: prints tables (docs/PERFORMANCE.md, "Generated matmul against
// OpenBLAS and BLIS").
//
// Usage: fuel-bench-cpu-kernels [--threads=1|all|both] [--rounds=N]
//          [--only=matmul|batch_matmul] [--quick|--smoke] [--topology=FILE]
//          [--plan=OPTIONS] [--shim-dir=DIR]
//
// --quick: 4 rounds of 5 ms bursts. --smoke: one call of each contender,
// checked (a test of the whole route, not a measurement). --topology pins the
// ISA class the generated kernels are compiled for (a topology's
// `cpu_target`, e.g. test/topologies/cpu-target.json for AVX2).
//
//===----------------------------------------------------------------------===//

#include "../common/KernelBench.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace fuel::bench;

namespace {

/// batch x (M x K) * (K x N); batch 0 is a plain matmul.
struct Shape {
  int batch, m, k, n;
  bool isBatch() const { return batch > 0; }
  int count() const { return batch > 0 ? batch : 1; }
  double flops() const { return 2.0 * count() * m * k * n; }
  std::string text() const {
    std::string s =
        std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
    return batch > 0 ? std::to_string(batch) + "x" + s : s;
  }
};

const Shape kShapes[] = {
    {0, 64, 784, 1024},
    {0, 64, 1024, 1024},
    {0, 128, 256, 1024},
    {0, 256, 256, 256},
    {0, 512, 512, 512},
    // The transformer's attention products, then two more batch shapes.
    {4, 128, 64, 128},
    {4, 128, 128, 64},
    {16, 64, 64, 64},
    {2, 256, 256, 256},
};

using Options = BenchOptions;

std::string tensor(const Shape &s, int rows, int cols) {
  std::string t = "tensor<";
  if (s.isBatch())
    t += std::to_string(s.batch) + "x";
  return t + std::to_string(rows) + "x" + std::to_string(cols) + "xf32>";
}

/// The one-node program: C = A * B with C zero-filled first.
std::string program(const Shape &s) {
  std::string a = tensor(s, s.m, s.k), b = tensor(s, s.k, s.n),
              c = tensor(s, s.m, s.n);
  std::string op = s.isBatch() ? "linalg.batch_matmul" : "linalg.matmul";
  return "func.func @bench(%a: " + a + ", %b: " + b + ") -> " + c +
         " {\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %e = tensor.empty() : " +
         c +
         "\n"
         "  %f = linalg.fill ins(%zero : f32) outs(%e : " +
         c + ") -> " + c + "\n  %c = " + op + " ins(%a, %b : " + a + ", " + b +
         ") outs(%f : " + c + ") -> " + c + "\n  return %c : " + c + "\n}\n";
}

std::string compile(const Options &o, const Shape &s,
                    const std::string &sources) {
  std::vector<std::string> args;
  if (!o.topology.empty())
    args.push_back("--topology=" + o.topology);
  std::string plan = "kernel-sources=" + sources;
  if (!o.plan.empty())
    plan += " " + o.plan;
  args.push_back("--plan=" + plan);
  return compileProgram(std::string(s.isBatch() ? "batch_matmul_" : "matmul_") +
                            s.text() + "_" + sources,
                        program(s), args);
}

/// The direct library call for the whole shape (a loop over batch entries).
void direct(const BlasLibrary &lib, const Shape &s, const Floats &a,
            const Floats &b, Floats &c) {
  uint64_t as = uint64_t(s.m) * s.k, bs = uint64_t(s.k) * s.n,
           cs = uint64_t(s.m) * s.n;
  for (int i = 0; i < s.count(); ++i)
    lib.sgemm(s.m, s.n, s.k, a.data() + i * as, b.data() + i * bs,
              c.data() + i * cs);
}

struct Row {
  std::string name;
  Stats st;
  double paired; ///< Timings::pairedRatio against the baseline.
};

/// One markdown row per contender; ratios against rows[baseline].
void printTable(const Shape &s, unsigned threads, const std::vector<Row> &rows,
                size_t baseline) {
  for (const Row &r : rows) {
    double rb = r.st.best / rows[baseline].st.best,
           rm = r.st.median / rows[baseline].st.median;
    std::printf("| %s | %u | %s | %.3f | %.3f | %.1f | %.2f | %.2f | %.2f "
                "|\n",
                s.text().c_str(), threads, r.name.c_str(), r.st.best,
                r.st.median, s.flops() / r.st.best / 1e6, rb, rm, r.paired);
  }
  std::fflush(stdout);
}

struct Summary {
  std::string shape, what;
  double best, median, paired;
  const char *target;
  bool met;
};

void benchShape(const Options &o, const Shape &s,
                const std::shared_ptr<fuel::rt::Runtime> &rt1,
                const std::shared_ptr<fuel::rt::Runtime> &rtAll,
                const BlasLibrary &obSerial, const BlasLibrary &blisSerial,
                const BlasLibrary *obThreaded, const BlasLibrary *blisThreaded,
                std::vector<Summary> &summary) {
  uint64_t aN = uint64_t(s.count()) * s.m * s.k,
           bN = uint64_t(s.count()) * s.k * s.n,
           cN = uint64_t(s.count()) * s.m * s.n;
  Floats a(aN), b(bN), ref(cN);
  a.fillPattern(1);
  b.fillPattern(2);
  {
    uint64_t as = uint64_t(s.m) * s.k, bs = uint64_t(s.k) * s.n,
             cs = uint64_t(s.m) * s.n;
    for (int i = 0; i < s.count(); ++i)
      referenceSgemm(s.m, s.n, s.k, a.data() + i * as, b.data() + i * bs,
                     ref.data() + i * cs);
  }
  std::vector<int64_t> aShape, bShape;
  if (s.isBatch()) {
    aShape = {s.batch, s.m, s.k};
    bShape = {s.batch, s.k, s.n};
  } else {
    aShape = {s.m, s.k};
    bShape = {s.k, s.n};
  }
  std::vector<std::string> sources = {"generated"};
  if (s.isBatch()) {
    sources.push_back("openblas");
    sources.push_back("blis");
  }
  std::vector<std::string> exes;
  for (const std::string &src : sources)
    exes.push_back(compile(o, s, src));

  auto sessionsOn = [&](const std::shared_ptr<fuel::rt::Runtime> &rt) {
    std::vector<KernelSession> v;
    for (const std::string &e : exes) {
      v.emplace_back(rt, e);
      v.back().bindInput(0, aShape, a);
      v.back().bindInput(1, bShape, b);
    }
    return v;
  };
  // Runs `f` once and checks what it wrote into `out`.
  auto check = [&](const std::string &what, const std::function<void()> &f,
                   Floats &out) {
    out.fill(NAN);
    f();
    checkClose(s.text() + " " + what, out.data(), ref.data(), cN);
  };

  for (int phase = 0; phase < 2; ++phase) {
    bool one = phase == 0;
    if ((one && !o.one) || (!one && !o.all))
      continue;
    const BlasLibrary *ob = one ? &obSerial : obThreaded;
    const BlasLibrary *bl = one ? &blisSerial : blisThreaded;
    unsigned threads = one ? 1 : coreCount();
    std::vector<KernelSession> sessions = sessionsOn(one ? rt1 : rtAll);
    Floats cOb(cN), cBl(cN), cFuel(cN);
    std::vector<Contender> cs;
    std::vector<std::string> names;
    const char *callerPool = one ? "caller" : nullptr;
    if (ob) {
      ob->setThreads(int(threads));
      std::string name =
          std::string("OpenBLAS ") +
          (s.isBatch() ? "cblas_sgemm per entry" : "cblas_sgemm") +
          (ob->threaded ? " (pthread)" : " (serial)");
      auto f = [&, ob] { direct(*ob, s, a, b, cOb); };
      check(name, f, cOb);
      cs.push_back({name, callerPool ? callerPool : "openblas pthread", f});
    }
    if (bl) {
      bl->setThreads(int(threads));
      std::string name = std::string("BLIS ") +
                         (s.isBatch() ? "bli_sgemm per entry" : "bli_sgemm") +
                         (bl->threaded ? " (pthread)" : " (serial)");
      auto f = [&, bl] { direct(*bl, s, a, b, cBl); };
      check(name, f, cBl);
      cs.push_back({name, callerPool ? callerPool : "blis pthread", f});
    }
    std::string fuelPool = "fuel " + std::to_string(threads) + " threads";
    for (size_t i = 0; i < sessions.size(); ++i) {
      KernelSession *k = &sessions[i];
      std::string name = "fuel " + sources[i];
      check(
          name,
          [&, k] {
            k->run();
            k->readOutput(0, cFuel);
          },
          cFuel);
      cs.push_back({name, fuelPool, [k] { k->run(); }});
    }
    Timings t = timeInterleaved(cs, o.rounds);
    size_t base = 0; // OpenBLAS when measured, else the first contender
    std::vector<Row> rows;
    for (size_t i = 0; i < cs.size(); ++i)
      rows.push_back({cs[i].name, t.stats(i), t.pairedRatio(i, base)});
    printTable(s, threads, rows, base);
    // Targets (docs/PERFORMANCE.md): generated vs OpenBLAS, median on one
    // thread, best on all cores; batch_matmul vs fuel's library route.
    size_t gen = cs.size() - sessions.size();
    if (ob) {
      double rb = rows[gen].st.best / rows[0].st.best,
             rm = rows[gen].st.median / rows[0].st.median;
      double rp = rows[gen].paired;
      if (one)
        summary.push_back({s.text(), "generated / OpenBLAS, 1 thread", rb, rm,
                           rp, "median <= 1.00", rm <= 1.0});
      else
        summary.push_back(
            {s.text(),
             "generated / OpenBLAS, " + std::to_string(threads) + " threads",
             rb, rm, rp, "best <= 1.10", rb <= 1.1});
    }
    if (s.isBatch()) {
      double rb = rows[gen].st.best / rows[gen + 1].st.best,
             rm = rows[gen].st.median / rows[gen + 1].st.median,
             rp = t.pairedRatio(gen, gen + 1);
      summary.push_back({s.text(),
                         "generated / fuel openblas route, " +
                             std::to_string(threads) + " thread(s)",
                         rb, rm, rp, "median <= 1.00", rm <= 1.0});
    }
    if (!one)
      sleepMs(o.rounds.coolDownMs);
  }
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: fuel-bench-cpu-kernels [--threads=1|all|both] "
               "[--rounds=N] [--only=matmul|batch_matmul] [--quick|--smoke] "
               "[--topology=FILE] [--plan=OPTIONS] [--shim-dir=DIR]\n");
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  setProgramName("fuel-bench-cpu-kernels");
  Options o;
  parseBenchOptions(argc, argv, o, usage);
  if (!o.only.empty() && o.only != "matmul" && o.only != "batch_matmul")
    usage();
  unsigned cores = coreCount();
  auto obSerial = openOpenBlas(false), blisSerial = openBlis(false);
  auto obThreaded = openOpenBlas(true, /*optional=*/true);
  auto blisThreaded = openBlis(true, /*optional=*/true);
  std::printf("fuel-bench-cpu-kernels: %u cores, %s; %s; OpenBLAS %s, %s; "
              "BLIS %s, %s\n",
              cores, hostIsaName(), fuelCompilePath().c_str(),
              obSerial->path.c_str(),
              obThreaded ? obThreaded->path.c_str() : "no pthread flavour",
              blisSerial->path.c_str(),
              blisThreaded ? blisThreaded->path.c_str() : "no pthread flavour");
  std::printf("%u rounds, bursts of >= %.0f ms, %u ms cool-down between "
              "thread pools; ms as best / median of every call; ratios are "
              "time / the first row's (OpenBLAS)\n\n",
              o.rounds.rounds, o.rounds.burstMs, o.rounds.coolDownMs);
  std::printf("| shape | threads | contender | best ms | median ms | GFLOP/s "
              "(best) | best / OpenBLAS | median / OpenBLAS | per-round "
              "median / OpenBLAS |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  auto rt1 = makeRuntime(1, o.shimDir), rtAll = makeRuntime(cores, o.shimDir);
  std::vector<Summary> summary;
  for (const Shape &s : kShapes) {
    if (!o.only.empty() && (o.only == "batch_matmul") != s.isBatch())
      continue;
    benchShape(o, s, rt1, rtAll, *obSerial, *blisSerial, obThreaded.get(),
               blisThreaded.get(), summary);
  }
  std::printf("\n| shape | time ratio | best | median | per-round median | "
              "target | met |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const Summary &x : summary)
    std::printf("| %s | %s | %.2f | %.2f | %.2f | %s | %s |\n", x.shape.c_str(),
                x.what.c_str(), x.best, x.median, x.paired, x.target,
                x.met ? "yes" : "no");
  return 0;
}
