//===- Npy.cpp - Reading and writing .npy array files ---------------------===//
//
// The header of a .npy file is a Python dict literal. It is parsed here by a
// small recursive-descent parser of exactly the literal forms numpy writes
// and accepts for the three keys: quoted strings, True/False, non-negative
// decimal integers and tuples of them. Every check runs before a byte of data
// is touched or allocated, and every size is checked for overflow.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Npy.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

namespace fuel::rt {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr size_t kAlign = 64;
/// numpy's GROWTH_AXIS_MAX_DIGITS: room for the first dimension to grow.
constexpr size_t kGrowthDigits = 21;

/// Renders header bytes for a message: printable ASCII as is, the rest as
/// \xNN, cut after `max` characters.
std::string quoteBytes(std::string_view s, size_t max = 40) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < max; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (s.size() > max)
    out += "...";
  return out;
}

/// Table of the accepted descr type strings, without the byte-order
/// character: numpy kind, itemsize, DType.
struct DescrEntry {
  const char *code;
  DType dtype;
};
constexpr DescrEntry kDescrs[] = {
    {"f2", DType::F16}, {"f4", DType::F32}, {"f8", DType::F64},
    {"i1", DType::I8},  {"i2", DType::I16}, {"i4", DType::I32},
    {"i8", DType::I64}, {"u1", DType::U8},  {"u2", DType::U16},
    {"u4", DType::U32}, {"u8", DType::U64}, {"b1", DType::Bool},
};

const char *descrCode(DType dtype) {
  for (const DescrEntry &e : kDescrs)
    if (e.dtype == dtype)
      return e.code;
  return "?";
}

/// The parser of the header dictionary. Errors name the file, the header
/// and the offending part.
class HeaderParser {
public:
  HeaderParser(std::string_view text, std::string_view name)
      : text_(text), name_(name) {}

  Status parse(NpyHeader &out) {
    skipSpace();
    if (!consume('{'))
      return fail("does not start with '{'");
    bool haveDescr = false, haveOrder = false, haveShape = false;
    std::string descr;
    bool fortran = false;
    for (;;) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (Status s = parseString(key, "a key"); !s)
        return s;
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after key '" + quoteBytes(key) + "'");
      skipSpace();
      if (key == "descr") {
        if (haveDescr)
          return fail("duplicate key 'descr'");
        haveDescr = true;
        if (atEnd())
          return fail("ends inside the dictionary");
        if (peek() == '[')
          return unsupported("'descr' is a list: structured dtypes are not "
                             "supported");
        if (Status s = parseString(descr, "the value of 'descr'"); !s)
          return s;
      } else if (key == "fortran_order") {
        if (haveOrder)
          return fail("duplicate key 'fortran_order'");
        haveOrder = true;
        if (matchWord("True"))
          fortran = true;
        else if (matchWord("False"))
          fortran = false;
        else
          return fail("'fortran_order' must be True or False");
      } else if (key == "shape") {
        if (haveShape)
          return fail("duplicate key 'shape'");
        haveShape = true;
        if (Status s = parseShape(out.shape); !s)
          return s;
      } else {
        return fail("unknown key '" + quoteBytes(key) +
                    "' (expected 'descr', 'fortran_order', 'shape')");
      }
      skipSpace();
      if (consume(','))
        continue;
      if (consume('}'))
        break;
      return fail(atEnd() ? "ends inside the dictionary"
                          : "expected ',' or '}' at '" +
                                quoteBytes(text_.substr(pos_), 12) + "'");
    }
    skipSpace();
    if (!atEnd())
      return fail("has '" + quoteBytes(text_.substr(pos_), 12) +
                  "' after the dictionary");
    if (!haveDescr)
      return fail("lacks the key 'descr'");
    if (!haveOrder)
      return fail("lacks the key 'fortran_order'");
    if (!haveShape)
      return fail("lacks the key 'shape'");
    if (Status s = decodeDescr(descr, out.dtype); !s)
      return s;
    if (fortran && out.shape.size() > 1)
      return unsupported("is in Fortran order (fortran_order: True); only C "
                         "order is supported");
    return Status::ok();
  }

