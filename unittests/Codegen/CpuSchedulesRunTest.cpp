//===- CpuSchedulesRunTest.cpp - Schedules per op kind, compiled and run --===//
//
// Compiles one kernel of each op kind and each host op (prime and
// sub-vector shapes) through fuel-apply-schedules, fuel-bufferize-kernels,
// convert-fuel-to-llvm and the in-process object step, loads the shared
// object, runs the ABI entry over its whole grid and compares the outputs
// with a naive reference written here, independently of the kernels.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/KernelABI.h"
#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/CPU/CpuObject.h"
#include "fuel/Codegen/CPU/FastExp.h"
#include "fuel/Codegen/Passes.h"
#include "fuel/Conversion/Passes.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Lowering/Passes.h"
#include "fuel/Planning/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

using namespace mlir;

namespace {

// The kernels, in the outlined kernel form (memref bindings, body on
// tensors), one per op kind and host op.
constexpr const char *k_reduce_sum = R"mlir(
    func.func @reduce_sum(%im0: memref<5x37xf32>, %om0: memref<5xf32>)
        attributes {fuel.kernel_id = "cpu.generated.reduce_f32", fuel.op_kind = "reduce", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/reduce.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<5x37xf32> to tensor<5x37xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<5xf32> to tensor<5xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<5xf32>) -> tensor<5xf32>
        %r = linalg.reduce ins(%i0 : tensor<5x37xf32>) outs(%f : tensor<5xf32>) dimensions = [1]
          (%x: f32, %y: f32) { %s = arith.addf %x, %y : f32
            linalg.yield %s : f32 }
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<5xf32>, memref<5xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_reduce_colmax = R"mlir(
    func.func @reduce_colmax(%im0: memref<37x17xf32>, %om0: memref<17xf32>)
        attributes {fuel.kernel_id = "cpu.generated.reduce_f32", fuel.op_kind = "reduce", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/reduce.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<37x17xf32> to tensor<37x17xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<17xf32> to tensor<17xf32>
        %z = arith.constant 0xFF800000 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<17xf32>) -> tensor<17xf32>
        %r = linalg.reduce ins(%i0 : tensor<37x17xf32>) outs(%f : tensor<17xf32>) dimensions = [0]
          (%x: f32, %y: f32) { %s = arith.maximumf %x, %y : f32
            linalg.yield %s : f32 }
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<17xf32>, memref<17xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_softmax = R"mlir(
    func.func @softmax(%im0: memref<17x129xf32>, %om0: memref<17x129xf32>)
        attributes {fuel.kernel_id = "cpu.generated.softmax_f32", fuel.op_kind = "softmax", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/softmax.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<17x129xf32> to tensor<17x129xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<17x129xf32> to tensor<17x129xf32>
        %e = tensor.empty() : tensor<17x129xf32>
        %r = linalg.softmax dimension(1) ins(%i0 : tensor<17x129xf32>) outs(%e : tensor<17x129xf32>) -> tensor<17x129xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<17x129xf32>, memref<17x129xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_transpose = R"mlir(
    func.func @transpose(%im0: memref<37x61xf32>, %om0: memref<61x37xf32>)
        attributes {fuel.kernel_id = "cpu.generated.transpose_f32", fuel.op_kind = "transpose", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/transpose.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<37x61xf32> to tensor<37x61xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<61x37xf32> to tensor<61x37xf32>
        %r = linalg.transpose ins(%i0 : tensor<37x61xf32>) outs(%o0 : tensor<61x37xf32>) permutation = [1, 0]
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<61x37xf32>, memref<61x37xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_generic = R"mlir(
    func.func @generic(%im0: memref<37x61xf32>, %im1: memref<61xf32>, %om0: memref<37x61xf32>)
        attributes {fuel.kernel_id = "cpu.generated.generic_f32", fuel.op_kind = "generic", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/generic.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<37x61xf32> to tensor<37x61xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<61xf32> to tensor<61xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<37x61xf32> to tensor<37x61xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(j)>, affine_map<(i,j)->(i,j)>], iterator_types=["parallel","parallel"]}
            ins(%i0, %i1 : tensor<37x61xf32>, tensor<61xf32>) outs(%o0 : tensor<37x61xf32>) {
          ^bb0(%a: f32, %b: f32, %c: f32):
            %m = arith.mulf %a, %b : f32
            %t = math.tanh %a : f32
            %s = arith.addf %m, %t : f32
            linalg.yield %s : f32 } -> tensor<37x61xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<37x61xf32>, memref<37x61xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_bmm = R"mlir(
    func.func @bmm(%im0: memref<3x37x17xf32>, %im1: memref<3x17x61xf32>, %om0: memref<3x37x61xf32>)
        attributes {fuel.kernel_id = "cpu.generated.batch_matmul_f32", fuel.op_kind = "batch_matmul", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/batch_matmul.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<3x37x17xf32> to tensor<3x37x17xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<3x17x61xf32> to tensor<3x17x61xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<3x37x61xf32> to tensor<3x37x61xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
        %r = linalg.batch_matmul ins(%i0, %i1 : tensor<3x37x17xf32>, tensor<3x17x61xf32>) outs(%f : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<3x37x61xf32>, memref<3x37x61xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_pool_nchw_max = R"mlir(
    func.func @pool_nchw_max(%im0: memref<2x3x17x17xf32>, %om0: memref<2x3x8x8xf32>)
        attributes {fuel.kernel_id = "cpu.generated.pool_f32", fuel.op_kind = "pool", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/pool.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<2x3x17x17xf32> to tensor<2x3x17x17xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<2x3x8x8xf32> to tensor<2x3x8x8xf32>
        %z = arith.constant 0xFF800000 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
        %w = tensor.empty() : tensor<2x2xf32>
        %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
           ins(%i0, %w : tensor<2x3x17x17xf32>, tensor<2x2xf32>) outs(%f : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<2x3x8x8xf32>, memref<2x3x8x8xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_pool_nhwc_sum = R"mlir(
    func.func @pool_nhwc_sum(%im0: memref<1x9x9x7xf32>, %om0: memref<1x7x7x7xf32>)
        attributes {fuel.kernel_id = "cpu.generated.pool_f32", fuel.op_kind = "pool", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/pool.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<1x9x9x7xf32> to tensor<1x9x9x7xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<1x7x7x7xf32> to tensor<1x7x7x7xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x7x7x7xf32>) -> tensor<1x7x7x7xf32>
        %w = tensor.empty() : tensor<3x3xf32>
        %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
           ins(%i0, %w : tensor<1x9x9x7xf32>, tensor<3x3xf32>) outs(%f : tensor<1x7x7x7xf32>) -> tensor<1x7x7x7xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<1x7x7x7xf32>, memref<1x7x7x7xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_conv_nchw = R"mlir(
    func.func @conv_nchw(%im0: memref<2x3x11x13xf32>, %im1: memref<17x3x3x3xf32>, %om0: memref<2x17x5x6xf32>)
        attributes {fuel.kernel_id = "cpu.generated.conv2d_f32", fuel.op_kind = "conv2d", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/conv2d.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<2x3x11x13xf32> to tensor<2x3x11x13xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<17x3x3x3xf32> to tensor<17x3x3x3xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<2x17x5x6xf32> to tensor<2x17x5x6xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x17x5x6xf32>) -> tensor<2x17x5x6xf32>
        %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
           ins(%i0, %i1 : tensor<2x3x11x13xf32>, tensor<17x3x3x3xf32>) outs(%f : tensor<2x17x5x6xf32>) -> tensor<2x17x5x6xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<2x17x5x6xf32>, memref<2x17x5x6xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_conv_nhwc = R"mlir(
    func.func @conv_nhwc(%im0: memref<1x9x19x7xf32>, %im1: memref<3x3x7x5xf32>, %om0: memref<1x7x17x5xf32>)
        attributes {fuel.kernel_id = "cpu.generated.conv2d_f32", fuel.op_kind = "conv2d", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/conv2d.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<1x9x19x7xf32> to tensor<1x9x19x7xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<3x3x7x5xf32> to tensor<3x3x7x5xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<1x7x17x5xf32> to tensor<1x7x17x5xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x7x17x5xf32>) -> tensor<1x7x17x5xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
           ins(%i0, %i1 : tensor<1x9x19x7xf32>, tensor<3x3x7x5xf32>) outs(%f : tensor<1x7x17x5xf32>) -> tensor<1x7x17x5xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<1x7x17x5xf32>, memref<1x7x17x5xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_host_pad = R"mlir(
    func.func @host_pad(%im0: memref<3x17xf32>, %om0: memref<4x22xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_pad", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<3x17xf32> to tensor<3x17xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<4x22xf32> to tensor<4x22xf32>
        %cst = arith.constant 0.5 : f32
        %r = tensor.pad %i0 low[1, 2] high[0, 3] {
        ^bb0(%a0: index, %a1: index):
          tensor.yield %cst : f32
        } : tensor<3x17xf32> to tensor<4x22xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<4x22xf32>, memref<4x22xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_host_concat = R"mlir(
    func.func @host_concat(%im0: memref<3x7xf32>, %im1: memref<3x9xf32>, %om0: memref<3x16xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_concat", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<3x7xf32> to tensor<3x7xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<3x9xf32> to tensor<3x9xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<3x16xf32> to tensor<3x16xf32>
        %r = tensor.concat dim(1) %i0, %i1 : (tensor<3x7xf32>, tensor<3x9xf32>) -> tensor<3x16xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<3x16xf32>, memref<3x16xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_host_insert_slice = R"mlir(
    func.func @host_insert_slice(%im0: memref<37x61xf32>, %im1: memref<17x30xf32>, %om0: memref<37x61xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_insert_slice", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<37x61xf32> to tensor<37x61xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<17x30xf32> to tensor<17x30xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<37x61xf32> to tensor<37x61xf32>
        %r = tensor.insert_slice %i1 into %i0[1, 3] [17, 30] [1, 1] : tensor<17x30xf32> into tensor<37x61xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<37x61xf32>, memref<37x61xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_host_generate = R"mlir(
    func.func @host_generate(%im0: memref<17x37xf32>, %om0: memref<17x37xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_generate", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<17x37xf32> to tensor<17x37xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<17x37xf32> to tensor<17x37xf32>
        %r = tensor.generate {
        ^bb0(%x0: index, %x1: index):
          %s = arith.addi %x0, %x1 : index
          %t = arith.index_cast %s : index to i32
          %f = arith.sitofp %t : i32 to f32
          %e = tensor.extract %i0[%x0, %x1] : tensor<17x37xf32>
          %y = arith.mulf %f, %e : f32
          tensor.yield %y : f32
        } : tensor<17x37xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<17x37xf32>, memref<17x37xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_host_from_elements = R"mlir(
    func.func @host_from_elements(%om0: memref<1x7xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_from_elements", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<1x7xf32> to tensor<1x7xf32>
        %cst = arith.constant 2.0 : f32
        %x0 = arith.constant 0.25 : f32
        %x1 = arith.constant 1.25 : f32
        %x2 = arith.constant 2.25 : f32
        %x3 = arith.constant 3.25 : f32
        %x4 = arith.constant 4.25 : f32
        %x5 = arith.constant 5.25 : f32
        %x6 = arith.constant 6.25 : f32
        %r = tensor.from_elements %x0, %x1, %x2, %x3, %x4, %x5, %x6 : tensor<1x7xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<1x7xf32>, memref<1x7xf32>) -> ()
        return
      }
)mlir";

constexpr const char *k_host_extract_slice = R"mlir(
    func.func @host_extract_slice(%im0: memref<5x37xf32>, %om0: memref<3x7xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_extract_slice", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<5x37xf32> to tensor<5x37xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<3x7xf32> to tensor<3x7xf32>
        %r = tensor.extract_slice %i0[1, 0] [3, 7] [1, 5] : tensor<5x37xf32> to tensor<3x7xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<3x7xf32>, memref<3x7xf32>) -> ()
        return
      }
)mlir";

// exp over a sweep of inputs: one 2^20-element elementwise kernel.
constexpr const char *k_exp = R"mlir(
    func.func @exp(%im0: memref<1048576xf32>, %om0: memref<1048576xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32", fuel.op_kind = "elementwise", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/elementwise.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<1048576xf32> to tensor<1048576xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<1048576xf32> to tensor<1048576xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i)->(i)>, affine_map<(i)->(i)>], iterator_types=["parallel"]}
            ins(%i0 : tensor<1048576xf32>) outs(%o0 : tensor<1048576xf32>) {
          ^bb0(%a: f32, %c: f32):
            %e = math.exp %a : f32
            linalg.yield %e : f32 } -> tensor<1048576xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<1048576xf32>, memref<1048576xf32>) -> ()
        return
      }
)mlir";

using Buffer = std::vector<float>;

/// A compiled kernel: its shared object and ABI entry.
struct Compiled {
  void *handle = nullptr;
  fuel_kernel_fn entry = nullptr;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::string path;
  ~Compiled() {
    if (handle)
      dlclose(handle);
    if (!path.empty())
      unlink(path.c_str());
  }
};

class CpuSchedulesRun : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    mlir::fuel::registerFuelPlanningPasses();
    mlir::fuel::registerFuelCodegenPasses();
    mlir::fuel::registerFuelLoweringPasses();
    mlir::fuel::registerFuelConversionPasses();
  }

  CpuSchedulesRun() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerAllToLLVMIRTranslations(registry);
    registry.insert<mlir::fuel::FuelDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Compiles the kernel function `func` (named `name`) for `cpu` (empty:
  /// the host).
  void compile(const char *func, const std::string &name,
               const std::string &cpu, Compiled &out) {
    std::string text =
        std::string("fuel.executable @cpu on cpu {\n  builtin.module {\n") +
        func + "  }\n}\n";
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, ParserConfig(&context));
    ASSERT_TRUE(module) << name << " does not parse";
    PassManager pm(&context, ModuleOp::getOperationName());
    mlir::fuel::CpuTargetSpec target = mlir::fuel::hostCpuTarget();
    std::string apply = "fuel-apply-schedules";
    if (!cpu.empty()) {
      target.cpu = cpu;
      target.features.clear();
      apply += "{target-cpu=" + cpu + " target-triple=" + target.triple + "}";
    }
    ASSERT_TRUE(succeeded(parsePassPipeline(
        apply + ",fuel-bufferize-kernels,convert-fuel-to-llvm", pm)));
    ASSERT_TRUE(succeeded(pm.run(*module))) << name << " does not lower";
    SmallVector<ModuleOp> kernels = mlir::fuel::getCpuKernelModules(*module);
    ASSERT_EQ(kernels.size(), 1u);
    auto entry = kernels[0].lookupSymbol<LLVM::LLVMFuncOp>(name);
    ASSERT_TRUE(entry) << name << ": no ABI entry";
    auto grid = entry->getAttrOfType<DenseI64ArrayAttr>(
        mlir::fuel::kernel_attr::kWorkgroups);
    ASSERT_TRUE(grid && grid.size() == 3);
    for (unsigned i = 0; i < 3; ++i)
      out.grid[i] = static_cast<uint32_t>(grid[i]);
    // The object for the target the schedule was chosen for (the stamp).
    FailureOr<mlir::fuel::CpuTargetSpec> stamped =
        mlir::fuel::resolveCpuTarget(kernels[0]);
    ASSERT_TRUE(succeeded(stamped));
    FailureOr<std::vector<uint8_t>> so =
        mlir::fuel::emitCpuSharedObject(kernels[0], *stamped);
    ASSERT_TRUE(succeeded(so)) << name << ": no shared object";
    char path[] = "/tmp/fuel-sched-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    out.path = path;
    ASSERT_EQ(write(fd, so->data(), so->size()),
              static_cast<ssize_t>(so->size()));
    close(fd);
    out.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    ASSERT_TRUE(out.handle) << dlerror();
    out.entry =
        reinterpret_cast<fuel_kernel_fn>(dlsym(out.handle, name.c_str()));
    ASSERT_TRUE(out.entry) << name << " is not exported";
  }

  /// Compiles and runs `func` on `inputs` (random, of the given sizes), and
  /// compares every output with `reference(inputs)`.
  void
  check(const char *func, const std::string &name,
        const std::vector<size_t> &inputSizes,
        const std::vector<size_t> &outputSizes,
        const std::function<std::vector<Buffer>(const std::vector<Buffer> &)>
            &reference,
        float tolerance = 2e-5f) {
    // The host's ISA class, and AVX2 (haswell) where the host runs it.
    std::vector<std::string> cpus = {""};
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      cpus.push_back("haswell");
    for (const std::string &cpu : cpus) {
      SCOPED_TRACE(cpu.empty() ? "host" : cpu);
      run(func, name, cpu, inputSizes, outputSizes, reference, tolerance);
      if (HasFatalFailure())
        return;
    }
  }

  void run(const char *func, const std::string &name, const std::string &cpu,
           const std::vector<size_t> &inputSizes,
           const std::vector<size_t> &outputSizes,
           const std::function<std::vector<Buffer>(const std::vector<Buffer> &)>
               &reference,
           float tolerance) {
    Compiled kernel;
    compile(func, name, cpu, kernel);
    if (HasFatalFailure())
      return;
    std::mt19937 rng(7);
    std::normal_distribution<float> normal;
    std::vector<Buffer> inputs;
    for (size_t n : inputSizes) {
      Buffer b(n);
      for (float &v : b)
        v = normal(rng);
      inputs.push_back(std::move(b));
    }
    std::vector<Buffer> outputs;
    for (size_t n : outputSizes)
      outputs.emplace_back(n, NAN);
    std::vector<void *> bindings;
    for (Buffer &b : inputs)
      bindings.push_back(b.data());
    for (Buffer &b : outputs)
      bindings.push_back(b.data());
    fuel_dispatch d{bindings.data(),
                    nullptr,
                    {kernel.grid[0], kernel.grid[1], kernel.grid[2]}};
    // Workgroups in reverse order: no result may depend on the order.
    for (int64_t z = kernel.grid[2] - 1; z >= 0; --z)
      for (int64_t y = kernel.grid[1] - 1; y >= 0; --y)
        for (int64_t x = kernel.grid[0] - 1; x >= 0; --x)
          kernel.entry(&d, nullptr, x, y, z);
    std::vector<Buffer> expected = reference(inputs);
    ASSERT_EQ(expected.size(), outputs.size());
    for (size_t o = 0; o < outputs.size(); ++o) {
      ASSERT_EQ(expected[o].size(), outputs[o].size());
      for (size_t i = 0; i < outputs[o].size(); ++i) {
        float want = expected[o][i], got = outputs[o][i];
        ASSERT_LE(std::fabs(got - want), tolerance * (1 + std::fabs(want)))
            << name << " output " << o << " element " << i << ": " << got
            << " != " << want;
      }
    }
  }

  MLIRContext context;
};

TEST_F(CpuSchedulesRun, ReduceRowSum) {
  check(k_reduce_sum, "reduce_sum", {5 * 37}, {5}, [](auto &in) {
    Buffer o(5, 0);
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 37; ++c)
        o[r] += in[0][r * 37 + c];
    return std::vector<Buffer>{o};
  });
}

TEST_F(CpuSchedulesRun, ReduceColumnMax) {
  check(k_reduce_colmax, "reduce_colmax", {37 * 17}, {17}, [](auto &in) {
    Buffer o(17, -INFINITY);
    for (int r = 0; r < 37; ++r)
      for (int c = 0; c < 17; ++c)
        o[c] = std::max(o[c], in[0][r * 17 + c]);
    return std::vector<Buffer>{o};
  });
}

TEST_F(CpuSchedulesRun, Softmax) {
  check(
      k_softmax, "softmax", {17 * 129}, {17 * 129},
      [](auto &in) {
        Buffer o(17 * 129);
        for (int r = 0; r < 17; ++r) {
          double m = -INFINITY, s = 0;
          for (int c = 0; c < 129; ++c)
            m = std::max<double>(m, in[0][r * 129 + c]);
          for (int c = 0; c < 129; ++c)
            s += std::exp(in[0][r * 129 + c] - m);
          for (int c = 0; c < 129; ++c)
            o[r * 129 + c] = std::exp(in[0][r * 129 + c] - m) / s;
        }
        return std::vector<Buffer>{o};
      },
      1e-5f);
}

TEST_F(CpuSchedulesRun, Transpose) {
  check(k_transpose, "transpose", {37 * 61}, {61 * 37}, [](auto &in) {
    Buffer o(61 * 37);
    for (int i = 0; i < 37; ++i)
      for (int j = 0; j < 61; ++j)
        o[j * 37 + i] = in[0][i * 61 + j];
    return std::vector<Buffer>{o};
  });
}

TEST_F(CpuSchedulesRun, GenericBroadcastTanh) {
  check(
      k_generic, "generic", {37 * 61, 61}, {37 * 61},
      [](auto &in) {
        Buffer o(37 * 61);
        for (int i = 0; i < 37; ++i)
          for (int j = 0; j < 61; ++j) {
            float a = in[0][i * 61 + j];
            o[i * 61 + j] = a * in[1][j] + std::tanh(a);
          }
        return std::vector<Buffer>{o};
      },
      1e-5f);
}

TEST_F(CpuSchedulesRun, BatchMatmul) {
  const int B = 3, M = 37, N = 61, K = 17;
  check(
      k_bmm, "bmm", {B * M * K, B * K * N}, {B * M * N},
      [&](auto &in) {
        Buffer o(B * M * N);
        for (int b = 0; b < B; ++b)
          for (int m = 0; m < M; ++m)
            for (int n = 0; n < N; ++n) {
              double s = 0;
              for (int k = 0; k < K; ++k)
                s += double(in[0][(b * M + m) * K + k]) *
                     in[1][(b * K + k) * N + n];
              o[(b * M + m) * N + n] = s;
            }
        return std::vector<Buffer>{o};
      },
      1e-4f);
}

/// Pooling of a 2-D window, NCHW or NHWC, max or sum.
static Buffer pool(const Buffer &x, int N, int C, int H, int W, int k, int s,
                   bool nchw, bool max) {
  int OH = (H - k) / s + 1, OW = (W - k) / s + 1;
  Buffer o(N * C * OH * OW);
  auto at = [&](int n, int c, int h, int w) {
    return nchw ? x[((n * C + c) * H + h) * W + w]
                : x[((n * H + h) * W + w) * C + c];
  };
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C; ++c)
      for (int oh = 0; oh < OH; ++oh)
        for (int ow = 0; ow < OW; ++ow) {
          float acc = max ? -INFINITY : 0;
          for (int i = 0; i < k; ++i)
            for (int j = 0; j < k; ++j) {
              float v = at(n, c, oh * s + i, ow * s + j);
              acc = max ? std::max(acc, v) : acc + v;
            }
          size_t idx = nchw ? ((n * C + c) * OH + oh) * OW + ow
                            : ((n * OH + oh) * OW + ow) * C + c;
          o[idx] = acc;
        }
  return o;
}

