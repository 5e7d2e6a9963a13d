//===- CApiTest.cpp - Tests of the C API of libfuelrt ---------------------===//
//
// The C API end to end (load, query, bind, run, async run, read, timings)
// and every misuse it must answer with a status and a message: null
// handles and out-pointers, wrong counts, shapes and dtypes, running before
// binding, reading before running.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/Runtime.h"
#include "fuel-c/RuntimeCxx.h"

#include "TestPrograms.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

/// The message of `status` (freed), "" when ok.
std::string take(fuelStatus status) {
  std::string m = fuelStatusMessage(status);
  fuelStatusFree(status);
  return m;
}

#define EXPECT_C_OK(expr)                                                      \
  do {                                                                         \
    fuelStatus s_ = (expr);                                                    \
    EXPECT_TRUE(fuelStatusIsOk(s_)) << take(s_);                               \
  } while (0)

/// Expects `expr` to fail with `code` and a message containing `text`.
#define EXPECT_C_ERROR(expr, code, text)                                       \
  do {                                                                         \
    fuelStatus s_ = (expr);                                                    \
    EXPECT_FALSE(fuelStatusIsOk(s_));                                          \
    EXPECT_EQ(fuelStatusGetCode(s_), code);                                    \
    std::string m_ = take(s_);                                                 \
    EXPECT_NE(m_.find(text), std::string::npos) << m_;                         \
  } while (0)

struct CApi : ::testing::Test {
  void SetUp() override {
    fuelRuntimeOptions o = {};
    o.threads = 2;
    ASSERT_TRUE(fuelStatusIsOk(fuelRuntimeCreate(&o, &rt)));
    ExecutableWriter w;
    buildVectorAdd(w, 100, 32);
    bytes = finishBytes(w);
    ASSERT_FALSE(bytes.empty());
    fuelStatus s =
        fuelExecutableLoadBytes(rt, bytes.data(), bytes.size(), &exe);
    ASSERT_TRUE(fuelStatusIsOk(s)) << take(s);
  }
  void TearDown() override {
    fuelExecutableDestroy(exe);
    fuelRuntimeDestroy(rt);
  }
  fuelRuntime rt = nullptr;
  fuelExecutable exe = nullptr;
  std::vector<uint8_t> bytes;
};

TEST_F(CApi, EndToEnd) {
  uint32_t threads = 0;
  EXPECT_C_OK(fuelRuntimeThreadCount(rt, &threads));
  EXPECT_EQ(threads, 2u);
  const char *fn = nullptr;
  EXPECT_C_OK(fuelExecutableFunctionName(exe, &fn));
  EXPECT_STREQ(fn, "vadd");
  size_t nin = 0, nout = 0;
  EXPECT_C_OK(fuelExecutableInputCount(exe, &nin));
  EXPECT_C_OK(fuelExecutableOutputCount(exe, &nout));
  EXPECT_EQ(nin, 2u);
  EXPECT_EQ(nout, 1u);
  fuelTensorInfo info;
  EXPECT_C_OK(fuelExecutableInputInfo(exe, 1, &info));
  EXPECT_STREQ(info.name, "b");
  EXPECT_EQ(info.dtype, fuelDTypeF32);
  ASSERT_EQ(info.rank, 1u);
  EXPECT_EQ(info.shape[0], 100);
  EXPECT_EQ(info.byteSize, 400u);
  EXPECT_C_OK(fuelExecutableOutputInfo(exe, 0, &info));
  EXPECT_STREQ(info.name, "c");

  fuelSession s = nullptr;
  EXPECT_C_OK(fuelSessionCreate(exe, &s));
  ASSERT_NE(s, nullptr);
  alignas(64) float a[100], b[100], c[100];
  for (int i = 0; i < 100; ++i) {
    a[i] = float(i);
    b[i] = 0.5f * float(i);
  }
  int64_t shape[1] = {100};
  EXPECT_C_OK(fuelSessionBindInput(s, 0, fuelDTypeF32, shape, 1, a, 400));
  EXPECT_C_OK(fuelSessionBindInput(s, 1, fuelDTypeF32, shape, 1, b, 400));
  EXPECT_C_OK(fuelSessionRun(s));
  EXPECT_C_OK(fuelSessionReadOutput(s, 0, c, sizeof c));
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]);
  size_t ncmd = 0;
  EXPECT_C_OK(fuelSessionCommandCount(s, &ncmd));
  ASSERT_EQ(ncmd, 2u);
  uint64_t ns[2] = {~0ull, ~0ull};
  EXPECT_C_OK(fuelSessionCommandTimings(s, ns, 2));
  EXPECT_LT(ns[0], 10ull * 1000 * 1000 * 1000);
  EXPECT_LT(ns[1], 10ull * 1000 * 1000 * 1000);
  // Asynchronously.
  a[7] = 1000.0f;
  EXPECT_C_OK(fuelSessionRunAsync(s));
  EXPECT_C_OK(fuelSessionWait(s));
  EXPECT_C_OK(fuelSessionReadOutput(s, 0, c, sizeof c));
  EXPECT_EQ(c[7], 1000.0f + 3.5f);
  // Destroying the executable and runtime first is allowed.
  fuelExecutableDestroy(exe);
  exe = nullptr;
  fuelRuntimeDestroy(rt);
  rt = nullptr;
  EXPECT_C_OK(fuelSessionRun(s));
  fuelSessionDestroy(s);
}

