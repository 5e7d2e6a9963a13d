//===- ShimTest.cpp - The OpenBLAS and BLIS shims through the runtime -----===//
//
// Every case writes an executable with the writer API, loads it with a
// Runtime whose shim directory is where the build puts the shims, and runs
// it in a session: a copy fills the output C with NaN, then the library
// kernel dispatch writes its part. Results are compared with a naive
// triple loop in double precision, written here independently of the
// shims; every element outside the product (leading-dimension padding, rows
// past M, other batch entries' gaps) must still be NaN, and so must all of C
// when the parameters are malformed. Both libraries run every case.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/ExecutableWriter.h"
#include "fuel/Runtime/Runtime.h"

#include "SgemmShim.h"
#include "TestSupport.h"

#include "fuel-c/ShimABI.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <limits>
#include <string>
#include <vector>

using namespace fuel::rt;

namespace {

/// A shim under test: its library name, file and override variable.
struct Lib {
  const char *name;
  const char *file;
  const char *env;
};
const Lib kOpenBlas{"openblas", FUEL_OPENBLAS_SHIM_FILE,
                    "FUEL_OPENBLAS_LIBRARY"};
const Lib kBlis{"blis", FUEL_BLIS_SHIM_FILE, "FUEL_BLIS_LIBRARY"};

/// One product: C (m x n, ldc) = op(A) (m x k) * op(B) (k x n), per batch
/// entry, with the element strides of the batched entry.
struct Gemm {
  uint32_t m, n, k;
  uint32_t lda, ldb, ldc;
  uint32_t ta = 0, tb = 0;
  uint32_t rows = 1;  ///< Rows per workgroup (sgemm).
  uint32_t batch = 0; ///< 0: the sgemm entry; else the batched one.
  uint64_t sa = 0, sb = 0, sc = 0;
  uint32_t gridX = 0; ///< Non-zero: the grid's x, instead of what M needs.

  bool batched() const { return batch != 0; }
  uint32_t entries() const { return batched() ? batch : 1; }
  uint64_t rowsA() const { return ta ? k : m; }
  uint64_t rowsB() const { return tb ? n : k; }
  /// Elements of each buffer, plus `pad` past the last entry's last row.
  uint64_t elements(uint64_t stride, uint64_t rowsPer, uint64_t ld,
                    uint64_t pad) const {
    return (entries() - 1) * stride + rowsPer * ld + pad;
  }
  uint64_t aElems() const { return elements(sa, rowsA(), lda, 3); }
  uint64_t bElems() const { return elements(sb, rowsB(), ldb, 3); }
  /// Two spare rows past the end, where no workgroup may write.
  uint64_t cElems() const { return elements(sc, m, ldc, 2 * ldc + 1); }

