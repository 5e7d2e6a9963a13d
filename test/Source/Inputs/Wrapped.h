//===- Wrapped.h - A banner that clang-format wrapped --------------*- C++
//-*-===//

int wrapped;
