//===- Json.cpp - A strict JSON reader and writer, LLVM-free --------------===//
//
// A recursive-descent reader over the text with a line/column cursor, and a
// compact writer. See Json.h.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Json.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace fuel::rt::json {

const Value *Value::find(std::string_view key) const {
  for (const auto &m : members)
    if (m.first == key)
      return &m.second;
  return nullptr;
}

double Value::number() const { return std::strtod(text.c_str(), nullptr); }

std::optional<int64_t> Value::integer() const {
  if (kind != Kind::Number || text.empty())
    return std::nullopt;
  for (char c : text)
    if (!(c == '-' || (c >= '0' && c <= '9')))
      return std::nullopt;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || !end || *end)
    return std::nullopt;
  return int64_t(v);
}

const char *Value::kindName() const {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "boolean";
  case Kind::Number:
    return "number";
  case Kind::String:
    return "string";
  case Kind::Array:
    return "array";
  case Kind::Object:
    return "object";
  }
  return "value";
}

namespace {

constexpr unsigned kMaxDepth = 64;

class Parser {
public:
  Parser(std::string_view text, const std::string &file)
      : text(text), file(file) {}

  StatusOr<Value> parseDocument() {
    skipSpace();
    Value v;
    if (Status s = parseValue(v, 0); !s)
      return s;
    skipSpace();
    if (pos != text.size())
      return error("unexpected text after the JSON value");
    return v;
  }

private:
  std::string_view text;
  const std::string &file;
  size_t pos = 0;
  unsigned line = 1, column = 1;