TEST_F(CpuSchedulesRun, PoolNchwMax) {
  check(k_pool_nchw_max, "pool_nchw_max", {2 * 3 * 17 * 17}, {2 * 3 * 8 * 8},
        [](auto &in) {
          return std::vector<Buffer>{
              pool(in[0], 2, 3, 17, 17, 2, 2, true, true)};
        });
}

TEST_F(CpuSchedulesRun, PoolNhwcSum) {
  check(
      k_pool_nhwc_sum, "pool_nhwc_sum", {7 * 9 * 9}, {7 * 7 * 7}, [](auto &in) {
        return std::vector<Buffer>{pool(in[0], 1, 7, 9, 9, 3, 1, false, false)};
      });
}

/// 2-D convolution, NCHW/FCHW or NHWC/HWCF, no padding.
static Buffer conv(const Buffer &x, const Buffer &w, int N, int C, int H, int W,
                   int F, int k, int s, bool nchw) {
  int OH = (H - k) / s + 1, OW = (W - k) / s + 1;
  Buffer o(N * F * OH * OW);
  for (int n = 0; n < N; ++n)
    for (int f = 0; f < F; ++f)
      for (int oh = 0; oh < OH; ++oh)
        for (int ow = 0; ow < OW; ++ow) {
          double acc = 0;
          for (int c = 0; c < C; ++c)
            for (int i = 0; i < k; ++i)
              for (int j = 0; j < k; ++j) {
                int h = oh * s + i, ww = ow * s + j;
                float xv = nchw ? x[((n * C + c) * H + h) * W + ww]
                                : x[((n * H + h) * W + ww) * C + c];
                float wv = nchw ? w[((f * C + c) * k + i) * k + j]
                                : w[((i * k + j) * C + c) * F + f];
                acc += double(xv) * wv;
              }
          size_t idx = nchw ? ((n * F + f) * OH + oh) * OW + ow
                            : ((n * OH + oh) * OW + ow) * F + f;
          o[idx] = acc;
        }
  return o;
}

