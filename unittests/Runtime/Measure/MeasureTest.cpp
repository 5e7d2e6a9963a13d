//===- MeasureTest.cpp - JSON, manifest and statistics of measuring -------===//
//
// The runtime's strict JSON reader (errors with line and column), the job
// manifest reader (errors naming the field), the order statistics against
// values numpy gives, and the stopping rule.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Measure.h"
#include "fuel/Runtime/Json.h"

#include <gtest/gtest.h>

#include <string>

using namespace fuel::rt;

namespace {

std::string parseError(const std::string &text) {
  StatusOr<json::Value> v = json::parse(text, "t.json");
  EXPECT_FALSE(v.isOk()) << text;
  return v.isOk() ? std::string() : v.status().message();
}

TEST(JsonTest, ParsesEveryKindAndKeepsNumbersExact) {
  StatusOr<json::Value> v = json::parse(
      R"({"a": [1, -2.5e3, true, false, null], "b": "x\u00e9\n",
          "big": 9007199254740993})",
      "t.json");
  ASSERT_TRUE(v.isOk()) << v.status().message();
  const json::Value *a = v->find("a");
  ASSERT_TRUE(a && a->kind == json::Value::Kind::Array);
  ASSERT_EQ(a->elements.size(), 5u);
  EXPECT_EQ(a->elements[0].integer(), 1);
  EXPECT_DOUBLE_EQ(a->elements[1].number(), -2500);
  EXPECT_FALSE(a->elements[1].integer().has_value());
  EXPECT_TRUE(a->elements[2].boolean);
  EXPECT_EQ(a->elements[4].kind, json::Value::Kind::Null);
  EXPECT_EQ(v->find("b")->text, "x\xc3\xa9\n");
  // 2^53 + 1: a double would round it.
  EXPECT_EQ(v->find("big")->integer(), int64_t(9007199254740993LL));
  EXPECT_EQ(v->find("b")->line, 1u);
  EXPECT_EQ(v->find("big")->line, 2u);
  EXPECT_EQ(v->find("big")->column, 18u);
}

TEST(JsonTest, ErrorsNameLineAndColumn) {
  EXPECT_EQ(parseError("{\"a\": 1,\n  }"),
            "t.json:2:3: expected a member name in quotes");
  EXPECT_EQ(parseError("[1, 2"), "t.json:1:6: expected ',' or ']' in an array");
  EXPECT_EQ(parseError("{\"a\": 1, \"a\": 2}"),
            "t.json:1:10: duplicate member 'a'");
  EXPECT_EQ(parseError("[01]"), "t.json:1:3: expected ',' or ']' in an array");
  EXPECT_EQ(parseError("\"abc"), "t.json:1:5: unterminated string");
  EXPECT_EQ(parseError("[1] x"), "t.json:1:5: unexpected text after the JSON "
                                 "value");
  EXPECT_EQ(parseError(""), "t.json:1:1: expected a value, got the end of the "
                            "text");
  EXPECT_EQ(parseError(std::string(100, '[')),
            "t.json:1:66: nesting deeper than 64");
}

TEST(JsonTest, WriteRoundTrips) {
  std::string text = R"({"k": ["a\"b", 12345678901234567890, {"x": null}]})";
  StatusOr<json::Value> v = json::parse(text, "t.json");
  ASSERT_TRUE(v.isOk());
  std::string out = json::write(*v);
  StatusOr<json::Value> again = json::parse(out, "again.json");
  ASSERT_TRUE(again.isOk()) << out;
  EXPECT_EQ(json::write(*again), out);
  EXPECT_NE(out.find("12345678901234567890"), std::string::npos);
}

const char *kManifest = R"({
  "format": "fuel-judge-jobs", "version": 1, "fuel_version": "0.1.0",
  "jobs": [
    {"id": "00ff", "executable": "00ff.fuelx", "device": "vulkan:0",
     "kernel": "vulkan.generated.matmul_f32", "layer1_ns": 1200,
     "inputs": [{"dtype": "f32", "shape": [4, 8]}],
     "key": {"kernel_id": "vulkan.generated.matmul_f32"}}
  ]
})";

