#!/usr/bin/env bash
# Downloads, into the git-ignored folder .deb/, the Debian 12 packages that scripts/device-build.sh
# unpacks on the GPU machine, which reaches no package registry. Nothing is installed here.
#
#   scripts/fetch-device-debs.sh [--with-cmake] [--dir DIR]
#
# The device tool carries at most 64 MiB per call; the default set is about 17 MB. --with-cmake adds
# Debian's cmake 3.25 and the libraries it needs, for a machine without a CMake of 3.25 or newer (the
# GPU image has one, so this is off by default).
set -euo pipefail

dir=.deb
with_cmake=no
while (($# > 0)); do
  case "$1" in
    --with-cmake) with_cmake=yes ;;
    --dir) dir=$2; shift ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fetch-device-debs: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# "build": always unpacked into the private prefix: headers, CMake and pkg-config files, and the shared
# libraries that layerbench links.
build_packages=(
  nlohmann-json3-dev
  libboost-program-options-dev libboost-program-options1.74-dev libboost1.74-dev libboost-program-options1.74.0
  doctest-dev
  libcpp-httplib-dev libcpp-httplib0.11
  # httplib.h is compiled with OpenSSL, zlib and Brotli support (see cpp-httplib.pc), so it includes their
  # headers, and pkg-config needs their .pc files.
  libssl-dev zlib1g-dev libbrotli-dev
  libkainjow-mustache-dev
  libmd4c-dev libmd4c0 libmd4c-html0 libmd4c-html0-dev
  pkg-config pkgconf pkgconf-bin libpkgconf3
  # gloo's headers, which c10d's ProcessGroupGloo.hpp includes and the torch wheel does not ship
  # (engine/bench/detail/ddp/process_group.cpp); nothing links Debian's gloo library.
  libgloo-dev
)
# "runtime": shared libraries that the GPU machine most likely has already. They are unpacked only where
# the machine lacks one of the libraries they ship, so that they never shadow the system's own.
runtime_packages=(libssl3 zlib1g libbrotli1)
if [[ $with_cmake == yes ]]; then
  build_packages+=(cmake cmake-data)
  runtime_packages+=(libarchive13 libcurl4 libexpat1 libjsoncpp25 librhash0 libuv1 libnghttp2-14 libpsl5
                     librtmp1 libssh2-1 libldap-2.5-0 libsasl2-2 libnettle8 libgnutls30 libhogweed6 libidn2-0
                     libunistring2 libtasn1-6 libp11-kit0 libffi8 liblz4-1 liblzma5 libzstd1 libacl1
                     libxml2 libicu72 libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2 libgssapi-krb5-2
                     libkeyutils1)
fi

mkdir -p "$dir"
rm -f "$dir"/*.deb "$dir"/MANIFEST
# apt-get download writes into the current folder; the _apt user cannot write into ours, hence the warning
# that apt prints and that we silence.
(cd "$dir" && apt-get download -q "${build_packages[@]}" "${runtime_packages[@]}" 2>&1 \
  | grep -v 'Download is performed unsandboxed' || true)

# The manifest tells device-build.sh which role each file plays.
{
  echo "# role file (written by scripts/fetch-device-debs.sh; read by scripts/device-build.sh)"
  for role in build runtime; do
    declare -n names="${role}_packages"
    for name in "${names[@]}"; do
      file=$(cd "$dir" && ls "${name}"_*.deb 2>/dev/null | head -n 1)
      if [[ -z "$file" ]]; then
        echo "fetch-device-debs: apt-get download did not fetch '$name'" >&2
        exit 1
      fi
      echo "$role $file"
    done
    unset -n names
  done
} > "$dir/MANIFEST"

total=$(du -cb "$dir"/*.deb | tail -n 1 | cut -f 1)
echo "fetch-device-debs: $(grep -vc '^#' "$dir/MANIFEST") packages, $((total / 1024 / 1024)) MiB in $dir/"
if ((total > 48 * 1024 * 1024)); then
  echo "fetch-device-debs: warning: over 48 MiB; the device tool carries at most 64 MiB with the working tree" >&2
fi