  std::vector<int64_t> params() const {
    if (batched())
      return {batch, m,           n,           k,           lda, ldb,
              ldc,   int64_t(sa), int64_t(sb), int64_t(sc), ta,  tb};
    return {m, n, k, lda, ldb, ldc, ta, tb, rows};
  }
  std::array<uint32_t, 3> grid() const {
    if (gridX)
      return {gridX, 1, 1};
    if (batched())
      return {batch, 1, 1};
    return {rows ? (m + rows - 1) / rows : 1, 1, 1};
  }
};

/// Deterministic values in [-1, 1).
std::vector<float> randomFloats(uint64_t n, uint64_t seed) {
  std::vector<float> v(n);
  uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (float &x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = float(double(s >> 40) / double(1ull << 24) * 2.0 - 1.0);
  }
  return v;
}

/// The naive product in double: ref[e][i][j] and the sum of |terms| that
/// scales its tolerance.
struct Reference {
  std::vector<double> value, magnitude;
};
Reference naive(const Gemm &g, const std::vector<float> &a,
                const std::vector<float> &b) {
  Reference r;
  r.value.assign(uint64_t(g.entries()) * g.m * g.n, 0.0);
  r.magnitude = r.value;
  for (uint64_t e = 0; e < g.entries(); ++e)
    for (uint64_t i = 0; i < g.m; ++i)
      for (uint64_t j = 0; j < g.n; ++j) {
        double sum = 0, mag = 0;
        for (uint64_t p = 0; p < g.k; ++p) {
          double x =
              g.ta ? a[e * g.sa + p * g.lda + i] : a[e * g.sa + i * g.lda + p];
          double y =
              g.tb ? b[e * g.sb + j * g.ldb + p] : b[e * g.sb + p * g.ldb + j];
          sum += x * y;
          mag += std::fabs(x * y);
        }
        r.value[(e * g.m + i) * g.n + j] = sum;
        r.magnitude[(e * g.m + i) * g.n + j] = mag;
      }
  return r;
}

CommandReport report(const char *kernelId, const char *source) {
  CommandReport r;
  r.nodeId = 1;
  r.opKind = "matmul";
  r.kernelId = kernelId;
  r.source = source;
  r.predictedNs = 1000;
  return r;
}

/// Inputs a, b and c0 (all NaN); one output c per library in `libs`, each
/// filled from c0 by a copy and then written by that library's dispatch.
std::vector<uint8_t> buildProgram(const Gemm &g,
                                  const std::vector<const Lib *> &libs) {
  ExecutableWriter w;
  w.setFuelVersion("fuel test");
  w.setFunction("sgemm");
  uint32_t cpu = w.addDevice(::fuel::Device::cpu(), 64);
  uint64_t aBytes = g.aElems() * 4, bBytes = g.bElems() * 4,
           cBytes = g.cElems() * 4;
  const Program &p = w.program();
  uint32_t a =
      p.inputs[w.addInput("a", ElementType::F32, {int64_t(g.aElems())}, cpu)]
          .buffer;
  uint32_t b =
      p.inputs[w.addInput("b", ElementType::F32, {int64_t(g.bElems())}, cpu)]
          .buffer;
  uint32_t c0 =
      p.inputs[w.addInput("c0", ElementType::F32, {int64_t(g.cElems())}, cpu)]
          .buffer;
  for (size_t l = 0; l < libs.size(); ++l) {
    const Lib &lib = *libs[l];
    std::string op = g.batched() ? "batch_matmul" : "matmul";
    std::string id = std::string("cpu.") + lib.name + "." + op + "_f32";
    LibraryKernel lk;
    lk.device = cpu;
    lk.kernelId = id;
    lk.shim = lib.file;
    lk.entry = std::string("fuel_shim_") + lib.name + "_sgemm" +
               (g.batched() ? "_batched" : "");
    lk.params = g.params();
    uint32_t kernel = w.addLibraryKernel(lk);
    uint32_t c =
        p.outputs[w.addOutput("c" + std::to_string(l), ElementType::F32,
                              {int64_t(g.cElems())}, cpu)]
            .buffer;
    Copy cp;
    cp.src = c0;
    cp.dst = c;
    cp.bytes = cBytes;
    uint32_t fill = w.addCopy(cp, {}, report("", "copy"));
    Dispatch d;
    d.source = KernelSource::Library;
    d.kernel = kernel;
    d.grid = g.grid();
    d.bindings = {{a, 0, aBytes}, {b, 0, bBytes}, {c, 0, cBytes}};
    w.addDispatch(d, {fill}, report(id.c_str(), lib.name));
  }
  StatusOr<std::vector<uint8_t>> bytes = w.finish();
  EXPECT_TRUE(bytes) << bytes.status().toString();
  return bytes ? *bytes : std::vector<uint8_t>();
}

std::unique_ptr<Runtime> shimRuntime(unsigned threads = 4) {
  RuntimeOptions o;
  o.threads = threads;
  o.shimDirectory = FUEL_SHIM_DIR;
  StatusOr<std::unique_ptr<Runtime>> r = Runtime::create(o);
  EXPECT_TRUE(r) << r.status().toString();
  return r ? std::move(*r) : nullptr;
}

/// Runs `g` through every library of `libs` in one executable; returns C
/// per library (empty on failure, with a test failure recorded).
std::vector<std::vector<float>> run(const Gemm &g,
                                    const std::vector<const Lib *> &libs,
                                    const std::vector<float> &a,
                                    const std::vector<float> &b,
                                    unsigned threads = 4) {
  std::vector<std::vector<float>> out;
  std::unique_ptr<Runtime> rt = shimRuntime(threads);
  if (!rt)
    return out;
  std::vector<uint8_t> bytes = buildProgram(g, libs);
  auto exe = rt->loadExecutableBytes(bytes.data(), bytes.size());
  EXPECT_TRUE(exe) << exe.status().toString();
  if (!exe)
    return out;
  auto s = Session::create(*exe);
  EXPECT_TRUE(s) << s.status().toString();
  if (!s)
    return out;
  std::vector<float> c0(g.cElems(), std::numeric_limits<float>::quiet_NaN());
  const std::vector<float> *in[3] = {&a, &b, &c0};
  for (size_t i = 0; i < 3; ++i) {
    Status st = (*s)->bindInput(i, ElementType::F32, {int64_t(in[i]->size())},
                                in[i]->data(), in[i]->size() * 4);
    EXPECT_TRUE(st) << st.toString();
    if (!st)
      return out;
  }
  Status st = (*s)->run();
  EXPECT_TRUE(st) << st.toString();
  if (!st)
    return out;
  for (size_t l = 0; l < libs.size(); ++l) {
    std::vector<float> c(g.cElems());
    Status r = (*s)->readOutput(l, c.data(), c.size() * 4);
    EXPECT_TRUE(r) << r.toString();
    out.push_back(std::move(c));
  }
  return out;
}

/// Checks C against the reference inside the product and NaN outside;
/// `expectWritten` false: all of C must still be NaN.
void check(const Gemm &g, const std::vector<float> &a,
           const std::vector<float> &b, const std::vector<float> &c,
           const char *lib, bool expectWritten = true) {
  ASSERT_EQ(c.size(), g.cElems());
  std::vector<char> inside(c.size(), 0);
  Reference ref = naive(g, a, b);
  size_t bad = 0;
  for (uint64_t e = 0; e < g.entries() && expectWritten; ++e)
    for (uint64_t i = 0; i < g.m; ++i)
      for (uint64_t j = 0; j < g.n; ++j) {
        uint64_t at = e * g.sc + i * g.ldc + j;
        inside[at] = 1;
        uint64_t r = (e * g.m + i) * g.n + j;
        // A sum of k rounded terms: relative 1e-5 of the terms' magnitude.
        double tol = 1e-5 * std::max(ref.magnitude[r], 1e-6);
        if (!(std::fabs(double(c[at]) - ref.value[r]) <= tol) && bad++ < 5)
          ADD_FAILURE() << lib << ": C[" << e << "][" << i << "][" << j
                        << "] = " << c[at] << ", reference " << ref.value[r]
                        << " (tolerance " << tol << ")";
      }
  for (uint64_t at = 0; at < c.size(); ++at)
    if (!inside[at] && !std::isnan(c[at]) && bad++ < 5)
      ADD_FAILURE() << lib << ": element " << at
                    << " outside the product was written: " << c[at];
  EXPECT_EQ(bad, 0u) << lib << ": wrong elements";
}

/// Runs `g` through each library in its own executable and checks it.
void runAndCheck(const Gemm &g, bool expectWritten = true,
                 unsigned threads = 4) {
  std::vector<float> a = randomFloats(g.aElems(), 1 + g.m);
  std::vector<float> b = randomFloats(g.bElems(), 2 + g.n);
  for (const Lib *lib : {&kOpenBlas, &kBlis}) {
    SCOPED_TRACE(lib->name);
    std::vector<std::vector<float>> c = run(g, {lib}, a, b, threads);
    ASSERT_EQ(c.size(), 1u);
    check(g, a, b, c[0], lib->name, expectWritten);
  }
}

Gemm plain(uint32_t m, uint32_t n, uint32_t k, uint32_t ta, uint32_t tb,
           uint32_t rows) {
  Gemm g{m, n, k, ta ? m : k, tb ? k : n, n};
  g.ta = ta;
  g.tb = tb;
  g.rows = rows;
  return g;
}

TEST(ShimTest, SquareInOneWorkgroup) { runAndCheck(plain(8, 8, 8, 0, 0, 8)); }

// 37 x 53 x 29 in blocks of 5 rows: the last block has 2.
TEST(ShimTest, PrimeSizesAndAPartialLastBlock) {
  runAndCheck(plain(37, 53, 29, 0, 0, 5));
}

TEST(ShimTest, TransposedA) { runAndCheck(plain(37, 53, 29, 1, 0, 5)); }
TEST(ShimTest, TransposedB) { runAndCheck(plain(37, 53, 29, 0, 1, 7)); }
TEST(ShimTest, BothTransposed) { runAndCheck(plain(37, 53, 29, 1, 1, 3)); }

// Leading dimensions above the row length: the padding is never read into
// the product and never written.
TEST(ShimTest, LeadingDimensionsLongerThanRows) {
  for (uint32_t ta : {0u, 1u})
    for (uint32_t tb : {0u, 1u}) {
      SCOPED_TRACE("ta " + std::to_string(ta) + " tb " + std::to_string(tb));
      Gemm g = plain(23, 31, 17, ta, tb, 4);
      g.lda += 5;
      g.ldb += 3;
      g.ldc += 7;
      runAndCheck(g);
    }
}

// Degenerate shapes where row and column strides meet (BLIS checks them).
TEST(ShimTest, VectorShapes) {
  for (auto [m, n, k] : {std::array<uint32_t, 3>{1, 1, 7},
                         {1, 13, 1},
                         {9, 1, 5},
                         {1, 1, 1},
                         {6, 11, 1}})
    for (uint32_t ta : {0u, 1u})
      for (uint32_t tb : {0u, 1u}) {
        SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" +
                     std::to_string(k) + " ta " + std::to_string(ta) + " tb " +
                     std::to_string(tb));
        runAndCheck(plain(m, n, k, ta, tb, 2));
      }
}

