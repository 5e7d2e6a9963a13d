//===- ConvBench.cpp - Generated conv2d against im2col + OpenBLAS ---------===//
//
// Per convolution layer, fuel's generated conv2d kernel (a one-node program
// compiled with fuel-compile, kernel-sources=generated, run through libfuelrt
// in a session) against the library route computed in the same process:
// im2col in plain C into a column buffer allocated once, then one
// cblas_sgemm per image (serial OpenBLAS, the library of fuel's shim). The
// layers: the two convolutions of examples/convnet.mlir (NCHW) and
// ResNet-like 3x3 layers (NCHW, and one NHWC/HWCF).
//
// NCHW/FCHW: col[c*KH*KW + kh*KW + kw][oh*OW + ow] = x[n][c][oh*s+kh][ow*s+kw]
// and out[n] (F x OH*OW) = w (F x C*KH*KW) * col. NHWC/HWCF:
// col[oh*OW + ow][(kh*KW + kw)*C + c] = x[n][oh*s+kh][ow*s+kw][c] and out[n]
// (OH*OW x F) = col * w (KH*KW*C x F).
//
// Contenders run interleaved in rounds (bench/common/KernelBench.h), with a
// cool-down whenever the thread pool changes; best and median of every call.
// Before timing, the library route is checked against a double-accumulated
// direct convolution and the generated kernel against the library route's
// output. Ratios are time / the library route's time. Not a test: prints
// tables (docs/PERFORMANCE.md, "Generated conv2d against im2col +
// OpenBLAS").
//
// Usage: fuel-bench-cpu-conv [--threads=1|all|both] [--rounds=N]
//          [--quick|--smoke] [--only=LAYER] [--topology=FILE] [--plan=OPTIONS]
//          [--shim-dir=DIR]
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

/// One 2-D convolution layer: N images of C x H x W, F filters of KH x KW,
/// one stride for both window dimensions, no padding.
struct Layer {
  const char *name;
  bool nhwc;
  int n, c, h, w, f, kh, kw, stride;
  int oh() const { return (h - kh) / stride + 1; }
  int ow() const { return (w - kw) / stride + 1; }
  int ckk() const { return c * kh * kw; }
  int pixels() const { return oh() * ow(); }
  uint64_t inputs() const { return uint64_t(n) * c * h * w; }
  uint64_t filters() const { return uint64_t(f) * ckk(); }
  uint64_t outputs() const { return uint64_t(n) * f * pixels(); }
  double flops() const { return 2.0 * double(outputs()) * ckk(); }
};

const Layer kLayers[] = {
    // examples/convnet.mlir: 8x3x32x32 (*) 16x3x5x5, then 8x16x14x14 (*)
    // 32x16x3x3.
    {"convnet-conv1", false, 8, 3, 32, 32, 16, 5, 5, 1},
    {"convnet-conv2", false, 8, 16, 14, 14, 32, 3, 3, 1},
    // ResNet-like 3x3 layers (the padding of the real layer is in the
    // input: 58 -> 56, 30 -> 28).
    {"resnet-56x56x64", false, 1, 64, 58, 58, 64, 3, 3, 1},
    {"resnet-28x28x128", false, 1, 128, 30, 30, 128, 3, 3, 1},
    {"resnet-28x28x128-nhwc", true, 1, 128, 30, 30, 128, 3, 3, 1},
};

using Options = BenchOptions;

std::string dims(const std::vector<int> &d) {
  std::string s = "tensor<";
  for (int x : d)
    s += std::to_string(x) + "x";
  return s + "f32>";
}

std::vector<int64_t> inputShape(const Layer &l) {
  if (l.nhwc)
    return {l.n, l.h, l.w, l.c};
  return {l.n, l.c, l.h, l.w};
}
std::vector<int64_t> filterShape(const Layer &l) {
  if (l.nhwc)
    return {l.kh, l.kw, l.c, l.f};
  return {l.f, l.c, l.kh, l.kw};
}

/// The one-node program: the convolution into a zero-filled result.
std::string program(const Layer &l) {
  auto t = [](const std::vector<int64_t> &v) {
    return dims(std::vector<int>(v.begin(), v.end()));
  };
  std::string x = t(inputShape(l)), w = t(filterShape(l));
  std::string o = l.nhwc ? dims({l.n, l.oh(), l.ow(), l.f})
                         : dims({l.n, l.f, l.oh(), l.ow()});
  std::string op =
      l.nhwc ? "linalg.conv_2d_nhwc_hwcf" : "linalg.conv_2d_nchw_fchw";
  std::string s = std::to_string(l.stride);
  return "func.func @bench(%x: " + x + ", %w: " + w + ") -> " + o +
         " {\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %e = tensor.empty() : " +
         o + "\n  %f = linalg.fill ins(%zero : f32) outs(%e : " + o + ") -> " +
         o + "\n  %c = " + op +
         " {dilations = dense<1> : tensor<2xi64>, strides = dense<" + s +
         "> : tensor<2xi64>}\n      ins(%x, %w : " + x + ", " + w +
         ") outs(%f : " + o + ") -> " + o + "\n  return %c : " + o + "\n}\n";
}

