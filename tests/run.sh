#!/usr/bin/env bash
# Installs what Cairn needs, builds everything in Release and runs the whole test suite.
# Usage: bash tests/run.sh [BUILD_TYPE]   (Release by default; Debug and Sanitize also work;
# Thread builds under ThreadSanitizer and runs the multi-threaded race check, label "threads_race")
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_type=${1:-Release}
build_dir="$root/build-${build_type,,}"

bash "$root/.ci/install-deps.sh"
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
if [ "$build_type" = Thread ]; then
  cmake --build "$build_dir" --target threads_race_check
  TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1} \
    ctest --test-dir "$build_dir" --output-on-failure -L threads_race
  exit 0
fi
cmake --build "$build_dir"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