// Many workgroups of one row each over four threads: concurrent calls into
// the serial library.
TEST(ShimTest, ManyConcurrentWorkgroups) {
  runAndCheck(plain(96, 200, 300, 0, 0, 1));
  runAndCheck(plain(96, 200, 300, 1, 1, 4), true, 2);
}

// The kernel ABI's rule: outputs are bit-identical for every pool size (the
// row blocks are fixed by the parameters, not by the threads).
TEST(ShimTest, BitIdenticalForEveryThreadCount) {
  Gemm g = plain(61, 70, 90, 0, 1, 7);
  std::vector<float> a = randomFloats(g.aElems(), 7);
  std::vector<float> b = randomFloats(g.bElems(), 8);
  for (const Lib *lib : {&kOpenBlas, &kBlis}) {
    SCOPED_TRACE(lib->name);
    std::vector<std::vector<float>> one = run(g, {lib}, a, b, 1);
    ASSERT_EQ(one.size(), 1u);
    check(g, a, b, one[0], lib->name);
    for (unsigned threads : {2u, 3u, 4u}) {
      std::vector<std::vector<float>> many = run(g, {lib}, a, b, threads);
      ASSERT_EQ(many.size(), 1u);
      EXPECT_EQ(std::memcmp(one[0].data(), many[0].data(),
                            one[0].size() * sizeof(float)),
                0)
          << threads << " threads";
    }
  }
}

