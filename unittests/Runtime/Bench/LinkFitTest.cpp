//===- LinkFitTest.cpp - Tests of the latency + bandwidth fit -------------===//
//
// fitLink against lines built by hand: exact samples give the line back,
// perturbed ones a close line with the residuals they were given, and
// samples that cannot determine a line are refused with the reason.
//
//===----------------------------------------------------------------------===//

#include "LinkFit.h"

#include <gtest/gtest.h>

using namespace fuel::rt;

namespace {

std::vector<uint64_t> sizes() {
  std::vector<uint64_t> s;
  for (uint64_t b = 4096; b <= (64u << 20); b *= 4)
    s.push_back(b);
  return s;
}

TEST(LinkFit, ExactLineIsRecovered) {
  // 3 us + bytes / (12.5 B/ns).
  std::vector<LinkSample> samples;
  for (uint64_t b : sizes())
    samples.push_back({b, 3000 + double(b) / 12.5});
  LinkFit fit = fitLink(samples);
  ASSERT_TRUE(fit.ok) << fit.error;
  EXPECT_NEAR(fit.latencyNs, 3000, 1e-6);
  EXPECT_NEAR(fit.bytesPerNs, 12.5, 1e-9);
  EXPECT_EQ(fit.bandwidthBytesPerSecond(), 12500000000u);
  ASSERT_EQ(fit.residualsNs.size(), samples.size());
  for (double r : fit.residualsNs)
    EXPECT_NEAR(r, 0, 1e-6);
  EXPECT_NEAR(fit.rmsRelativeResidual, 0, 1e-12);
  EXPECT_NEAR(fit.predictNs(1000), 3000 + 80, 1e-6);
}

TEST(LinkFit, RelativeWeightsKeepTheLatency) {
  // A 2% error on the largest copy must not swamp a 5 us latency, as it
  // would in plain least squares (2% of 64 MiB at 1 B/ns is 1.3 ms).
  std::vector<LinkSample> samples;
  std::vector<uint64_t> s = sizes();
  for (size_t i = 0; i < s.size(); ++i) {
    double t = 5000 + double(s[i]);
    samples.push_back({s[i], i + 1 == s.size() ? t * 1.02 : t});
  }
  LinkFit fit = fitLink(samples);
  ASSERT_TRUE(fit.ok) << fit.error;
  EXPECT_NEAR(fit.latencyNs, 5000, 250);
  EXPECT_NEAR(fit.bytesPerNs, 1.0, 0.03);
  EXPECT_GT(fit.residualsNs.back(), 0);
  EXPECT_GT(fit.rmsRelativeResidual, 0);
  EXPECT_LT(fit.rmsRelativeResidual, 0.02);
}

TEST(LinkFit, NegativeInterceptIsClampedForATopology) {
  std::vector<LinkSample> samples = {{4096, 10}, {8192, 30}, {16384, 70}};
  LinkFit fit = fitLink(samples);
  ASSERT_TRUE(fit.ok) << fit.error;
  EXPECT_LT(fit.latencyNs, 0);
  EXPECT_EQ(fit.latencyNsClamped(), 0);
}

TEST(LinkFit, RefusesWhatCannotDetermineALine) {
  LinkFit one = fitLink({{4096, 100}});
  EXPECT_FALSE(one.ok);
  EXPECT_NE(one.error.find("at least two samples"), std::string::npos)
      << one.error;

  LinkFit same = fitLink({{4096, 100}, {4096, 110}});
  EXPECT_FALSE(same.ok);
  EXPECT_NE(same.error.find("two distinct sizes"), std::string::npos)
      << same.error;

  LinkFit shrinking = fitLink({{4096, 500}, {65536, 100}});
  EXPECT_FALSE(shrinking.ok);
  EXPECT_NE(shrinking.error.find("does not grow with size"), std::string::npos)
      << shrinking.error;

  LinkFit zero = fitLink({{4096, 0}, {65536, 100}});
  EXPECT_FALSE(zero.ok);
  EXPECT_NE(zero.error.find("not positive and finite"), std::string::npos)
      << zero.error;
}

} // namespace