/// im2col of image `img` into `col` (layouts in the file comment).
void im2col(const Layer &l, const float *x, int img, float *col) {
  const int OH = l.oh(), OW = l.ow(), s = l.stride;
  if (!l.nhwc) {
    const float *xi = x + uint64_t(img) * l.c * l.h * l.w;
    for (int c = 0; c < l.c; ++c)
      for (int kh = 0; kh < l.kh; ++kh)
        for (int kw = 0; kw < l.kw; ++kw) {
          float *row =
              col + (uint64_t(c) * l.kh * l.kw + kh * l.kw + kw) * l.pixels();
          for (int oh = 0; oh < OH; ++oh) {
            const float *src =
                xi + (uint64_t(c) * l.h + oh * s + kh) * l.w + kw;
            float *dst = row + uint64_t(oh) * OW;
            if (s == 1)
              std::memcpy(dst, src, sizeof(float) * OW);
            else
              for (int ow = 0; ow < OW; ++ow)
                dst[ow] = src[ow * s];
          }
        }
    return;
  }
  const float *xi = x + uint64_t(img) * l.h * l.w * l.c;
  for (int oh = 0; oh < OH; ++oh)
    for (int ow = 0; ow < OW; ++ow) {
      float *dst = col + (uint64_t(oh) * OW + ow) * l.ckk();
      for (int kh = 0; kh < l.kh; ++kh)
        std::memcpy(dst + uint64_t(kh) * l.kw * l.c,
                    xi + ((uint64_t(oh) * s + kh) * l.w + ow * s) * l.c,
                    sizeof(float) * l.kw * l.c);
    }
}

/// The library route: per image, im2col then one sgemm.
void libraryRoute(const BlasLibrary &lib, const Layer &l, const Floats &x,
                  const Floats &w, Floats &col, Floats &out) {
  const uint64_t perImage = uint64_t(l.f) * l.pixels();
  for (int i = 0; i < l.n; ++i) {
    im2col(l, x.data(), i, col.data());
    if (l.nhwc)
      lib.sgemm(l.pixels(), l.f, l.ckk(), col.data(), w.data(),
                out.data() + i * perImage);
    else
      lib.sgemm(l.f, l.pixels(), l.ckk(), w.data(), col.data(),
                out.data() + i * perImage);
  }
}

/// Direct convolution accumulated in double: the reference the library
/// route is checked against.
void reference(const Layer &l, const Floats &x, const Floats &w, Floats &out) {
  const int OH = l.oh(), OW = l.ow(), s = l.stride;
  for (int n = 0; n < l.n; ++n)
    for (int f = 0; f < l.f; ++f)
      for (int oh = 0; oh < OH; ++oh)
        for (int ow = 0; ow < OW; ++ow) {
          double acc = 0;
          for (int c = 0; c < l.c; ++c)
            for (int kh = 0; kh < l.kh; ++kh)
              for (int kw = 0; kw < l.kw; ++kw) {
                int ih = oh * s + kh, iw = ow * s + kw;
                double xv, wv;
                if (l.nhwc) {
                  xv = x[((uint64_t(n) * l.h + ih) * l.w + iw) * l.c + c];
                  wv = w[((uint64_t(kh) * l.kw + kw) * l.c + c) * l.f + f];
                } else {
                  xv = x[((uint64_t(n) * l.c + c) * l.h + ih) * l.w + iw];
                  wv = w[((uint64_t(f) * l.c + c) * l.kh + kh) * l.kw + kw];
                }
                acc += xv * wv;
              }
          uint64_t o = l.nhwc ? ((uint64_t(n) * OH + oh) * OW + ow) * l.f + f
                              : ((uint64_t(n) * l.f + f) * OH + oh) * OW + ow;
          out[o] = float(acc);
        }
}

std::string compile(const Options &o, const Layer &l) {
  std::vector<std::string> args;
  if (!o.topology.empty())
    args.push_back("--topology=" + o.topology);
  std::string plan = "kernel-sources=generated";
  if (!o.plan.empty())
    plan += " " + o.plan;
  args.push_back("--plan=" + plan);
  return compileProgram(std::string("conv_") + l.name, program(l), args);
}

struct Summary {
  std::string layer, what;
  double best, median;
  const char *target;
  bool met;
};

