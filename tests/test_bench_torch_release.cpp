#include "bench/torch_release.hpp"

#include <doctest/doctest.h>

using namespace layerbench::bench;

TEST_CASE("bench::has")
{
  SUBCASE("a feature is there from its first release on, across a major release")
  {
    CHECK_FALSE(has({2, 5}, TorchFeature::aoti_package_loader));
    CHECK(has({2, 6}, TorchFeature::aoti_package_loader));
    CHECK(has({2, 15}, TorchFeature::aoti_package_loader));
    CHECK(has({3, 0}, TorchFeature::aoti_package_loader));
  }
  SUBCASE("minor releases compare as numbers: 2.10 comes after 2.9")
  {
    CHECK_FALSE(has({2, 9}, TorchFeature::float32_precision_enums));
    CHECK(has({2, 10}, TorchFeature::float32_precision_enums));
    CHECK(TorchRelease{2, 9} < TorchRelease{2, 10});
    CHECK_FALSE(TorchRelease{2, 10} < TorchRelease{2, 9});
  }
  SUBCASE("1.13 has none of the 2.x APIs")
  {
    for (const auto feature : {TorchFeature::scaled_dot_product_attention, TorchFeature::sdpa_scale,
                               TorchFeature::mha_scale_by_multiplication, TorchFeature::foreach_lerp,
                               TorchFeature::kineto_event_ns, TorchFeature::autocast_per_device,
                               TorchFeature::aoti_package_loader,
                               TorchFeature::float32_precision_strings, TorchFeature::float32_precision_enums,
                               TorchFeature::cxx11_abi_wheel, TorchFeature::c10d_backend_base,
                               TorchFeature::allocator_copy_data, TorchFeature::rms_norm,
                               TorchFeature::sdpa_enable_gqa}) {
      CHECK_FALSE(has({1, 13}, feature));
    }
    CHECK(has({2, 0}, TorchFeature::scaled_dot_product_attention));
  }
  SUBCASE("scaled_dot_product_attention from 2.0, its scale argument from 2.1, Python's attention multiplies from 2.3")
  {
    CHECK(has({2, 0}, TorchFeature::scaled_dot_product_attention));
    CHECK_FALSE(has({2, 0}, TorchFeature::sdpa_scale));
    CHECK(has({2, 1}, TorchFeature::sdpa_scale));
    CHECK_FALSE(has({2, 2}, TorchFeature::mha_scale_by_multiplication));
    CHECK(has({2, 3}, TorchFeature::mha_scale_by_multiplication));
  }
  SUBCASE("_foreach_lerp_ from 2.0, the profiler's nanoseconds from 2.4")
  {
    CHECK_FALSE(has({1, 13}, TorchFeature::foreach_lerp));
    CHECK(has({2, 0}, TorchFeature::foreach_lerp));
    CHECK_FALSE(has({2, 3}, TorchFeature::kineto_event_ns));
    CHECK(has({2, 0}, TorchFeature::c10d_backend_base));
    CHECK_FALSE(has({2, 2}, TorchFeature::allocator_copy_data));
    CHECK(has({2, 3}, TorchFeature::allocator_copy_data));
    CHECK(has({2, 4}, TorchFeature::kineto_event_ns));
  }
  SUBCASE("today's layers: rms_norm from 2.4, scaled_dot_product_attention's enable_gqa from 2.5")
  {
    CHECK_FALSE(has({2, 3}, TorchFeature::rms_norm));
    CHECK(has({2, 4}, TorchFeature::rms_norm));
    CHECK_FALSE(has({2, 4}, TorchFeature::sdpa_enable_gqa));
    CHECK(has({2, 5}, TorchFeature::sdpa_enable_gqa));
    CHECK(missing({2, 0}, TorchFeature::rms_norm) == "needs torch >= 2.4; built with torch 2.0");
  }
  SUBCASE("autocast per device type from 2.4, the package loader from 2.6")
  {
    CHECK_FALSE(has({2, 3}, TorchFeature::autocast_per_device));
    CHECK(has({2, 4}, TorchFeature::autocast_per_device));
    CHECK_FALSE(has({2, 4}, TorchFeature::aoti_package_loader));
  }
  SUBCASE("2.9 has the string float32 API only; 2.7 is the first wheel with the C++11 ABI")
  {
    CHECK(has({2, 9}, TorchFeature::float32_precision_strings));
    CHECK_FALSE(has({2, 8}, TorchFeature::float32_precision_strings));
    CHECK_FALSE(has({2, 6}, TorchFeature::cxx11_abi_wheel));
    CHECK(has({2, 7}, TorchFeature::cxx11_abi_wheel));
  }
}

TEST_CASE("bench::missing")
{
  SUBCASE("the reason names the release needed and the one built with")
  {
    CHECK(missing({2, 3}, TorchFeature::aoti_package_loader) == "needs torch >= 2.6; built with torch 2.3");
    CHECK(missing({1, 13}, TorchFeature::scaled_dot_product_attention)
          == "needs torch >= 2.0; built with torch 1.13");
    CHECK(missing({2, 0}, TorchFeature::sdpa_scale) == "needs torch >= 2.1; built with torch 2.0");
  }
  SUBCASE("nothing is missing where the release has the feature")
  {
    CHECK_FALSE(missing({2, 11}, TorchFeature::aoti_package_loader).has_value());
  }
}

TEST_CASE("bench::built_torch_release")
{
  SUBCASE("this build's release links with the C++11 ABI and has every API the default release has")
  {
    const auto built = built_torch_release();
    CHECK(has(built, TorchFeature::cxx11_abi_wheel));
    CHECK_FALSE(missing_here(TorchFeature::scaled_dot_product_attention).has_value());
    CHECK(to_string(built) == std::to_string(built.major) + "." + std::to_string(built.minor));
  }
}
