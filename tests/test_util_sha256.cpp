// SPDX-License-Identifier: MIT
#include "util/sha256.hpp"

#include <doctest/doctest.h>

using layerbench::util::sha256_hex;

TEST_CASE("util::sha256_hex")
{
  SUBCASE("empty input (FIPS 180-4 example)")
  {
    CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  }
  SUBCASE("abc, one block")
  {
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }
  SUBCASE("448-bit message: the padding needs a second block")
  {
    CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
          == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  }
  SUBCASE("a million a's, many blocks")
  {
    CHECK(sha256_hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }
  SUBCASE("bytes above 0x7f are hashed as unsigned")
  {
    CHECK(sha256_hex(std::string(1, '\xff')) == "a8100ae6aa1940d0b663bb31cd466142ebbdbd5187131b92d93818987832eb89");
  }
}