TEST_F(CpuSchedulesRun, Conv2dNchwStrided) {
  check(
      k_conv_nchw, "conv_nchw", {2 * 3 * 11 * 13, 17 * 3 * 3 * 3},
      {2 * 17 * 5 * 6},
      [](auto &in) {
        return std::vector<Buffer>{
            conv(in[0], in[1], 2, 3, 11, 13, 17, 3, 2, true)};
      },
      1e-4f);
}

TEST_F(CpuSchedulesRun, Conv2dNhwc) {
  check(
      k_conv_nhwc, "conv_nhwc", {9 * 19 * 7, 3 * 3 * 7 * 5}, {7 * 17 * 5},
      [](auto &in) {
        return std::vector<Buffer>{
            conv(in[0], in[1], 1, 7, 9, 19, 5, 3, 1, false)};
      },
      1e-4f);
}

TEST_F(CpuSchedulesRun, HostPad) {
  check(k_host_pad, "host_pad", {3 * 17}, {4 * 22}, [](auto &in) {
    Buffer o(4 * 22, 0.5f);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 17; ++j)
        o[(i + 1) * 22 + j + 2] = in[0][i * 17 + j];
    return std::vector<Buffer>{o};
  });
}

TEST_F(CpuSchedulesRun, HostConcat) {
  check(k_host_concat, "host_concat", {3 * 7, 3 * 9}, {3 * 16}, [](auto &in) {
    Buffer o(3 * 16);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 7; ++j)
        o[i * 16 + j] = in[0][i * 7 + j];
      for (int j = 0; j < 9; ++j)
        o[i * 16 + 7 + j] = in[1][i * 9 + j];
    }
    return std::vector<Buffer>{o};
  });
}