private:
  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  bool consume(char c) {
    if (atEnd() || peek() != c)
      return false;
    ++pos_;
    return true;
  }
  void skipSpace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' ||
                        peek() == '\r' || peek() == '\f' || peek() == '\v'))
      ++pos_;
  }
  /// Matches a Python keyword not followed by an identifier character.
  bool matchWord(std::string_view w) {
    if (text_.substr(pos_, w.size()) != w)
      return false;
    size_t end = pos_ + w.size();
    if (end < text_.size()) {
      char c = text_[end];
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
        return false;
    }
    pos_ = end;
    return true;
  }

  Status fail(std::string what) const {
    return Status::error(StatusCode::InvalidArgument,
                         std::string(name_) + ": .npy header " + what);
  }
  Status unsupported(std::string what) const {
    return Status::error(StatusCode::Unimplemented,
                         std::string(name_) + ": .npy header " + what);
  }

  /// A Python string literal in single or double quotes, without escapes
  /// or prefixes (numpy writes none for the keys and dtypes it reads).
  Status parseString(std::string &out, const char *what) {
    if (atEnd())
      return fail(std::string("ends where ") + what + " should be");
    char q = peek();
    if (q != '\'' && q != '"')
      return fail(std::string("expected a quoted string as ") + what + " at '" +
                  quoteBytes(text_.substr(pos_), 12) + "'");
    size_t start = ++pos_;
    while (!atEnd() && peek() != q) {
      if (peek() == '\\')
        return fail(std::string("has an escape sequence in ") + what +
                    " (not supported)");
      if (peek() == '\n')
        return fail(std::string("has a line break inside ") + what);
      ++pos_;
    }
    if (atEnd())
      return fail(std::string("ends inside ") + what);
    out = std::string(text_.substr(start, pos_ - start));
    ++pos_;
    return Status::ok();
  }

  /// A tuple of non-negative decimal integers: (), (3,), (2, 3), (2, 3,).
  Status parseShape(std::vector<int64_t> &shape) {
    if (!consume('('))
      return fail(atEnd() || peek() != '['
                      ? "'shape' must be a tuple of integers"
                      : "'shape' is a list; it must be a tuple of integers");
    shape.clear();
    for (;;) {
      skipSpace();
      if (consume(')'))
        return Status::ok();
      int64_t dim;
      if (Status s = parseDim(dim, shape.size()); !s)
        return s;
      shape.push_back(dim);
      skipSpace();
      if (consume(',')) {
        continue;
      }
      if (consume(')')) {
        // Python reads (3) as the integer 3, not a tuple.
        if (shape.size() == 1)
          return fail("'shape' is (" + std::to_string(dim) +
                      "), an integer; a 1-D shape is written (" +
                      std::to_string(dim) + ",)");
        return Status::ok();
      }
      return fail(atEnd() ? "ends inside 'shape'"
                          : "expected ',' or ')' in 'shape' at '" +
                                quoteBytes(text_.substr(pos_), 12) + "'");
    }
  }

  Status parseDim(int64_t &dim, size_t index) {
    std::string which = "dimension " + std::to_string(index) + " of 'shape'";
    if (atEnd())
      return fail("ends inside 'shape'");
    if (peek() == '-') {
      size_t p = pos_ + 1;
      while (p < text_.size() &&
             std::isdigit(static_cast<unsigned char>(text_[p])))
        ++p;
      return fail(which + " is negative (" +
                  quoteBytes(text_.substr(pos_, p - pos_)) + ")");
    }
    if (!std::isdigit(static_cast<unsigned char>(peek())))
      return fail(which + " is not a decimal integer at '" +
                  quoteBytes(text_.substr(pos_), 12) + "'");
    size_t start = pos_;
    uint64_t v = 0;
    bool overflow = false;
    while (!atEnd() && std::isdigit(static_cast<unsigned char>(peek()))) {
      unsigned d = static_cast<unsigned>(peek() - '0');
      if (v >
          (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - d) / 10)
        overflow = true;
      else
        v = v * 10 + d;
      ++pos_;
    }
    std::string_view digits = text_.substr(start, pos_ - start);
    if (!atEnd() && (std::isalpha(static_cast<unsigned char>(peek())) ||
                     peek() == '_' || peek() == '.'))
      return fail(which + " is not a decimal integer at '" +
                  quoteBytes(text_.substr(start), 12) + "'");
    if (digits.size() > 1 && digits[0] == '0')
      return fail(which + " has a leading zero (" + quoteBytes(digits) + ")");
    if (overflow)
      return fail(which + " (" + quoteBytes(digits) + ") overflows int64");
    dim = static_cast<int64_t>(v);
    return Status::ok();
  }

  Status decodeDescr(const std::string &descr, DType &dtype) const {
    std::string q = "'descr' '" + quoteBytes(descr) + "'";
    if (descr.empty())
      return fail("'descr' is empty");
    char order = descr[0];
    std::string code = descr.substr(1);
    if (order != '<' && order != '>' && order != '|' && order != '=') {
      // No byte-order character: numpy would read 'f4' as native order.
      return fail(q + " has no byte order ('<', '|')");
    }
    if (code == "O" || code == "O8" || code == "O4")
      return unsupported(q + " is an object dtype (not supported)");
    const DescrEntry *entry = nullptr;
    for (const DescrEntry &e : kDescrs)
      if (code == e.code)
        entry = &e;
    if (!entry)
      return unsupported(q + " is not a supported dtype (supported: f2 f4 "
                             "f8 i1 i2 i4 i8 u1 u2 u4 u8 b1)");
    bool oneByte = dtypeSize(entry->dtype) == 1;
    if (order == '>' && !oneByte)
      return unsupported(q + " is big-endian; only little-endian ('<') is "
                             "supported");
    if (order == '=')
      return unsupported(q + " is in native byte order ('='); only "
                             "little-endian ('<') is supported");
    if (order == '>' || (order == '|' && !oneByte))
      return fail(q + " has byte order '" + std::string(1, order) +
                  "'; expected '<'" + (oneByte ? " or '|'" : ""));
    dtype = entry->dtype;
    return Status::ok();
  }

  std::string_view text_;
  std::string_view name_;
  size_t pos_ = 0;
};

