#!/usr/bin/env python3
# SPDX-License-Identifier: Zlib
"""gen_assets.py - procedural pixel-art generator for the patrol sprite sheets.

Everything here is the patrol project's own artwork, drawn procedurally or from
the hand-written pixel strings below.  Pure Python 3 standard library (zlib,
struct); no imaging library needed.  Output is deterministic: the only
randomness comes from fixed-seed random.Random instances and no floating point
trig is used, so every run writes byte-identical PNG files.

Usage:  python3 scripts/gen_assets.py [outdir]
        (default outdir: the repository's assets/ directory)

Sheets written (see assets/README.md for the exact layouts):
  tiles.png       176x16   11 map tiles, 16x16, opaque
  characters.png  192x80   5 characters x 4 directions x 3 frames, 16x16
  props.png       128x16   8 props / markers, 16x16
  font.png        128x48   96 glyphs (ASCII 32..127), 8x8, white on clear
Sounds written (16-bit mono WAV, 22050 Hz; see assets/README.md):
  step_soft, step_hard, step_wood, step_water, sting_suspicious, sting_chase,
  call, thud, caught, escaped
"""

import os
import random
import struct
import sys
import zlib

# --------------------------------------------------------------------------
# Palette (RGB).  One coherent set of ramps, darkest first.
# --------------------------------------------------------------------------

INK = (24, 20, 37)            # universal outline / deepest shadow
CLEAR = (0, 0, 0, 0)

STONE = [(36, 36, 52), (56, 58, 78), (80, 84, 106), (108, 114, 136), (144, 150, 168)]   # walls (cool)
FLAG = [(70, 62, 66), (106, 98, 98), (130, 122, 118), (152, 144, 136), (178, 170, 158)]  # floor (warm)
WOOD = [(60, 36, 32), (104, 64, 42), (146, 94, 56), (184, 128, 74), (218, 170, 108)]
LEAF = [(20, 46, 40), (32, 82, 52), (54, 120, 58), (90, 156, 64), (150, 196, 88)]
WATER = [(22, 38, 84), (32, 70, 134), (46, 106, 172), (94, 162, 212), (182, 228, 244)]
DIRT = [(80, 54, 40), (120, 84, 56), (150, 112, 72), (180, 142, 94), (208, 178, 128)]
TEAL = [(14, 54, 62), (22, 92, 96), (36, 142, 128), (84, 200, 166), (170, 240, 210)]
RED = [(84, 22, 36), (144, 36, 46), (204, 62, 56), (240, 122, 92)]
STEEL = [(66, 72, 96), (110, 118, 146), (162, 170, 192), (222, 228, 238)]
GOLD = [(118, 68, 24), (188, 126, 34), (242, 190, 60), (255, 236, 140)]
SKIN = [(140, 84, 66), (204, 138, 104), (240, 192, 152)]
WHITE = [(140, 140, 166), (196, 200, 212), (244, 244, 236), (255, 255, 255)]
FUR = [(62, 50, 52), (104, 84, 74), (146, 120, 96), (186, 160, 128), (226, 212, 184)]
CROW = [(22, 20, 34), (46, 44, 68), (76, 78, 112), (122, 130, 170)]
CLOTH = [(40, 38, 56), (62, 60, 84), (86, 84, 110)]   # dark trousers / masks
FIRE = [(160, 40, 30), (232, 96, 36), (250, 176, 56), (255, 240, 170)]

SHADOW = (INK[0], INK[1], INK[2], 80)   # soft drop shadow under sprites

PALETTE_DOC = [
    ('INK (outline)', [INK]), ('STONE (walls)', STONE), ('FLAG (floor)', FLAG),
    ('WOOD', WOOD), ('LEAF', LEAF), ('WATER', WATER), ('DIRT', DIRT),
    ('TEAL (player)', TEAL), ('RED', RED), ('STEEL', STEEL), ('GOLD', GOLD),
    ('SKIN', SKIN), ('WHITE', WHITE), ('FUR', FUR), ('CROW', CROW),
    ('CLOTH', CLOTH), ('FIRE', FIRE),
]


def rgba(c, a=255):
    return (c[0], c[1], c[2], a) if len(c) == 3 else c


# --------------------------------------------------------------------------
# Tiny RGBA image + PNG writer
# --------------------------------------------------------------------------

class Img:
    def __init__(self, w, h, fill=CLEAR):
        self.w, self.h = w, h
        self.px = [rgba(fill)] * (w * h)

    def inside(self, x, y):
        return 0 <= x < self.w and 0 <= y < self.h

    def get(self, x, y):
        return self.px[y * self.w + x]

    def put(self, x, y, c):
        if self.inside(x, y):
            self.px[y * self.w + x] = rgba(c)

    def wput(self, x, y, c):
        """Put with wrap-around (keeps tiles seamless)."""
        self.px[(y % self.h) * self.w + (x % self.w)] = rgba(c)

    def blend(self, x, y, c, a):
        """Alpha-composite colour c with opacity a (0..255) onto (x, y)."""
        if not self.inside(x, y):
            return
        r, g, b, da = self.get(x, y)
        if da == 0:
            self.px[y * self.w + x] = (c[0], c[1], c[2], a)
            return
        inv = 255 - a
        self.px[y * self.w + x] = ((c[0] * a + r * inv + 127) // 255,
                                   (c[1] * a + g * inv + 127) // 255,
                                   (c[2] * a + b * inv + 127) // 255,
                                   max(da, a))

    def opaque(self, x, y):
        return self.inside(x, y) and self.get(x, y)[3] > 0

    def copy(self):
        n = Img(self.w, self.h)
        n.px = list(self.px)
        return n

    def flipped(self):
        n = Img(self.w, self.h)
        for y in range(self.h):
            for x in range(self.w):
                n.px[y * self.w + x] = self.get(self.w - 1 - x, y)
        return n

    def paste(self, src, dx, dy):
        """Composite src over self at (dx, dy)."""
        for y in range(src.h):
            for x in range(src.w):
                c = src.get(x, y)
                if c[3] == 255:
                    self.put(dx + x, dy + y, c)
                elif c[3] > 0:
                    self.blend(dx + x, dy + y, c, c[3])


def png_bytes(img):
    raw = bytearray()
    for y in range(img.h):
        raw.append(0)  # filter type: none
        for x in range(img.w):
            raw.extend(img.get(x, y))

    def chunk(tag, data):
        return (struct.pack('>I', len(data)) + tag + data +
                struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff))

    ihdr = struct.pack('>IIBBBBB', img.w, img.h, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) +
            chunk(b'IDAT', zlib.compress(bytes(raw), 9)) + chunk(b'IEND', b''))


def write_png(path, img):
    with open(path, 'wb') as f:
        f.write(png_bytes(img))


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

def from_rows(rows, key, w=16, h=16):
    """Build an image from pixel strings; '.' (or any unknown char) = clear."""
    assert len(rows) == h, (len(rows), rows)
    img = Img(w, h)
    for y, row in enumerate(rows):
        assert len(row) == w, (y, row, len(row))
        for x, ch in enumerate(row):
            if ch in key:
                img.put(x, y, key[ch])
    return img


def add_outline(img, col=INK):
    """1-pixel outline (4-neighbour) around every opaque pixel."""
    out = img.copy()
    for y in range(img.h):
        for x in range(img.w):
            if img.get(x, y)[3] == 0:
                if (img.opaque(x - 1, y) or img.opaque(x + 1, y) or
                        img.opaque(x, y - 1) or img.opaque(x, y + 1)):
                    out.put(x, y, col)
    return out


