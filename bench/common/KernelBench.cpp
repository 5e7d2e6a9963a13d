//===- KernelBench.cpp - Shared support of the CPU kernel benchmarks ------===//
//
// See KernelBench.h. LLVM-free: fuel-compile runs as a tool (the benchmark
// measures kernels, not the compiler), libfuelrt in-process.
//
//===----------------------------------------------------------------------===//

#include "KernelBench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <time.h>
#include <unistd.h>

#ifndef FUEL_BENCH_SHIM_DIR
#define FUEL_BENCH_SHIM_DIR ""
#endif
#ifndef FUEL_BENCH_FUEL_COMPILE
#define FUEL_BENCH_FUEL_COMPILE "fuel-compile"
#endif

namespace fuel::bench {

namespace {
std::string &programName() {
  static std::string name = "fuel-bench";
  return name;
}

/// Quotes `s` for /bin/sh.
std::string shellQuote(const std::string &s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

constexpr const char *kMultiarch = "/usr/lib/x86_64-linux-gnu";
} // namespace

void setProgramName(const std::string &name) { programName() = name; }

void die(const std::string &what) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s\n", programName().c_str(), what.c_str());
  std::exit(1);
}

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

void sleepMs(unsigned ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

unsigned coreCount() {
  return std::max(1u, std::thread::hardware_concurrency());
}

bool cpuHasFlag(const std::string &flag) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0)
      continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::string w;
    while (words >> w)
      if (w == flag)
        return true;
    return false;
  }
  return false;
}

const char *hostIsaName() {
  return cpuHasFlag("avx512f") ? "avx512f"
         : cpuHasFlag("avx2")  ? "avx2"
                               : "no avx2";
}

void parseBenchOptions(int argc, char **argv, BenchOptions &o,
                       void (*usage)()) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *key) -> const char * {
      size_t n = std::strlen(key);
      return arg.compare(0, n, key) == 0 ? argv[i] + n : nullptr;
    };
    if (const char *v = value("--threads=")) {
      std::string t = v;
      if (t == "1")
        o.all = false;
      else if (t == "all")
        o.one = false;
      else if (t != "both")
        usage();
    } else if (const char *v = value("--rounds=")) {
      o.rounds.rounds = unsigned(std::atoi(v));
      if (!o.rounds.rounds)
        usage();
    } else if (arg == "--quick") {
      o.rounds.rounds = 4;
      o.rounds.burstMs = 5;
    } else if (arg == "--smoke") {
      o.rounds.rounds = 1;
      o.rounds.warmupCalls = 0;
      o.rounds.burstMs = 0;
      o.rounds.minCalls = 1;
      o.rounds.coolDownMs = 0;
    } else if (const char *v = value("--only=")) {
      o.only = v;
    } else if (const char *v = value("--topology=")) {
      o.topology = v;
    } else if (const char *v = value("--plan=")) {
      o.plan = v;
    } else if (const char *v = value("--shim-dir=")) {
      o.shimDir = v;
    } else {
      usage();
    }
  }
}

//===----------------------------------------------------------------------===//
// Floats, statistics, checks
//===----------------------------------------------------------------------===//

Floats::Floats(uint64_t n) : n_(n) {
  size_t bytes = std::max<size_t>(64, (n * sizeof(float) + 63) / 64 * 64);
  p_ = static_cast<float *>(std::aligned_alloc(64, bytes));
  if (!p_)
    die("out of memory for " + std::to_string(n) + " floats");
  std::memset(p_, 0, bytes);
}

Floats::~Floats() { std::free(p_); }

void Floats::fillPattern(unsigned seed) {
  // Multiples of 1/16 in [-1, 1): products and their sums over K <= 2^16
  // are exact in float, so every correct kernel agrees with the reference
  // up to the order of additions only.
  uint64_t x = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (uint64_t i = 0; i < n_; ++i) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    p_[i] = float(int((x * 0x2545F4914F6CDD1Dull) >> 59) - 16) / 16.0f;
  }
}

void Floats::fill(float v) { std::fill(p_, p_ + n_, v); }

Stats statsOf(std::vector<double> samples) {
  Stats s;
  s.samples = samples.size();
  if (samples.empty())
    return s;
  std::sort(samples.begin(), samples.end());
  s.best = samples.front();
  size_t n = samples.size();
  s.median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  return s;
}

double mismatch(const float *out, const float *ref, uint64_t n, double rtol,
                double atol, uint64_t *worst) {
  double m = 0;
  for (uint64_t i = 0; i < n; ++i) {
    double e = std::fabs(double(out[i]) - double(ref[i])) /
               (atol + rtol * std::fabs(double(ref[i])));
    if (!(e <= m)) { // NaN counts as the worst
      m = std::isnan(e) ? INFINITY : e;
      if (worst)
        *worst = i;
    }
  }
  return m;
}

