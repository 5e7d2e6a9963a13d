//===- StatusTest.cpp - Tests of the runtime's Status type ----------------===//
//
// Status and StatusOr: codes, messages, context, and the value or error a
// StatusOr holds.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Status.h"

#include <gtest/gtest.h>

#include <memory>

using namespace fuel::rt;

namespace {

TEST(StatusTest, OkIsOk) {
  Status s = Status::ok();
  EXPECT_TRUE(s.isOk());
  EXPECT_TRUE(static_cast<bool>(s));
  EXPECT_EQ(s.code(), StatusCode::Ok);
  EXPECT_EQ(s.message(), "");
  EXPECT_EQ(s.toString(), "Ok");
  EXPECT_TRUE(Status().isOk());
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  Status s = Status::error(StatusCode::DataLoss, "segment 1: checksum");
  EXPECT_FALSE(s.isOk());
  EXPECT_FALSE(static_cast<bool>(s));
  EXPECT_EQ(s.code(), StatusCode::DataLoss);
  EXPECT_EQ(s.message(), "segment 1: checksum");
  EXPECT_EQ(s.toString(), "DataLoss: segment 1: checksum");
  EXPECT_EQ(s.withContext("model.fuel").message(),
            "model.fuel: segment 1: checksum");
  EXPECT_TRUE(Status::ok().withContext("x").isOk());
}

TEST(StatusTest, CodeNames) {
  EXPECT_STREQ(toString(StatusCode::InvalidArgument), "InvalidArgument");
  EXPECT_STREQ(toString(StatusCode::OutOfRange), "OutOfRange");
  EXPECT_STREQ(toString(StatusCode::FailedPrecondition), "FailedPrecondition");
  EXPECT_STREQ(toString(StatusCode::Unavailable), "Unavailable");
  EXPECT_STREQ(toString(StatusCode::ResourceExhausted), "ResourceExhausted");
  EXPECT_STREQ(toString(StatusCode::Internal), "Internal");
  EXPECT_STREQ(toString(StatusCode::Unimplemented), "Unimplemented");
}

Status failsWhen(bool fail) {
  FUEL_RT_RETURN_IF_ERROR(fail ? Status::error(StatusCode::Internal, "boom")
                               : Status::ok());
  return Status::error(StatusCode::OutOfRange, "reached the end");
}

TEST(StatusTest, ReturnIfError) {
  EXPECT_EQ(failsWhen(true).code(), StatusCode::Internal);
  EXPECT_EQ(failsWhen(false).code(), StatusCode::OutOfRange);
}

StatusOr<std::unique_ptr<int>> makeInt(bool fail) {
  if (fail)
    return Status::error(StatusCode::InvalidArgument, "no int");
  return std::make_unique<int>(42);
}

TEST(StatusOrTest, HoldsValueOrError) {
  auto good = makeInt(false);
  ASSERT_TRUE(good.isOk());
  EXPECT_TRUE(good.status().isOk());
  EXPECT_EQ(**good, 42);
  EXPECT_EQ(*good.value(), 42);
  std::unique_ptr<int> moved = std::move(good).value();
  EXPECT_EQ(*moved, 42);

  auto bad = makeInt(true);
  EXPECT_FALSE(bad.isOk());
  EXPECT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(bad.status().code(), StatusCode::InvalidArgument);
  EXPECT_EQ(bad.status().message(), "no int");
}

TEST(StatusOrTest, ArrowReachesMembers) {
  StatusOr<std::string> s(std::string("abc"));
  EXPECT_EQ(s->size(), 3u);
  const StatusOr<std::string> &cs = s;
  EXPECT_EQ(cs->front(), 'a');
}

} // namespace
