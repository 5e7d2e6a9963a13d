//===- Status.h - The runtime's one error type ------------------*- C++ -*-===//
//
// Every fallible call of libfuelrt returns a Status, or a StatusOr<T> that
// holds either a value or the error. A Status carries a code for programs and
// a message for people; the message names what was wrong and where (the file,
// the section, the field). No exceptions: the runtime is embedded in products
// built without them, and its C API returns these statuses as they are.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_STATUS_H
#define FUEL_RUNTIME_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace fuel::rt {

/// What kind of failure a Status reports.
enum class StatusCode {
  Ok,
  InvalidArgument,
  OutOfRange,
  DataLoss,
  FailedPrecondition,
  Unavailable,
  ResourceExhausted,
  Internal,
  Unimplemented,
};

/// Success, or an error with a code and a message.
class [[nodiscard]] Status {
public:
  /// Success.
  Status() = default;

  /// Success.
  static Status ok() { return Status(); }

  /// An error. `code` must not be StatusCode::Ok.
  static Status error(StatusCode code, std::string message) {
    assert(code != StatusCode::Ok && "an error needs an error code");
    Status s;
    s.code_ = code;
    s.message_ = std::move(message);
    return s;
  }

  bool isOk() const { return code_ == StatusCode::Ok; }
  /// True when ok.
  explicit operator bool() const { return isOk(); }
  StatusCode code() const { return code_; }
  /// Empty when ok.
  const std::string &message() const { return message_; }

private:
  StatusCode code_ = StatusCode::Ok;
  std::string message_;
};

/// A value of type T, or the error that prevented it.
template <typename T> class [[nodiscard]] StatusOr {
public:
  /// An error; `status` must not be ok.
  StatusOr(Status status) : status_(std::move(status)) {
    assert(!status_.isOk() && "StatusOr built from an ok Status has no value");
  }
  StatusOr(T value) : value_(std::move(value)) {}

  bool isOk() const { return status_.isOk(); }
  const Status &status() const { return status_; }

  T &value() & {
    assert(isOk());
    return *value_;
  }
  const T &value() const & {
    assert(isOk());
    return *value_;
  }
  T &&value() && {
    assert(isOk());
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

#endif // FUEL_RUNTIME_STATUS_H
