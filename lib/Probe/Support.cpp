//===- Support.cpp - Helpers shared by the probe backends -----------------===//
//
// Locale-independent number parsing and whole-file reads for /proc and /sys.
//
//===----------------------------------------------------------------------===//

#include "Support.h"

#include <charconv>
#include <cstdarg>
#include <cstdio>

namespace fuel::probe::detail {

std::optional<std::string> readFile(const char *path) {
  std::FILE *file = std::fopen(path, "r");
  if (!file)
    return std::nullopt;
  std::string content;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    content.append(buffer, n);
  bool failed = std::ferror(file);
  std::fclose(file);
  if (failed)
    return std::nullopt;
  return content;
}

std::string_view trim(std::string_view text) {
  const char *blanks = " \t\r\n";
  size_t begin = text.find_first_not_of(blanks);
  if (begin == std::string_view::npos)
    return {};
  size_t end = text.find_last_not_of(blanks);
  return text.substr(begin, end - begin + 1);
}

std::optional<double> parseDouble(std::string_view text) {
  double value = 0;
  // std::from_chars ignores the C locale, unlike strtod, so a host program
  // that set a locale with a decimal comma still reads "2596.138" right.
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(),
                                   value, std::chars_format::fixed);
  if (ec != std::errc() || ptr == text.data())
    return std::nullopt;
  return value;
}

std::optional<uint64_t> parseUnsigned(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  uint64_t value = 0;
  auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || ptr == text.data())
    return std::nullopt;
  return value;
}

std::string format(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  int size = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string out;
  if (size > 0) {
    out.resize(static_cast<size_t>(size) + 1);
    std::vsnprintf(out.data(), out.size(), fmt, args);
    out.resize(static_cast<size_t>(size));
  }
  va_end(args);
  return out;
}

} // namespace fuel::probe::detail
