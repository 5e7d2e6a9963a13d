//===- OpKind.h - Op kinds of kernel-bearing nodes --------------*- C++ -*-===//
//
// The planner's names for the op kinds of fuel/Support/OpKind.h (SEMANTICS
// §4): plan::OpKind is the same type as fuel::OpKind.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_OPKIND_H
#define FUEL_PLANNER_OPKIND_H

#include "fuel/Support/OpKind.h"

namespace fuel::plan {

using ::fuel::kAllOpKinds;
using ::fuel::OpKind;
using ::fuel::stringifyOpKind;
using ::fuel::symbolizeOpKind;

} // namespace fuel::plan

#endif // FUEL_PLANNER_OPKIND_H
