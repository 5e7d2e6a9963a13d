//===- PrecisionRulesTest.cpp - Precision digits, classes, requirements ---===//
//
// SEMANTICS §6 (digits, classes, presets), §3 step 5 (satisfaction) and §9
// (the requirement text).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/PrecisionRules.h"
#include "fuel/Planner/Error.h"

#include "gtest/gtest.h"

#include <cmath>
#include <string>

using namespace fuel::plan;

namespace {

Precision rel(double r) {
  Precision p;
  p.maxRelative = r;
  return p;
}

Precision ulp(uint64_t u, bool bitStable = false) {
  Precision p;
  p.maxUlp = u;
  p.bitStable = bitStable;
  return p;
}

TEST(PrecisionRulesTest, Presets) {
  EXPECT_EQ(precisionDigits(Precision::reference()), 18u);
  EXPECT_EQ(accuracyClass(Precision::reference()), 4u);
  EXPECT_EQ(precisionDigits(Precision::deterministic()), 9u);
  EXPECT_EQ(accuracyClass(Precision::deterministic()), 1u);
  EXPECT_EQ(precisionDigits(Precision::unaudited()), 0u);
  EXPECT_EQ(accuracyClass(Precision::unaudited()), 0u);
}

TEST(PrecisionRulesTest, DigitsFromRelativeBound) {
  EXPECT_EQ(precisionDigits(rel(0.0)), 18u);
  EXPECT_EQ(precisionDigits(rel(1e-3)), 3u);
  EXPECT_EQ(precisionDigits(rel(1e-5)), 5u);
  EXPECT_EQ(precisionDigits(rel(2e-3)), 2u);
  EXPECT_EQ(precisionDigits(rel(9.99e-4)), 3u);
  EXPECT_EQ(precisionDigits(rel(1.0000001e-3)), 2u);
  EXPECT_EQ(precisionDigits(rel(1e-18)), 18u);
  EXPECT_EQ(precisionDigits(rel(1e-30)), 18u);
  EXPECT_EQ(precisionDigits(rel(0.5)), 0u);
  EXPECT_EQ(precisionDigits(rel(1.0)), 0u);
  EXPECT_EQ(precisionDigits(rel(7.0)), 0u);
  EXPECT_EQ(precisionDigits(rel(-1e-3)), 0u);
  EXPECT_EQ(precisionDigits(rel(std::nan(""))), 0u);
  // Every decimal literal 1e-d gives exactly d digits, including the ones
  // where floor(-log10(x)) is off by one.
  for (unsigned d = 0; d <= 18; ++d) {
    double r = std::stod("1e-" + std::to_string(d));
    EXPECT_EQ(precisionDigits(rel(r)), d) << "1e-" << d;
  }
}

TEST(PrecisionRulesTest, DigitsFallBackToUlpThenBitStable) {
  EXPECT_EQ(precisionDigits(ulp(0)), 18u);
  EXPECT_EQ(precisionDigits(ulp(1)), 0u);
  EXPECT_EQ(precisionDigits(ulp(1, /*bitStable=*/true)), 9u);
  // The relative bound wins over the ulp claim.
  Precision p = ulp(0);
  p.maxRelative = 1e-2;
  EXPECT_EQ(precisionDigits(p), 2u);
}

TEST(PrecisionRulesTest, AccuracyClass) {
  EXPECT_EQ(accuracyClass(ulp(0)), 4u);
  EXPECT_EQ(accuracyClass(ulp(1)), 3u);
  EXPECT_EQ(accuracyClass(ulp(2)), 3u);
  EXPECT_EQ(accuracyClass(ulp(3)), 2u);
  EXPECT_EQ(accuracyClass(ulp(1000, true)), 2u);
  Precision bs;
  bs.bitStable = true;
  EXPECT_EQ(accuracyClass(bs), 1u);
  EXPECT_EQ(accuracyClass(rel(0.0)), 0u);
}

TEST(PrecisionRulesTest, Satisfaction) {
  Precision none;
  EXPECT_TRUE(satisfies(Precision::unaudited(), none));
  EXPECT_TRUE(satisfies(Precision::reference(), none));
  // Every preset satisfies itself; reference satisfies everything.
  for (const Precision &p : {Precision::reference(), Precision::deterministic(),
                             Precision::unaudited()}) {
    EXPECT_TRUE(satisfies(p, p));
    EXPECT_TRUE(satisfies(Precision::reference(), p));
  }
  EXPECT_FALSE(satisfies(Precision::unaudited(), Precision::deterministic()));

  Precision req;
  req.maxUlp = 1;
  EXPECT_TRUE(satisfies(ulp(0), req));
  EXPECT_TRUE(satisfies(ulp(1), req));
  EXPECT_FALSE(satisfies(ulp(2), req));
  // No claim fails an explicit bound.
  EXPECT_FALSE(satisfies(rel(0.0), req));
  EXPECT_EQ(explainUnsatisfied(rel(0.0), req),
            "claims no ulp bound (required ulp<=1)");
  EXPECT_EQ(explainUnsatisfied(ulp(2), req), "claims ulp<=2 (required ulp<=1)");
  EXPECT_EQ(explainUnsatisfied(ulp(1), req), "");

  Precision relReq = rel(1e-5);
  EXPECT_TRUE(satisfies(rel(1e-6), relReq));
  EXPECT_TRUE(satisfies(rel(1e-5), relReq));
  EXPECT_FALSE(satisfies(rel(2e-5), relReq));
  EXPECT_FALSE(satisfies(ulp(0), relReq));
  EXPECT_FALSE(satisfies(rel(std::nan("")), relReq));
  EXPECT_EQ(explainUnsatisfied(rel(2e-5), relReq),
            "claims rel<=2e-05 (required rel<=1e-05)");

  Precision absReq;
  absReq.maxAbsolute = 1e-6;
  Precision absClaim;
  absClaim.maxAbsolute = 1e-7;
  EXPECT_TRUE(satisfies(absClaim, absReq));
  EXPECT_FALSE(satisfies(rel(0.0), absReq));
  EXPECT_EQ(explainUnsatisfied(rel(0.0), absReq),
            "claims no abs bound (required abs<=1e-06)");

  Precision bsReq;
  bsReq.bitStable = true;
  EXPECT_FALSE(satisfies(ulp(0), bsReq));
  EXPECT_TRUE(satisfies(ulp(0, true), bsReq));
  EXPECT_EQ(explainUnsatisfied(ulp(0), bsReq),
            "not bit-stable (required bit-stable)");
}

Precision parseOk(const std::string &text) {
  llvm::Expected<Precision> p = parsePrecisionRequirement(text);
  if (!p) {
    ADD_FAILURE() << "'" << text << "': " << llvm::toString(p.takeError());
    return {};
  }
  return *p;
}

std::string parseError(const std::string &text) {
  llvm::Expected<Precision> p = parsePrecisionRequirement(text);
  if (p) {
    ADD_FAILURE() << "'" << text << "' parsed";
    return {};
  }
  std::string message;
  llvm::handleAllErrors(p.takeError(), [&](const PlanError &e) {
    EXPECT_EQ(e.getKind(), PlanError::Kind::InvalidOption);
    message = e.message();
  });
  return message;
}

TEST(PrecisionRulesTest, ParsePresetsAndLists) {
  EXPECT_EQ(parseOk("none"), Precision::unaudited());
  EXPECT_EQ(parseOk("reference"), Precision::reference());
  EXPECT_EQ(parseOk(" deterministic "), Precision::deterministic());
  Precision p = parseOk("bit-stable,ulp<=1,rel<=1e-5,abs<=1e-6");
  EXPECT_TRUE(p.bitStable);
  EXPECT_EQ(p.maxUlp, 1u);
  EXPECT_EQ(p.maxRelative, 1e-5);
  EXPECT_EQ(p.maxAbsolute, 1e-6);
  Precision spaced = parseOk(" ulp <= 0 , rel<=0.001 ");
  EXPECT_FALSE(spaced.bitStable);
  EXPECT_EQ(spaced.maxUlp, 0u);
  EXPECT_EQ(spaced.maxRelative, 1e-3);
  EXPECT_FALSE(spaced.maxAbsolute.has_value());
  EXPECT_EQ(parseOk("bit-stable"), Precision::deterministic());
  EXPECT_EQ(parseOk("bit-stable,ulp<=0,rel<=0,abs<=0"), Precision::reference());
}

TEST(PrecisionRulesTest, ParseErrors) {
  std::string e = parseError("ulp<=-1");
  EXPECT_NE(e.find("negative bound in 'ulp<=-1'"), std::string::npos) << e;
  e = parseError("rel<=-1e-5");
  EXPECT_NE(e.find("negative bound in 'rel<=-1e-5'"), std::string::npos) << e;
  e = parseError("abs<=-0.5");
  EXPECT_NE(e.find("negative bound"), std::string::npos) << e;
  e = parseError("fast");
  EXPECT_NE(e.find("unknown item 'fast'"), std::string::npos) << e;
  EXPECT_NE(e.find("invalid precision requirement 'fast'"), std::string::npos);
  e = parseError("ulps<=1");
  EXPECT_NE(e.find("unknown bound 'ulps'"), std::string::npos) << e;
  e = parseError("ulp<=1.5");
  EXPECT_NE(e.find("'1.5' is not an unsigned integer"), std::string::npos) << e;
  e = parseError("rel<=abc");
  EXPECT_NE(e.find("'abc' is not a finite number"), std::string::npos) << e;
  e = parseError("rel<=inf");
  EXPECT_NE(e.find("not a finite number"), std::string::npos) << e;
  e = parseError("rel<=nan");
  EXPECT_NE(e.find("not a finite number"), std::string::npos) << e;
  e = parseError("rel<=");
  EXPECT_NE(e.find("missing number"), std::string::npos) << e;
  e = parseError("");
  EXPECT_NE(e.find("empty requirement"), std::string::npos) << e;
  e = parseError("bit-stable,,ulp<=1");
  EXPECT_NE(e.find("empty item"), std::string::npos) << e;
  e = parseError("ulp<=1,ulp<=2");
  EXPECT_NE(e.find("'ulp' bound given twice"), std::string::npos) << e;
  e = parseError("bit-stable,bit-stable");
  EXPECT_NE(e.find("given twice"), std::string::npos) << e;
  e = parseError("none,ulp<=1");
  EXPECT_NE(e.find("unknown item 'none'"), std::string::npos) << e;
}

TEST(PrecisionRulesTest, FormatRoundTrips) {
  EXPECT_EQ(formatPrecisionRequirement(Precision::unaudited()), "none");
  EXPECT_EQ(formatPrecisionRequirement(Precision::reference()), "reference");
  EXPECT_EQ(formatPrecisionRequirement(Precision::deterministic()),
            "deterministic");
  Precision p;
  p.bitStable = true;
  p.maxUlp = 1;
  p.maxRelative = 1e-5;
  p.maxAbsolute = 1e-6;
  EXPECT_EQ(formatPrecisionRequirement(p),
            "bit-stable,ulp<=1,rel<=1e-05,abs<=1e-06");
  for (const char *text :
       {"none", "reference", "deterministic", "bit-stable,ulp<=1", "rel<=0.1",
        "abs<=3.0000000000000004", "ulp<=18446744073709551615"}) {
    Precision parsed = parseOk(text);
    EXPECT_EQ(parseOk(formatPrecisionRequirement(parsed)), parsed) << text;
  }
}

} // namespace