/// Whether `s` is well-formed UTF-8 (no overlongs, no surrogates).
bool isValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xe0) == 0xc0) {
      n = 1;
      cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      n = 2;
      cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n >= s.size())
      return false;
    for (size_t k = 1; k <= n; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80)
        return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return false;
    i += n + 1;
  }
  return true;
}

uint32_t readLE(const uint8_t *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}

std::string prefixed(std::string_view name, const std::string &what) {
  return std::string(name) + ": " + what;
}

} // namespace

StatusOr<NpyHeader> parseNpyHeader(const void *bytes, size_t size,
                                   std::string_view name) {
  const uint8_t *p = static_cast<const uint8_t *>(bytes);
  if (size < kMagicLen || std::memcmp(p, kMagic, kMagicLen) != 0) {
    if (size < kMagicLen && (size == 0 || std::memcmp(p, kMagic, size) == 0))
      return Status::error(StatusCode::DataLoss,
                           prefixed(name, "file of " + std::to_string(size) +
                                              " bytes is truncated inside "
                                              "the .npy magic"));
    return Status::error(
        StatusCode::InvalidArgument,
        prefixed(name, "not a .npy file: bad magic (expected "
                       "'\\x93NUMPY', found '" +
                           quoteBytes(std::string_view(
                               reinterpret_cast<const char *>(p),
                               std::min(size, kMagicLen))) +
                           "')"));
  }
  if (size < kMagicLen + 2)
    return Status::error(StatusCode::DataLoss,
                         prefixed(name, "file of " + std::to_string(size) +
                                            " bytes is truncated inside the "
                                            ".npy version"));
  NpyHeader h;
  h.major = p[6];
  h.minor = p[7];
  if (h.major < 1 || h.major > 3 || h.minor != 0)
    return Status::error(
        StatusCode::Unimplemented,
        prefixed(name, ".npy version " + std::to_string(h.major) + "." +
                           std::to_string(h.minor) +
                           " is not supported (supported: 1.0, 2.0, 3.0)"));
  size_t lenBytes = h.major == 1 ? 2 : 4;
  size_t prefix = kMagicLen + 2 + lenBytes;
  if (size < prefix)
    return Status::error(StatusCode::DataLoss,
                         prefixed(name, "file of " + std::to_string(size) +
                                            " bytes is truncated inside the "
                                            ".npy header length"));
  size_t headerLen = readLE(p + kMagicLen + 2, lenBytes);
  if (headerLen > size - prefix)
    return Status::error(StatusCode::DataLoss,
                         prefixed(name, ".npy header length " +
                                            std::to_string(headerLen) +
                                            " runs past the end of the file (" +
                                            std::to_string(size - prefix) +
                                            " bytes after the length field)"));
  std::string_view text(reinterpret_cast<const char *>(p + prefix), headerLen);
  if (h.major == 3) {
    if (!isValidUtf8(text))
      return Status::error(StatusCode::InvalidArgument,
                           prefixed(name, ".npy header of version 3.0 is not "
                                          "valid UTF-8"));
  }
  if (Status s = HeaderParser(text, name).parse(h); !s)
    return s;
  std::optional<size_t> bytesNeeded = arrayByteSize(h.dtype, h.shape);
  if (!bytesNeeded)
    return Status::error(StatusCode::InvalidArgument,
                         prefixed(name, ".npy header 'shape' " +
                                            formatArrayType(h.dtype, h.shape) +
                                            " overflows the address space"));
  h.dataOffset = prefix + headerLen;
  h.dataSize = *bytesNeeded;
  return h;
}

