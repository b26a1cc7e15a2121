#!/usr/bin/env bash
# camera-video.sh makes the fake camera's video (issue 36 proof): labels of label sheet PDFs
# (the app's GET /api/admin/packs/labels, or internal/labelsheet for a serial never minted),
# rendered at 150 dpi with pdftoppm, each cropped from its slot, scaled to 600 px wide and
# centred on a white 640×480 frame, SECONDS each in the order given, as a .y4m video that
# Chromium plays as a camera (--use-file-for-fake-video-capture; it loops the file).
#
# Usage: camera-video.sh OUT.y4m SECONDS ITEM...
#   ITEM is SHEET.pdf:SLOT, SLOT the label's place on the sheet, 0-based, 24 a page (a label
#   may repeat: the scanner must ignore a duplicate), or "blank": SECONDS of an empty white
#   frame (nothing to find). FPS (env, default 10) is the video's frame rate.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: camera-video.sh OUT.y4m SECONDS ITEM..." >&2; exit 2; }
out=$1 secs=$2
shift 2
fps=${FPS:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the sheet's geometry (modules/packs/labels.go): A4, 3 columns × 8 rows of 70 × 37 mm from
# 0.5 mm below the top; at 150 dpi a millimetre is 150/25.4 px
px() { awk -v mm="$1" 'BEGIN { printf "%d", mm * 150 / 25.4 + 0.5 }'; }
w=$(px 70) h=$(px 37)

inputs=() filters="" streams=""
i=0
declare -A png=()
for item in "$@"; do
  if [ "$item" = blank ]; then
    inputs+=(-f lavfi -t "$secs" -i "color=c=white:s=640x480:r=$fps")
    filters+="[$i:v]setsar=1,format=yuv420p[v$i];"
    streams+="[v$i]"
    i=$((i + 1))
    continue
  fi
  sheet=${item%:*} slot=${item##*:}
  if [ -z "${png[$item]:-}" ]; then
    png[$item]="$work/label-$i"
    page=$((slot / 24 + 1)) col=$((slot % 24 % 3)) row=$((slot % 24 / 3))
    pdftoppm -r 150 -f "$page" -l "$page" -x "$(px $((col * 70)))" -y "$(px "$(awk -v r=$row 'BEGIN { print 0.5 + r * 37 }')")" \
      -W "$w" -H "$h" -png -singlefile "$sheet" "${png[$item]}"
  fi
  inputs+=(-loop 1 -framerate "$fps" -t "$secs" -i "${png[$item]}.png")
  filters+="[$i:v]scale=600:-2:flags=lanczos,pad=640:480:(ow-iw)/2:(oh-ih)/2:color=white,setsar=1,fps=$fps,format=yuv420p[v$i];"
  streams+="[v$i]"
  i=$((i + 1))
done
ffmpeg -nostdin -y -loglevel error "${inputs[@]}" -filter_complex "${filters}${streams}concat=n=$i:v=1:a=0[out]" \
  -map "[out]" -pix_fmt yuv420p -f yuv4mpegpipe "$out"
