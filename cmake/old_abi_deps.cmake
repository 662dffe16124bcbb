# The whole build with the pre-C++11 string ABI, for a torch wheel built with it (PyPI's up to 2.6;
# docs/versions.md). std::string has another layout and other mangled names under it, so every target
# is compiled with -D_GLIBCXX_USE_CXX11_ABI=0, and the two compiled C++ libraries LayerBench links
# come from scripts/old-abi-deps.sh instead of Debian's C++11-ABI packages: Boost.Program_options
# (headers: the installed Boost 1.74, the version of its sources) and cpp-httplib (with the header it
# was split from and Debian's defines). nlohmann_json, doctest and mustache are header-only, md4c is C.
#
# Defines the targets layerbench_program_options and layerbench_httplib, as CMakeLists.txt does for
# the C++11 ABI from Debian's packages.

# The script's folder: its LAYERBENCH_OLD_ABI_DIR, or its default.
set(old_abi_default "$ENV{HOME}/.cache/layerbench/old-abi")
if(DEFINED ENV{LAYERBENCH_OLD_ABI_DIR})
  set(old_abi_default "$ENV{LAYERBENCH_OLD_ABI_DIR}")
endif()
set(LAYERBENCH_OLD_ABI_DIR "${old_abi_default}" CACHE PATH
    "Where scripts/old-abi-deps.sh put Boost.Program_options and cpp-httplib built with the pre-C++11 ABI")
string(CONCAT old_abi_make_it "run `TORCH_VERSION=${torch_version} make setup` (or "
              "`LAYERBENCH_OLD_ABI_DIR=${LAYERBENCH_OLD_ABI_DIR} scripts/old-abi-deps.sh`)")
string(CONCAT old_abi_why "torch ${torch_version}: its PyPI wheel is built with the pre-C++11 string ABI "
              "(-D_GLIBCXX_USE_CXX11_ABI=0, in ${LAYERBENCH_TORCH_DIR}/share/cmake/Torch/TorchConfig.cmake), "
              "so LayerBench links Boost.Program_options and cpp-httplib built with that ABI")
if(NOT EXISTS "${LAYERBENCH_OLD_ABI_DIR}/old-abi-deps.cmake")
  message(FATAL_ERROR "${old_abi_why}, and ${LAYERBENCH_OLD_ABI_DIR} does not hold them "
                      "(no old-abi-deps.cmake): ${old_abi_make_it}")
endif()
include("${LAYERBENCH_OLD_ABI_DIR}/old-abi-deps.cmake")
foreach(library IN ITEMS LAYERBENCH_OLD_ABI_PROGRAM_OPTIONS LAYERBENCH_OLD_ABI_HTTPLIB)
  if(NOT EXISTS "${${library}}")
    message(FATAL_ERROR "${old_abi_why}, and ${${library}} is missing: ${old_abi_make_it}")
  endif()
endforeach()

add_compile_definitions(_GLIBCXX_USE_CXX11_ABI=0)

find_package(Boost 1.74 EXACT REQUIRED)
add_library(layerbench_program_options INTERFACE)
target_link_libraries(layerbench_program_options INTERFACE Boost::headers "${LAYERBENCH_OLD_ABI_PROGRAM_OPTIONS}")

# What Debian's build of cpp-httplib links (its pkg-config file's Requires.private).
pkg_check_modules(HTTPLIB_DEPS REQUIRED IMPORTED_TARGET openssl zlib libbrotlicommon libbrotlidec libbrotlienc)
add_library(layerbench_httplib INTERFACE)
target_include_directories(layerbench_httplib BEFORE INTERFACE "${LAYERBENCH_OLD_ABI_HTTPLIB_INCLUDE_DIR}")
target_compile_definitions(layerbench_httplib INTERFACE ${LAYERBENCH_OLD_ABI_HTTPLIB_DEFINES})
target_link_libraries(layerbench_httplib INTERFACE "${LAYERBENCH_OLD_ABI_HTTPLIB}" PkgConfig::HTTPLIB_DEPS pthread)
message(STATUS "${old_abi_why} (from ${LAYERBENCH_OLD_ABI_DIR}); every target is compiled with -D_GLIBCXX_USE_CXX11_ABI=0")