/// The data section of a file of `size` bytes must be exactly what the
/// header's shape and dtype need.
static Status checkDataSize(const NpyHeader &h, size_t size,
                            std::string_view name) {
  size_t have = size - h.dataOffset;
  if (have == h.dataSize)
    return Status::ok();
  return Status::error(
      StatusCode::DataLoss,
      prefixed(name,
               ".npy data section is " + std::to_string(have) +
                   " bytes; shape " + formatArrayType(h.dtype, h.shape) +
                   " needs " + std::to_string(h.dataSize) +
                   (have < h.dataSize ? " (truncated)" : " (trailing bytes)")));
}

StatusOr<HostArray> parseNpy(const void *bytes, size_t size,
                             std::string_view name) {
  StatusOr<NpyHeader> h = parseNpyHeader(bytes, size, name);
  if (!h.isOk())
    return h.status();
  if (Status st = checkDataSize(*h, size, name); !st.isOk())
    return st;
  return HostArray::view(h->dtype, h->shape,
                         static_cast<const uint8_t *>(bytes) + h->dataOffset);
}

namespace {

/// Reads exactly `n` bytes at `offset`; false on an error or end of file.
bool preadAll(int fd, void *buf, size_t n, off_t offset) {
  uint8_t *p = static_cast<uint8_t *>(buf);
  while (n > 0) {
    ssize_t r = ::pread(fd, p, n, offset);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    p += r;
    n -= static_cast<size_t>(r);
    offset += r;
  }
  return true;
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

} // namespace

StatusOr<HostArray> readNpyFile(const std::string &path) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0)
    return Status::error(
        StatusCode::Unavailable,
        prefixed(path, std::string("cannot open: ") + std::strerror(errno)));
  struct stat st;
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode))
    return Status::error(StatusCode::Unavailable,
                         prefixed(path, "not a regular file"));
  size_t size = static_cast<size_t>(st.st_size);
  // The header: numpy's fit in 64 KiB (version 1.0); read at most that
  // plus the largest version 2/3 prefix first, more only if it says so.
  std::vector<uint8_t> head(std::min<size_t>(size, 65536 + 12));
  if (!preadAll(f.fd, head.data(), head.size(), 0))
    return Status::error(StatusCode::Unavailable,
                         prefixed(path, "read error in the .npy header"));
  StatusOr<NpyHeader> h = parseNpyHeader(head.data(), head.size(), path);
  if (!h.isOk() && h.status().code() == StatusCode::DataLoss &&
      head.size() < size && size >= 12) {
    // A version 2/3 header longer than 64 KiB: read all of it, bounded by
    // the file, whose size is known.
    size_t headerLen = readLE(head.data() + 8, 4);
    size_t need = std::min<size_t>(size, 12 + headerLen);
    head.resize(need);
    if (!preadAll(f.fd, head.data(), head.size(), 0))
      return Status::error(StatusCode::Unavailable,
                           prefixed(path, "read error in the .npy header"));
    h = parseNpyHeader(head.data(), head.size(), path);
  }
  if (!h.isOk())
    return h.status();
  if (Status st = checkDataSize(*h, size, path); !st.isOk())
    return st;
  StatusOr<HostArray> a = HostArray::allocate(h->dtype, h->shape);
  if (!a.isOk())
    return a.status().withContext(path);
  if (h->dataSize > 0 && !preadAll(f.fd, a->mutableData(), h->dataSize,
                                   static_cast<off_t>(h->dataOffset)))
    return Status::error(StatusCode::DataLoss,
                         prefixed(path, "the .npy data section could not be "
                                        "read in full"));
  return a;
}

