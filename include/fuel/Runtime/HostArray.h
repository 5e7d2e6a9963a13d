//===- HostArray.h - Typed n-dimensional arrays in host memory --*- C++ -*-===//
//
// The arrays fuel-run reads, generates, prints and compares: an element type
// (DType), a shape in C (row-major) order and the bytes. A HostArray either
// owns a 64-byte-aligned buffer or views bytes someone else owns (a mapped
// .npy file). Element types are spelled as MLIR spells them (f32, i8, ui8,
// i1), so `2x3xf32` names the same type here, in IR and in fuel-run's output.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_HOSTARRAY_H
#define FUEL_RUNTIME_HOSTARRAY_H

#include "fuel/Runtime/Status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fuel::rt {

/// The element types of fuel's arrays. bf16 has no .npy spelling and is left
/// out until a backend needs it.
enum class DType : uint8_t {
  F16,
  F32,
  F64,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  Bool,
};

/// Every DType, in enumerator order.
inline constexpr std::array<DType, 12> kAllDTypes = {
    DType::F16, DType::F32, DType::F64, DType::I8,  DType::I16, DType::I32,
    DType::I64, DType::U8,  DType::U16, DType::U32, DType::U64, DType::Bool};

/// Bytes per element: 1, 2, 4 or 8.
size_t dtypeSize(DType dtype);
/// The MLIR spelling: f16 f32 f64 i8 i16 i32 i64 ui8 ui16 ui32 ui64 i1.
std::string_view dtypeName(DType dtype);
/// The inverse of dtypeName; nullopt for anything else.
std::optional<DType> parseDType(std::string_view name);
bool isFloatDType(DType dtype);
bool isSignedIntDType(DType dtype);

/// The type of an array as `SHAPExDTYPE`: `2x3xf32`, `7xi1`, and `f32` for
/// a scalar (rank 0).
std::string formatArrayType(DType dtype, const std::vector<int64_t> &shape);

/// Elements of `shape` (1 for a scalar), or nullopt when a dimension is
/// negative or the product overflows int64.
std::optional<int64_t> shapeElementCount(const std::vector<int64_t> &shape);
/// Bytes of an array of `dtype` and `shape`, or nullopt on a negative
/// dimension or an overflow of size_t.
std::optional<size_t> arrayByteSize(DType dtype,
                                    const std::vector<int64_t> &shape);

/// Checks that an array of (dtype, shape) is of the expected type; the error
/// (InvalidArgument) begins with `what`, e.g. `x.npy: is 2x3xf64, argument 0
/// expects 2x3xf32 (dtype f64, expected f32)`.
Status checkArrayType(DType dtype, const std::vector<int64_t> &shape,
                      DType expectedDType,
                      const std::vector<int64_t> &expectedShape,
                      std::string_view what, std::string_view expectedBy);

/// The alignment of every buffer a HostArray allocates.
inline constexpr size_t kHostArrayAlignment = 64;

/// A typed array in host memory, owning or viewing its bytes. Move-only.
class HostArray {
public:
  /// An empty f32 scalar with no bytes; only useful as a placeholder.
  HostArray() = default;

  /// A zero-filled array that owns a 64-byte-aligned buffer. Fails with
  /// InvalidArgument on a negative dimension and ResourceExhausted when the
  /// size overflows or the allocation fails.
  static StatusOr<HostArray> allocate(DType dtype, std::vector<int64_t> shape);

  /// A view of `data`, which must hold arrayByteSize(dtype, shape) bytes and
  /// outlive the view. The caller checked the shape.
  static HostArray view(DType dtype, std::vector<int64_t> shape,
                        const void *data);

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t elementCount() const { return elementCount_; }
  size_t byteSize() const { return byteSize_; }
  /// The bytes: 64-byte aligned when owned; as the viewed memory is when not.
  const void *data() const { return data_; }
  /// The bytes to write into; null for a view, which is read-only.
  void *mutableData() { return owned_ ? owned_.get() : nullptr; }
  bool ownsData() const { return owned_ != nullptr; }
  /// `SHAPExDTYPE`, as formatArrayType.
  std::string typeString() const { return formatArrayType(dtype_, shape_); }

private:
  struct AlignedDelete {
    void operator()(void *p) const;
  };

  DType dtype_ = DType::F32;
  std::vector<int64_t> shape_;
  int64_t elementCount_ = 1;
  size_t byteSize_ = 0;
  const void *data_ = nullptr;
  std::unique_ptr<void, AlignedDelete> owned_;
};

/// IEEE binary16 bits to float, exactly.
float halfToFloat(uint16_t bits);
/// Float to the nearest IEEE binary16, ties to even; NaN stays NaN (quiet).
uint16_t floatToHalf(float value);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_HOSTARRAY_H