void checkClose(const std::string &what, const float *out, const float *ref,
                uint64_t n, double rtol, double atol) {
  uint64_t worst = 0;
  double m = mismatch(out, ref, n, rtol, atol, &worst);
  if (m > 1) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%s: wrong result: element %llu is %.7g, expected %.7g "
                  "(rtol %g, atol %g)",
                  what.c_str(), (unsigned long long)worst, double(out[worst]),
                  double(ref[worst]), rtol, atol);
    die(buf);
  }
}

//===----------------------------------------------------------------------===//
// fuel-compile and the runtime
//===----------------------------------------------------------------------===//

std::string fuelCompilePath() {
  const char *env = std::getenv("FUEL_COMPILE");
  return env && *env ? env : FUEL_BENCH_FUEL_COMPILE;
}

namespace {
struct WorkDir {
  std::string path;
  ~WorkDir() {
    if (!path.empty() && !std::getenv("FUEL_BENCH_KEEP"))
      std::system(("rm -rf " + shellQuote(path)).c_str());
  }
};
} // namespace

const std::string &workDirectory() {
  static WorkDir dir;
  if (dir.path.empty()) {
    const char *tmp = std::getenv("TMPDIR");
    std::string templ =
        std::string(tmp && *tmp ? tmp : "/tmp") + "/fuel-bench-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back(0);
    if (!mkdtemp(buf.data()))
      die("cannot create a work directory from " + templ);
    dir.path = buf.data();
  }
  return dir.path;
}

std::string compileProgram(const std::string &name, const std::string &mlir,
                           const std::vector<std::string> &args) {
  if (access(fuelCompilePath().c_str(), X_OK) != 0)
    die("no fuel-compile at " + fuelCompilePath() +
        ": build it (ninja -C build fuel-compile) or set FUEL_COMPILE");
  std::string base = workDirectory() + "/" + name;
  {
    std::ofstream out(base + ".mlir");
    out << mlir;
    if (!out)
      die("cannot write " + base + ".mlir");
  }
  std::string cmd = shellQuote(fuelCompilePath()) + " " +
                    shellQuote(base + ".mlir") + " -o " +
                    shellQuote(base + ".fuelx");
  for (const std::string &a : args)
    cmd += " " + shellQuote(a);
  cmd += " > " + shellQuote(base + ".log") + " 2>&1";
  int rc = std::system(cmd.c_str());
  if (rc != 0)
    die("fuel-compile failed for " + name + " (" + cmd + "):\n" +
        readFile(base + ".log"));
  return base + ".fuelx";
}

std::string defaultShimDirectory() { return FUEL_BENCH_SHIM_DIR; }

std::shared_ptr<rt::Runtime> makeRuntime(unsigned threads,
                                         const std::string &shimDirectory) {
  rt::RuntimeOptions o;
  o.threads = threads;
  o.shimDirectory =
      shimDirectory.empty() ? defaultShimDirectory() : shimDirectory;
  auto r = rt::Runtime::create(o);
  if (!r)
    die(r.status().toString());
  return std::shared_ptr<rt::Runtime>(std::move(*r));
}

KernelSession::KernelSession(std::shared_ptr<rt::Runtime> runtime,
                             const std::string &path)
    : runtime_(std::move(runtime)) {
  auto exe = runtime_->loadExecutableFile(path);
  if (!exe)
    die(path + ": " + exe.status().toString());
  auto session = rt::Session::create(*exe);
  if (!session)
    die(path + ": " + session.status().toString());
  session_ = std::move(*session);
}

KernelSession::~KernelSession() = default;
KernelSession::KernelSession(KernelSession &&) noexcept = default;
KernelSession &KernelSession::operator=(KernelSession &&) noexcept = default;

void KernelSession::bindInput(size_t index, const std::vector<int64_t> &shape,
                              const Floats &data) {
  if (rt::Status st = session_->bindInput(index, rt::ElementType::F32, shape,
                                          data.data(), data.bytes());
      !st)
    die(st.toString());
}

void KernelSession::run() {
  if (rt::Status st = session_->run(); !st)
    die(st.toString());
}

void KernelSession::readOutput(size_t index, Floats &out) const {
  if (rt::Status st = session_->readOutput(index, out.data(), out.bytes()); !st)
    die(st.toString());
}

uint64_t KernelSession::commandNs() const {
  uint64_t ns = 0;
  for (const rt::CommandTime &t : session_->commandTimes())
    ns += t.durationNs();
  return ns;
}

//===----------------------------------------------------------------------===//
// Interleaved timing
//===----------------------------------------------------------------------===//

std::vector<double> Timings::samples(size_t c) const {
  std::vector<double> all;
  for (const std::vector<double> &r : rounds[c])
    all.insert(all.end(), r.begin(), r.end());
  return all;
}

Stats Timings::stats(size_t c) const { return statsOf(samples(c)); }

double Timings::pairedRatio(size_t c, size_t base) const {
  std::vector<double> ratios;
  for (size_t r = 0; r < rounds[c].size() && r < rounds[base].size(); ++r) {
    double b = statsOf(rounds[base][r]).median;
    if (b > 0)
      ratios.push_back(statsOf(rounds[c][r]).median / b);
  }
  return statsOf(ratios).median;
}

