#!/usr/bin/env bash
# Configures and builds Roofline into ./build (Release, Ninja).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang \
      -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ >/dev/null
cmake --build build -j"$(nproc)"
