// CuPy's rule for operands of another device: the messages, and the checks that need no GPU.
#include <gtest/gtest.h>

#include <string>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"

using namespace cuarray;

TEST(PeerAccess, MessagesAreCuPys) {
  EXPECT_EQ(peer_access_message(1, 0, true),
            "The device where the array resides (1) is different from the current device (0). "
            "Peer access has been activated automatically.");
  EXPECT_EQ(peer_access_message(0, 3, false),
            "The device where the array resides (0) is different from the current device (3). "
            "Peer access is unavailable between these devices.");
}

TEST(PeerAccess, SameDeviceNeedsNothing) {
  int calls = 0;
  static int* counter = nullptr;
  counter = &calls;
  auto* saved = peer_access_warning_hook;
  peer_access_warning_hook = [](int, int) { ++*counter; };
  EXPECT_NO_THROW(require_peer_access(0, 0));
  EXPECT_NO_THROW(require_peer_access(5, 5));  // not even the device ids are looked at
  peer_access_warning_hook = saved;
  EXPECT_EQ(calls, 0);
}

TEST(PeerAccess, InvalidDeviceIsRefused) {
  if (device_count() == 0) {
    EXPECT_THROW(require_peer_access(0, 1), no_device_error);
  } else {
    EXPECT_THROW(require_peer_access(0, device_count()), cuda_error);
  }
}
