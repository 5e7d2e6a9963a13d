//===- RuntimeCxx.h - A thin RAII C++ layer over the C API ------*- C++ -*-===//
//
// Owning handles over fuel-c/Runtime.h for C++ embedders who link only the
// C API (libfuelrt.so): each handle destroys what it owns, Status frees its
// fuelStatus, and every call returns a Status as the C call does. Header
// only; throws nothing.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_C_RUNTIMECXX_H
#define FUEL_C_RUNTIMECXX_H

#include "fuel-c/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fuel::capi {

/// An owned fuelStatus: ok when it holds none.
class Status {
public:
  Status() = default;
  explicit Status(fuelStatus status) : status_(status) {}
  Status(Status &&o) noexcept : status_(std::exchange(o.status_, nullptr)) {}
  Status &operator=(Status &&o) noexcept {
    std::swap(status_, o.status_);
    return *this;
  }
  Status(const Status &) = delete;
  Status &operator=(const Status &) = delete;
  ~Status() { fuelStatusFree(status_); }

  bool ok() const { return fuelStatusIsOk(status_); }
  explicit operator bool() const { return ok(); }
  fuelStatusCode code() const { return fuelStatusGetCode(status_); }
  /// "" when ok.
  std::string message() const { return fuelStatusMessage(status_); }

private:
  fuelStatus status_ = nullptr;
};

/// A unique owner of a C handle, destroyed with `Destroy`.
template <class H, void (*Destroy)(H)> class Owned {
public:
  Owned() = default;
  explicit Owned(H h) : h_(h) {}
  Owned(Owned &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Owned &operator=(Owned &&o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  ~Owned() { Destroy(h_); }

  H get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }
  /// Where a C call writes a new handle; releases the old one first.
  H *out() {
    Destroy(std::exchange(h_, nullptr));
    return &h_;
  }

private:
  H h_ = nullptr;
};

class Runtime : public Owned<fuelRuntime, fuelRuntimeDestroy> {
public:
  static Status create(const fuelRuntimeOptions *options, Runtime &out) {
    return Status(fuelRuntimeCreate(options, out.out()));
  }
};

class Executable : public Owned<fuelExecutable, fuelExecutableDestroy> {
public:
  static Status loadFile(const Runtime &rt, const std::string &path,
                         Executable &out) {
    return Status(fuelExecutableLoadFile(rt.get(), path.c_str(), out.out()));
  }
  static Status loadBytes(const Runtime &rt, const void *data, size_t size,
                          Executable &out) {
    return Status(fuelExecutableLoadBytes(rt.get(), data, size, out.out()));
  }
  Status inputCount(size_t &n) const {
    return Status(fuelExecutableInputCount(get(), &n));
  }
  Status outputCount(size_t &n) const {
    return Status(fuelExecutableOutputCount(get(), &n));
  }
  Status inputInfo(size_t i, fuelTensorInfo &info) const {
    return Status(fuelExecutableInputInfo(get(), i, &info));
  }
  Status outputInfo(size_t i, fuelTensorInfo &info) const {
    return Status(fuelExecutableOutputInfo(get(), i, &info));
  }
};

class Session : public Owned<fuelSession, fuelSessionDestroy> {
public:
  static Status create(const Executable &exe, Session &out) {
    return Status(fuelSessionCreate(exe.get(), out.out()));
  }
  /// `lanes`: queues per device (fuelSessionOptions::lanes; 0: default).
  static Status create(const Executable &exe, uint32_t lanes, Session &out) {
    fuelSessionOptions o = {};
    o.lanes = lanes;
    return Status(fuelSessionCreateWithOptions(exe.get(), &o, out.out()));
  }
  Status bindInput(size_t i, fuelDType dtype, const std::vector<int64_t> &shape,
                   const void *data, size_t bytes) {
    return Status(fuelSessionBindInput(get(), i, dtype, shape.data(),
                                       shape.size(), data, bytes));
  }
  Status run() { return Status(fuelSessionRun(get())); }
  Status runAsync() { return Status(fuelSessionRunAsync(get())); }
  Status wait() { return Status(fuelSessionWait(get())); }
  Status readOutput(size_t i, void *data, size_t bytes) {
    return Status(fuelSessionReadOutput(get(), i, data, bytes));
  }
  /// Every command's duration of the last finished run, in nanoseconds.
  Status commandTimings(std::vector<uint64_t> &ns) {
    size_t n = 0;
    Status s(fuelSessionCommandCount(get(), &n));
    if (!s)
      return s;
    ns.assign(n, 0);
    return Status(fuelSessionCommandTimings(get(), ns.data(), n));
  }
  /// Every command's lane, fixed when the session was created.
  Status commandLanes(std::vector<uint32_t> &lanes) {
    size_t n = 0;
    Status s(fuelSessionCommandCount(get(), &n));
    if (!s)
      return s;
    lanes.assign(n, 0);
    return Status(fuelSessionCommandLanes(get(), lanes.data(), n));
  }
};

} // namespace fuel::capi

#endif // FUEL_C_RUNTIMECXX_H
