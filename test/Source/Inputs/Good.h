//===- Good.h - A banner of exactly eighty columns --------------*- C++ -*-===//

int good;
