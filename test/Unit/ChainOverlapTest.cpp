// Unit tests of a loop-carried chain's cost across entries
// (ChainOverlap.h): each value derived by hand from the recurrence, C the
// chain's cycles an iteration, E the iterations an entry, R the reorder
// buffer's iterations (in order), S a scheduler queue's (left at issue).
#include "roofline/Model/ChainOverlap.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

TEST(ChainOverlap, LongEntriesHideOneWindow) {
  // E = 8, R = 4, C = 4: the next entry's first iteration enters when
  // iteration 8 - 4 = 4 of this one retires, done 5 links after the entry
  // began: (E - R + 1) x C = 20 cycles an entry, not 32.
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(4, 8, {4, 0}), 20);
  // E = 128, R = 8: (128 - 8 + 1) x 4 = 484.
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(4, 128, {8, 0}), 484);
  // A scheduler of 8 waiting iterations frees an entry when one issues,
  // not when it retires: the next entry starts when iteration 128 - 8 =
  // 120 issues, 120 links in: 480. With a larger reorder buffer (24) too,
  // the scheduler fills first.
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(4, 128, {0, 8}), 480);
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(4, 128, {24, 8}), 480);
}

TEST(ChainOverlap, ShortEntriesRunSideBySide) {
  // E = 1, R = 4: every iteration is an entry of its own chain of one
  // link; iteration n enters when n - 4 retires, 4 cycles after it
  // entered: 4 entries every 4 cycles, 1 cycle an entry.
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(4, 1, {4, 0}), 1);
  // E = R = 8: the second entry enters beside the first, one iteration at
  // a time as the first's retire; the third waits for the second's first
  // iteration, which retires only after the first entry's last (in
  // order): two entries every 8 links, 16 cycles an entry.
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(4, 8, {8, 0}), 16);
}

TEST(ChainOverlap, WithoutWindowsTheWholeChain) {
  // An in-order core (no window known): E x C.
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(4, 10, {}), 40);
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(4, 0, {8, 0}), 0);
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(0, 10, {8, 0}), 0);
}

TEST(ChainOverlap, LongEntriesAreExtrapolated) {
  // test/InCore/report.test's sum: 100000 iterations an entry, a window of
  // 224 / 5 = 44.8 iterations, 45 rounded up (more overlap: still a lower
  // bound): (100000 - 45 + 1) = 99956 links of 1 cycle.
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(1, 100000, {44.8, 0}), 99956);
  // Past 4 windows and 16 more every iteration adds one link: E = 200 and
  // E = 201 differ by C.
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(3, 201, {45, 0}) -
                       chainCyclesPerEntry(3, 200, {45, 0}),
                   3);
}

TEST(ChainOverlap, AMeanBetweenWholeLengths) {
  // 8.5 iterations an entry on average: halfway between E = 8 (20 cycles
  // with R = 4) and E = 9 ((9 - 4 + 1) x 4 = 24): 22.
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(4, 9, {4, 0}), 24);
  EXPECT_DOUBLE_EQ(chainCyclesPerEntry(4, 8.5, {4, 0}), 22);
}

} // namespace
