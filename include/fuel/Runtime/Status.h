//===- Status.h - The runtime's one error type ------------------*- C++ -*-===//
//
// Every fallible runtime call returns a Status or a StatusOr<T>: a code and a
// message naming what was wrong. The runtime never throws or aborts on
// misuse or bad input. LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_STATUS_H
#define FUEL_RUNTIME_STATUS_H

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
  Unimplemented
};

/// Success, or a failure with a code and a message.
class Status {
public:
  Status() = default;

  static Status ok() { return Status(); }
  static Status error(StatusCode code, std::string message) {
    Status s;
    s.code_ = code;
    s.message_ = std::move(message);
    return s;
  }

  bool isOk() const { return code_ == StatusCode::Ok; }
  StatusCode code() const { return code_; }
  const std::string &message() const { return message_; }

private:
  StatusCode code_ = StatusCode::Ok;
  std::string message_;
};

/// A value, or the Status saying why there is none.
template <typename T> class StatusOr {
public:
  StatusOr(T value) : value_(std::move(value)) {}
  StatusOr(Status status) : status_(std::move(status)) {
    if (status_.isOk())
      status_ = Status::error(StatusCode::Internal,
                              "StatusOr constructed from an ok Status");
  }

  bool isOk() const { return value_.has_value(); }
  const Status &status() const { return status_; }

  T &value() & { return *value_; }
  const T &value() const & { return *value_; }
  T &&value() && { return std::move(*value_); }
  T &operator*() & { return *value_; }
  const T &operator*() const & { return *value_; }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }

private:
  Status status_;
  std::optional<T> value_;
};

} // namespace fuel::rt

#endif // FUEL_RUNTIME_STATUS_H