TEST_F(CpuSchedulesRun, HostInsertSlice) {
  check(k_host_insert_slice, "host_insert_slice", {37 * 61, 17 * 30}, {37 * 61},
        [](auto &in) {
          Buffer o = in[0];
          for (int i = 0; i < 17; ++i)
            for (int j = 0; j < 30; ++j)
              o[(i + 1) * 61 + j + 3] = in[1][i * 30 + j];
          return std::vector<Buffer>{o};
        });
}

TEST_F(CpuSchedulesRun, HostGenerate) {
  check(k_host_generate, "host_generate", {17 * 37}, {17 * 37}, [](auto &in) {
    Buffer o(17 * 37);
    for (int i = 0; i < 17; ++i)
      for (int j = 0; j < 37; ++j)
        o[i * 37 + j] = float(i + j) * in[0][i * 37 + j];
    return std::vector<Buffer>{o};
  });
}

TEST_F(CpuSchedulesRun, HostFromElements) {
  check(k_host_from_elements, "host_from_elements", {}, {7}, [](auto &) {
    Buffer o(7);
    for (int i = 0; i < 7; ++i)
      o[i] = i + 0.25f;
    return std::vector<Buffer>{o};
  });
}

TEST_F(CpuSchedulesRun, HostStridedExtractSlice) {
  // [1, 0] [3, 7] [1, 5] of a 5x37 tensor.
  check(k_host_extract_slice, "host_extract_slice", {5 * 37}, {3 * 7},
        [](auto &in) {
          Buffer o(3 * 7);
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 7; ++j)
              o[i * 7 + j] = in[0][(1 + i) * 37 + 5 * j];
          return std::vector<Buffer>{o};
        });
}

} // namespace

