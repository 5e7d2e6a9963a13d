//===- Long.cpp - One dash too many for eighty columns ---------------------===//

int tooLong;
