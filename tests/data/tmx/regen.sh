#!/bin/sh
# Regenerates the castle_*.tmx test maps (and patrol-tiles.tsx) from castle.map with
# scripts/map2tmx.py: one file per tile layer format, an embedded tileset, flip flags.
# Run from anywhere; commit the results (the tests do not run Python).
set -eu
cd "$(dirname "$0")/../../.."
d=tests/data/tmx
m2t="python3 scripts/map2tmx.py $d/castle.map"
$m2t $d/castle_csv.tmx
$m2t $d/castle_b64.tmx --encoding base64
$m2t $d/castle_zlib.tmx --encoding base64-zlib
$m2t $d/castle_gzip.tmx --encoding base64-gzip
$m2t $d/castle_xml.tmx --encoding xml
$m2t $d/castle_embed.tmx --embed
$m2t $d/castle_flip.tmx --flip-every 3
$m2t $d/castle_refs.tmx --routes none
# The same map as Tiled itself writes it (needs Debian's tiled; skipped without it): one
# line, tilesets embedded.
if command -v tiled >/dev/null 2>&1; then
  QT_QPA_PLATFORM=offscreen tiled --minimize --embed-tilesets --export-map tmx $d/castle_gzip.tmx $d/castle_tiled.tmx
fi
# Stops on routes: stop objects.
python3 scripts/map2tmx.py $d/looks.map $d/looks.tmx
# Doors: door objects and the door_look property.
python3 scripts/map2tmx.py $d/doors.map $d/doors.tmx
# Lights: light objects, the lantern key and the ambient and relight properties.
python3 scripts/map2tmx.py $d/lights.map $d/lights.tmx
