#!/usr/bin/env bash
# Render the demo gallery (a static HTML page) in headless Chromium and save a PNG screenshot.
#
#   Scripts/screenshot-gallery.sh [HTML] [PNG]
#
#   HTML  page to render          (default: demo-output/index.html)
#   PNG   screenshot to write     (default: the HTML path with .png, i.e. demo-output/index.png)
#
# Environment:
#   CHROMIUM      browser binary to use (default: first of chromium, chromium-browser,
#                 google-chrome, google-chrome-stable found on PATH)
#   WINDOW_SIZE   WIDTHxHEIGHT or WIDTH,HEIGHT of the viewport, which is what gets captured
#                 (default: 1280x4000; page content below it is cut off, empty space is white)
#   TIMEOUT       seconds before giving up on the browser (default: 60)
set -euo pipefail

html=${1:-demo-output/index.html}
png=${2:-${html%.*}.png}
window=${WINDOW_SIZE:-1280x4000}
window=${window/x/,}
timeout_s=${TIMEOUT:-60}

if [[ ! -f $html ]]; then
    echo "error: $html not found (run 'make demo' first)" >&2
    exit 2
fi

browser=${CHROMIUM:-}
if [[ -z $browser ]]; then
    for candidate in chromium chromium-browser google-chrome google-chrome-stable; do
        if command -v "$candidate" >/dev/null 2>&1; then
            browser=$candidate
            break
        fi
    done
fi
if [[ -z $browser ]]; then
    echo "error: no Chromium found (looked for chromium, chromium-browser, google-chrome)." >&2
    echo "Install it with:" >&2
    echo "    sudo apt-get install -y chromium" >&2
    exit 127
fi

html_abs=$(realpath "$html")
mkdir -p "$(dirname "$png")"
png_abs=$(realpath -m "$png")
rm -f "$png_abs"

# A throwaway profile, so runs neither share state nor trip over a locked profile.
profile=$(mktemp -d "${TMPDIR:-/tmp}/screenshot-gallery.XXXXXX")
trap 'rm -rf "$profile"' EXIT

# --allow-file-access-from-files: the page loads its images from next to it via file://.
# --virtual-time-budget: let images load and layout settle before the capture.
# --no-sandbox: Chromium's sandbox cannot start as root or in most containers.
timeout "$timeout_s" "$browser" \
    --headless=new --disable-gpu --no-sandbox --hide-scrollbars \
    --no-first-run --no-default-browser-check --disable-extensions --mute-audio \
    --user-data-dir="$profile" \
    --allow-file-access-from-files \
    --virtual-time-budget=5000 \
    --window-size="$window" \
    --screenshot="$png_abs" \
    "file://$html_abs" >"$profile/log" 2>&1 || {
        status=$?
        echo "error: $browser failed (exit $status):" >&2
        tail -n 20 "$profile/log" >&2
        exit 1
    }

if [[ ! -s $png_abs ]]; then
    echo "error: $browser wrote no screenshot; its output:" >&2
    tail -n 20 "$profile/log" >&2
    exit 1
fi
echo "$png"
