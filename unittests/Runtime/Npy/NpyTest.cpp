//===- NpyTest.cpp - Tests of the .npy reader and writer ------------------===//
//
// Files numpy wrote read back exactly and are re-encoded byte for byte;
// round trips for every dtype and version; every malformed class refused
// with a message naming the file and the fault; truncation at every length
// never crashes; numpy reads what the writer writes.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Npy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace fuel::rt;

namespace {

std::string inputPath(const std::string &name) {
  return std::string(FUEL_NPY_INPUTS_DIR) + "/" + name;
}

/// A file name in the test temporary directory, unique to this process so
/// that concurrent runs of the tests (two build trees) do not collide.
std::string tempPath(const std::string &name) {
  return ::testing::TempDir() + "/fuel-npy-" + std::to_string(::getpid()) +
         "-" + name;
}

std::vector<uint8_t> slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

/// Element i of the files generate.py writes, as the bytes of `dtype`.
void expectedElement(DType dtype, int64_t i, uint8_t *out) {
  int64_t k = (7 * i) % 11;
  size_t bits = dtypeSize(dtype) * 8;
  auto put = [&](auto v) { std::memcpy(out, &v, sizeof v); };
  switch (dtype) {
  case DType::F16:
    return put(floatToHalf(static_cast<float>(k) / 3.0f));
  case DType::F32:
    return put(static_cast<float>(k) / 3.0f);
  case DType::F64:
    return put(static_cast<double>(k) / 3.0);
  case DType::I8:
    return put(static_cast<int8_t>((k - 5) * (int64_t{1} << (bits - 5))));
  case DType::I16:
    return put(static_cast<int16_t>((k - 5) * (int64_t{1} << (bits - 5))));
  case DType::I32:
    return put(static_cast<int32_t>((k - 5) * (int64_t{1} << (bits - 5))));
  case DType::I64:
    return put(static_cast<int64_t>((k - 5) * (int64_t{1} << (bits - 5))));
  case DType::U8:
    return put(static_cast<uint8_t>(k << (bits - 4)));
  case DType::U16:
    return put(static_cast<uint16_t>(k << (bits - 4)));
  case DType::U32:
    return put(static_cast<uint32_t>(uint64_t(k) << (bits - 4)));
  case DType::U64:
    return put(static_cast<uint64_t>(uint64_t(k) << (bits - 4)));
  case DType::Bool:
    return put(static_cast<uint8_t>(i % 3 == 0));
  }
}

std::vector<uint8_t> expectedData(DType dtype, int64_t n) {
  std::vector<uint8_t> d(static_cast<size_t>(n) * dtypeSize(dtype));
  for (int64_t i = 0; i < n; ++i)
    expectedElement(dtype, i, d.data() + i * dtypeSize(dtype));
  return d;
}

HostArray makeArray(DType dtype, std::vector<int64_t> shape) {
  StatusOr<HostArray> a = HostArray::allocate(dtype, std::move(shape));
  EXPECT_TRUE(a.isOk()) << a.status().message();
  std::vector<uint8_t> d = expectedData(dtype, a->elementCount());
  if (!d.empty())
    std::memcpy(a->mutableData(), d.data(), d.size());
  return std::move(a).value();
}

struct NumpyFile {
  const char *file;
  DType dtype;
  std::vector<int64_t> shape;
  int version;
};

const std::vector<NumpyFile> &numpyFiles() {
  static const std::vector<NumpyFile> files = {
      {"f2.npy", DType::F16, {2, 3}, 1},
      {"f4.npy", DType::F32, {2, 3}, 1},
      {"f8.npy", DType::F64, {2, 3}, 1},
      {"i1.npy", DType::I8, {2, 3}, 1},
      {"i2.npy", DType::I16, {2, 3}, 1},
      {"i4.npy", DType::I32, {2, 3}, 1},
      {"i8.npy", DType::I64, {2, 3}, 1},
      {"u1.npy", DType::U8, {2, 3}, 1},
      {"u2.npy", DType::U16, {2, 3}, 1},
      {"u4.npy", DType::U32, {2, 3}, 1},
      {"u8.npy", DType::U64, {2, 3}, 1},
      {"b1.npy", DType::Bool, {2, 3}, 1},
      {"f4_v2.npy", DType::F32, {2, 3}, 2},
      {"f4_v3.npy", DType::F32, {2, 3}, 3},
      {"i8_v2.npy", DType::I64, {4}, 2},
      {"f8_v3.npy", DType::F64, {3, 1, 2}, 3},
      {"i2_scalar.npy", DType::I16, {}, 1},
      {"u1_1d.npy", DType::U8, {5}, 1},
      {"f8_empty.npy", DType::F64, {0, 3}, 1},
      {"f4_3d.npy", DType::F32, {2, 2, 2}, 1},
      {"f4_long_dim.npy", DType::F32, {1234567, 0}, 1},
  };
  return files;
}

// Tests that every file numpy wrote reads back with its dtype, shape and
// exact bytes, from a file and from memory, and that the writer reproduces
// numpy's bytes exactly.
TEST(NpyTest, ReadsNumpyFilesExactly) {
  for (const NumpyFile &f : numpyFiles()) {
    SCOPED_TRACE(f.file);
    StatusOr<HostArray> a = readNpyFile(inputPath(f.file));
    ASSERT_TRUE(a.isOk()) << a.status().message();
    EXPECT_EQ(a->dtype(), f.dtype);
    EXPECT_EQ(a->shape(), f.shape);
    EXPECT_TRUE(a->ownsData());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a->data()) % 64, 0u);
    std::vector<uint8_t> want = expectedData(f.dtype, a->elementCount());
    ASSERT_EQ(a->byteSize(), want.size());
    if (!want.empty()) {
      EXPECT_EQ(0, std::memcmp(a->data(), want.data(), want.size()));
    }

