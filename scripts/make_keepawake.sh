#!/bin/sh
# static/keepawake.webm and .mp4: two seconds of a black 16x16 picture with a silent sound
# track, what static/screen.js plays to keep a phone's screen on where the browser has no
# Wake Lock (plain HTTP). The sound track is needed: Safari and Firefox keep the screen on
# only for a video that has one. Made once with Debian's ffmpeg; the files are committed.
set -eu
cd "$(dirname "$0")/../static"
picture="color=c=black:s=16x16:r=5:d=2"
silence="anullsrc=r=48000:cl=mono"
exact="-map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact"
# shellcheck disable=SC2086
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$picture" -f lavfi -i "$silence" -t 2 \
  -c:v libx264 -profile:v baseline -level 3.0 -pix_fmt yuv420p -tune stillimage -crf 51 \
  -c:a aac -b:a 16k -ac 1 -movflags +faststart $exact keepawake.mp4
# shellcheck disable=SC2086
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$picture" -f lavfi -i "$silence" -t 2 \
  -c:v libvpx -b:v 10k -c:a libopus -b:a 6k -ac 1 $exact keepawake.webm
ls -l keepawake.mp4 keepawake.webm