// K = 0: beta is 0, so C is zero (and its NaN is gone).
TEST(ShimTest, EmptyReductionWritesZeros) {
  Gemm g = plain(5, 6, 0, 0, 0, 2);
  g.lda = 1;
  g.ldb = 6;
  runAndCheck(g);
}

// Workgroups past the last row block compute nothing: C's two spare rows
// stay NaN when the grid is twice what M needs.
TEST(ShimTest, WorkgroupsPastTheLastBlockWriteNothing) {
  Gemm g = plain(10, 12, 8, 0, 0, 4);
  g.gridX = 6;
  runAndCheck(g);
}

// Malformed parameters: the entry cannot fail, so it writes nothing.
TEST(ShimTest, MalformedParametersWriteNothing) {
  Gemm shortLda = plain(7, 9, 11, 0, 0, 3);
  shortLda.lda = 10; // < K
  Gemm shortLdaT = plain(7, 9, 11, 1, 0, 3);
  shortLdaT.lda = 6; // < M, transposed
  Gemm shortLdb = plain(7, 9, 11, 0, 0, 3);
  shortLdb.ldb = 8; // < N
  Gemm shortLdc = plain(7, 9, 11, 0, 0, 3);
  shortLdc.ldc = 8; // < N
  Gemm zeroRows = plain(7, 9, 11, 0, 0, 0);
  Gemm badFlag = plain(7, 9, 11, 0, 0, 3);
  badFlag.ta = 2;
  badFlag.lda = 11;
  for (const Gemm *g :
       {&shortLda, &shortLdaT, &shortLdb, &shortLdc, &zeroRows, &badFlag})
    runAndCheck(*g, /*expectWritten=*/false);
  // Batch entries of C that overlap would race: refused.
  Gemm overlap = plain(4, 5, 3, 0, 0, 1);
  overlap.batch = 2;
  overlap.sa = 12;
  overlap.sb = 15;
  overlap.sc = 19; // < (4 - 1) * 5 + 5
  runAndCheck(overlap, false);
}