// The f32 exp lowering (FastExp.h) against libm's exp in double, over every
// 61st f32 pattern of [-104, 89] and the special values, for each ISA class
// the host can run: the largest error in ulps where exp is a normal float,
// +0 where it is below FLT_MIN, +inf above FLT_MAX, NaN for NaN.
TEST_F(CpuSchedulesRun, ExpAccuracy) {
  std::vector<std::string> cpus = {"", "x86-64"};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    cpus.push_back("haswell");
  std::vector<float> inputs = {0.0f,
                               -0.0f,
                               1.0f,
                               -1.0f,
                               0.5f,
                               1e-30f,
                               -1e-30f,
                               1e-45f,
                               88.72283f,
                               std::nextafter(88.72283f, 100.0f),
                               -87.33654f,
                               std::nextafter(-87.33654f, -100.0f),
                               -103.97208f,
                               -104.0f,
                               100.0f,
                               -100.0f,
                               std::numeric_limits<float>::max(),
                               -std::numeric_limits<float>::max(),
                               std::numeric_limits<float>::infinity(),
                               -std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN(),
                               -std::numeric_limits<float>::quiet_NaN()};
  auto addRange = [&](uint32_t from, uint32_t to) {
    for (uint64_t u = from; u <= to; u += 127) {
      float x;
      uint32_t bits = static_cast<uint32_t>(u);
      std::memcpy(&x, &bits, sizeof x);
      inputs.push_back(x);
    }
  };
  addRange(0x00000000u, 0x42B20000u); // +0 .. 89
  addRange(0x80000000u, 0xC2D00000u); // -0 .. -104
  const size_t chunk = 1u << 20;
  inputs.resize((inputs.size() + chunk - 1) / chunk * chunk, 0.0f);

  for (const std::string &cpu : cpus) {
    SCOPED_TRACE(cpu.empty() ? "host" : cpu);
    Compiled kernel;
    compile(k_exp, "exp", cpu, kernel);
    if (HasFatalFailure())
      return;
    std::vector<float> out(inputs.size());
    for (size_t at = 0; at < inputs.size(); at += chunk) {
      void *bindings[2] = {inputs.data() + at, out.data() + at};
      fuel_dispatch d{bindings, nullptr, {1, 1, 1}};
      for (uint32_t x = 0; x < kernel.grid[0]; ++x)
        kernel.entry(&d, nullptr, x, 0, 0);
    }
    double maxUlp = 0, maxRel = 0;
    float worst = 0;
    for (size_t n = 0; n < inputs.size(); ++n) {
      float x = inputs[n], got = out[n];
      double want = std::exp(static_cast<double>(x));
      if (std::isnan(x)) {
        ASSERT_TRUE(std::isnan(got)) << "exp(NaN) = " << got;
      } else if (want > std::numeric_limits<float>::max()) {
        ASSERT_EQ(got, std::numeric_limits<float>::infinity())
            << "exp(" << x << ")";
      } else if (want < std::numeric_limits<float>::min()) {
        ASSERT_EQ(got, 0.0f) << "exp(" << x << ")";
      } else {
        ASSERT_TRUE(std::isfinite(got)) << "exp(" << x << ") = " << got;
        double ulp = std::ldexp(1.0, std::ilogb(want) - 23);
        double err = std::fabs(got - want);
        if (err / ulp > maxUlp) {
          maxUlp = err / ulp;
          worst = x;
        }
        maxRel = std::max(maxRel, err / want);
      }
    }
    std::printf("exp (%s): max %.3f ulp (at %.9g), max relative error %.3g, "
                "%zu inputs\n",
                cpu.empty() ? "host" : cpu.c_str(), maxUlp, worst, maxRel,
                inputs.size());
    EXPECT_LE(maxUlp, mlir::fuel::kFastExpMaxUlp) << "at exp(" << worst << ")";
  }
}

