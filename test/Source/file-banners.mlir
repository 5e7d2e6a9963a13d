// Tests that every C, C++ and TableGen file of the tree starts with an LLVM
// file-header banner of exactly 80 columns, and that the check finds the
// ways a banner goes wrong (clang-format wrapping it, a dash too many, a
// missing editor mode, another file's name).

// RUN: %python %S/../../scripts/check-banners.py %S/../../include \
// RUN:   %S/../../lib %S/../../tools %S/../../unittests %S/../../bench \
// RUN:   %S/../../runtime | FileCheck %s
// CHECK-NOT: banner
// CHECK: files checked, 0 bad banners

// RUN: not %python %S/../../scripts/check-banners.py %S/Inputs \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD-NOT: Good.h
// BAD: Long.cpp: banner is 81 columns, not 80
// BAD: Mode.h: banner does not end in a space, dashes and '-*- C++ -*-===//'
// BAD: Other.td: banner does not start with '//===- Other.td - '
// BAD: Wrapped.h: banner is 74 columns, not 80
// BAD: 5 files checked, 4 bad banners
