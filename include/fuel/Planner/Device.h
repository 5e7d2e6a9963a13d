//===- Device.h - Device identity for the IR-free planner -------*- C++ -*-===//
//
// The planner's names for the device vocabulary of fuel/Support/Device.h
// (SEMANTICS §1, device order of §5): the planner says plan::Device and
// plan::DeviceKind, the same types as fuel::Device and fuel::DeviceKind.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_DEVICE_H
#define FUEL_PLANNER_DEVICE_H

#include "fuel/Support/Device.h"

namespace fuel::plan {

using ::fuel::Device;
using ::fuel::DeviceKind;
using ::fuel::kAllDeviceKinds;
using ::fuel::stringifyDeviceKind;
using ::fuel::symbolizeDeviceKind;

} // namespace fuel::plan

#endif // FUEL_PLANNER_DEVICE_H
