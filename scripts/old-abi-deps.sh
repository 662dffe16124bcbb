#!/usr/bin/env bash
# Builds the two compiled C++ dependencies of LayerBench with the pre-C++11 string ABI
# (-D_GLIBCXX_USE_CXX11_ABI=0), for the torch releases whose PyPI wheels use it (up to 2.6;
# docs/versions.md). Debian's own libboost-program-options and libcpp-httplib use the C++11 ABI, and
# one binary cannot pass strings between the two, so these are compiled again from Debian's own
# sources, at the versions installed here, into static libraries outside the clone:
#
#   $LAYERBENCH_OLD_ABI_DIR (default ~/.cache/layerbench/old-abi)
#     lib/libboost_program_options.a   boost1.74 1.74.0+ds1 (its headers: the installed libboost1.74-dev)
#     lib/libcpp-httplib.a             cpp-httplib 0.11.4+ds-1+deb12u1 (split as Debian's build splits it)
#     include/httplib.h                the header that goes with it
#     old-abi-deps.cmake               what cmake/torch_cpu_only.cmake reads; written last
#
# Run by `TORCH_VERSION=X make setup` for such a release (scripts/setup.sh); safe to run by hand.
# A second run costs nothing: old-abi-deps.cmake names the recipe it was built with.
set -euo pipefail

