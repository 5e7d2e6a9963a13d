//===- VulkanArenaTest.cpp - The Vulkan device's block sub-allocator ------===//
//
// Exact placements of small cases (best fit, alignment, coalescing on free)
// and a randomized property test: live allocations never overlap, stay
// inside their block and keep their alignment, and freeing everything
// leaves each block one free range.
//
//===----------------------------------------------------------------------===//

#include "vulkan/VulkanArena.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace fuel::rt;

TEST(VulkanArena, PlacesBestFitWithAlignment) {
  Arena arena;
  EXPECT_FALSE(arena.allocate(16, 16).has_value()) << "no block yet";
  uint32_t b = arena.addBlock(1024);
  auto a = arena.allocate(100, 1);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->block, b);
  EXPECT_EQ(a->offset, 0u);
  auto c = arena.allocate(10, 64);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->offset, 128u);
  // The gap [100, 128) is left free and a small request fits it.
  auto d = arena.allocate(20, 4);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->offset, 100u);
  // Free the middle: a hole of 100 at 0; best fit picks the hole for 90
  // rather than the large tail.
  arena.free(*a);
  auto e = arena.allocate(90, 1);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 0u);
  EXPECT_FALSE(arena.allocate(2000, 1).has_value());
  // A zero-size request takes one byte, in the smallest hole: [120, 128)
  // rather than [90, 100).
  auto z = arena.allocate(0, 1);
  ASSERT_TRUE(z);
  EXPECT_EQ(z->size, 1u);
  EXPECT_EQ(z->offset, 120u);
}

TEST(VulkanArena, FreeCoalescesNeighbours) {
  Arena arena;
  uint32_t b = arena.addBlock(300);
  auto x = arena.allocate(100, 1), y = arena.allocate(100, 1),
       z = arena.allocate(100, 1);
  ASSERT_TRUE(x && y && z);
  EXPECT_TRUE(arena.freeRanges(b).empty());
  arena.free(*x);
  arena.free(*z);
  EXPECT_EQ(arena.freeRanges(b).size(), 2u);
  EXPECT_FALSE(arena.allocate(150, 1).has_value());
  arena.free(*y); // Joins both neighbours.
  ASSERT_EQ(arena.freeRanges(b).size(), 1u);
  EXPECT_EQ(arena.freeRanges(b).begin()->first, 0u);
  EXPECT_EQ(arena.freeRanges(b).begin()->second, 300u);
  EXPECT_TRUE(arena.isEmpty(b));
  auto all = arena.allocate(300, 1);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->offset, 0u);
}

TEST(VulkanArena, BlocksAreAddedRemovedAndReused) {
  Arena arena;
  uint32_t b0 = arena.addBlock(64), b1 = arena.addBlock(128);
  EXPECT_EQ(arena.numBlocks(), 2u);
  auto big = arena.allocate(100, 1);
  ASSERT_TRUE(big);
  EXPECT_EQ(big->block, b1);
  EXPECT_TRUE(arena.isEmpty(b0));
  arena.removeBlock(b0);
  EXPECT_EQ(arena.numBlocks(), 1u);
  EXPECT_FALSE(arena.allocate(60, 1).has_value());
  EXPECT_EQ(arena.addBlock(64), b0) << "the index is reused";
  auto small = arena.allocate(60, 1);
  ASSERT_TRUE(small);
  EXPECT_EQ(small->block, b0);
}

TEST(VulkanArena, RandomizedAllocationsNeverOverlap) {
  std::mt19937_64 rng(12345);
  Arena arena;
  const uint64_t blockSize = 1 << 16;
  std::vector<Arena::Allocation> live;
  for (int step = 0; step < 20000; ++step) {
    bool doAlloc = live.empty() || rng() % 100 < 55;
    if (doAlloc) {
      uint64_t size = rng() % 3000;
      uint64_t align = uint64_t(1) << (rng() % 9);
      auto a = arena.allocate(size, align);
      if (!a) {
        arena.addBlock(blockSize);
        a = arena.allocate(size, align);
      }
      ASSERT_TRUE(a) << "a fresh block holds any request";
      EXPECT_EQ(a->offset % align, 0u);
      EXPECT_LE(a->offset + a->size, arena.blockSize(a->block));
      EXPECT_EQ(a->size, std::max<uint64_t>(size, 1));
      for (const auto &o : live)
        if (o.block == a->block)
          ASSERT_TRUE(a->offset + a->size <= o.offset ||
                      o.offset + o.size <= a->offset)
              << "overlap at step " << step;
      live.push_back(*a);
    } else {
      size_t i = rng() % live.size();
      arena.free(live[i]);
      live[i] = live.back();
      live.pop_back();
    }
  }
  for (const auto &a : live)
    arena.free(a);
  for (uint32_t b = 0; b < arena.numBlocks(); ++b) {
    EXPECT_TRUE(arena.isEmpty(b));
    ASSERT_EQ(arena.freeRanges(b).size(), 1u) << "block " << b;
    EXPECT_EQ(arena.freeRanges(b).begin()->second, blockSize);
  }
}