void benchLayer(const Options &o, const Layer &l,
                const std::shared_ptr<fuel::rt::Runtime> &rt1,
                const std::shared_ptr<fuel::rt::Runtime> &rtAll,
                const BlasLibrary &obSerial, const BlasLibrary *obThreaded,
                std::vector<Summary> &summary) {
  Floats x(l.inputs()), w(l.filters()), ref(l.outputs()), libOut(l.outputs()),
      fuelOut(l.outputs()), col(uint64_t(l.ckk()) * l.pixels());
  x.fillPattern(1);
  w.fillPattern(2);
  reference(l, x, w, ref);
  std::string exe = compile(o, l);

  for (int phase = 0; phase < 2; ++phase) {
    bool one = phase == 0;
    if ((one && !o.one) || (!one && !o.all))
      continue;
    const BlasLibrary *ob = one ? &obSerial : obThreaded;
    if (!ob)
      continue;
    unsigned threads = one ? 1 : coreCount();
    ob->setThreads(int(threads));
    KernelSession k(one ? rt1 : rtAll, exe);
    k.bindInput(0, inputShape(l), x);
    k.bindInput(1, filterShape(l), w);

    auto lib = [&, ob] { libraryRoute(*ob, l, x, w, col, libOut); };
    libOut.fill(NAN);
    lib();
    checkClose(std::string(l.name) + " im2col + OpenBLAS", libOut.data(),
               ref.data(), l.outputs());
    fuelOut.fill(NAN);
    k.run();
    k.readOutput(0, fuelOut);
    checkClose(std::string(l.name) + " generated (vs the library route)",
               fuelOut.data(), libOut.data(), l.outputs());

    std::string libName = std::string("im2col + OpenBLAS") +
                          (ob->threaded ? " (pthread)" : " (serial)");
    std::vector<Contender> cs = {
        {libName, one ? "caller" : "openblas pthread", lib},
        {"fuel generated", "fuel " + std::to_string(threads) + " threads",
         [&k] { k.run(); }},
    };
    std::vector<std::vector<double>> samples = runInterleaved(cs, o.rounds);
    Stats sl = statsOf(samples[0]), sg = statsOf(samples[1]);
    const Stats *st[2] = {&sl, &sg};
    for (int i = 0; i < 2; ++i)
      std::printf("| %s | %u | %s | %.3f | %.3f | %.1f | %.2f | %.2f |\n",
                  l.name, threads, cs[i].name.c_str(), st[i]->best,
                  st[i]->median, l.flops() / st[i]->best / 1e6,
                  st[i]->best / sl.best, st[i]->median / sl.median);
    std::fflush(stdout);
    double rb = sg.best / sl.best, rm = sg.median / sl.median;
    // Targets (docs/PERFORMANCE.md): the median on one thread, the best on
    // every core.
    summary.push_back({l.name,
                       "generated / im2col + OpenBLAS, " +
                           std::to_string(threads) +
                           (one ? " thread" : " threads"),
                       rb, rm, one ? "median <= 1.00" : "best <= 1.10",
                       one ? rm <= 1.0 : rb <= 1.1});
    sleepMs(o.rounds.coolDownMs);
  }
}

[[noreturn]] void usage() {
  std::fprintf(stderr, "usage: fuel-bench-cpu-conv [--threads=1|all|both] "
                       "[--rounds=N] [--quick|--smoke] [--only=LAYER] "
                       "[--topology=FILE] "
                       "[--plan=OPTIONS] [--shim-dir=DIR]\n");
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  setProgramName("fuel-bench-cpu-conv");
  Options o;
  parseBenchOptions(argc, argv, o, usage);
  unsigned cores = coreCount();
  auto obSerial = openOpenBlas(false);
  auto obThreaded = openOpenBlas(true, /*optional=*/true);
  std::printf("fuel-bench-cpu-conv: %u cores, %s; %s; OpenBLAS %s, %s\n", cores,
              hostIsaName(), fuelCompilePath().c_str(), obSerial->path.c_str(),
              obThreaded ? obThreaded->path.c_str() : "no pthread flavour");
  std::printf("%u rounds, bursts of >= %.0f ms, %u ms cool-down between "
              "thread pools; ms as best / median of every call; ratios are "
              "time / the library route's (im2col + cblas_sgemm)\n\n",
              o.rounds.rounds, o.rounds.burstMs, o.rounds.coolDownMs);
  std::printf("| layer | threads | contender | best ms | median ms | GFLOP/s "
              "(best) | best / library | median / library |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  auto rt1 = makeRuntime(1, o.shimDir), rtAll = makeRuntime(cores, o.shimDir);
  std::vector<Summary> summary;
  bool any = false;
  for (const Layer &l : kLayers) {
    if (!o.only.empty() && o.only != l.name)
      continue;
    any = true;
    benchLayer(o, l, rt1, rtAll, *obSerial, obThreaded.get(), summary);
  }
  if (!any)
    die("no layer named '" + o.only + "'");
  std::printf("\n| layer | ratio | best | median | target | met |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const Summary &s : summary)
    std::printf("| %s | %s | %.2f | %.2f | %s | %s |\n", s.layer.c_str(),
                s.what.c_str(), s.best, s.median, s.target,
                s.met ? "yes" : "no");
  return 0;
}
