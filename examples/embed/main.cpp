//===- main.cpp - A frontend that embeds fuel as its compiler stage -------===//
//
// The example embedder of docs/EMBEDDING.md, built against an installed fuel
// (find_package(Fuel ... COMPONENTS Compiler Runtime)). Like a frontend, it
// builds its network with MLIR's builder API, on tensors: two layers,
//
//   y = relu(x · W1 + b1) · W2,   x 8×64, W1 64×32, b1 32, W2 32×16,
//
// pins the second matmul to the host with `fuel.pin = #fuel.device<cpu>`,
// compiles the module with mlir::fuel::compile into an executable's bytes,
// runs them with libfuelrt's C++ API (fuel-c/RuntimeCxx.h), and checks the
// result against a reference it computes itself with plain loops. Prints the
// result and its max error; exits nonzero, saying why, on any failure.
//
//===----------------------------------------------------------------------===//

#include "fuel/Compiler/Compiler.h"
#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"

#include "fuel-c/RuntimeCxx.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

using namespace mlir;

namespace {

constexpr int64_t kBatch = 8, kIn = 64, kHidden = 32, kOut = 16;

/// Builds @mlp2(x, w1, b1, w2) -> y into `module`: every argument and the
/// result resident on the host, the second matmul pinned to it.
void buildNetwork(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = FileLineColLoc::get(ctx, "embed-example", 1, 1);
  Type f32 = b.getF32Type();
  auto tensor = [&](ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, f32);
  };
  RankedTensorType x = tensor({kBatch, kIn}), w1 = tensor({kIn, kHidden}),
                   b1 = tensor({kHidden}), w2 = tensor({kHidden, kOut}),
                   h = tensor({kBatch, kHidden}), y = tensor({kBatch, kOut});

  b.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(b, loc, "mlp2",
                                 b.getFunctionType({x, w1, b1, w2}, {y}));
  auto host = mlir::fuel::DeviceAttr::getHost(ctx);
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    fn.setArgAttr(i, "fuel.residency", host);
  fn.setResultAttr(0, "fuel.residency", host);

  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value xs = entry->getArgument(0), w1s = entry->getArgument(1),
        b1s = entry->getArgument(2), w2s = entry->getArgument(3);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));

  // Layer 1: x · W1 into a zero-filled accumulator...
  Value hEmpty = tensor::EmptyOp::create(b, loc, h.getShape(), f32);
  Value hAcc =
      linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{hEmpty})
          .getResult(0);
  Value hMat = linalg::MatmulOp::create(b, loc, TypeRange{h},
                                        ValueRange{xs, w1s}, ValueRange{hAcc})
                   .getResult(0);
  // ... then + b1 (broadcast along rows) and relu in one elementwise generic.
  AffineExpr i, j;
  bindDims(ctx, i, j);
  SmallVector<AffineMap> maps = {AffineMap::get(2, 0, {i, j}, ctx),
                                 AffineMap::get(2, 0, {j}, ctx),
                                 AffineMap::get(2, 0, {i, j}, ctx)};
  SmallVector<utils::IteratorType> parallel(2, utils::IteratorType::parallel);
  Value hAct =
      linalg::GenericOp::create(
          b, loc, TypeRange{h}, ValueRange{hMat, b1s}, ValueRange{hEmpty}, maps,
          parallel,
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            Value sum = arith::AddFOp::create(nb, nloc, args[0], args[1]);
            Value relu = arith::MaximumFOp::create(nb, nloc, sum, zero);
            linalg::YieldOp::create(nb, nloc, relu);
          })
          .getResult(0);

  // Layer 2: · W2, pinned to the host: a hard constraint the planner keeps.
  Value yEmpty = tensor::EmptyOp::create(b, loc, y.getShape(), f32);
  Value yAcc =
      linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{yEmpty})
          .getResult(0);
  auto out = linalg::MatmulOp::create(b, loc, TypeRange{y},
                                      ValueRange{hAct, w2s}, ValueRange{yAcc});
  out->setAttr(mlir::fuel::FuelDialect::kPinAttrName, host);
  func::ReturnOp::create(b, loc, out.getResult(0));
}

/// Deterministic inputs in [-1, 1) (a 32-bit LCG), different per tensor.
std::vector<float> makeInput(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t s = seed;
  for (float &e : v) {
    s = s * 1664525u + 1013904223u;
    e = float(s >> 8) / float(1u << 23) - 1.0f;
  }
  return v;
}

