//===- SizeClass.cpp - Size classes and dtypes keys -----------------------===//
//
// The size-class table of SEMANTICS §4.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/SizeClass.h"
#include "fuel/Planner/Wide.h"

#include <cstdio>

namespace fuel::plan {

using U128 = UInt128;

/// Saturating 128-bit product: shape figures are at most 2^64 - 1 each, and
/// a field clamps at 255 anyway, so saturation never changes a size class
/// that fits in its field.
static U128 satMul128(U128 a, U128 b) { return satMul(a, b); }

/// floor(log2(max(x, 1))) for 128-bit x (at most 127, so it fits an 8-bit
/// field).
static unsigned lg128(U128 x) { return floorLog2(x); }

static uint32_t pack(unsigned hi, unsigned mid, unsigned lo) {
  return (uint32_t(hi) << 16) | (uint32_t(mid) << 8) | uint32_t(lo);
}

unsigned lg(uint64_t x) { return lg128(x); }

uint32_t sizeClassMatmul(uint64_t m, uint64_t n, uint64_t k) {
  return pack(lg128(satMul128(m, n)), lg(m), lg(k));
}

uint32_t sizeClassBatchMatmul(uint64_t b, uint64_t m, uint64_t n, uint64_t k) {
  return pack(lg128(satMul128(satMul128(b, m), n)), lg(m), lg(k));
}

uint32_t sizeClassConv2d(uint64_t n, uint64_t oh, uint64_t ow, uint64_t oc,
                         uint64_t ic, uint64_t kh, uint64_t kw) {
  U128 out = satMul128(satMul128(satMul128(n, oh), ow), oc);
  U128 red = satMul128(satMul128(ic, kh), kw);
  return pack(lg128(out), lg(oc), lg128(red));
}

uint32_t sizeClassPool(uint64_t outputElements, uint64_t windowElements) {
  return pack(0, lg(outputElements), lg(windowElements));
}

uint32_t sizeClassReduce(uint64_t inputElements, uint64_t reducedExtent) {
  return pack(0, lg(inputElements), lg(reducedExtent));
}

uint32_t sizeClassSoftmax(uint64_t elements, uint64_t axisExtent) {
  return pack(0, lg(elements), lg(axisExtent));
}

uint32_t sizeClassElements(uint64_t elements) { return lg(elements); }

unsigned sizeClassArity(OpKind kind) {
  switch (kind) {
  case OpKind::Matmul:
    return 3;
  case OpKind::BatchMatmul:
    return 4;
  case OpKind::Conv2d:
    return 7;
  case OpKind::Pool:
  case OpKind::Reduce:
  case OpKind::Softmax:
    return 2;
  case OpKind::Elementwise:
  case OpKind::Transpose:
  case OpKind::Generic:
    return 1;
  }
  return 1;
}

std::optional<uint32_t> sizeClass(OpKind kind, llvm::ArrayRef<uint64_t> f) {
  if (f.size() != sizeClassArity(kind))
    return std::nullopt;
  switch (kind) {
  case OpKind::Matmul:
    return sizeClassMatmul(f[0], f[1], f[2]);
  case OpKind::BatchMatmul:
    return sizeClassBatchMatmul(f[0], f[1], f[2], f[3]);
  case OpKind::Conv2d:
    return sizeClassConv2d(f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
  case OpKind::Pool:
    return sizeClassPool(f[0], f[1]);
  case OpKind::Reduce:
    return sizeClassReduce(f[0], f[1]);
  case OpKind::Softmax:
    return sizeClassSoftmax(f[0], f[1]);
  case OpKind::Elementwise:
  case OpKind::Transpose:
  case OpKind::Generic:
    return sizeClassElements(f[0]);
  }
  return std::nullopt;
}

std::string formatSizeClass(uint32_t sizeClass) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%06x", unsigned(sizeClass));
  return buf;
}

const std::string &DtypesKey::principal() const {
  static const std::string empty;
  if (!inputs.empty())
    return inputs.front();
  if (!outputs.empty())
    return outputs.front();
  return empty;
}

std::vector<std::string> DtypesKey::flat() const {
  std::vector<std::string> out = inputs;
  out.insert(out.end(), outputs.begin(), outputs.end());
  return out;
}

std::string DtypesKey::str() const {
  std::string out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i)
      out += ',';
    out += inputs[i];
  }
  out += "->";
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i)
      out += ',';
    out += outputs[i];
  }
  return out;
}

} // namespace fuel::plan