    std::vector<uint8_t> bytes = slurp(inputPath(f.file));
    StatusOr<NpyHeader> h = parseNpyHeader(bytes.data(), bytes.size(), f.file);
    ASSERT_TRUE(h.isOk()) << h.status().message();
    EXPECT_EQ(h->major, f.version);
    EXPECT_EQ(h->dataOffset % 64, 0u);
    StatusOr<HostArray> v = parseNpy(bytes.data(), bytes.size(), f.file);
    ASSERT_TRUE(v.isOk()) << v.status().message();
    EXPECT_FALSE(v->ownsData());
    EXPECT_EQ(v->data(), bytes.data() + h->dataOffset);
    EXPECT_EQ(v->shape(), f.shape);

    StatusOr<std::vector<uint8_t>> enc = encodeNpy(*a, f.version);
    ASSERT_TRUE(enc.isOk()) << enc.status().message();
    EXPECT_EQ(*enc, bytes) << "the writer does not reproduce numpy's bytes";
  }
}

// Tests write -> read round trips for every dtype, version and a few
// shapes, through memory and through a file.
TEST(NpyTest, RoundTripsEveryDTypeAndVersion) {
  std::vector<std::vector<int64_t>> shapes = {{},     {1},    {7},
                                              {2, 3}, {3, 0}, {2, 1, 3, 2}};
  std::string path = tempPath("roundtrip.npy");
  for (DType d : kAllDTypes) {
    for (const auto &shape : shapes) {
      for (int version : {0, 1, 2, 3}) {
        SCOPED_TRACE(formatArrayType(d, shape) + " v" +
                     std::to_string(version));
        HostArray a = makeArray(d, shape);
        StatusOr<std::vector<uint8_t>> enc = encodeNpy(a, version);
        ASSERT_TRUE(enc.isOk()) << enc.status().message();
        StatusOr<NpyHeader> h = parseNpyHeader(enc->data(), enc->size(), "mem");
        ASSERT_TRUE(h.isOk()) << h.status().message();
        EXPECT_EQ(h->major, version == 0 ? 1 : version);
        EXPECT_EQ(h->dataOffset % 64, 0u);
        StatusOr<HostArray> b = parseNpy(enc->data(), enc->size(), "mem");
        ASSERT_TRUE(b.isOk()) << b.status().message();
        EXPECT_EQ(b->dtype(), d);
        EXPECT_EQ(b->shape(), shape);
        ASSERT_EQ(b->byteSize(), a.byteSize());
        EXPECT_EQ(0, std::memcmp(b->data(), a.data(), a.byteSize()));

        ASSERT_TRUE(writeNpyFile(path, a, version).isOk());
        StatusOr<HostArray> c = readNpyFile(path);
        ASSERT_TRUE(c.isOk()) << c.status().message();
        EXPECT_EQ(c->shape(), shape);
        EXPECT_EQ(0, std::memcmp(c->data(), a.data(), a.byteSize()));
      }
    }
  }
  std::remove(path.c_str());
}