/// The reference: relu(x · W1 + b1) · W2 by plain loops, in double.
std::vector<double> reference(const std::vector<float> &x,
                              const std::vector<float> &w1,
                              const std::vector<float> &b1,
                              const std::vector<float> &w2) {
  std::vector<double> hid(kBatch * kHidden), y(kBatch * kOut, 0.0);
  for (int64_t r = 0; r < kBatch; ++r)
    for (int64_t c = 0; c < kHidden; ++c) {
      double acc = 0;
      for (int64_t k = 0; k < kIn; ++k)
        acc += double(x[r * kIn + k]) * double(w1[k * kHidden + c]);
      hid[r * kHidden + c] = std::max(acc + double(b1[c]), 0.0);
    }
  for (int64_t r = 0; r < kBatch; ++r)
    for (int64_t c = 0; c < kOut; ++c)
      for (int64_t k = 0; k < kHidden; ++k)
        y[r * kOut + c] += hid[r * kHidden + k] * double(w2[k * kOut + c]);
  return y;
}

int fail(const char *what, const std::string &why = "") {
  std::fprintf(stderr, "fuel-embed-example: %s%s%s\n", what,
               why.empty() ? "" : ": ", why.c_str());
  return 1;
}

} // namespace

int main() {
  // 1. Build the network, as a frontend's importer would.
  DialectRegistry registry;
  mlir::fuel::registerCompilerDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(&ctx, "embed-example", 1, 1));
  buildNetwork(*module);
  if (failed(verify(*module)))
    return fail("the built module does not verify");

  // 2. Plan and lower it with fuel: diagnostics go to the context (printed
  // to stderr by default); the built-in topology, so the plan is the same
  // on every machine.
  mlir::fuel::CompileOptions options;
  FailureOr<std::vector<uint8_t>> bytes = mlir::fuel::compile(*module, options);
  if (failed(bytes))
    return fail("mlir::fuel::compile failed (see the diagnostics above)");
  std::printf("compiled @mlp2: %zu bytes of executable\n", bytes->size());

  // 3. Run it with libfuelrt.
  namespace rt = ::fuel::capi;
  fuelRuntimeOptions rtOptions = {};
  rtOptions.threads = 2;
  rt::Runtime runtime;
  rt::Executable exe;
  rt::Session session;
  if (rt::Status s = rt::Runtime::create(&rtOptions, runtime); !s)
    return fail("creating the runtime", s.message());
  if (rt::Status s =
          rt::Executable::loadBytes(runtime, bytes->data(), bytes->size(), exe);
      !s)
    return fail("loading the executable", s.message());
  size_t inputs = 0, outputs = 0;
  if (rt::Status s = exe.inputCount(inputs); !s)
    return fail("input count", s.message());
  if (rt::Status s = exe.outputCount(outputs); !s)
    return fail("output count", s.message());
  if (inputs != 4 || outputs != 1)
    return fail("the executable has the wrong signature",
                std::to_string(inputs) + " inputs, " + std::to_string(outputs) +
                    " outputs; expected 4 and 1");
  if (rt::Status s = rt::Session::create(exe, session); !s)
    return fail("creating a session", s.message());

  std::vector<float> x = makeInput(kBatch * kIn, 1),
                     w1 = makeInput(kIn * kHidden, 2),
                     b1 = makeInput(kHidden, 3),
                     w2 = makeInput(kHidden * kOut, 4);
  struct Input {
    const std::vector<float> &data;
    std::vector<int64_t> shape;
  } in[] = {{x, {kBatch, kIn}},
            {w1, {kIn, kHidden}},
            {b1, {kHidden}},
            {w2, {kHidden, kOut}}};
  for (size_t k = 0; k < 4; ++k)
    if (rt::Status s =
            session.bindInput(k, fuelDTypeF32, in[k].shape, in[k].data.data(),
                              in[k].data.size() * sizeof(float));
        !s)
      return fail(("binding input " + std::to_string(k)).c_str(), s.message());
  if (rt::Status s = session.run(); !s)
    return fail("running", s.message());
  std::vector<float> y(kBatch * kOut);
  if (rt::Status s = session.readOutput(0, y.data(), y.size() * sizeof(float));
      !s)
    return fail("reading the output", s.message());

  // 4. Check against the loops.
  std::vector<double> want = reference(x, w1, b1, w2);
  double maxError = 0, maxRef = 0;
  for (size_t k = 0; k < y.size(); ++k) {
    double e = std::fabs(double(y[k]) - want[k]);
    maxError = std::isnan(e) || e > maxError ? e : maxError;
    maxRef = std::max(maxRef, std::fabs(want[k]));
  }
  std::printf("y = relu(x · W1 + b1) · W2, %lldx%lld:\n", (long long)kBatch,
              (long long)kOut);
  for (int64_t r = 0; r < kBatch; ++r) {
    for (int64_t c = 0; c < kOut; ++c)
      std::printf(" %8.4f", y[r * kOut + c]);
    std::printf("\n");
  }
  // f32 sums of 64 and 32 products of values in [-1, 1): a few ulps of the
  // largest magnitude.
  double tolerance = 1e-5 * std::max(maxRef, 1.0);
  std::printf("max error against the reference: %.3g (tolerance %.3g)\n",
              maxError, tolerance);
  if (!(maxError <= tolerance))
    return fail("the result does not match the reference");
  std::printf("ok\n");
  return 0;
}