TEST_F(CApi, SessionLanes) {
  ExecutableWriter w;
  buildTwoAdds(w, 256, 64);
  std::vector<uint8_t> adds = finishBytes(w);
  fuelExecutable e = nullptr;
  EXPECT_C_OK(fuelExecutableLoadBytes(rt, adds.data(), adds.size(), &e));
  ASSERT_NE(e, nullptr);
  alignas(64) float a[256], b[256], c[2][256], d[2][256];
  for (int i = 0; i < 256; ++i) {
    a[i] = 0.25f * float(i);
    b[i] = 3.0f - float(i);
  }
  int64_t shape[1] = {256};
  uint32_t expected[2][2] = {{0, 0}, {0, 1}};
  for (uint32_t lanes : {1u, 2u}) {
    fuelSessionOptions o = {};
    o.lanes = lanes;
    fuelSession s = nullptr;
    EXPECT_C_OK(fuelSessionCreateWithOptions(e, &o, &s));
    ASSERT_NE(s, nullptr);
    uint32_t got[2] = {9, 9};
    EXPECT_C_OK(fuelSessionCommandLanes(s, got, 2));
    EXPECT_EQ(got[0], expected[lanes - 1][0]);
    EXPECT_EQ(got[1], expected[lanes - 1][1]);
    EXPECT_C_ERROR(fuelSessionCommandLanes(s, got, 3),
                   fuelStatusInvalidArgument, "3 lanes asked");
    EXPECT_C_ERROR(fuelSessionCommandLanes(s, nullptr, 1),
                   fuelStatusInvalidArgument, "outLanes");
    EXPECT_C_OK(fuelSessionBindInput(s, 0, fuelDTypeF32, shape, 1, a, 1024));
    EXPECT_C_OK(fuelSessionBindInput(s, 1, fuelDTypeF32, shape, 1, b, 1024));
    EXPECT_C_OK(fuelSessionRun(s));
    EXPECT_C_OK(fuelSessionReadOutput(s, 0, c[lanes - 1], 1024));
    EXPECT_C_OK(fuelSessionReadOutput(s, 1, d[lanes - 1], 1024));
    fuelSessionDestroy(s);
  }
  EXPECT_EQ(std::memcmp(c[0], c[1], 1024), 0);
  EXPECT_EQ(std::memcmp(d[0], d[1], 1024), 0);
  EXPECT_EQ(c[1][5], a[5] + b[5]);
  // NULL options are the defaults; too many lanes are refused.
  fuelSession s = nullptr;
  EXPECT_C_OK(fuelSessionCreateWithOptions(e, nullptr, &s));
  uint32_t got[2] = {9, 9};
  EXPECT_C_OK(fuelSessionCommandLanes(s, got, 2));
  EXPECT_EQ(got[1], 1u);
  fuelSessionDestroy(s);
  fuelSessionOptions many = {};
  many.lanes = 17;
  EXPECT_C_ERROR(fuelSessionCreateWithOptions(e, &many, &s),
                 fuelStatusInvalidArgument, "at most 16");
  EXPECT_EQ(s, nullptr);
  EXPECT_C_ERROR(fuelSessionCommandLanes(nullptr, got, 1),
                 fuelStatusInvalidArgument, "session");
  fuelExecutableDestroy(e);
}