OUT=${LAYERBENCH_OLD_ABI_DIR:-$HOME/.cache/layerbench/old-abi}
POOL=${LAYERBENCH_DEBIAN_POOL:-http://deb.debian.org/debian/pool/main}
CXX=${CXX:-c++}

# The sources, with the sha256 their .dsc files give (boost1.74_1.74.0+ds1-21.dsc,
# cpp-httplib_0.11.4+ds-1+deb12u1.dsc): the source packages of Debian 12's installed binaries.
BOOST_TARBALL=boost1.74_1.74.0+ds1.orig.tar.xz
BOOST_SHA256=192f5df504d282cb81288f88232d8af45b64a9ab531e1c7cf8ae955f16f6bb28
HTTPLIB_TARBALL=cpp-httplib_0.11.4+ds.orig.tar.xz
HTTPLIB_SHA256=8b1a5df569003b6a4f24c68489bbda5c64aec94697bdc9ebba5d79408b2ae7eb
HTTPLIB_DEBIAN=cpp-httplib_0.11.4+ds-1+deb12u1.debian.tar.xz
HTTPLIB_DEBIAN_SHA256=a0adf8a38610806f6d94ba69839438635e5e6580775e28ff31d6a081e34f1484

# Debian's flags: its pkg-config file's Cflags, and CPPHTTPLIB_USE_POLL from debian/rules. The same
# defines keep serve's behaviour (gzip and brotli responses) the same as in the default build.
HTTPLIB_DEFINES="CPPHTTPLIB_OPENSSL_SUPPORT;CPPHTTPLIB_ZLIB_SUPPORT;CPPHTTPLIB_BROTLI_SUPPORT;CPPHTTPLIB_USE_POLL"
CXXFLAGS_OLD_ABI=(-std=c++17 -O2 -fPIC -DNDEBUG -D_GLIBCXX_USE_CXX11_ABI=0)

# Changes whenever what is built changes, so that an older build is replaced.
RECIPE="1 $BOOST_SHA256 $HTTPLIB_SHA256 $HTTPLIB_DEBIAN_SHA256 $HTTPLIB_DEFINES ${CXXFLAGS_OLD_ABI[*]} $($CXX -dumpfullversion)"
STAMP=$OUT/old-abi-deps.cmake

fail() {
  echo "old-abi-deps: $*" >&2
  exit 1
}

if [[ -f $STAMP ]] && grep -qxF "# recipe: $RECIPE" "$STAMP"; then
  exit 0
fi

# The headers Boost.Program_options is compiled against are the installed ones: they must be 1.74,
# the version of the sources.
if ! grep -q '^#define BOOST_VERSION 107400$' /usr/include/boost/version.hpp 2>/dev/null; then
  fail "/usr/include/boost/version.hpp is not Boost 1.74 (Debian: libboost1.74-dev, which libboost-program-options-dev installs)"
fi

# Downloads $1 from the Debian pool folder $2 into downloads/ unless it is there, and checks its sha256.
fetch() {
  local file=$1 folder=$2 sha=$3 path=$OUT/downloads/$1
  mkdir -p "$OUT/downloads"
  if [[ ! -f $path ]] || ! echo "$sha  $path" | sha256sum -c --status; then
    echo "old-abi-deps: downloading $POOL/$folder/$file"
    curl -fsSL --retry 3 -o "$path.part" "$POOL/$folder/$file" || fail "cannot download $POOL/$folder/$file"
    mv "$path.part" "$path"
  fi
  echo "$sha  $path" | sha256sum -c --status \
    || fail "$path: sha256 $(sha256sum "$path" | cut -d' ' -f1), not $sha as Debian's .dsc says"
}

fetch "$BOOST_TARBALL" b/boost1.74 "$BOOST_SHA256"
fetch "$HTTPLIB_TARBALL" c/cpp-httplib "$HTTPLIB_SHA256"
fetch "$HTTPLIB_DEBIAN" c/cpp-httplib "$HTTPLIB_DEBIAN_SHA256"

work=$(mktemp -d "$OUT/work.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Compiles the sources $2... into the static library $1, one at a time (the machine is shared).
compile_library() {
  local library=$1 source objects=()
  shift
  for source in "$@"; do
    local name=${source##*/}
    local object=$work/obj/${name%.*}.o
    mkdir -p "$work/obj"
    nice -n 19 "$CXX" "${CXXFLAGS_OLD_ABI[@]}" "${extra_flags[@]}" -c "$source" -o "$object" \
      || fail "compiling $source failed"
    objects+=("$object")
  done
  mkdir -p "$OUT/lib"
  rm -f "$library.part"
  ar rcs "$library.part" "${objects[@]}"
  mv "$library.part" "$library"
}

# Boost.Program_options: its sources only (winmain.cpp is for Windows). Debian's one patch to the
# library (boostorg-program_options-pull-59) changes a header, which the installed headers carry.
echo "old-abi-deps: building Boost.Program_options 1.74 with -D_GLIBCXX_USE_CXX11_ABI=0"
tar -xJf "$OUT/downloads/$BOOST_TARBALL" -C "$work" --wildcards 'boost/libs/program_options/src/*.cpp'
boost_sources=()
for source in "$work"/boost/libs/program_options/src/*.cpp; do
  [[ $(basename "$source") == winmain.cpp ]] || boost_sources+=("$source")
done
extra_flags=()
compile_library "$OUT/lib/libboost_program_options.a" "${boost_sources[@]}"

# cpp-httplib: Debian's patch (CVE-2023-26130) on the upstream header, then split.py, as Debian's
# meson build does (-Dcpp-httplib_compile=true), into httplib.h and httplib.cc.
echo "old-abi-deps: building cpp-httplib 0.11.4 with -D_GLIBCXX_USE_CXX11_ABI=0"
mkdir -p "$work/httplib"
tar -xJf "$OUT/downloads/$HTTPLIB_TARBALL" -C "$work/httplib" --strip-components=1
tar -xJf "$OUT/downloads/$HTTPLIB_DEBIAN" -C "$work/httplib"
while read -r patch; do
  [[ -z $patch || $patch == \#* ]] && continue
  patch -s -p1 -d "$work/httplib" < "$work/httplib/debian/patches/$patch" || fail "Debian's patch $patch does not apply"
done < "$work/httplib/debian/patches/series"
python3 "$work/httplib/split.py" --out "$work/httplib/split" >/dev/null
mkdir -p "$OUT/include"
cp "$work/httplib/split/httplib.h" "$OUT/include/httplib.h"
extra_flags=(-I"$OUT/include")
IFS=';' read -ra defines <<<"$HTTPLIB_DEFINES"
for define in "${defines[@]}"; do
  extra_flags+=(-D"$define")
done
compile_library "$OUT/lib/libcpp-httplib.a" "$work/httplib/split/httplib.cc"

cat >"$STAMP.part" <<EOF
# Written by scripts/old-abi-deps.sh; read by cmake/torch_cpu_only.cmake. Do not edit.
# recipe: $RECIPE
set(LAYERBENCH_OLD_ABI_PROGRAM_OPTIONS "$OUT/lib/libboost_program_options.a")
set(LAYERBENCH_OLD_ABI_HTTPLIB "$OUT/lib/libcpp-httplib.a")
set(LAYERBENCH_OLD_ABI_HTTPLIB_INCLUDE_DIR "$OUT/include")
set(LAYERBENCH_OLD_ABI_HTTPLIB_DEFINES "$HTTPLIB_DEFINES")
EOF
mv "$STAMP.part" "$STAMP"
echo "old-abi-deps: $OUT holds Boost.Program_options and cpp-httplib built with the pre-C++11 ABI"