// Tests that a header too long for version 1.0 makes the writer choose 2.0,
// and that forcing 1.0 then fails instead of writing a broken file.
TEST(NpyTest, WriterMovesToVersion2ForLongHeaders) {
  std::vector<int64_t> shape(30000, 1);
  HostArray a = makeArray(DType::U8, shape);
  StatusOr<std::vector<uint8_t>> enc = encodeNpy(a);
  ASSERT_TRUE(enc.isOk());
  EXPECT_EQ((*enc)[6], 2);
  StatusOr<HostArray> b = parseNpy(enc->data(), enc->size(), "long");
  ASSERT_TRUE(b.isOk()) << b.status().message();
  EXPECT_EQ(b->shape(), shape);
  StatusOr<std::vector<uint8_t>> v1 = encodeNpy(a, 1);
  ASSERT_FALSE(v1.isOk());
  EXPECT_NE(v1.status().message().find("does not fit version 1.0"),
            std::string::npos);
  std::string path = tempPath("long.npy");
  ASSERT_TRUE(writeNpyFile(path, a).isOk());
  StatusOr<HostArray> c = readNpyFile(path);
  ASSERT_TRUE(c.isOk()) << c.status().message();
  EXPECT_EQ(c->shape(), shape);
  std::remove(path.c_str());
}

/// A version 1.0 file with header text `dict` and `data` after it.
std::vector<uint8_t> fileWithHeader(const std::string &dict,
                                    size_t dataBytes = 0, int major = 1) {
  std::vector<uint8_t> f = {
      0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), 0};
  size_t len = dict.size();
  f.push_back(static_cast<uint8_t>(len));
  f.push_back(static_cast<uint8_t>(len >> 8));
  if (major != 1) {
    f.push_back(static_cast<uint8_t>(len >> 16));
    f.push_back(static_cast<uint8_t>(len >> 24));
  }
  f.insert(f.end(), dict.begin(), dict.end());
  f.insert(f.end(), dataBytes, 0);
  return f;
}

Status parseStatus(const std::vector<uint8_t> &f) {
  StatusOr<HostArray> a = parseNpy(f.data(), f.size(), "t.npy");
  return a.isOk() ? Status::ok() : a.status();
}

// Tests the header forms the parser accepts beyond numpy's own output: any
// key order, double quotes, no trailing comma, odd spacing, 16-byte
// alignment of older numpy, '<' for one-byte types, 1-D Fortran order.
TEST(NpyTest, AcceptsEveryValidHeaderForm) {
  struct Case {
    std::string dict;
    DType dtype;
    std::vector<int64_t> shape;
  };
  std::vector<Case> cases = {
      {"{'shape': (2, 3), 'fortran_order': False, 'descr': '<f4'}",
       DType::F32,
       {2, 3}},
      {"{\"descr\":\"<i4\",\"fortran_order\":False,\"shape\":(4,)}\n",
       DType::I32,
       {4}},
      {"  {  'descr' : '<u2' ,\n 'fortran_order' : False , 'shape' : ( ) , "
       "}   \n",
       DType::U16,
       {}},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2,), }",
       DType::F64,
       {1, 2}},
      {"{'descr': '<i1', 'fortran_order': False, 'shape': (3,), }",
       DType::I8,
       {3}},
      {"{'descr': '<b1', 'fortran_order': True, 'shape': (3,), }",
       DType::Bool,
       {3}},
      {"{'descr': '<f2', 'fortran_order': False, 'shape': (0, 5), }",
       DType::F16,
       {0, 5}},
      // numpy before 1.14 padded to 16 bytes: 10 + 54 = 64 would be
      // aligned; 10 + 38 = 48 is not a multiple of 64.
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}      \n",
       DType::F32,
       {1}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.dict);
    size_t bytes = *arrayByteSize(c.dtype, c.shape);
    std::vector<uint8_t> f = fileWithHeader(c.dict, bytes);
    StatusOr<HostArray> a = parseNpy(f.data(), f.size(), "t.npy");
    ASSERT_TRUE(a.isOk()) << a.status().message();
    EXPECT_EQ(a->dtype(), c.dtype);
    EXPECT_EQ(a->shape(), c.shape);
  }
}