TEST(ManifestTest, ReadsJobs) {
  StatusOr<Manifest> m = parseManifest(kManifest, "m.json", "dir");
  ASSERT_TRUE(m.isOk()) << m.status().message();
  ASSERT_EQ(m->jobs.size(), 1u);
  const MeasureJob &j = m->jobs[0];
  EXPECT_EQ(j.path, "dir/00ff.fuelx");
  EXPECT_EQ(j.device.str(), "vulkan:0");
  EXPECT_EQ(j.layer1Ns, 1200);
  ASSERT_EQ(j.inputs.size(), 1u);
  EXPECT_EQ(j.inputs[0].shape, (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(json::write(j.key),
            R"({"kernel_id": "vulkan.generated.matmul_f32"})");
}

std::string manifestError(std::string from, std::string to) {
  std::string text = kManifest;
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  StatusOr<Manifest> m = parseManifest(text, "m.json", "");
  EXPECT_FALSE(m.isOk()) << text;
  return m.isOk() ? std::string() : m.status().message();
}

TEST(ManifestTest, ErrorsNameTheField) {
  EXPECT_EQ(manifestError("\"vulkan:0\"", "\"gpu\""),
            "m.json:4:58: jobs[0].device: 'gpu' is not a device (cpu, cuda:N, "
            "vulkan:N)");
  EXPECT_EQ(manifestError("\"layer1_ns\": 1200", "\"layer1_ns\": -1"),
            "m.json:5:60: jobs[0].layer1_ns: expected an integer of at least "
            "0, got -1");
  EXPECT_EQ(manifestError("\"00ff.fuelx\"", "\"../x.fuelx\""),
            "m.json:4:34: jobs[0].executable: '../x.fuelx' is not a relative "
            "path inside the manifest's directory");
  EXPECT_EQ(manifestError("\"version\": 1", "\"version\": 2"),
            "m.json:2:43: manifest.version: version 2 is not the version this "
            "build reads (1)");
  EXPECT_EQ(manifestError("[4, 8]", "[4, -8]"),
            "m.json:6:47: jobs[0].inputs[0].shape[1]: expected a dimension (an "
            "integer >= 0)");
  EXPECT_EQ(manifestError("\"kernel\": ", "\"kernelx\": "),
            "m.json:4:5: jobs[0].kernel: missing");
  EXPECT_EQ(manifestError("\"inputs\": [", "\"inputs\": {\"a\": 1}, \"x\": ["),
            "m.json:6:16: jobs[0].inputs: expected array, got object");
}

TEST(ManifestTest, DuplicateIdsAreRefused) {
  std::string text = kManifest;
  size_t start = text.find("{\"id\"");
  size_t end = text.find("}}", start) + 2;
  std::string job = text.substr(start, end - start);
  text.insert(end, ",\n    " + job);
  StatusOr<Manifest> m = parseManifest(text, "m.json", "");
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("jobs[1].id: duplicate job id '00ff'"),
            std::string::npos)
      << m.status().message();
}

TEST(StatsTest, MatchesNumpy) {
  // numpy.median / numpy.percentile(..., [10, 90]) of 1..10, and the median
  // of the absolute deviations from the median.
  SampleStats s = summarizeSamples({7, 1, 3, 10, 2, 9, 4, 8, 6, 5});
  EXPECT_DOUBLE_EQ(s.medianNs, 5.5);
  EXPECT_DOUBLE_EQ(s.p10Ns, 1.9);
  EXPECT_DOUBLE_EQ(s.p90Ns, 9.1);
  EXPECT_DOUBLE_EQ(s.noiseNs, 2.5);
  SampleStats one = summarizeSamples({42});
  EXPECT_DOUBLE_EQ(one.medianNs, 42);
  EXPECT_DOUBLE_EQ(one.p90Ns, 42);
  EXPECT_DOUBLE_EQ(one.noiseNs, 0);
}

TEST(StatsTest, StopsOnlyWhenStableLongEnough) {
  StopRule rule;
  rule.minIterations = 4;
  rule.minTimeNs = 1000;
  rule.relativeChange = 0.01;
  std::vector<double> steady = {100, 100, 101, 100, 100};
  EXPECT_TRUE(isStable(steady, 100, rule, 2000));
  // Too short a time, too few runs, no earlier median.
  EXPECT_FALSE(isStable(steady, 100, rule, 999));
  EXPECT_FALSE(isStable({100, 100, 100}, 100, rule, 2000));
  EXPECT_FALSE(isStable(steady, 0, rule, 2000));
  // The median moved by 1% or more.
  EXPECT_FALSE(isStable(steady, 101.5, rule, 2000));
  EXPECT_TRUE(isStable(steady, 100.9, rule, 2000));
}

} // namespace