def add_shadow(img, cx2, cy2, rx2, ry2):
    """Soft elliptical ground shadow behind the sprite.

    Centre and radii are given doubled (half-pixel precision, integers only)."""
    for y in range(img.h):
        for x in range(img.w):
            dx = 2 * x + 1 - cx2
            dy = 2 * y + 1 - cy2
            if dx * dx * ry2 * ry2 + dy * dy * rx2 * rx2 <= rx2 * rx2 * ry2 * ry2:
                if img.get(x, y)[3] == 0:
                    img.put(x, y, SHADOW)
    return img


def in_disc(x, y, cx2, cy2, r2):
    """Pixel (x, y) centre inside disc; centre/radius doubled."""
    dx = 2 * x + 1 - cx2
    dy = 2 * y + 1 - cy2
    return dx * dx + dy * dy <= r2 * r2


def ramp_pick(ramp, v):
    v = max(0, min(len(ramp) - 1, v))
    return ramp[v]


# --------------------------------------------------------------------------
# Tiles (tiles.png): every texture is drawn with wrap-around so that each
# tile repeats seamlessly with itself.
# --------------------------------------------------------------------------

FLOOR_MAP = [
    "aaaaaa.bbbbbbbb.",
    "aaaaaa.bbbbbbbb.",
    "aaaaaa.bbbbbbbb.",
    "aaaaaa.bbbbbbbb.",
    "aaaaaa.bbbbbbbb.",
    "aaaaaa.bbbbbbbb.",
    "aaaaaa.bbbbbbbb.",
    "aaaaaa.bbbbbbbb.",
    "................",
    "dd.cccccccc.dddd",
    "dd.cccccccc.dddd",
    "dd.cccccccc.dddd",
    "dd.cccccccc.dddd",
    "dd.cccccccc.dddd",
    "dd.cccccccc.dddd",
    "................",
]


def tint(c, d):
    return tuple(max(0, min(255, c[i] + d[i])) for i in range(3))


def mix(c1, c2, t=0.5):
    return tuple(int(c1[i] + (c2[i] - c1[i]) * t + 0.5) for i in range(3))


def tile_floor():
    rng = random.Random(1001)
    t = Img(16, 16)
    tints = {'a': (4, 2, 0), 'b': (-6, -5, -3), 'c': (0, 1, 5), 'd': (3, -1, -5)}

    def lab(x, y):
        return FLOOR_MAP[y % 16][x % 16]

    for y in range(16):
        for x in range(16):
            s = lab(x, y)
            if s == '.':
                t.put(x, y, FLAG[0])
                continue
            up, dn = lab(x, y - 1) != s, lab(x, y + 1) != s
            lf, rt = lab(x - 1, y) != s, lab(x + 1, y) != s
            j = rng.randrange(-4, 5)
            c = FLAG[2]
            if (up or dn) and (lf or rt):
                c = FLAG[1] if (dn or rt) else mix(FLAG[2], FLAG[3])   # rounded corners
            elif dn or rt:
                c = FLAG[1]
            elif up:
                c = FLAG[3]
            elif lf:
                c = mix(FLAG[2], FLAG[3])
            elif rng.random() < 0.05:
                c = mix(FLAG[1], FLAG[2])
            t.put(x, y, tint(c, (tints[s][0] + j, tints[s][1] + j, tints[s][2] + j)))
    # a hairline crack across stone b
    for (x, y) in [(10, 3), (11, 4), (12, 4)]:
        t.put(x, y, tint(mix(FLAG[1], FLAG[2], 0.5), tints['b']))
    return t


