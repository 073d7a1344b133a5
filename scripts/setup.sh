#!/usr/bin/env bash
# Installs the Debian packages Roofline builds and tests with, if any is missing.
# Safe to run repeatedly; needs root (or sudo) only when something is missing.
set -euo pipefail

PACKAGES=(clang-22 llvm-22-dev libclang-22-dev llvm-22-tools libclang-rt-22-dev
          nlohmann-json3-dev cmake ninja-build libgtest-dev libomp-22-dev python3
          valgrind openmpi-bin libopenmpi-dev libamdhip64-dev rocm-device-libs
          lld-22)
# valgrind: cachegrind, the reference the cache model (ROOFLINE_CACHE) is
# checked against; Open MPI: the test of MPI ranks (%r, merge, imbalance);
# the HIP headers and ROCm device libraries: HIP device code (test/HIP);
# lld-22: a whole HIP compile links its device code object with it.
# The HTML report's browser test runs in headless Chromium.
[ "${ROOFLINE_NO_CHROMIUM:-0}" = 1 ] || PACKAGES+=(chromium)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "setup: toolchain ready ($(/usr/lib/llvm-22/bin/clang --version | head -1))"