// Tests that every malformed or unsupported header is refused with a
// message naming the file and the fault, and the right code.
TEST(NpyTest, RefusesMalformedHeaders) {
  const std::string ok = "'fortran_order': False, 'shape': (2,)";
  struct Case {
    std::string dict;
    StatusCode code;
    const char *message;
  };
  std::vector<Case> cases = {
      {"{'descr': '>f4', " + ok + "}", StatusCode::Unimplemented,
       "'descr' '>f4' is big-endian"},
      {"{'descr': '=f4', " + ok + "}", StatusCode::Unimplemented,
       "native byte order"},
      {"{'descr': 'f4', " + ok + "}", StatusCode::InvalidArgument,
       "has no byte order"},
      {"{'descr': '|f4', " + ok + "}", StatusCode::InvalidArgument,
       "has byte order '|'; expected '<'"},
      {"{'descr': '>i1', " + ok + "}", StatusCode::InvalidArgument,
       "expected '<' or '|'"},
      {"{'descr': '|O', " + ok + "}", StatusCode::Unimplemented,
       "object dtype"},
      {"{'descr': [('a', '<f4')], " + ok + "}", StatusCode::Unimplemented,
       "structured dtypes"},
      {"{'descr': '<c8', " + ok + "}", StatusCode::Unimplemented,
       "'<c8' is not a supported dtype"},
      {"{'descr': '<U3', " + ok + "}", StatusCode::Unimplemented,
       "not a supported dtype"},
      {"{'descr': '', " + ok + "}", StatusCode::InvalidArgument,
       "'descr' is empty"},
      {"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3)}",
       StatusCode::Unimplemented, "Fortran order"},
      {"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}",
       StatusCode::InvalidArgument, "'fortran_order' must be True or False"},
      {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,)}",
       StatusCode::InvalidArgument, "'fortran_order' must be True or False"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}",
       StatusCode::InvalidArgument, "dimension 0 of 'shape' is negative (-2)"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1)}",
       StatusCode::InvalidArgument, "dimension 1 of 'shape' is negative"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(99999999999999999999,)}",
       StatusCode::InvalidArgument, "overflows int64"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(4294967296, 4294967296)}",
       StatusCode::InvalidArgument, "overflows the address space"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': "
       "(9223372036854775807,)}",
       StatusCode::InvalidArgument, "overflows the address space"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2)}",
       StatusCode::InvalidArgument, "'shape' is (2), an integer"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [2]}",
       StatusCode::InvalidArgument, "'shape' is a list"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2.0,)}",
       StatusCode::InvalidArgument, "not a decimal integer"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2L,)}",
       StatusCode::InvalidArgument, "not a decimal integer"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (0x2,)}",
       StatusCode::InvalidArgument, "not a decimal integer"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (02,)}",
       StatusCode::InvalidArgument, "leading zero"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (,)}",
       StatusCode::InvalidArgument, "not a decimal integer"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2 3)}",
       StatusCode::InvalidArgument, "expected ',' or ')' in 'shape'"},
      {"{'descr': '<f4', " + ok + ", 'extra': 1}", StatusCode::InvalidArgument,
       "unknown key 'extra'"},
      {"{'descr': '<f4', 'descr': '<f4', " + ok + "}",
       StatusCode::InvalidArgument, "duplicate key 'descr'"},
      {"{'descr': '<f4', 'shape': (2,)}", StatusCode::InvalidArgument,
       "lacks the key 'fortran_order'"},
      {"{'fortran_order': False, 'shape': (2,)}", StatusCode::InvalidArgument,
       "lacks the key 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False}", StatusCode::InvalidArgument,
       "lacks the key 'shape'"},
      {"{'descr': '<f4', " + ok + "} x", StatusCode::InvalidArgument,
       "after the dictionary"},
      {"{'descr': '<f4', " + ok + "}}", StatusCode::InvalidArgument,
       "after the dictionary"},
      {"{'descr': '<f4' " + ok + "}", StatusCode::InvalidArgument,
       "expected ',' or '}'"},
      {"{'descr' '<f4', " + ok + "}", StatusCode::InvalidArgument,
       "expected ':' after key 'descr'"},
      {"{descr: '<f4', " + ok + "}", StatusCode::InvalidArgument,
       "expected a quoted string as a key"},
      {"{'descr': '<f4\\x', " + ok + "}", StatusCode::InvalidArgument,
       "escape sequence"},
      {"{'descr': '<f4, " + ok + "}", StatusCode::InvalidArgument,
       "expected ',' or '}' at 'fortran_orde...'"},
      {"{'descr': '<f4", StatusCode::InvalidArgument,
       "ends inside the value of 'descr'"},
      {"{'descr': '<f4', " + ok, StatusCode::InvalidArgument,
       "ends inside the dictionary"},
      {"['descr', '<f4']", StatusCode::InvalidArgument,
       "does not start with '{'"},
      {"", StatusCode::InvalidArgument, "does not start with '{'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ,}",
       StatusCode::InvalidArgument, "expected a quoted string as a key"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.dict);
    Status s = parseStatus(fileWithHeader(c.dict, 8));
    ASSERT_FALSE(s.isOk());
    EXPECT_EQ(s.code(), c.code) << s.message();
    EXPECT_EQ(s.message().rfind("t.npy: ", 0), 0u) << s.message();
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
  }
}