// Batched: one entry per workgroup, with padded strides, transposes and a
// broadcast B (stride 0).
TEST(ShimTest, Batched) {
  for (uint32_t ta : {0u, 1u})
    for (uint32_t tb : {0u, 1u}) {
      SCOPED_TRACE("ta " + std::to_string(ta) + " tb " + std::to_string(tb));
      Gemm g = plain(17, 19, 23, ta, tb, 1);
      g.lda += 2;
      g.ldc += 1;
      g.batch = 3;
      g.sa = g.rowsA() * g.lda + 4;
      g.sb = g.rowsB() * g.ldb;
      g.sc = uint64_t(g.m) * g.ldc + 5;
      runAndCheck(g);
    }
  Gemm shared = plain(8, 9, 10, 0, 0, 1);
  shared.batch = 5;
  shared.sa = 8 * 10;
  shared.sb = 0;
  shared.sc = 8 * 9;
  runAndCheck(shared);
}

// OpenBLAS and BLIS both export cblas_sgemm; loaded RTLD_LOCAL by their
// shims, both run in one executable and agree.
TEST(ShimTest, BothLibrariesInOneExecutable) {
  Gemm g = plain(33, 41, 27, 0, 1, 8);
  std::vector<float> a = randomFloats(g.aElems(), 5);
  std::vector<float> b = randomFloats(g.bElems(), 6);
  std::vector<std::vector<float>> c = run(g, {&kOpenBlas, &kBlis}, a, b);
  ASSERT_EQ(c.size(), 2u);
  check(g, a, b, c[0], "openblas");
  check(g, a, b, c[1], "blis");
}