def tile_wall():
    rng = random.Random(2002)
    rows = []
    for y in range(16):
        course = y // 4
        if y % 4 == 3:
            rows.append('.' * 16)
            continue
        off = 4 if course % 2 else 0
        row = ''
        for x in range(16):
            xx = (x - off) % 16
            if xx % 8 == 7:
                row += '.'
            else:
                row += chr(ord('a') + course * 2 + xx // 8)
        rows.append(row)
    tones = {chr(ord('a') + i): v for i, v in enumerate([2, 2, 2, 1, 2, 2, 1, 2])}
    t = Img(16, 16)

    def lab(x, y):
        return rows[y % 16][x % 16]

    for y in range(16):
        for x in range(16):
            s = lab(x, y)
            if s == '.':
                t.put(x, y, INK if rng.random() < 0.7 else STONE[0])
                continue
            v = tones[s]
            up, dn = lab(x, y - 1) != s, lab(x, y + 1) != s
            rt = lab(x + 1, y) != s
            lf = lab(x - 1, y) != s
            r = rng.random()
            if dn:
                v = 1 if not rt else 0
            elif up:
                v = 4 if (r < 0.5 and not rt and not lf) else 3
            elif rt:
                v = 1
            elif lf:
                v = 3
            else:
                if r < 0.18:
                    v -= 1
                elif r > 0.9:
                    v += 1
            t.put(x, y, ramp_pick(STONE, v))
    return t


# wave crest shapes: (dx, dy, ramp index)
CREST_A = [(1, 0, 3), (2, 0, 4), (3, 0, 3), (0, 1, 3), (4, 1, 2)]
CREST_B = [(0, 0, 3), (1, 0, 3), (2, 0, 4), (3, 1, 3), (4, 1, 3)]
WATER_CRESTS = [(1, 1), (9, 4), (4, 8), (12, 11), (0, 13)]
WATER_SPARK_A = [(7, 2), (14, 7), (6, 14)]
WATER_SPARK_B = [(3, 5), (11, 1), (9, 14)]


def tile_water(frame):
    t = Img(16, 16)
    shift = 3 * frame
    for y in range(16):
        for x in range(16):
            # gentle diagonal swell bands, period 16 in x -> seamless
            v = (x + 2 * y + 2 * shift) % 16
            c = WATER[2] if v < 5 else (WATER[1] if v < 14 else WATER[0])
            t.put(x, y, c)
    crest = CREST_B if frame else CREST_A
    for (cx, cy) in WATER_CRESTS:
        cx += shift
        cy += frame
        # dark trough under the crest
        for dx in range(5):
            t.wput(cx + dx, cy + 2, WATER[1] if dx in (0, 4) else WATER[0])
        for dx, dy, i in crest:
            t.wput(cx + dx, cy + dy, WATER[i])
    for (sx, sy) in (WATER_SPARK_B if frame else WATER_SPARK_A):
        t.wput(sx, sy, WATER[4])
    return t


def tile_bridge():
    rng = random.Random(4004)
    t = Img(16, 16)
    for p in range(4):
        y0 = 4 * p
        off = (5 * p + 3) % 16   # where the butt joint falls in this plank row
        for y in range(y0, y0 + 4):
            for x in range(16):
                r = rng.random()
                if y == y0 + 3:
                    t.put(x, y, WATER[0] if r < 0.7 else INK)  # gap shows dark water
                    continue
                v = 2
                if y == y0:
                    v = 3 if r < 0.8 else 4
                elif y == y0 + 2:
                    v = 1
                else:
                    v = 2 if r < 0.8 else 1
                if x == off:
                    v = 0 if y != y0 else 1
                elif x == (off + 1) % 16 and y != y0 + 2:
                    v = 3
                t.put(x, y, WOOD[v])
        # nails beside the joint and at the plank's quarter points
        for nx in ((off + 3) % 16, (off + 11) % 16):
            t.put(nx, y0 + 1, INK)
            t.put(nx, y0, WOOD[4])
        # grain streak
        gx = rng.randrange(16)
        for dx in range(4):
            t.wput(gx + dx, y0 + 1, WOOD[1])
    return t


def tile_door():
    t = tile_wall()
    # dressed stone jambs (lighter) left and right
    for y in range(16):
        for x in (0, 1, 14, 15):
            band = (y // 4) % 2
            if y % 4 == 3:
                c = INK
            elif x in (0, 14):
                c = STONE[3] if y % 4 == 0 else STONE[2 + band % 2]
            else:
                c = STONE[2] if y % 4 != 2 else STONE[1]
            t.put(x, y, c)
    # lintel
    for x in range(2, 14):
        t.put(x, 0, STONE[3])
        t.put(x, 1, STONE[2])
    # opening outline
    for y in range(2, 16):
        t.put(2, y, INK)
        t.put(13, y, INK)
    for x in range(3, 13):
        t.put(x, 2, INK)
    # door leaf: three vertical planks
    for y in range(3, 16):
        for x in range(3, 13):
            px = (x - 3) % 10
            if px in (3, 6):
                c = WOOD[0]
            elif px in (0, 4, 7):
                c = WOOD[3]
            elif px in (2, 5, 9):
                c = WOOD[1]
            else:
                c = WOOD[2]
            t.put(x, y, c)
    for x in range(3, 13):
        t.put(x, 3, WOOD[4] if x % 3 else WOOD[3])
    # iron straps with rivets
    for sy in (5, 12):
        for x in range(3, 13):
            t.put(x, sy, STEEL[1])
            t.put(x, sy + 1, STEEL[0])
        for x in (4, 8, 11):
            t.put(x, sy, STEEL[3])
    # ring handle
    for (x, y, c) in [(10, 8, GOLD[2]), (11, 8, GOLD[1]), (9, 9, GOLD[2]), (12, 9, GOLD[0]),
                      (10, 10, GOLD[1]), (11, 10, GOLD[0]), (10, 9, INK), (11, 9, INK)]:
        t.put(x, y, c)
    return t


def grass_base(seed=6006):
    rng = random.Random(seed)
    t = Img(16, 16)
    for y in range(16):
        for x in range(16):
            r = rng.random()
            t.put(x, y, LEAF[2] if r < 0.72 else (LEAF[1] if r < 0.9 else LEAF[3]))
    tufts = [(2, 3), (9, 1), (13, 6), (5, 9), (11, 12), (1, 13), (7, 5), (14, 15), (4, 15)]
    for (x, y) in tufts:
        t.wput(x, y + 1, LEAF[1])
        t.wput(x, y, LEAF[3])
        t.wput(x - 1, y - 1, LEAF[3])
        t.wput(x + 1, y - 1, LEAF[4])
        t.wput(x - 1, y, LEAF[2])
    return t


def tile_grass():
    return grass_base()


def canopy(img, clumps, ramp, edge, rng, berries=()):
    """Paint a leafy mass as overlapping round clumps (drawn in order, later on
    top).  Each clump is lit from the top-left: bright rim up-left, shadow rim
    down-right, so the mass reads as a heap of leaf balls.  Returns the mask."""
    mask = set()
    for (cx, cy, r) in clumps:
        for y in range(16):
            for x in range(16):
                if not in_disc(x, y, cx, cy, r):
                    continue
                mask.add((x, y))
                if not in_disc(x + 1, y + 1, cx, cy, r):
                    v = 1
                elif not in_disc(x - 1, y - 1, cx, cy, r):
                    v = 3
                elif not in_disc(x - 2, y - 2, cx, cy, r) and rng.random() < 0.6:
                    v = 4 if rng.random() < 0.35 else 3
                else:
                    v = 2 if rng.random() < 0.85 else 1
                img.put(x, y, ramp[v])
    for (x, y) in mask:
        if any((x + dx, y + dy) not in mask for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            img.put(x, y, edge)
    for (x, y, c) in berries:
        img.put(x, y, c)
    return mask


BUSH_CLUMPS = [(9, 21, 7), (23, 21, 7), (16, 24, 7), (7, 13, 6), (25, 13, 6),
               (16, 17, 7), (11, 8, 6), (21, 8, 6), (16, 11, 6)]


def tile_bush():
    t = grass_base()
    probe = Img(16, 16)
    m = canopy(probe, BUSH_CLUMPS, LEAF, LEAF[0], random.Random(7007))
    # cast shadow on the grass (down-right)
    for (x, y) in m:
        for (sx, sy) in ((x + 1, y + 1), (x, y + 1)):
            if 0 <= sx < 16 and 0 <= sy < 16 and (sx, sy) not in m:
                t.put(sx, sy, LEAF[1])
    canopy(t, BUSH_CLUMPS, LEAF, LEAF[0], random.Random(7007),
           berries=[(5, 7, RED[2]), (10, 5, RED[2]), (8, 11, RED[2]), (12, 10, RED[1]),
                    (4, 11, RED[1])])
    return t


# A tree seen from the south-west: a round crown of leaf balls over a short trunk, its shadow
# cast down-right on the grass. Darker, cooler leaves and taller than the bush (tile 7), and
# with a trunk, so the two read apart: a bush hides, a tree blocks.
TREE_TILE_CLUMPS = [(16, 10, 10), (8, 12, 7), (24, 12, 7), (12, 5, 6), (21, 5, 6),
                    (11, 16, 7), (21, 16, 7), (16, 15, 7)]
TREE_LEAF = [(14, 36, 34), (24, 66, 48), (38, 100, 56), (66, 138, 62), (122, 180, 84)]


def tile_tree():
    t = grass_base()
    # the shadow: an ellipse on the grass under and right of the crown
    for y in range(16):
        for x in range(16):
            dx, dy = 2 * x + 1 - 21, 2 * y + 1 - 26
            if dx * dx * 9 + dy * dy * 64 <= 9 * 64 * 9:
                t.put(x, y, mix(LEAF[0], t.get(x, y)[:3], 0.25))
    # the trunk with a root flare, lit from the left
    for y in range(9, 15):
        t.put(6, y, INK)
        t.put(7, y, WOOD[3])
        t.put(8, y, WOOD[2])
        t.put(9, y, WOOD[1])
        t.put(10, y, INK)
    for x in range(5, 12):
        t.put(x, 14, WOOD[2] if x < 8 else WOOD[1])
    t.put(4, 14, INK)
    t.put(12, 14, INK)
    for x in range(5, 12):
        t.put(x, 15, INK)
    # bark: a dark line down the trunk
    t.put(8, 12, WOOD[0])
    t.put(8, 13, WOOD[0])
    canopy(t, TREE_TILE_CLUMPS, TREE_LEAF, INK, random.Random(1010))
    # a few bright leaves on top, where the light falls
    for (x, y) in [(5, 3), (6, 2), (9, 1), (4, 5), (7, 3), (3, 7)]:
        t.put(x, y, TREE_LEAF[4])
    return t


def tile_exit():
    t = tile_floor()
    # warm glow spilling onto the floor around the hatch
    for y in range(16):
        for x in range(16):
            ring = min(x, y, 15 - x, 15 - y)
            if ring >= 1:
                t.blend(x, y, GOLD[3], 60 if ring == 1 else 90)
    # gold frame
    for i in range(2, 14):
        t.put(i, 2, GOLD[3])
        t.put(2, i, GOLD[2])
        t.put(i, 13, GOLD[1])
        t.put(13, i, GOLD[1])
    t.put(13, 2, GOLD[2])
    t.put(2, 13, GOLD[1])
    # stairs going down: bright nosing + darker tread, fading into the dark
    nosing = [FLAG[4], FLAG[3], FLAG[2], STONE[2], STONE[1]]
    tread = [FLAG[2], FLAG[1], STONE[2], STONE[1], INK]
    for i in range(5):
        for x in range(3, 13):
            t.put(x, 3 + 2 * i, nosing[i])
            t.put(x, 4 + 2 * i, tread[i])
    for y in range(3, 13):
        t.put(3, y, mix(INK, t.get(3, y)[:3], 0.35))     # shaded side wall
        t.put(12, y, mix(t.get(12, y)[:3], GOLD[2], 0.25))
    # light rising from the way out
    for y in (10, 11, 12):
        for x in range(4, 12):
            t.blend(x, y, GOLD[2], 70 + 40 * (y - 10))
    # twinkles in the corners
    for (cx, cy) in [(1, 1), (14, 1), (1, 14), (14, 14)]:
        t.put(cx, cy, (255, 255, 255))
        for (dx, dy) in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            t.wput(cx + dx, cy + dy, GOLD[3])
    return t


def tile_dirt():
    rng = random.Random(9009)
    t = Img(16, 16)
    for y in range(16):
        for x in range(16):
            r = rng.random()
            t.put(x, y, DIRT[2] if r < 0.66 else (DIRT[1] if r < 0.86 else DIRT[3]))
    # wheel ruts / darker patches
    for (x, y, n) in [(2, 5, 4), (10, 13, 5), (12, 3, 3)]:
        for dx in range(n):
            t.wput(x + dx, y, DIRT[1])
            t.wput(x + dx + 1, y + 1, DIRT[3])
    # pebbles
    for (x, y) in [(6, 2), (13, 8), (3, 11), (9, 7), (0, 15)]:
        t.wput(x, y, DIRT[4])
        t.wput(x + 1, y, DIRT[3])
        t.wput(x, y + 1, DIRT[3])
        t.wput(x + 1, y + 1, DIRT[0])
    for (x, y) in [(11, 1), (4, 7), (14, 12), (7, 14), (1, 3)]:
        t.wput(x, y, DIRT[3])
        t.wput(x, y + 1, DIRT[0])
    return t


def make_tiles():
    tiles = [tile_floor(), tile_wall(), tile_water(0), tile_water(1), tile_bridge(),
             tile_door(), tile_grass(), tile_bush(), tile_exit(), tile_dirt(), tile_tree()]
    sheet = Img(16 * len(tiles), 16)
    for i, t in enumerate(tiles):
        sheet.paste(t, 16 * i, 0)
    return sheet


# --------------------------------------------------------------------------
# Characters (characters.png).  Hand-written pixel strings; every frame is
# outlined automatically and gets a soft ground shadow.  Right-facing frames
# are mirrored left-facing ones.
# --------------------------------------------------------------------------

COMMON_KEY = {
    'o': INK, 'e': INK, 'S': SKIN[2], 's': SKIN[1], 'k': SKIN[0],
    'Y': GOLD[2], 'y': GOLD[1], 'Z': GOLD[3],
    'B': WOOD[2], 'b': WOOD[1], 'n': WOOD[0],
}


def key_with(**extra):
    k = dict(COMMON_KEY)
    k.update(extra)
    return k


def frames(base, a, b):
    """Standing frame plus two walk frames given as row overrides."""
    out = []
    for ov in ({}, a, b):
        rows = list(base)
        for y, r in ov.items():
            rows[y] = r
        out.append(rows)
    return out


# ---- player: hooded thief in a teal cloak --------------------------------
PLAYER_KEY = key_with(L=TEAL[3], T=TEAL[2], t=TEAL[1], D=TEAL[0],
                      M=CLOTH[1], m=CLOTH[0], P=CLOTH[2], p=CLOTH[1])

PLAYER_DOWN = frames([
    "................",
    "......tTTt......",
    ".....tLLTTt.....",
    "....tLLTTTTt....",
    "....TLDDDDTt....",
    "....TDSSSSDt....",
    "....TDeSSeDt....",
    "....tDMMMmDt....",
    "...tTLtMmtTTt...",
    "..tLLTTTTTTTtt..",
    "..TLTTbYbbTTTt..",
    "..SLTtPPPpTTtS..",
    "...tTtPPPptTt...",
    ".....pP..Pp.....",
    "....bBB..BBb....",
    "................",
], {
    10: "..SLTTbYbbTTTt..",
    11: "..TLTtPPPpTTtt..",
    12: "...tTtPPPptTtS..",
    13: ".....pP..BBb....",
    14: "....bBB.........",
}, {
    10: "..TLTTbYbbTTTS..",
    11: "..TLTtPPPpTTtt..",
    12: "..StTtPPPptTt...",
    13: "....bBB..Pp.....",
    14: ".........BBb....",
})

PLAYER_UP = frames([
    "................",
    "......tTTt......",
    ".....tLLTTt.....",
    "....tLLTTTTt....",
    "....TLLTTTTt....",
    "....TLTTTTTt....",
    "....tTLTTTtt....",
    "....DtTTTttD....",
    "...tTLDttDbTt...",
    "..tLLTTtTbTTtt..",
    "..TLTTTtbTTTTt..",
    "..SLTTbBbTTTtS..",
    "...tTTBbTTTtt...",
    ".....pP..Pp.....",
    "....bBB..BBb....",
    "................",
], {
    10: "..SLTTTtbTTTTt..",
    11: "..TLTTbBbTTTtt..",
    12: "...tTTBbTTTttS..",
    13: ".....pP..BBb....",
    14: "....bBB.........",
}, {
    10: "..TLTTTtbTTTTS..",
    11: "..TLTTbBbTTTtt..",
    12: "..StTTBbTTTtt...",
    13: "....bBB..Pp.....",
    14: ".........BBb....",
})

PLAYER_LEFT = frames([
    "................",
    ".......tTTt.....",
    "......tLLTTt....",
    ".....tLLTTTTt...",
    ".....LDDTTTTt...",
    "....SSSDTTTTt...",
    "....SeSDTTTTtt..",
    ".....MMDTTTttD..",
    ".....tLTTTTtD...",
    "....tLLTTTTTt...",
    "....TLLbYbTTt...",
    "....TLSTTTTTt...",
    ".....tTTTTTt....",
    "......pPP.......",
    ".....bBBB.......",
    "................",
], {
    11: "....TLTTTTTTtS..",
    13: "....PP...pp.....",
    14: "...BBb..nbb.....",
}, {
    11: "...STLTTTTTTt...",
    13: "....pp...PP.....",
    14: "...nbb..BBb.....",
})

# ---- guard: helmeted soldier, red tabard, spear --------------------------
GUARD_KEY = key_with(I=STEEL[3], H=STEEL[2], h=STEEL[1], g=STEEL[0],
                     Q=RED[3], R=RED[2], r=RED[1], d=RED[0],
                     W=WOOD[3], P=CLOTH[1], p=CLOTH[0])

GUARD_DOWN = frames([
    "................",
    ".............I..",
    "......hHHh..IHh.",
    ".....hIIHHh..h..",
    "....ghhhhhhg.W..",
    "...gHHHHHHHHgW..",
    "....gSSSSSSg.W..",
    "....gSeSSeSg.W..",
    ".....hsbbsh..W..",
    "...hIhRRRRhIhW..",
    "..hIhRQRRRRrhBb.",
    "..BhRQRYYRRrhW..",
    "...grRRrRRrrgW..",
    ".....hH..hH..W..",
    "....bBB..BBb.W..",
    "................",
], {
    10: "..BIhRQRRRRrhBb.",
    11: "..hhRQRYYRRrhW..",
    13: ".....hH..bBb.W..",
    14: "....bBB......W..",
}, {
    11: "..hhRQRYYRRrhW..",
    12: "..BgrRRrRRrrgW..",
    13: "....bBB..hH..W..",
    14: ".........BBb.W..",
})

GUARD_UP = frames([
    "................",
    "..I.............",
    ".hHI..hHHh......",
    "..h..hIIHHh.....",
    "..W.ghhhhhhg....",
    "..WgHHHHHHHHg...",
    "..W.gHHHHHHg....",
    "..W.ghHHHHhg....",
    "..W..ghhhhg.....",
    "..WhIhRRRRhIh...",
    ".bBhHrRRRRRrhh..",
    "..WhrRRRRRRrhB..",
    "..WgrRRRRRrrg...",
    "..W..hH..hH.....",
    "..W.bBB..BBb....",
    "................",
], {
    10: ".bBhHrRRRRRrhB..",
    11: "..WhrRRRRRRrhh..",
    13: "..W..hH..bBb....",
    14: "..W.bBB.........",
}, {
    11: "..WhrRRRRRRrhh..",
    12: "..WgrRRRRRrrgB..",
    13: "..W.bBB..hH.....",
    14: "..W......BBb....",
})

GUARD_LEFT = frames([
    "................",
    "..I.............",
    ".IHh...hHHh.....",
    "..h...hIIHHh....",
    "..W..ghhhhhhg...",
    "..W.gHHHHHHHHg..",
    "..W..SSSgHHHg...",
    "..W.SeSSgHHg....",
    "..W..sSsghg.....",
    "..W..hIhRRh.....",
    ".bBBhIhRRRRr....",
    "..W.hrQRRRRr....",
    "..W..rRRRRrr....",
    "..W...hHh.......",
    "..W..bBBb.......",
    "................",
], {
    13: "..W.hH...gh.....",
    14: "..WbBB...nbb....",
}, {
    13: "..W.gh...hH.....",
    14: "..Wnbb...bBB....",
})

# ---- prey: chicken -------------------------------------------------------
CHICKEN_KEY = key_with(w=WHITE[2], v=WHITE[1], u=WHITE[0], R=RED[2], r=RED[1],
                       O=FIRE[1])

CHICKEN_DOWN = frames([
    "................",
    "................",
    "................",
    "................",
    ".......RR.......",
    "......rRRr......",
    "......wwwv......",
    ".....wewwev.....",
    ".....wwYYwv.....",
    "....wwvrrvwv....",
    "...wwwwwwwwvv...",
    "..vwwwwwwwwvvu..",
    "...vwwwwwwvvu...",
    "....uvvvvvvu....",
    "......O..O......",
    "................",
], {
    11: "...wwwwwwwwvv...",
    12: "..vvwwwwwwvvuu..",
    14: "......O.........",
}, {
    11: "...wwwwwwwwvv...",
    12: "..vvwwwwwwvvuu..",
    14: ".........O......",
})

CHICKEN_UP = frames([
    "................",
    "................",
    "................",
    "................",
    ".......RR.......",
    "......rRRr......",
    "......wwwv......",
    ".....wwwwwv.....",
    ".....wwwwwv.....",
    "....wwvwwvvv....",
    "...wwwwvvwwvv...",
    "..vwwwwwwwwvvu..",
    "...vwwwwwwvvu...",
    "....uvvwwvvu....",
    "......O..O......",
    "................",
], {
    11: "...wwwwwwwwvv...",
    12: "..vvwwwwwwvvuu..",
    14: "......O.........",
}, {
    11: "...wwwwwwwwvv...",
    12: "..vvwwwwwwvvuu..",
    14: ".........O......",
})

CHICKEN_LEFT = frames([
    "................",
    "................",
    "................",
    "................",
    "....RR..........",
    "...rRRr.........",
    "...wwwv.........",
    "..Yewwv.........",
    ".YYwwwv.....wv..",
    "...rwwv....wwvu.",
    "....wwwwwwwwwvu.",
    "....vwwwwvvwvu..",
    ".....vwwwwvvu...",
    "......uvvvu.....",
    ".......O.O......",
    "................",
], {
    14: "......O...O.....",
}, {
    14: "........O.......",
})

# ---- hound ---------------------------------------------------------------
HOUND_KEY = key_with(f=FUR[0], F=FUR[1], G=FUR[2], C=FUR[3], c=FUR[4], n=INK,
                     R=RED[2])

HOUND_DOWN = frames([
    "................",
    "................",
    "...fF......Ff...",
    "...FGf....fGF...",
    "...FcGFFFFGcF...",
    "....GGGGGGGG....",
    "....GeGGGGeG....",
    "....FGGccGGF....",
    ".....FccccF.....",
    "......cnnc......",
    "....fFFCCFFf..f.",
    "...fFGGCCGGFffG.",
    "...fGGGCCGGGFf..",
    "....fG.CC.Gf....",
    "....ff....ff....",
    "................",
], {
    11: "...fFGGCCGGFf.G.",
    12: "...fGGGCCGGGFff.",
    13: "....fG.CC.ff....",
    14: "....ff..........",
}, {
    13: "....ff.CC.Gf....",
    14: "..........ff....",
})

HOUND_UP = frames([
    "................",
    "................",
    "...fF......Ff...",
    "...FGf....fGF...",
    "...FGGFFFFGGF...",
    "....GGGGGGGG....",
    "....FGGGGGGF....",
    ".....fGGGGf.....",
    "....fGGGGGGf....",
    "...fGGGGGGGGf...",
    "...FGGGcCGGGF...",
    "...fGGGcCGGGf...",
    "...fFGfcCfGFf...",
    "....fF.cc.Ff....",
    "....ff....ff....",
    "................",
], {
    13: "....fF.cc.ff....",
    14: "....ff..........",
}, {
    13: "....ff.cc.Ff....",
    14: "..........ff....",
})

HOUND_LEFT = frames([
    "................",
    "................",
    "................",
    "....f...........",
    "...fGf..........",
    "...FGGF.......f.",
    "..FGeGF......fG.",
    ".cCGGGFf....fGf.",
    ".nccCFFFFFFFFGf.",
    "....fGGGGGGGGFf.",
    "....FGGGGGGGGGF.",
    "....fCCCCCGGFFf.",
    "....fF.f..f.fF..",
    "....fF.f..f.fF..",
    "....ff.f..f.ff..",
    "................",
], {
    13: "...fF...ff...fF.",
    14: "...ff...ff...ff.",
}, {
    13: ".....fF....fF...",
    14: ".....ff....ff...",
})

# ---- crow: front / side / back views; wings are separate overlays -------
CROW_KEY = key_with(k=CROW[0], K=CROW[1], J=CROW[2], j=CROW[3], b=STEEL[1],
                    w=WHITE[3])

CROW_FRONT = {5: "......kkkk......",
              6: ".....kKKKKk.....",
              7: ".....KwKKwK.....",
              8: ".....kKbbKk.....",
              9: "......KKbK......",
              10: ".....kKJJKk.....",
              11: ".....kKKKKk.....",
              12: "......kKKk......",
              13: "......b..b......"}
CROW_BACK = {5: "......kkkk......",
             6: ".....kKJJKk.....",
             7: ".....kKKKKk.....",
             8: ".....kKKKKk.....",
             9: ".....KKJjKK.....",
             10: ".....KKJJKK.....",
             11: ".....kKKKKk.....",
             12: "......kKKk......",
             13: ".....kKJJKk.....",
             14: ".....kJkkJk....."}
CROW_SIDE = {7: "...kkk..........",
             8: "..kKwKk.........",
             9: ".bbKKKKkkkk.....",
             10: "..kKKKKKKKKkkk..",
             11: "...kKKKKKKJJKk..",
             12: "....kkKKKKkkJJk.",
             13: "......kbkb...kk."}
# wings for front/back views (symmetric): glide, raised, lowered
CROW_WINGS_FB = [
    {8: "..kkkk....kkkk..",
     9: ".kJjjJk..kJjjJk.",
     10: ".kKJJKK..KKJJKk.",
     11: "..k.k.k..k.k.k.."},
    {2: ".k............k.",
     3: ".kk..........kk.",
     4: ".kJk........kJk.",
     5: "..kJk......kJk..",
     6: "..kjJk....kJjk..",
     7: "...kJJk..kJJk...",
     8: "....kJKkkKJk...."},
    {9: "....kk....kk....",
     10: "...kJJk..kJJk...",
     11: "..kJjJk..kJjJk..",
     12: ".kJJkk....kkJJk.",
     13: ".kk..........kk."},
]
CROW_WINGS_SIDE = [
    {8: "......kkkkk.....",
     9: ".....kJjjjJk....",
     10: "......kJJJKKk..."},
    {2: "...........k....",
     3: "..........kJk...",
     4: ".........kJjk...",
     5: "........kJjJk...",
     6: ".......kJjJk....",
     7: "......kJjJk.....",
     8: ".....kJJJk......",
     9: ".....kKKk......."},
    {10: ".....kJJJk......",
     11: "......kJjJk.....",
     12: "......kJjJJk....",
     13: ".......kJJk.....",
     14: "........kk......"},
]


def layer_rows(*layers):
    """Stack row-dicts (later layers on top) into 16 pixel strings."""
    rows = [['.'] * 16 for _ in range(16)]
    for layer in layers:
        for y, line in layer.items():
            assert len(line) == 16, (y, line)
            for x, ch in enumerate(line):
                if ch != '.':
                    rows[y][x] = ch
    return [''.join(r) for r in rows]


CROW_DOWN = [layer_rows(w, CROW_FRONT) for w in CROW_WINGS_FB]
CROW_UP = [layer_rows(w, CROW_BACK) for w in CROW_WINGS_FB]
CROW_LEFT = [layer_rows(CROW_SIDE, w) for w in CROW_WINGS_SIDE]


def build_frame(rows, key, shadow=True):
    img = from_rows(rows, key)
    img = add_outline(img)
    if shadow:
        add_shadow(img, 16, 29, 10, 3)
    return img


def make_characters():
    sheet = Img(16 * 12, 16 * 5)
    cast = [
        (PLAYER_DOWN, PLAYER_LEFT, PLAYER_UP, PLAYER_KEY, True),
        (GUARD_DOWN, GUARD_LEFT, GUARD_UP, GUARD_KEY, True),
        (CHICKEN_DOWN, CHICKEN_LEFT, CHICKEN_UP, CHICKEN_KEY, True),
        (HOUND_DOWN, HOUND_LEFT, HOUND_UP, HOUND_KEY, True),
        (CROW_DOWN, CROW_LEFT, CROW_UP, CROW_KEY, False),   # airborne: no shadow
    ]
    for row, (down, left, up, key, shadow) in enumerate(cast):
        for f in range(3):
            d = build_frame(down[f], key, shadow)
            l = build_frame(left[f], key, shadow)
            r = l.flipped()
            u = build_frame(up[f], key, shadow)
            for col, img in ((f, d), (3 + f, l), (6 + f, r), (9 + f, u)):
                sheet.paste(img, 16 * col, 16 * row)
    return sheet


# --------------------------------------------------------------------------
# Props (props.png)
# --------------------------------------------------------------------------

def prop_key():
    img = Img(16, 16)
    # bow: ring centred at (4.5, 8.5) -> doubled (9, 17)
    for y in range(16):
        for x in range(16):
            dx, dy = 2 * x + 1 - 9, 2 * y + 1 - 17
            d2 = dx * dx + dy * dy
            if 9 < d2 <= 49:
                lit = dx + dy
                c = GOLD[3] if lit < -4 else (GOLD[2] if lit < 4 else GOLD[1])
                img.put(x, y, c)
    # shaft
    for x in range(8, 15):
        img.put(x, 8, GOLD[3] if x < 12 else GOLD[2])
        img.put(x, 9, GOLD[1])
    # bits (teeth)
    for (x, y, c) in [(11, 10, GOLD[2]), (11, 11, GOLD[1]), (13, 10, GOLD[2]), (14, 10, GOLD[1]),
                      (13, 11, GOLD[1]), (14, 11, GOLD[0])]:
        img.put(x, y, c)
    img = add_outline(img)
    img.put(3, 6, (255, 255, 255))      # glint
    img.put(10, 8, (255, 255, 255))
    add_shadow(img, 16, 29, 12, 3)
    return img


def prop_pillar():
    """Top of a round stone column: bevelled rim, flat capital, carved ring."""
    img = Img(16, 16)
    for y in range(16):
        for x in range(16):
            dx, dy = 2 * x + 1 - 15, 2 * y + 1 - 15
            d2 = dx * dx + dy * dy
            if d2 >= 12 * 12:
                continue
            lit = -(dx + dy)   # positive toward top-left
            if d2 >= 10 * 10:                      # bevelled rim
                c = STONE[4] if lit > 4 else (STONE[2] if lit > -8 else STONE[1])
            elif d2 > 8 * 8:                       # inner edge of the rim
                c = STONE[2] if lit > 0 else STONE[3]
            elif 5 * 5 < d2 <= 7 * 7:              # carved ring
                c = STONE[2] if lit > 0 else STONE[4]
            else:                                  # flat top
                c = STONE[3]
            img.put(x, y, c)
    for (x, y) in [(9, 6), (10, 7), (5, 9)]:
        img.put(x, y, mix(STONE[2], STONE[3]))   # weathering
    for (x, y) in [(3, 4), (4, 3)]:
        img.put(x, y, WHITE[2])
    img = add_outline(img)
    # soft shadow cast down-right onto the floor
    for y in range(16):
        for x in range(16):
            dx, dy = 2 * x + 1 - 18, 2 * y + 1 - 18
            if dx * dx + dy * dy <= 13 * 13 and img.get(x, y)[3] == 0:
                img.put(x, y, SHADOW)
    return img


TREE_CLUMPS = [(8, 22, 7), (24, 22, 7), (16, 25, 6), (6, 14, 6), (26, 14, 6),
               (11, 17, 7), (21, 17, 7), (10, 8, 7), (22, 8, 7), (16, 6, 6), (16, 14, 7)]


def prop_tree():
    img = Img(16, 16)
    ramp = [LEAF[0], mix(LEAF[0], LEAF[1]), mix(LEAF[1], LEAF[2]), LEAF[2], LEAF[3]]
    canopy(img, TREE_CLUMPS, ramp, LEAF[0], random.Random(3003))
    return add_outline(img)


BUBBLE = [
    "................",
    "...oooooooooo...",
    "..owwwwwwwwwwvo.",
    "..owwwwwwwwwwvo.",
    "..owwwwwwwwwwvo.",
    "..owwwwwwwwwwvo.",
    "..owwwwwwwwwwvo.",
    "..owwwwwwwwwwvo.",
    "..owwwwwwwwwwvo.",
    "..owwwwwwwwwwvo.",
    "..ovvvvvvvvvvvo.",
    "...ooowvoooooo..",
    ".....owvo.......",
    ".....ovo........",
    ".....oo.........",
    "................",
]

QMARK = [
    "..yyyy..",
    ".yY..Yy.",
    "....yY..",
    "...yY...",
    "........",
    "...yY...",
]
EMARK = [
    "...rR...",
    "...rR...",
    "...rR...",
    "...rR...",
    "........",
    "...rR...",
]


def prop_bubble(glyph, key):
    img = from_rows(BUBBLE, {'o': INK, 'w': WHITE[2], 'v': WHITE[1]})
    gl = Img(16, 16)
    for gy, row in enumerate(glyph):
        for gx, ch in enumerate(row):
            if ch in key:
                gl.put(4 + gx, 3 + gy, key[ch])
    gl = add_outline(gl)
    img.paste(gl, 0, 0)
    img.put(4, 2, WHITE[3])
    img.put(5, 2, WHITE[3])
    return img


def prop_burst():
    img = Img(16, 16)
    for y in range(16):
        for x in range(16):
            dx, dy = abs(2 * x + 1 - 16), abs(2 * y + 1 - 16)
            d2 = dx * dx + dy * dy
            star = ((dx <= 2 and dy <= 13) or (dy <= 2 and dx <= 13) or
                    (abs(dx - dy) <= 2 and dx <= 10) or d2 <= 7 * 7)
            if not star:
                continue
            if d2 <= 3 * 3:
                c = WHITE[3]
            elif d2 <= 5 * 5:
                c = GOLD[3]
            elif d2 <= 8 * 8:
                c = GOLD[2]
            elif d2 <= 11 * 11:
                c = RED[2]
            else:
                c = RED[1]
            img.put(x, y, c)
    return add_outline(img)


BRAZIER = [
    "................",
    ".......2........",
    "......22...2....",
    ".....232..22....",
    "....2332.232.2..",
    "....23432332.2..",
    "...2334443332...",
    "...2334444332...",
    "..123344443321..",
    "..hHHHHHHHHHHh..",
    "..gHhhhhhhhhHg..",
    "...ghhhhhhhhg...",
    "....gghhhhgg....",
    "......gggg......",
    ".....gg..gg.....",
    "................",
]


def prop_brazier():
    img = from_rows(BRAZIER, {'1': FIRE[0], '2': FIRE[1], '3': FIRE[2], '4': FIRE[3],
                              'g': STEEL[0], 'h': STEEL[1], 'H': STEEL[2]})
    img = add_outline(img)
    for (x, y) in [(5, 9), (8, 9)]:
        img.put(x, y, STEEL[3])
    add_shadow(img, 16, 29, 10, 3)
    return img


def prop_crate():
    img = Img(16, 16)
    for y in range(2, 14):
        for x in range(2, 14):
            frame = x in (2, 3, 12, 13) or y in (2, 3, 12, 13)
            if frame:
                if x == 2 or y == 2:
                    c = WOOD[4] if (x + y) % 5 else WOOD[3]
                elif x == 13 or y == 13:
                    c = WOOD[1]
                else:
                    c = WOOD[3]
            else:
                c = WOOD[0] if (y - 4) % 3 == 2 else WOOD[2]
                if (y - 4) % 3 == 0:
                    c = WOOD[3] if x % 4 else WOOD[2]
            img.put(x, y, c)
    # diagonal brace
    for i in range(4, 12):
        img.put(i, i, WOOD[4])
        img.put(i + 1, i, WOOD[3])
        if i + 2 <= 11:
            img.put(i + 2, i, WOOD[1])
    for (x, y) in [(3, 3), (12, 3), (3, 12), (12, 12)]:
        img.put(x, y, STEEL[2])
    img = add_outline(img)
    add_shadow(img, 17, 29, 13, 3)
    return img


def make_props():
    q = prop_bubble(QMARK, {'y': GOLD[1], 'Y': GOLD[2]})
    e = prop_bubble(EMARK, {'r': RED[1], 'R': RED[2]})
    props = [prop_key(), prop_pillar(), prop_tree(), q, e, prop_burst(),
             prop_brazier(), prop_crate()]
    sheet = Img(16 * len(props), 16)
    for i, p in enumerate(props):
        sheet.paste(p, 16 * i, 0)
    return sheet


# --------------------------------------------------------------------------
# Font (font.png): 5x7 design inside an 8x8 cell.  Caps and digits are 6 px
# tall (rows 0-5, baseline row 5), lowercase x-height 4 px (rows 2-5),
# descenders use row 6.  Ink sits in columns 1-5; column 0, columns 6-7 and
# row 7 stay empty.  Rows are listed top to bottom; missing rows are blank.
# --------------------------------------------------------------------------

FONT = {
    ' ': "",
    '!': "..#.. ..#.. ..#.. ..#.. ..... ..#..",
    '"': ".#.#. .#.#. .#.#.",
    '#': ".#.#. ##### .#.#. .#.#. ##### .#.#.",
    '$': "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
    '%': "##..# ##.#. ..#.. .#... #.##. #..##",
    '&': ".##.. #..#. .##.. #.#.# #..#. .##.#",
    "'": "..#.. ..#.. .#...",
    '(': "...#. ..#.. .#... .#... .#... ..#.. ...#.",
    ')': ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
    '*': "..... #.#.# .###. ##### .###. #.#.#",
    '+': "..... ..#.. ..#.. ##### ..#.. ..#..",
    ',': "..... ..... ..... ..... ..##. ..##. .#...",
    '-': "..... ..... ..... .###.",
    '.': "..... ..... ..... ..... ..##. ..##.",
    '/': "....# ...#. ...#. ..#.. .#... #....",
    '0': ".###. #..## #.#.# #.#.# ##..# .###.",
    '1': "..#.. .##.. ..#.. ..#.. ..#.. .###.",
    '2': ".###. #...# ...#. ..#.. .#... #####",
    '3': "####. ....# .###. ....# ....# ####.",
    '4': "...#. ..##. .#.#. #..#. ##### ...#.",
    '5': "##### #.... ####. ....# ....# ####.",
    '6': ".###. #.... ####. #...# #...# .###.",
    '7': "##### ....# ...#. ..#.. ..#.. ..#..",
    '8': ".###. #...# .###. #...# #...# .###.",
    '9': ".###. #...# #...# .#### ....# .###.",
    ':': "..... ..##. ..##. ..... ..##. ..##.",
    ';': "..... ..##. ..##. ..... ..##. ..##. .#...",
    '<': "....# ...#. ..#.. .#... ..#.. ...#. ....#",
    '=': "..... ..... ##### ..... #####",
    '>': "#.... .#... ..#.. ...#. ..#.. .#... #....",
    '?': ".###. #...# ...#. ..#.. ..... ..#..",
    '@': ".###. #...# #.### #.#.# #.### #.... .####",
    'A': ".###. #...# #...# ##### #...# #...#",
    'B': "####. #...# ####. #...# #...# ####.",
    'C': ".###. #...# #.... #.... #...# .###.",
    'D': "###.. #..#. #...# #...# #..#. ###..",
    'E': "##### #.... ####. #.... #.... #####",
    'F': "##### #.... ####. #.... #.... #....",
    'G': ".###. #.... #.### #...# #...# .####",
    'H': "#...# #...# ##### #...# #...# #...#",
    'I': ".###. ..#.. ..#.. ..#.. ..#.. .###.",
    'J': "..### ...#. ...#. ...#. #..#. .##..",
    'K': "#..#. #.#.. ##... #.#.. #..#. #...#",
    'L': "#.... #.... #.... #.... #.... #####",
    'M': "#...# ##.## #.#.# #...# #...# #...#",
    'N': "#...# ##..# #.#.# #..## #...# #...#",
    'O': ".###. #...# #...# #...# #...# .###.",
    'P': "####. #...# #...# ####. #.... #....",
    'Q': ".###. #...# #...# #.#.# #..#. .##.# ",
    'R': "####. #...# #...# ####. #..#. #...#",
    'S': ".#### #.... .###. ....# ....# ####.",
    'T': "##### ..#.. ..#.. ..#.. ..#.. ..#..",
    'U': "#...# #...# #...# #...# #...# .###.",
    'V': "#...# #...# #...# .#.#. .#.#. ..#..",
    'W': "#...# #...# #...# #.#.# ##.## #...#",
    'X': "#...# .#.#. ..#.. ..#.. .#.#. #...#",
    'Y': "#...# #...# .#.#. ..#.. ..#.. ..#..",
    'Z': "##### ...#. ..#.. .#... #.... #####",
    '[': ".###. .#... .#... .#... .#... .#... .###.",
    '\\': "#.... .#... .#... ..#.. ...#. ....#",
    ']': ".###. ...#. ...#. ...#. ...#. ...#. .###.",
    '^': "..#.. .#.#. #...#",
    '_': "..... ..... ..... ..... ..... ..... #####",
    '`': ".#... ..#..",
    'a': "..... ..... .###. #...# #..## .##.#",
    'b': "#.... #.... ####. #...# #...# ####.",
    'c': "..... ..... .###. #.... #.... .###.",
    'd': "....# ....# .#### #...# #...# .####",
    'e': "..... ..... .###. ##### #.... .###.",
    'f': "..##. .#... ###.. .#... .#... .#...",
    'g': "..... ..... .#### #...# .#### ....# .###.",
    'h': "#.... #.... ####. #...# #...# #...#",
    'i': "..#.. ..... .##.. ..#.. ..#.. .###.",
    'j': "...#. ..... ..##. ...#. ...#. ...#. .##..",
    'k': "#.... #.... #..#. ###.. #..#. #...#",
    'l': ".##.. ..#.. ..#.. ..#.. ..#.. .###.",
    'm': "..... ..... ##.#. #.#.# #.#.# #.#.#",
    'n': "..... ..... ####. #...# #...# #...#",
    'o': "..... ..... .###. #...# #...# .###.",
    'p': "..... ..... ####. #...# ####. #.... #....",
    'q': "..... ..... .#### #...# .#### ....# ....#",
    'r': "..... ..... #.##. ##..# #.... #....",
    's': "..... ..... .#### ##... ..### ####.",
    't': ".#... .#... ####. .#... .#..# ..##.",
    'u': "..... ..... #...# #...# #..## .##.#",
    'v': "..... ..... #...# #...# .#.#. ..#..",
    'w': "..... ..... #...# #.#.# #.#.# .#.#.",
    'x': "..... ..... #...# .#.#. .###. #...#",
    'y': "..... ..... #...# #...# .#### ....# .###.",
    'z': "..... ..... ##### ..##. .#... #####",
    '{': "..##. .#... .#... #.... .#... .#... ..##.",
    '|': "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    '}': ".##.. ...#. ...#. ....# ...#. ...#. .##..",
    '~': "..... ..... .#... #.#.# ...#.",
    '\x7f': "##### #.#.# ##.## #.#.# ##.## #.#.# #####",
}


def make_font():
    sheet = Img(128, 48)
    white = (255, 255, 255, 255)
    for code in range(32, 128):
        ch = chr(code)
        rows = FONT[ch].split()
        assert len(rows) <= 7, ch
        col, row = (code - 32) % 16, (code - 32) // 16
        for gy, line in enumerate(rows):
            assert len(line) == 5, (ch, line)
            for gx, c in enumerate(line):
                if c == '#':
                    sheet.put(col * 8 + 1 + gx, row * 8 + gy, white)
    return sheet


# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# Sounds: 16-bit mono WAV at 22050 Hz, synthesised here (the project's own).
# Noise comes from fixed-seed random.Random; tones from math.sin, rounded to
# 16-bit integers, so every run writes the same bytes on IEEE-754 machines.
# --------------------------------------------------------------------------

import math
import wave

RATE = 22050


def env_adsr(i, n, attack, release):
    """Linear attack over `attack` samples, linear release over the last `release`."""
    a = min(1.0, i / attack) if attack > 0 else 1.0
    r = min(1.0, (n - i) / release) if release > 0 else 1.0
    return min(a, r)


def noise_burst(seed, ms, lowpass, decay, gain):
    """Filtered noise with an exponential decay: footsteps, splashes, thuds."""
    rng = random.Random(seed)
    n = RATE * ms // 1000
    out, y = [], 0.0
    for i in range(n):
        y += lowpass * (rng.uniform(-1.0, 1.0) - y)
        out.append(y * gain * math.exp(-decay * i / RATE) * env_adsr(i, n, 40, 200))
    return out


def tone(freqs, ms, shape='sine', gain=0.5, decay=0.0):
    """A sweep through freqs (Hz, linear between points) with a soft attack and release."""
    n = RATE * ms // 1000
    out, phase = [], 0.0
    for i in range(n):
        t = i / n * (len(freqs) - 1)
        k = min(int(t), len(freqs) - 2)
        f = freqs[k] + (freqs[k + 1] - freqs[k]) * (t - k)
        phase += 2 * math.pi * f / RATE
        v = math.sin(phase)
        if shape == 'square':
            v = 0.6 if v >= 0 else -0.6
        elif shape == 'soft':
            v = v + 0.3 * math.sin(2 * phase)
        out.append(v * gain * math.exp(-decay * i / RATE) * env_adsr(i, n, 80, 400))
    return out


def notes(seq, shape='square', gain=0.35):
    """Notes one after another: (Hz, ms) pairs."""
    out = []
    for f, ms in seq:
        out += tone([f, f], ms, shape, gain, decay=3.0)
    return out


def mix_sounds(*parts):
    n = max(len(p) for p in parts)
    return [sum(p[i] for p in parts if i < len(p)) for i in range(n)]


def make_sounds():
    return [
        ('step_soft.wav', noise_burst(11, 70, 0.08, 40.0, 1.6)),      # grass, dirt
        ('step_hard.wav', mix_sounds(noise_burst(12, 45, 0.5, 90.0, 0.7),     # stone, floor
                              tone([180, 120], 45, 'sine', 0.25, 60.0))),
        ('step_wood.wav', mix_sounds(noise_burst(13, 60, 0.25, 60.0, 0.6),    # the bridge
                              tone([320, 260], 60, 'soft', 0.3, 45.0))),
        ('step_water.wav', noise_burst(14, 160, 0.3, 18.0, 0.9)),      # splashing
        ('sting_suspicious.wav', notes([(523, 110), (784, 170)], 'soft', 0.4)),   # "?"
        ('sting_chase.wav', mix_sounds(notes([(880, 90), (1175, 260)], 'square', 0.3),  # "!"
                                notes([(831, 90), (1109, 260)], 'square', 0.2))),
        ('call.wav', tone([1400, 2100, 1500, 2100, 1600], 600, 'sine', 0.4)),     # a whistle for help
        ('thud.wav', mix_sounds(tone([110, 60], 220, 'sine', 0.7, 14.0),                 # a stone lands
                         noise_burst(15, 60, 0.4, 70.0, 0.5))),
        ('caught.wav', notes([(392, 150), (330, 150), (262, 380)], 'square', 0.3)),
        ('escaped.wav', notes([(523, 110), (659, 110), (784, 110), (1047, 420)], 'soft', 0.35)),
    ]


def write_wav(path, samples):
    peak = max(1e-9, max(abs(v) for v in samples))
    scale = 30000 / peak if peak > 1.0 else 30000
    data = b''.join(struct.pack('<h', max(-32767, min(32767, int(round(v * scale))))) for v in samples)
    with wave.open(path, 'wb') as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = argv[1] if len(argv) > 1 else os.path.join(here, '..', 'assets')
    outdir = os.path.normpath(outdir)
    os.makedirs(outdir, exist_ok=True)
    sheets = [
        ('tiles.png', make_tiles()),
        ('characters.png', make_characters()),
        ('props.png', make_props()),
        ('font.png', make_font()),
    ]
    for name, img in sheets:
        path = os.path.join(outdir, name)
        write_png(path, img)
        print('wrote %s (%dx%d)' % (path, img.w, img.h))
    for name, samples in make_sounds():
        path = os.path.join(outdir, name)
        write_wav(path, samples)
        print('wrote %s (%d ms)' % (path, len(samples) * 1000 // RATE))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