// Tests refusals outside the dictionary: magic, version, header length,
// the data section's length, UTF-8 in version 3.
TEST(NpyTest, RefusesBadFraming) {
  const std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}";
  auto expectError = [](const std::vector<uint8_t> &f, StatusCode code,
                        const char *message) {
    Status s = parseStatus(f);
    ASSERT_FALSE(s.isOk()) << message;
    EXPECT_EQ(s.code(), code) << s.message();
    EXPECT_EQ(s.message().rfind("t.npy: ", 0), 0u) << s.message();
    EXPECT_NE(s.message().find(message), std::string::npos) << s.message();
  };
  std::vector<uint8_t> f = fileWithHeader(dict, 8);
  ASSERT_TRUE(parseStatus(f).isOk());

  std::vector<uint8_t> bad = f;
  bad[1] = 'n';
  expectError(bad, StatusCode::InvalidArgument, "bad magic");
  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
  expectError(png, StatusCode::InvalidArgument, "not a .npy file");
  expectError({}, StatusCode::DataLoss, "truncated inside the .npy magic");

  for (auto [major, minor] : {std::pair<int, int>{0, 0}, {4, 0}, {1, 1}}) {
    bad = f;
    bad[6] = static_cast<uint8_t>(major);
    bad[7] = static_cast<uint8_t>(minor);
    expectError(bad, StatusCode::Unimplemented, "is not supported");
  }
  bad = f;
  bad[8] = 0xff;
  bad[9] = 0xff;
  expectError(bad, StatusCode::DataLoss, "header length 65535 runs past");
  std::vector<uint8_t> v2 = fileWithHeader(dict, 8, 2);
  ASSERT_TRUE(parseStatus(v2).isOk());
  v2[11] = 0x80;
  expectError(v2, StatusCode::DataLoss, "runs past the end of the file");

  expectError(fileWithHeader(dict, 7), StatusCode::DataLoss,
              "data section is 7 bytes; shape 2xf32 needs 8 (truncated)");
  expectError(fileWithHeader(dict, 9), StatusCode::DataLoss,
              "data section is 9 bytes; shape 2xf32 needs 8 (trailing bytes)");

  std::string utf8 = dict;
  utf8.insert(utf8.size() - 1, " \xc3\xa9"); // é after the dict: not ws
  expectError(fileWithHeader(utf8, 8, 3), StatusCode::InvalidArgument,
              "expected ',' or '}' at '\\xc3\\xa9}'");
  std::string badUtf8 = dict + " \xc3";
  expectError(fileWithHeader(badUtf8, 8, 3), StatusCode::InvalidArgument,
              "not valid UTF-8");
  std::string overlong = dict + " \xc0\xa0";
  expectError(fileWithHeader(overlong, 8, 3), StatusCode::InvalidArgument,
              "not valid UTF-8");
  std::string nonAscii = "{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2,), 'n\xc3\xa9': 1}";
  expectError(fileWithHeader(nonAscii, 8, 3), StatusCode::InvalidArgument,
              "unknown key 'n\\xc3\\xa9'");
}