  Status error(const std::string &message) const {
    return Status::error(StatusCode::InvalidArgument,
                         file + ":" + std::to_string(line) + ":" +
                             std::to_string(column) + ": " + message);
  }
  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }
  void advance() {
    if (text[pos] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    ++pos;
  }
  void skipSpace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' ||
                        peek() == '\r'))
      advance();
  }
  bool consumeWord(std::string_view w) {
    if (text.substr(pos, w.size()) != w)
      return false;
    for (size_t i = 0; i < w.size(); ++i)
      advance();
    return true;
  }

  Status parseValue(Value &v, unsigned depth) {
    if (depth > kMaxDepth)
      return error("nesting deeper than " + std::to_string(kMaxDepth));
    v.line = line;
    v.column = column;
    if (atEnd())
      return error("expected a value, got the end of the text");
    char c = peek();
    if (c == '{')
      return parseObject(v, depth);
    if (c == '[')
      return parseArray(v, depth);
    if (c == '"') {
      v.kind = Value::Kind::String;
      return parseString(v.text);
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(v);
    if (consumeWord("true")) {
      v.kind = Value::Kind::Bool;
      v.boolean = true;
      return Status::ok();
    }
    if (consumeWord("false")) {
      v.kind = Value::Kind::Bool;
      return Status::ok();
    }
    if (consumeWord("null"))
      return Status::ok();
    return error(std::string("unexpected character '") + c + "'");
  }

  Status parseObject(Value &v, unsigned depth) {
    v.kind = Value::Kind::Object;
    advance(); // '{'
    skipSpace();
    if (peek() == '}') {
      advance();
      return Status::ok();
    }
    while (true) {
      skipSpace();
      if (peek() != '"')
        return error("expected a member name in quotes");
      unsigned keyLine = line, keyColumn = column;
      std::string key;
      if (Status s = parseString(key); !s)
        return s;
      if (v.find(key)) {
        line = keyLine; // the error points at the repeated name
        column = keyColumn;
        return error("duplicate member '" + key + "'");
      }
      skipSpace();
      if (peek() != ':')
        return error("expected ':' after member name '" + key + "'");
      advance();
      skipSpace();
      Value member;
      if (Status s = parseValue(member, depth + 1); !s)
        return s;
      v.members.emplace_back(std::move(key), std::move(member));
      skipSpace();
      if (peek() == ',') {
        advance();
        continue;
      }
      if (peek() == '}') {
        advance();
        return Status::ok();
      }
      return error("expected ',' or '}' in an object");
    }
  }

  Status parseArray(Value &v, unsigned depth) {
    v.kind = Value::Kind::Array;
    advance(); // '['
    skipSpace();
    if (peek() == ']') {
      advance();
      return Status::ok();
    }
    while (true) {
      skipSpace();
      Value element;
      if (Status s = parseValue(element, depth + 1); !s)
        return s;
      v.elements.push_back(std::move(element));
      skipSpace();
      if (peek() == ',') {
        advance();
        continue;
      }
      if (peek() == ']') {
        advance();
        return Status::ok();
      }
      return error("expected ',' or ']' in an array");
    }
  }

  Status parseNumber(Value &v) {
    v.kind = Value::Kind::Number;
    size_t start = pos;
    auto digits = [&] {
      size_t n = 0;
      while (!atEnd() && peek() >= '0' && peek() <= '9') {
        advance();
        ++n;
      }
      return n;
    };
    if (peek() == '-')
      advance();
    if (peek() == '0') {
      advance();
    } else if (digits() == 0) {
      return error("expected a digit in a number");
    }
    if (peek() == '.') {
      advance();
      if (digits() == 0)
        return error("expected a digit after '.' in a number");
    }
    if (peek() == 'e' || peek() == 'E') {
      advance();
      if (peek() == '+' || peek() == '-')
        advance();
      if (digits() == 0)
        return error("expected a digit in a number's exponent");
    }
    v.text = std::string(text.substr(start, pos - start));
    return Status::ok();
  }

  static void appendUtf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  Status parseHex4(uint32_t &cp) {
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      char c = peek();
      uint32_t d;
      if (c >= '0' && c <= '9')
        d = uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f')
        d = uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        d = uint32_t(c - 'A' + 10);
      else
        return error("expected four hex digits after \\u");
      cp = cp * 16 + d;
      advance();
    }
    return Status::ok();
  }

  Status parseString(std::string &out) {
    advance(); // '"'
    out.clear();
    while (true) {
      if (atEnd())
        return error("unterminated string");
      unsigned char c = static_cast<unsigned char>(peek());
      if (c == '"') {
        advance();
        return Status::ok();
      }
      if (c < 0x20)
        return error("control character in a string");
      if (c != '\\') {
        out += char(c);
        advance();
        continue;
      }
      advance();
      if (atEnd())
        return error("unterminated string");
      char e = peek();
      advance();
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp;
        if (Status s = parseHex4(cp); !s)
          return s;
        if (cp >= 0xD800 && cp < 0xDC00) {
          if (!consumeWord("\\u"))
            return error("a high surrogate without its low surrogate");
          uint32_t lo;
          if (Status s = parseHex4(lo); !s)
            return s;
          if (lo < 0xDC00 || lo >= 0xE000)
            return error("a high surrogate without its low surrogate");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          return error("a low surrogate without its high surrogate");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        return error(std::string("unknown escape '\\") + e + "'");
      }
    }
  }
};

} // namespace

StatusOr<Value> parse(std::string_view text, const std::string &file) {
  return Parser(text, file).parseDocument();
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string write(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return v.boolean ? "true" : "false";
  case Value::Kind::Number:
    return v.text;
  case Value::Kind::String:
    return quote(v.text);
  case Value::Kind::Array: {
    std::string s = "[";
    for (size_t i = 0; i < v.elements.size(); ++i)
      s += (i ? ", " : "") + write(v.elements[i]);
    return s + "]";
  }
  case Value::Kind::Object: {
    std::string s = "{";
    for (size_t i = 0; i < v.members.size(); ++i)
      s += (i ? ", " : "") + quote(v.members[i].first) + ": " +
           write(v.members[i].second);
    return s + "}";
  }
  }
  return "null";
}

} // namespace fuel::rt::json
