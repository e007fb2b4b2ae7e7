// untrusted_owner: a secret file must belong to this user or to root.
#include "common/file_owner.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

namespace schedrig {
namespace {

TEST(FileOwner, ThisUserAndRootAreTrusted) {
  EXPECT_EQ(untrusted_owner(::geteuid()), std::nullopt);
  EXPECT_EQ(untrusted_owner(0), std::nullopt);
}

TEST(FileOwner, AnotherUserIsNamedWithTheFix) {
  const uid_t self = ::geteuid();
  const uid_t other = self == 4242 ? 4243 : 4242;
  EXPECT_EQ(
      untrusted_owner(other),
      fmt::format("owned by uid {}, not by this user (uid {}) or root; chown it", other, self));
}

}  // namespace
}  // namespace schedrig