// Tests the files numpy wrote that fuel refuses.
TEST(NpyTest, RefusesUnsupportedNumpyFiles) {
  struct Case {
    const char *file;
    const char *message;
  };
  std::vector<Case> cases = {
      {"bad_fortran.npy", "Fortran order"},
      {"bad_bigendian.npy", "big-endian"},
      {"bad_object.npy", "object dtype"},
      {"bad_structured.npy", "structured dtypes"},
      {"bad_complex.npy", "'<c8' is not a supported dtype"},
      {"bad_unicode.npy", "'<U2' is not a supported dtype"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.file);
    std::string path = inputPath(c.file);
    StatusOr<HostArray> a = readNpyFile(path);
    ASSERT_FALSE(a.isOk());
    EXPECT_EQ(a.status().code(), StatusCode::Unimplemented);
    EXPECT_EQ(a.status().message().rfind(path + ": ", 0), 0u)
        << a.status().message();
    EXPECT_NE(a.status().message().find(c.message), std::string::npos)
        << a.status().message();
  }
  StatusOr<HostArray> missing = readNpyFile(inputPath("no-such-file.npy"));
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().code(), StatusCode::Unavailable);
  EXPECT_NE(missing.status().message().find("no-such-file.npy: cannot open"),
            std::string::npos);
  StatusOr<HostArray> dir = readNpyFile(FUEL_NPY_INPUTS_DIR);
  ASSERT_FALSE(dir.isOk());
  EXPECT_NE(dir.status().message().find("not a regular file"),
            std::string::npos);
}

// Tests that every proper prefix of valid files, in memory and on disk, is
// refused with DataLoss (or, inside the magic, a bad-magic error) and
// never crashes or reads past the end (ASan checks the latter).
TEST(NpyTest, RefusesEveryTruncation) {
  std::string path = tempPath("truncated.npy");
  for (const char *name :
       {"f4.npy", "f8_v3.npy", "i8_v2.npy", "i2_scalar.npy"}) {
    std::vector<uint8_t> bytes = slurp(inputPath(name));
    ASSERT_FALSE(bytes.empty());
    for (size_t len = 0; len < bytes.size(); ++len) {
      SCOPED_TRACE(std::string(name) + " cut at " + std::to_string(len));
      // A copy of exactly `len` bytes, so that ASan sees any overread.
      std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + len);
      StatusOr<HostArray> a = parseNpy(cut.data(), cut.size(), name);
      ASSERT_FALSE(a.isOk());
      EXPECT_EQ(a.status().code(), StatusCode::DataLoss)
          << a.status().message();
      {
        std::ofstream o(path, std::ios::binary | std::ios::trunc);
        o.write(reinterpret_cast<const char *>(cut.data()),
                static_cast<std::streamsize>(cut.size()));
      }
      StatusOr<HostArray> b = readNpyFile(path);
      ASSERT_FALSE(b.isOk());
      EXPECT_EQ(b.status().code(), StatusCode::DataLoss)
          << b.status().message();
    }
  }
  std::remove(path.c_str());
}