// IEEE maximum (arith.maximumf): NaN if either is NaN, else the larger, +0
// above -0.
static float ieeeMaximum(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// The stride-2 NCHW max pool, whose windows are computed element by element
// (1-lane vectors, rewritten branch-free by populateBranchFreeMinMaxPatterns)
// over windows holding zeros of both signs, infinities and NaNs: every output
// has the bits of the IEEE maximum of its window (any NaN for NaN), for the
// host's ISA class and for haswell.
TEST_F(CpuSchedulesRun, PoolMaxSpecialValues) {
  std::vector<std::string> cpus = {""};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    cpus.push_back("haswell");
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.5f, -2.5f};
  const int n = 2, c = 3, h = 17, w = 17, oh = 8, ow = 8;
  Buffer in(n * c * h * w);
  std::mt19937 rng(11);
  for (float &v : in)
    v = specials[rng() % (sizeof specials / sizeof specials[0])];
  for (const std::string &cpu : cpus) {
    SCOPED_TRACE(cpu.empty() ? "host" : cpu);
    Compiled kernel;
    compile(k_pool_nchw_max, "pool_nchw_max", cpu, kernel);
    if (HasFatalFailure())
      return;
    Buffer out(n * c * oh * ow, 0.0f);
    void *bindings[2] = {in.data(), out.data()};
    fuel_dispatch d{
        bindings, nullptr, {kernel.grid[0], kernel.grid[1], kernel.grid[2]}};
    for (uint32_t z = 0; z < kernel.grid[2]; ++z)
      for (uint32_t y = 0; y < kernel.grid[1]; ++y)
        for (uint32_t x = 0; x < kernel.grid[0]; ++x)
          kernel.entry(&d, nullptr, x, y, z);
    for (int p = 0; p < n * c; ++p)
      for (int i = 0; i < oh; ++i)
        for (int j = 0; j < ow; ++j) {
          float want = -INFINITY;
          for (int ki = 0; ki < 2; ++ki)
            for (int kj = 0; kj < 2; ++kj)
              want =
                  ieeeMaximum(want, in[(p * h + 2 * i + ki) * w + 2 * j + kj]);
          float got = out[(p * oh + i) * ow + j];
          if (std::isnan(want)) {
            ASSERT_TRUE(std::isnan(got)) << p << "," << i << "," << j;
          } else {
            uint32_t gb, wb;
            std::memcpy(&gb, &got, 4);
            std::memcpy(&wb, &want, 4);
            ASSERT_EQ(gb, wb)
                << p << "," << i << "," << j << ": " << got << " != " << want;
          }
        }
  }
}
