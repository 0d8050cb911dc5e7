#!/usr/bin/env bash
# Installs what Cairn needs, builds the viewer and runs the default stacking demo: in a window
# when there is a display, otherwise headless under Xvfb, writing a screenshot and a summary.
# Usage: bash demos/run.sh [cairn-demo arguments...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir="$root/build-release"

bash "$root/.ci/install-deps.sh"
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build_dir" --target cairn-demo
demo="$build_dir/demos/viewer/cairn-demo"

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$demo" "$@"
fi
shot="$build_dir/cairn-demo.png"
echo "demos/run.sh: no display; running headless under Xvfb, screenshot in $shot" >&2
exec xvfb-run -a -s "-screen 0 1280x720x24" "$demo" --screenshot "$shot" --frames 120 "$@"