// Tests that flipping any single byte of a small file gives either a valid
// array or an error, never a crash.
TEST(NpyTest, SurvivesEveryByteFlip) {
  std::vector<uint8_t> bytes = slurp(inputPath("f4_v3.npy"));
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t x : {0x01, 0x80, 0xff}) {
      std::vector<uint8_t> f = bytes;
      f[i] ^= x;
      StatusOr<HostArray> a = parseNpy(f.data(), f.size(), "flip");
      if (a.isOk()) {
        EXPECT_LE(a->byteSize(), f.size());
      } else {
        EXPECT_EQ(a.status().message().rfind("flip: ", 0), 0u);
      }
    }
  }
}

// Tests that numpy itself reads what the writer writes, for every dtype.
// Skipped where /usr/bin/python3 has no numpy (scripts/install-deps.sh
// installs it).
TEST(NpyTest, NumpyReadsWhatTheWriterWrites) {
  std::string probe =
      std::string(FUEL_PYTHON3) + " -c 'import numpy' >/dev/null 2>&1";
  if (std::system(probe.c_str()) != 0)
    GTEST_SKIP() << "no numpy for " << FUEL_PYTHON3;
  std::string dir = tempPath("numpy");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0) << dir;
  std::string script = "import numpy as np, sys\n"
                       "d = sys.argv[1]\n"
                       "bad = 0\n"
                       "for name, descr, shape in [\n";
  std::vector<std::string> written;
  int n = 0;
  for (DType d : kAllDTypes) {
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{2, 3}, std::vector<int64_t>{},
          std::vector<int64_t>{5}}) {
      HostArray a = makeArray(d, shape);
      std::string name = "fuel-npy-w" + std::to_string(n++) + ".npy";
      ASSERT_TRUE(writeNpyFile(dir + "/" + name, a).isOk());
      written.push_back(dir + "/" + name);
      std::string descr = std::string(dtypeSize(d) == 1 ? "|" : "<") +
                          (d == DType::Bool      ? "b"
                           : isFloatDType(d)     ? "f"
                           : isSignedIntDType(d) ? "i"
                                                 : "u") +
                          std::to_string(dtypeSize(d));
      std::string tuple = "(";
      for (int64_t x : shape)
        tuple += std::to_string(x) + ",";
      tuple += ")";
      script += "  ('" + name + "', '" + descr + "', " + tuple + "),\n";
    }
  }
  // numpy recomputes each file's values with generate.py's formula.
  script += "]:\n"
            "  a = np.load(d + '/' + name)\n"
            "  dt = np.dtype(descr)\n"
            "  n = int(np.prod(shape))\n"
            "  want = np.zeros(n, dtype=dt)\n"
            "  for i in range(n):\n"
            "    k = (7 * i) % 11\n"
            "    if dt.kind == 'f': want[i] = dt.type(k) / dt.type(3)\n"
            "    elif dt.kind == 'i': want[i] = (k - 5) * 2 ** "
            "(dt.itemsize * 8 - 5)\n"
            "    elif dt.kind == 'u': want[i] = k * 2 ** (dt.itemsize * 8 - "
            "4)\n"
            "    else: want[i] = i % 3 == 0\n"
            "  if a.dtype != dt or a.shape != shape or "
            "a.tobytes() != want.tobytes():\n"
            "    print('mismatch', name, a.dtype, a.shape); bad += 1\n"
            "sys.exit(1 if bad else 0)\n";
  std::string scriptPath = dir + "/fuel-npy-check.py";
  {
    std::ofstream o(scriptPath);
    o << script;
  }
  std::string cmd = std::string(FUEL_PYTHON3) + " " + scriptPath + " " + dir;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  for (const std::string &p : written)
    std::remove(p.c_str());
  std::remove(scriptPath.c_str());
  ::rmdir(dir.c_str());
}

} // namespace