StatusOr<std::vector<uint8_t>> encodeNpy(const HostArray &array, int version) {
  // The dictionary exactly as numpy's _write_array_header: keys sorted,
  // repr() of each value, then growth room for the first dimension.
  std::string dict = "{'descr': '";
  dict += dtypeSize(array.dtype()) == 1 ? '|' : '<';
  dict += descrCode(array.dtype());
  dict += "', 'fortran_order': False, 'shape': (";
  const std::vector<int64_t> &shape = array.shape();
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      dict += ", ";
    dict += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    dict += ',';
  dict += "), }";
  if (!shape.empty()) {
    size_t digits = std::to_string(shape[0]).size();
    if (digits < kGrowthDigits)
      dict.append(kGrowthDigits - digits, ' ');
  }
  // As numpy's _wrap_header: hlen counts the final newline; the padding
  // is 64 - (prefix + hlen) % 64, so a full 64 when already aligned.
  auto wrappedSize = [&](int v) {
    size_t prefix = kMagicLen + 2 + (v == 1 ? 2 : 4);
    size_t hlen = dict.size() + 1;
    size_t pad = kAlign - (prefix + hlen) % kAlign;
    return std::pair<size_t, size_t>(prefix, hlen + pad);
  };
  if (version == 0)
    version = wrappedSize(1).second <= 0xffff ? 1 : 2;
  if (version < 1 || version > 3)
    return Status::error(StatusCode::InvalidArgument,
                         ".npy version " + std::to_string(version) +
                             " cannot be written (1, 2 or 3)");
  auto [prefix, headerLen] = wrappedSize(version);
  if (version == 1 && headerLen > 0xffff)
    return Status::error(StatusCode::InvalidArgument,
                         ".npy header of " + std::to_string(headerLen) +
                             " bytes does not fit version 1.0");
  std::vector<uint8_t> out;
  out.reserve(prefix + headerLen + array.byteSize());
  out.insert(out.end(), kMagic, kMagic + kMagicLen);
  out.push_back(static_cast<uint8_t>(version));
  out.push_back(0);
  for (size_t i = 0; i < prefix - kMagicLen - 2; ++i)
    out.push_back(static_cast<uint8_t>(headerLen >> (8 * i)));
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), headerLen - dict.size() - 1, ' ');
  out.push_back('\n');
  const uint8_t *d = static_cast<const uint8_t *>(array.data());
  if (array.byteSize())
    out.insert(out.end(), d, d + array.byteSize());
  return out;
}

Status writeNpyFile(const std::string &path, const HostArray &array,
                    int version) {
  StatusOr<std::vector<uint8_t>> bytes = encodeNpy(array, version);
  if (!bytes.isOk())
    return bytes.status().withContext(path);
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return Status::error(
        StatusCode::Unavailable,
        prefixed(path, std::string("cannot create: ") + std::strerror(errno)));
  size_t n = std::fwrite(bytes->data(), 1, bytes->size(), f);
  bool ok = n == bytes->size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok)
    return Status::error(StatusCode::Unavailable,
                         prefixed(path, "write error"));
  return Status::ok();
}

} // namespace fuel::rt