Timings timeInterleaved(const std::vector<Contender> &contenders,
                        const RoundOptions &options) {
  Timings t;
  t.rounds.assign(contenders.size(), {});
  for (const Contender &c : contenders)
    for (unsigned i = 0; i < options.warmupCalls; ++i)
      c.call();
  const std::string *lastPool = nullptr;
  for (unsigned r = 0; r < options.rounds; ++r) {
    for (size_t i = 0; i < contenders.size(); ++i) {
      const Contender &c = contenders[i];
      if (lastPool && *lastPool != c.pool)
        sleepMs(options.coolDownMs);
      lastPool = &c.pool;
      std::vector<double> &calls = t.rounds[i].emplace_back();
      uint64_t start = nowNs();
      for (unsigned n = 0; n < options.maxCalls; ++n) {
        uint64_t t0 = nowNs();
        c.call();
        uint64_t t1 = nowNs();
        calls.push_back(double(t1 - t0) / 1e6);
        if (n + 1 >= options.minCalls &&
            double(t1 - start) / 1e6 >= options.burstMs)
          break;
      }
    }
  }
  return t;
}

std::vector<std::vector<double>>
runInterleaved(const std::vector<Contender> &contenders,
               const RoundOptions &options) {
  Timings t = timeInterleaved(contenders, options);
  std::vector<std::vector<double>> out;
  for (size_t c = 0; c < contenders.size(); ++c)
    out.push_back(t.samples(c));
  return out;
}

//===----------------------------------------------------------------------===//
// Vendor libraries
//===----------------------------------------------------------------------===//

void BlasLibrary::sgemm(int m, int n, int k, const float *a, const float *b,
                        float *c) const {
  if (bliSgemm) {
    static const float one = 1.0f, zero = 0.0f;
    bliSgemm(0, 0, m, n, k, &one, a, k, 1, b, n, 1, &zero, c, n, 1);
    return;
  }
  cblasSgemm(101, 111, 111, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}

namespace {
std::unique_ptr<BlasLibrary> openBlas(const std::string &name,
                                      const char *envVar,
                                      const std::string &serialPath,
                                      const std::string &threadedPath,
                                      bool threaded, bool optional) {
  std::string path = threaded ? threadedPath : serialPath;
  if (!threaded) {
    const char *env = std::getenv(envVar);
    if (env && *env)
      path = env;
  }
  void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    if (optional)
      return nullptr;
    die("cannot open " + name + ": " + dlerror());
  }
  auto lib = std::make_unique<BlasLibrary>();
  lib->name = name;
  lib->path = path;
  lib->threaded = threaded;
  lib->cblasSgemm = reinterpret_cast<CblasSgemmFn>(dlsym(h, "cblas_sgemm"));
  if (!lib->cblasSgemm)
    die(path + " has no cblas_sgemm");
  if (name == "blis") {
    lib->bliSgemm = reinterpret_cast<BliSgemmFn>(dlsym(h, "bli_sgemm"));
    if (!lib->bliSgemm)
      die(path + " has no bli_sgemm");
    using SetFn = void (*)(int64_t);
    auto set = reinterpret_cast<SetFn>(dlsym(h, "bli_thread_set_num_threads"));
    lib->setThreads = [set](int n) {
      if (set)
        set(n);
    };
  } else {
    using SetFn = void (*)(int);
    auto set = reinterpret_cast<SetFn>(dlsym(h, "openblas_set_num_threads"));
    lib->setThreads = [set](int n) {
      if (set)
        set(n);
    };
  }
  return lib;
}
} // namespace

std::unique_ptr<BlasLibrary> openOpenBlas(bool threaded, bool optional) {
  std::string m = kMultiarch;
  return openBlas("openblas", "FUEL_OPENBLAS_LIBRARY",
                  m + "/openblas-serial/libopenblas.so.0",
                  m + "/openblas-pthread/libopenblas.so.0", threaded, optional);
}

std::unique_ptr<BlasLibrary> openBlis(bool threaded, bool optional) {
  std::string m = kMultiarch;
  return openBlas("blis", "FUEL_BLIS_LIBRARY", m + "/blis-serial/libblis.so.4",
                  m + "/blis-pthread/libblis.so.4", threaded, optional);
}

void referenceSgemm(int m, int n, int k, const float *a, const float *b,
                    float *c) {
  std::vector<double> row(n);
  for (int i = 0; i < m; ++i) {
    std::fill(row.begin(), row.end(), 0.0);
    for (int p = 0; p < k; ++p) {
      double av = a[int64_t(i) * k + p];
      const float *brow = b + int64_t(p) * n;
      for (int j = 0; j < n; ++j)
        row[j] += av * brow[j];
    }
    for (int j = 0; j < n; ++j)
      c[int64_t(i) * n + j] = float(row[j]);
  }
}

} // namespace fuel::bench
