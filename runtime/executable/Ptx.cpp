//===- Ptx.cpp - A bounded reader of PTX module text ----------------------===//
//
// Scans the PTX text of a CUDA module once, token by token, skipping
// comments and string literals, for its `.version`, `.target` and `.entry`
// directives (Ptx.h). Every index is checked against the size first.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Ptx.h"

#include <cstdint>

namespace fuel::rt {

namespace {

Status bad(const std::string &what) {
  return Status::error(StatusCode::InvalidArgument, what);
}

bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '%' || c == '.';
}

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

} // namespace

StatusOr<PtxModuleInfo> readPtxModule(const void *data, size_t size) {
  if (size == 0 || !data)
    return bad("an empty PTX module");
  const char *text = static_cast<const char *>(data);
  if (text[size - 1] != '\0')
    return bad("the PTX text of " + std::to_string(size) +
               " bytes does not end in a NUL byte");
  size_t n = size - 1; // the text, without its NUL
  for (size_t i = 0; i < n; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == 0)
      return bad("a NUL byte at offset " + std::to_string(i) +
                 " inside the PTX text");
    if (c >= 0x7f || (c < 0x20 && !isSpace(char(c))))
      return bad("byte " + std::to_string(c) + " at offset " +
                 std::to_string(i) + " is not PTX text");
  }

  PtxModuleInfo info;
  bool haveVersion = false, haveTarget = false;
  size_t i = 0;
  // The next token after position i: an identifier-like run, or one other
  // character; comments and string literals are skipped.
  auto next = [&]() -> std::string {
    while (i < n) {
      if (isSpace(text[i])) {
        ++i;
      } else if (text[i] == '/' && i + 1 < n && text[i + 1] == '/') {
        while (i < n && text[i] != '\n')
          ++i;
      } else if (text[i] == '/' && i + 1 < n && text[i + 1] == '*') {
        i += 2;
        while (i + 1 < n && !(text[i] == '*' && text[i + 1] == '/'))
          ++i;
        i = i + 2 <= n ? i + 2 : n;
      } else if (text[i] == '"') {
        ++i;
        while (i < n && text[i] != '"')
          ++i;
        if (i < n)
          ++i;
      } else {
        break;
      }
    }
    if (i >= n)
      return {};
    size_t start = i;
    if (isIdentChar(text[i])) {
      while (i < n && isIdentChar(text[i]))
        ++i;
    } else {
      ++i;
    }
    return std::string(text + start, i - start);
  };
  for (std::string token = next(); !token.empty(); token = next()) {
    if (token == ".version" && !haveVersion) {
      info.version = next();
      haveVersion = !info.version.empty();
    } else if (token == ".target" && !haveTarget) {
      info.target = next();
      haveTarget = !info.target.empty();
    } else if (token == ".entry") {
      std::string name = next();
      if (name.empty() || name == "(")
        return bad("an .entry directive without a name");
      info.entries.push_back(std::move(name));
    }
  }
  if (!haveVersion)
    return bad("the PTX text has no .version directive");
  if (!haveTarget)
    return bad("the PTX text has no .target directive");
  return info;
}

} // namespace fuel::rt