TEST_F(CApi, NullHandlesAndPointers) {
  EXPECT_C_ERROR(fuelRuntimeCreate(nullptr, nullptr), fuelStatusInvalidArgument,
                 "outRuntime is null");
  fuelExecutable e = exe;
  EXPECT_C_ERROR(fuelExecutableLoadFile(nullptr, "x.fuel", &e),
                 fuelStatusInvalidArgument, "runtime is null");
  EXPECT_EQ(e, nullptr);
  EXPECT_C_ERROR(fuelExecutableLoadFile(rt, nullptr, &e),
                 fuelStatusInvalidArgument, "path is null");
  EXPECT_C_ERROR(fuelExecutableLoadBytes(rt, nullptr, 10, &e),
                 fuelStatusInvalidArgument, "data is null");
  EXPECT_C_ERROR(
      fuelExecutableLoadBytes(rt, bytes.data(), bytes.size(), nullptr),
      fuelStatusInvalidArgument, "outExecutable is null");
  size_t n;
  EXPECT_C_ERROR(fuelExecutableInputCount(nullptr, &n),
                 fuelStatusInvalidArgument, "executable is null");
  EXPECT_C_ERROR(fuelExecutableInputCount(exe, nullptr),
                 fuelStatusInvalidArgument, "outCount is null");
  fuelTensorInfo info;
  EXPECT_C_ERROR(fuelExecutableOutputInfo(nullptr, 0, &info),
                 fuelStatusInvalidArgument, "executable is null");
  fuelSession s = nullptr;
  EXPECT_C_ERROR(fuelSessionCreate(nullptr, &s), fuelStatusInvalidArgument,
                 "executable is null");
  EXPECT_C_ERROR(fuelSessionCreate(exe, nullptr), fuelStatusInvalidArgument,
                 "outSession is null");
  EXPECT_C_ERROR(fuelSessionRun(nullptr), fuelStatusInvalidArgument,
                 "session is null");
  EXPECT_C_ERROR(fuelSessionRunAsync(nullptr), fuelStatusInvalidArgument,
                 "session is null");
  EXPECT_C_ERROR(fuelSessionWait(nullptr), fuelStatusInvalidArgument,
                 "session is null");
  float x[4];
  int64_t shape[1] = {100};
  EXPECT_C_ERROR(
      fuelSessionBindInput(nullptr, 0, fuelDTypeF32, shape, 1, x, 16),
      fuelStatusInvalidArgument, "session is null");
  EXPECT_C_ERROR(fuelSessionReadOutput(nullptr, 0, x, 16),
                 fuelStatusInvalidArgument, "session is null");
  EXPECT_C_ERROR(fuelSessionCommandTimings(nullptr, nullptr, 0),
                 fuelStatusInvalidArgument, "session is null");
  // Ok statuses and destroying null handles are harmless.
  EXPECT_TRUE(fuelStatusIsOk(nullptr));
  EXPECT_EQ(fuelStatusGetCode(nullptr), fuelStatusOk);
  EXPECT_STREQ(fuelStatusMessage(nullptr), "");
  fuelStatusFree(nullptr);
  fuelSessionDestroy(nullptr);
  fuelExecutableDestroy(nullptr);
  fuelRuntimeDestroy(nullptr);
}