/// Loads a one-dispatch executable of `lib`; returns the load's status.
Status loadOnce(const Lib &lib) {
  std::unique_ptr<Runtime> rt = shimRuntime(1);
  if (!rt)
    return Status::error(StatusCode::Internal, "no runtime");
  std::vector<uint8_t> bytes = buildProgram(plain(2, 2, 2, 0, 0, 2), {&lib});
  auto exe = rt->loadExecutableBytes(bytes.data(), bytes.size());
  return exe ? Status::ok() : exe.status();
}

// A library init cannot open is reported through the runtime, naming the
// override and the path; without the override the shim loads again.
TEST(ShimTest, AMissingLibraryIsReportedByInit) {
  for (const Lib *lib : {&kOpenBlas, &kBlis}) {
    SCOPED_TRACE(lib->name);
    ASSERT_EQ(setenv(lib->env, "/nonexistent", 1), 0);
    Status st = loadOnce(*lib);
    unsetenv(lib->env);
    ASSERT_FALSE(st);
    EXPECT_EQ(st.code(), StatusCode::Unavailable) << st.toString();
    const std::string &m = st.message();
    EXPECT_NE(m.find(lib->file), std::string::npos) << m;
    EXPECT_NE(m.find("init failed"), std::string::npos) << m;
    EXPECT_NE(m.find(std::string(lib->env) + "=/nonexistent"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("No such file"), std::string::npos) << m;
    Status again = loadOnce(*lib);
    EXPECT_TRUE(again) << again.toString();
  }
}

// A library that opens but lacks the entry point is named with the symbol.
TEST(ShimTest, ALibraryWithoutTheEntryPointIsRefused) {
  struct Case {
    const Lib *lib;
    const char *symbol;
  };
  for (Case c : {Case{&kOpenBlas, "cblas_sgemm"},
                 Case{&kBlis, "bli_info_get_int_type_size_str"}}) {
    SCOPED_TRACE(c.lib->name);
    ASSERT_EQ(setenv(c.lib->env, "libm.so.6", 1), 0);
    Status st = loadOnce(*c.lib);
    unsetenv(c.lib->env);
    ASSERT_FALSE(st);
    EXPECT_NE(st.message().find(std::string("libm.so.6 has no ") + c.symbol),
              std::string::npos)
        << st.message();
  }
}

// The lookup without an override tries every candidate in order, names
// each with its reason, and points at the variable; the first that opens
// wins.
TEST(ShimTest, LibraryLookupTriesEveryCandidate) {
  const char *env = "FUEL_SHIM_TEST_UNSET_LIBRARY";
  unsetenv(env);
  const char *missing[] = {"/nonexistent/libfoo.so.1", "libfuel-absent.so.9"};
  char error[512] = {0};
  const char *opened = nullptr;
  EXPECT_EQ(fuel_shim_open_library("Foo", env, missing, 2, &opened, error,
                                   sizeof error),
            nullptr);
  std::string m = error;
  EXPECT_EQ(m.rfind("cannot open Foo; tried /nonexistent/libfoo.so.1 (", 0), 0u)
      << m;
  EXPECT_NE(m.find("), libfuel-absent.so.9 ("), std::string::npos) << m;
  EXPECT_NE(m.find("; set FUEL_SHIM_TEST_UNSET_LIBRARY to its path"),
            std::string::npos)
      << m;
  // The path is said once, not again in the loader's reason.
  EXPECT_EQ(m.find("/nonexistent/libfoo.so.1: "), std::string::npos) << m;
  const char *some[] = {"/nonexistent/libfoo.so.1", "libm.so.6"};
  void *h =
      fuel_shim_open_library("Foo", env, some, 2, &opened, error, sizeof error);
  ASSERT_NE(h, nullptr);
  EXPECT_STREQ(opened, "libm.so.6");
  dlclose(h);
  // A tiny buffer truncates, terminated.
  char tiny[8];
  EXPECT_EQ(fuel_shim_open_library("Foo", env, missing, 2, &opened, tiny,
                                   sizeof tiny),
            nullptr);
  EXPECT_STREQ(tiny, "cannot ");
}

// The shape check behind "malformed parameters write nothing".
TEST(ShimTest, ShapeCheck) {
  // m n k lda ldb ldc ta tb
  EXPECT_TRUE(fuel_sgemm_shape_ok(4, 5, 6, 6, 5, 5, 0, 0));
  EXPECT_TRUE(fuel_sgemm_shape_ok(4, 5, 6, 4, 6, 5, 1, 1));
  EXPECT_TRUE(fuel_sgemm_shape_ok(0, 0, 0, 1, 1, 1, 0, 0));
  EXPECT_FALSE(fuel_sgemm_shape_ok(4, 5, 6, 5, 5, 5, 0, 0)); // lda < k
  EXPECT_FALSE(fuel_sgemm_shape_ok(4, 5, 6, 3, 5, 5, 1, 0)); // lda < m
  EXPECT_FALSE(fuel_sgemm_shape_ok(4, 5, 6, 6, 4, 5, 0, 0)); // ldb < n
  EXPECT_FALSE(fuel_sgemm_shape_ok(4, 5, 6, 6, 5, 5, 0, 1)); // ldb < k
  EXPECT_FALSE(fuel_sgemm_shape_ok(4, 5, 6, 6, 5, 4, 0, 0)); // ldc < n
  EXPECT_FALSE(fuel_sgemm_shape_ok(4, 5, 0, 0, 5, 5, 0, 0)); // lda < 1
  EXPECT_FALSE(fuel_sgemm_shape_ok(4, 5, 6, 6, 5, 5, 0, 2)); // flag
  EXPECT_FALSE(fuel_sgemm_shape_ok(0x80000000u, 1, 1, 1, 1, 1, 0, 0));
}

// What each shim declares, that it does not link its library, and that the
// build puts it beside libfuelrt.so, where the runtime looks by default.
TEST(ShimTest, InfoEntriesAndLinkage) {
  EXPECT_EQ(std::string(FUEL_SHIM_DIR), std::string(FUEL_LIBFUELRT_DIR));
  for (const Lib *lib : {&kOpenBlas, &kBlis}) {
    SCOPED_TRACE(lib->name);
    std::string path = std::string(FUEL_SHIM_DIR) + "/" + lib->file;
    std::string error;
    std::vector<std::string> needed =
        test::elfNeeded(test::readFileBytes(path), error);
    ASSERT_TRUE(error.empty()) << error;
    for (const std::string &n : needed) {
      EXPECT_EQ(n.find("blas"), std::string::npos) << n;
      EXPECT_EQ(n.find("blis"), std::string::npos) << n;
    }
    void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(h, nullptr) << dlerror();
    auto infoFn =
        reinterpret_cast<fuel_shim_info_fn>(dlsym(h, FUEL_SHIM_INFO_SYMBOL));
    ASSERT_NE(infoFn, nullptr);
    const fuel_shim_info_t *info = infoFn();
    EXPECT_EQ(info->abi_version, FUEL_SHIM_ABI_VERSION);
    EXPECT_EQ(info->kernel_abi_version, FUEL_KERNEL_ABI_VERSION);
    EXPECT_EQ(std::string(info->library), std::string(lib->name) + "-serial");
    ASSERT_EQ(info->num_entries, 2u);
    std::string base = std::string("fuel_shim_") + lib->name + "_sgemm";
    EXPECT_EQ(info->entries[0].name, base);
    EXPECT_EQ(info->entries[0].num_bindings, 3u);
    EXPECT_EQ(info->entries[0].num_int_params, 9u);
    EXPECT_EQ(info->entries[1].name, base + "_batched");
    EXPECT_EQ(info->entries[1].num_bindings, 3u);
    EXPECT_EQ(info->entries[1].num_int_params, 12u);
    dlclose(h);
  }
}

} // namespace
