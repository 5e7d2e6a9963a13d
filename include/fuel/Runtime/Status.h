//===- Status.h - The runtime's status and error type -----------*- C++ -*-===//
//
// The one error type of libfuelrt: a code and a message. Every runtime layer
// (executable loader, devices, sessions, C API) returns a Status, or a
// StatusOr<T> when it also produces a value; nothing in the runtime throws.
// Header-only and LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_STATUS_H
#define FUEL_RUNTIME_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace fuel::rt {

/// What went wrong, coarse enough to act on; the message says the rest.
enum class StatusCode {
  Ok,                 ///< No error.
  InvalidArgument,    ///< A caller passed something malformed.
  OutOfRange,         ///< An index, offset or size lies outside its bounds.
  DataLoss,           ///< Input bytes are truncated or corrupted.
  FailedPrecondition, ///< The call is valid but not in this state or here
                      ///< (a missing device or CPU feature, an unbound input).
  Unavailable,        ///< A device or library cannot be reached or loaded.
  ResourceExhausted,  ///< Out of memory, or a size beyond a device's capacity.
  Internal,           ///< A runtime invariant broke: a bug in libfuelrt.
  Unimplemented,      ///< Valid but not supported by this build or device.
};

/// The code's name as spelled above ("InvalidArgument").
inline const char *toString(StatusCode code) {
  switch (code) {
  case StatusCode::Ok:
    return "Ok";
  case StatusCode::InvalidArgument:
    return "InvalidArgument";
  case StatusCode::OutOfRange:
    return "OutOfRange";
  case StatusCode::DataLoss:
    return "DataLoss";
  case StatusCode::FailedPrecondition:
    return "FailedPrecondition";
  case StatusCode::Unavailable:
    return "Unavailable";
  case StatusCode::ResourceExhausted:
    return "ResourceExhausted";
  case StatusCode::Internal:
    return "Internal";
  case StatusCode::Unimplemented:
    return "Unimplemented";
  }
  return "Unknown";
}

/// Success, or an error code with a message. Messages name what failed
/// ("executable: segment 2 (kernel module): checksum mismatch"), so they can
/// be shown to a user as they are.
class [[nodiscard]] Status {
public:
  /// The success value (also what a default-constructed Status is).
  Status() = default;
  static Status ok() { return Status(); }
  /// An error; `code` must not be StatusCode::Ok.
  static Status error(StatusCode code, std::string msg) {
    assert(code != StatusCode::Ok && "an error needs an error code");
    return Status(code, std::move(msg));
  }

  bool isOk() const { return code_ == StatusCode::Ok; }
  /// True when ok, so that `if (Status s = f(); !s) return s;` reads well.
  explicit operator bool() const { return isOk(); }
  StatusCode code() const { return code_; }
  /// Empty when ok.
  const std::string &message() const { return message_; }

  /// "Ok", or "<Code>: <message>".
  std::string toString() const {
    if (isOk())
      return "Ok";
    return std::string(fuel::rt::toString(code_)) + ": " + message_;
  }

  /// The same error with `context` put in front of the message
  /// ("loading model.fuel: " + message); ok stays ok.
  Status withContext(const std::string &context) const {
    if (isOk())
      return *this;
    return Status(code_, context + ": " + message_);
  }

private:
  Status(StatusCode code, std::string msg)
      : code_(code), message_(std::move(msg)) {}

  StatusCode code_ = StatusCode::Ok;
  std::string message_;
};

/// A value of type T, or the error status that prevented it.
template <class T> class [[nodiscard]] StatusOr {
public:
  /// An error; `status` must not be ok.
  StatusOr(Status status) : status_(std::move(status)) {
    assert(!status_.isOk() && "StatusOr needs a value or an error");
    if (status_.isOk())
      status_ = Status::error(StatusCode::Internal,
                              "StatusOr constructed from an ok Status");
  }
  StatusOr(const T &value) : value_(value) {}
  StatusOr(T &&value) : value_(std::move(value)) {}

  bool isOk() const { return status_.isOk(); }
  explicit operator bool() const { return isOk(); }
  /// Ok when a value is held.
  const Status &status() const { return status_; }

  /// The value; only when isOk().
  T &value() & {
    assert(isOk() && "value() of an error StatusOr");
    return *value_;
  }
  const T &value() const & {
    assert(isOk() && "value() of an error StatusOr");
    return *value_;
  }
  T &&value() && {
    assert(isOk() && "value() of an error StatusOr");
    return std::move(*value_);
  }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T &&operator*() && { return std::move(*this).value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

private:
  Status status_;
  std::optional<T> value_;
};

} // namespace fuel::rt

/// Returns from the enclosing function when `expr` (a Status) is an error.
#define FUEL_RT_RETURN_IF_ERROR(expr)                                          \
  do {                                                                         \
    ::fuel::rt::Status fuelRtStatus_ = (expr);                                 \
    if (!fuelRtStatus_.isOk())                                                 \
      return fuelRtStatus_;                                                    \
  } while (0)

#endif // FUEL_RUNTIME_STATUS_H