TEST_F(CApi, WrongCountsShapesDTypesAndOrder) {
  fuelSession s = nullptr;
  EXPECT_C_OK(fuelSessionCreate(exe, &s));
  alignas(64) float a[100] = {};
  float c[100];
  int64_t shape[1] = {100}, wrong[2] = {10, 10};
  EXPECT_C_ERROR(fuelSessionRun(s), fuelStatusFailedPrecondition,
                 "input 0 (a) is not bound");
  EXPECT_C_ERROR(fuelSessionRunAsync(s), fuelStatusFailedPrecondition,
                 "is not bound");
  EXPECT_C_ERROR(fuelSessionReadOutput(s, 0, c, sizeof c),
                 fuelStatusFailedPrecondition, "no run has finished");
  uint64_t early[1];
  EXPECT_C_ERROR(fuelSessionCommandTimings(s, early, 1),
                 fuelStatusFailedPrecondition, "no run has finished");
  EXPECT_C_ERROR(fuelSessionBindInput(s, 2, fuelDTypeF32, shape, 1, a, 400),
                 fuelStatusInvalidArgument, "input 2 does not exist");
  EXPECT_C_ERROR(fuelSessionBindInput(s, 0, fuelDTypeF16, shape, 1, a, 200),
                 fuelStatusInvalidArgument, "is 100xf16, expected 100xf32");
  EXPECT_C_ERROR(fuelSessionBindInput(s, 0, fuelDTypeF32, wrong, 2, a, 400),
                 fuelStatusInvalidArgument, "is 10x10xf32, expected 100xf32");
  EXPECT_C_ERROR(fuelSessionBindInput(s, 0, fuelDTypeF32, shape, 1, a, 396),
                 fuelStatusInvalidArgument, "396 bytes given, expected 400");
  EXPECT_C_ERROR(
      fuelSessionBindInput(s, 0, static_cast<fuelDType>(42), shape, 1, a, 400),
      fuelStatusInvalidArgument, "dtype 42 is not a fuelDType");
  EXPECT_C_ERROR(fuelSessionBindInput(s, 0, fuelDTypeF32, nullptr, 1, a, 400),
                 fuelStatusInvalidArgument, "shape is null");
  EXPECT_C_ERROR(
      fuelSessionBindInput(s, 0, fuelDTypeF32, shape, 1, nullptr, 400),
      fuelStatusInvalidArgument, "data is null");
  EXPECT_C_OK(fuelSessionBindInput(s, 0, fuelDTypeF32, shape, 1, a, 400));
  EXPECT_C_OK(fuelSessionBindInput(s, 1, fuelDTypeF32, shape, 1, a, 400));
  EXPECT_C_OK(fuelSessionRun(s));
  EXPECT_C_ERROR(fuelSessionReadOutput(s, 1, c, sizeof c),
                 fuelStatusInvalidArgument, "output 1 does not exist");
  EXPECT_C_ERROR(fuelSessionReadOutput(s, 0, c, 4), fuelStatusInvalidArgument,
                 "4 bytes given, expected 400");
  uint64_t ns[3];
  EXPECT_C_ERROR(fuelSessionCommandTimings(s, ns, 3), fuelStatusInvalidArgument,
                 "3 timings asked");
  fuelTensorInfo info;
  EXPECT_C_ERROR(fuelExecutableInputInfo(exe, 5, &info),
                 fuelStatusInvalidArgument, "input 5 does not exist");
  fuelSessionDestroy(s);
}

TEST_F(CApi, LoadErrorsCarryTheLoaderMessage) {
  fuelExecutable e = nullptr;
  EXPECT_C_ERROR(fuelExecutableLoadFile(rt, "no-such-file.fuel", &e),
                 fuelStatusInvalidArgument, "no-such-file.fuel");
  std::vector<uint8_t> bad = bytes;
  bad.resize(bad.size() / 3);
  fuelStatus st = fuelExecutableLoadBytes(rt, bad.data(), bad.size(), &e);
  EXPECT_FALSE(fuelStatusIsOk(st));
  EXPECT_FALSE(take(st).empty());
  EXPECT_EQ(e, nullptr);
}

TEST(CApiCxx, RaiiHandlesRunAndReportErrors) {
  ExecutableWriter w;
  buildChain(w, 128, 32);
  std::vector<uint8_t> bytes = finishBytes(w);
  fuel::capi::Runtime rt;
  ASSERT_TRUE(fuel::capi::Runtime::create(nullptr, rt));
  fuel::capi::Executable exe;
  fuel::capi::Status st =
      fuel::capi::Executable::loadBytes(rt, bytes.data(), bytes.size(), exe);
  ASSERT_TRUE(st) << st.message();
  size_t n = 0;
  EXPECT_TRUE(exe.inputCount(n));
  EXPECT_EQ(n, 2u);
  fuel::capi::Session s;
  ASSERT_TRUE(fuel::capi::Session::create(exe, s));
  fuel::capi::Status early = s.run();
  EXPECT_FALSE(early);
  EXPECT_EQ(early.code(), fuelStatusFailedPrecondition);
  EXPECT_NE(early.message().find("not bound"), std::string::npos);
  alignas(64) float a[128], b[128], c[128];
  for (int i = 0; i < 128; ++i) {
    a[i] = float(i);
    b[i] = 2.0f;
  }
  EXPECT_TRUE(s.bindInput(0, fuelDTypeF32, {128}, a, sizeof a));
  EXPECT_TRUE(s.bindInput(1, fuelDTypeF32, {128}, b, sizeof b));
  EXPECT_FALSE(s.bindInput(1, fuelDTypeF32, {64, 2}, b, sizeof b));
  ASSERT_TRUE(s.run());
  ASSERT_TRUE(s.readOutput(0, c, sizeof c));
  for (int i = 0; i < 128; ++i)
    ASSERT_EQ(c[i], 2.0f * float(i) + 2.0f);
  std::vector<uint64_t> ns;
  EXPECT_TRUE(s.commandTimings(ns));
  EXPECT_EQ(ns.size(), 2u);
  std::vector<uint32_t> lanes;
  EXPECT_TRUE(s.commandLanes(lanes));
  EXPECT_EQ(lanes, (std::vector<uint32_t>{0, 0})); // a copy after its add
  fuel::capi::Session one;
  ASSERT_TRUE(fuel::capi::Session::create(exe, 1, one));
  EXPECT_TRUE(one.commandLanes(lanes));
  EXPECT_EQ(lanes, (std::vector<uint32_t>{0, 0}));
  EXPECT_FALSE(fuel::capi::Session::create(exe, 17, one));
  // Moving hands ownership over; the moved-from handle owns nothing.
  fuel::capi::Session moved = std::move(s);
  EXPECT_FALSE(s);
  EXPECT_TRUE(moved.run());
}

// fuelStatusCreate: the status a layered library returns keeps its code and
// a copy of its message; Ok is success; a code outside the enum is Internal.
TEST(CApiStatus, Create) {
  EXPECT_EQ(fuelStatusCreate(fuelStatusOk, "ignored"), nullptr);
  std::string text = "bad.mlir:3:7: error: unknown op";
  fuelStatus s = fuelStatusCreate(fuelStatusInvalidArgument, text.c_str());
  text[0] = 'X'; // the status holds a copy
  ASSERT_FALSE(fuelStatusIsOk(s));
  EXPECT_EQ(fuelStatusGetCode(s), fuelStatusInvalidArgument);
  EXPECT_STREQ(fuelStatusMessage(s), "bad.mlir:3:7: error: unknown op");
  fuelStatusFree(s);
  s = fuelStatusCreate(fuelStatusDataLoss, nullptr);
  EXPECT_EQ(fuelStatusGetCode(s), fuelStatusDataLoss);
  EXPECT_STREQ(fuelStatusMessage(s), "");
  fuelStatusFree(s);
  s = fuelStatusCreate(static_cast<fuelStatusCode>(42), "odd");
  EXPECT_EQ(fuelStatusGetCode(s), fuelStatusInternal);
  EXPECT_STREQ(fuelStatusMessage(s),
               "status code 42 is not a fuelStatusCode: odd");
  fuelStatusFree(s);
}

} // namespace
