#!/usr/bin/env python3
# SPDX-License-Identifier: Zlib
"""A small stealth game in pygame with patrol's guards (docs/python.md, "A pygame game").

Sneak from the start to the exit; a guard who catches you ends the round. patrol runs the
world (its guards see, hear, chase and search); this file only reads it and draws it with the
project's sprite sheets (assets/*.png), through pygame.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/game.py [--map maps/demo.map]

Arrows or WASD move, Shift runs, Ctrl sneaks (Ctrl wins when both are held), R restarts,
Esc quits. The world steps at a fixed 60 ticks a second whatever the frame rate; sprites are
drawn between two ticks (World.drawn_pos with the fraction of the tick elapsed).

Headless (for tests and scripts): --frames N runs N frames on a virtual clock of --fps frames
a second (default 60: one tick a frame) with the keys of --keys, then prints the outcome; with
SDL_VIDEODRIVER and SDL_AUDIODRIVER unset it uses SDL's dummy drivers (no window).
"""
import argparse
import math
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
HZ = 60                 # the world's tick rate (World's default)
TILE = 16               # the sheets' frame size in pixels
HUD_H = 24              # the status bar under the map, unscaled pixels
MAX_BEHIND = 15         # ticks: a longer stall (a dragged window) is skipped, not caught up

# Sprites of the tile kinds a map leaves to the renderer (Tile.sprite -1), by name, as the C
# renderer picks them (pt_render_tile_sprite); closed and locked doors are tinted when drawn.
SPRITE_BY_NAME = {"floor": 0, "wall": 1, "water": 2, "bridge": 4, "door": 5, "grass": 6, "bush": 7,
                  "exit": 8, "dirt": 9, "tree": 10, "door_closed": 5, "door_locked": 5}
ROW_OF_KIND = {"player": 0, "guard": 1, "prey": 2, "boid": 3}   # characters.png rows; crows 4

# State colours (RGB) of the guards' cones and the HUD.
CALM, WARY, ALERT, HUNT = (230, 230, 240), (255, 220, 60), (255, 56, 44), (255, 160, 52)
STATE_COLOUR = {"suspicious": WARY, "investigate": WARY, "chase": ALERT, "search": HUNT}
GOLD, INK, TEAL = (242, 190, 60), (24, 20, 37), (84, 200, 166)

KEY_CHARS = {"<": "left", ">": "right", "^": "up", "v": "down", "s": "run", "c": "sneak",
             "r": "restart", "q": "quit", ".": None}


class Level:
    """What the game draws of a map: its tiles (the world's, read through World.tile, so
    doors and set_tile show once refresh() has read them again) and its obstacles."""

    def __init__(self, level):
        self.w, self.h = level.width, level.height
        self.title = level.name
        self.obstacles = [(o.x, o.y, o.sprite) for o in level.obstacles]
        self.cells = []              # row-major patrol.Tile of every cell
        self.opaque_cells = b""      # the opaque flags as bytes, row-major, for the cones' rays

    def refresh(self, world):
        """Reads every cell of the world's map again; True when one changed."""
        cells = [world.tile(x, y) for y in range(self.h) for x in range(self.w)]
        changed = cells != self.cells
        self.cells = cells
        self.opaque_cells = bytes(t.opaque for t in cells)
        return changed

    def tile(self, x, y):
        return self.cells[y * self.w + x]

    def sprite(self, x, y):
        t = self.tile(x, y)
        return t.sprite if t.sprite >= 0 else SPRITE_BY_NAME.get(t.name, 0)

    def hides(self, x, y):
        """A walkable opaque tile (a bush): whoever stands in it is hidden."""
        return 0 <= x < self.w and 0 <= y < self.h and self.tile(x, y).walkable and self.tile(x, y).opaque


def ray_length(lv, ox, oy, dx, dy, max_d):
    """Distance from (ox, oy) along the unit (dx, dy) to the first opaque cell after the start
    cell, at most max_d: a grid walk, as the C renderer draws cones (sight itself is patrol's)."""
    cx, cy = math.floor(ox), math.floor(oy)
    sx, sy = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
    w, h, cells = lv.w, lv.h, lv.opaque_cells
    tdx = abs(1.0 / dx) if abs(dx) > 1e-12 else 1e30
    tdy = abs(1.0 / dy) if abs(dy) > 1e-12 else 1e30
    tx = ((cx + 1 - ox) if dx > 0 else (ox - cx)) * tdx if abs(dx) > 1e-12 else 1e30
    ty = ((cy + 1 - oy) if dy > 0 else (oy - cy)) * tdy if abs(dy) > 1e-12 else 1e30
    while True:
        if tx < ty:
            t, tx, cx = tx, tx + tdx, cx + sx
        else:
            t, ty, cy = ty, ty + tdy, cy + sy
        if t >= max_d:
            return max_d
        if not (0 <= cx < w and 0 <= cy < h) or cells[cy * w + cx]:
            return t


def parse_keys(text):
    """A key script: items separated by blanks, commas or lines, each the keys held in one
    frame (any of < > ^ v s c r q, or . for none) with an optional *N repeat; # starts a
    comment. Returns a list of frozensets of actions, one a frame."""
    frames = []
    for ln, line in enumerate(text.split("\n"), 1):
        line = line.split("#", 1)[0]
        for item in line.replace(",", " ").split():
            keys, _, count = item.partition("*")
            if count:
                if not count.isdigit() or int(count) < 1 or int(count) > 10**7:
                    raise ValueError("line %d: '%s': the repeat after * is a whole number 1..10000000" % (ln, item))
            acts = set()
            for ch in keys:
                if ch not in KEY_CHARS:
                    raise ValueError("line %d: '%s': '%s' is not one of < > ^ v s c r q ." % (ln, item, ch))
                if KEY_CHARS[ch]:
                    acts.add(KEY_CHARS[ch])
            if not keys:
                raise ValueError("line %d: '%s': no keys before *" % (ln, item))
            frames.extend([frozenset(acts)] * (int(count) if count else 1))
    return frames


def move_of(acts):
    """(dx, dy, gait) of the actions held: opposite directions cancel, sneak beats run."""
    dx = ("right" in acts) - ("left" in acts)
    dy = ("down" in acts) - ("up" in acts)
    gait = "sneak" if "sneak" in acts else "run" if "run" in acts else "walk"
    return dx, dy, gait


class FrameClock:
    """Ticks due since the round started, and how far into the next one. Playing: the
    monotonic clock. Headless: frame k is at k / fps seconds exactly, so fps 60 is one tick a
    frame, and each frame's ticks are those due at its time (k * 60 // fps in all)."""

    def __init__(self, headless, fps):
        self.headless, self.fps = headless, fps
        self.frame = 0
        self.start = 0
        self.rebase()

    def _now(self):
        """Headless: the frame number; playing: nanoseconds."""
        if self.headless:
            return self.frame
        import time
        return time.perf_counter_ns()

    def rebase(self):
        """A new round starts now."""
        self.start = self._now()

    def skip(self, ticks):
        """Forgets `ticks` ticks of a stall (playing only)."""
        self.start += ticks * 10**9 // HZ

    def advance(self):
        self.frame += 1

    def due(self):
        """(ticks due since rebase, alpha: the fraction of the next tick elapsed)."""
        unit = self.fps if self.headless else 10**9
        q, r = divmod((self._now() - self.start) * HZ, unit)
        return q, r / unit


class Game:
    def __init__(self, pygame, level, args):
        import patrol
        self.pg, self.patrol, self.level, self.args = pygame, patrol, level, args
        self.lv = Level(level)
        self.scale = args.scale or max(1, min(4, 1280 // (self.lv.w * TILE), 760 // (self.lv.h * TILE + HUD_H)))
        s = self.scale
        self.map_px = (self.lv.w * TILE * s, self.lv.h * TILE * s)
        self.screen = pygame.display.set_mode((self.map_px[0], self.map_px[1] + HUD_H * s))
        pygame.display.set_caption("patrol - %s" % (self.lv.title or os.path.basename(str(level.path))))
        assets = pathlib.Path(args.assets)
        load = lambda name: pygame.image.load(str(assets / name)).convert_alpha()
        self.tiles, self.chars, self.props, self.font = (
            load(n) for n in ("tiles.png", "characters.png", "props.png", "font.png"))
        self.backgrounds = None
        self.cones = pygame.Surface(self.map_px, pygame.SRCALPHA)
        self.frames = {}     # (row, col, hidden) -> scaled sprite
        self.glyphs = {}     # colour -> tinted font sheet
        self.texts = {}      # (text, colour, size) -> (surface, its shadow)
        self.last_pos = {}
        self.restart()

    # --- the round -----------------------------------------------------------------------------
    def restart(self):
        if getattr(self, "world", None) is not None:
            self.world.close()      # freed now, not when collected
        self.world = self.patrol.World(self.level, seed=self.args.seed, controlled=True, end_round_on_catch=True)
        self.ticks = 0
        self.caught_by = ""
        self.tiles_changed = False
        self.last_pos.clear()
        self.redraw_tiles(force=True)
        # A map darker than full light anywhere (docs/ai.md, "Light") is drawn shaded.
        self.dark = any(self.world.light_at(x, y) < 1.0 for y in range(self.lv.h) for x in range(self.lv.w))
        self.shade = self.pg.Surface((self.lv.w, self.lv.h), self.pg.SRCALPHA)

    def redraw_tiles(self, force=False):
        """Reads the world's tiles again and redraws the map under the actors when one changed
        (a door a guard opened or closed, a tile set by a script)."""
        if self.lv.refresh(self.world) or force:
            self.backgrounds = [self._background(frame) for frame in (0, 1)]

    def step_to(self, due):
        """Steps the world until `due` ticks have run this round (none once it is over)."""
        w = self.world
        while self.ticks < due and w.round == 0:
            w.step()
            self.ticks += 1
            for ev in w.events():
                if ev.kind == "caught":
                    self.caught_by = w.entity(ev.a).name
                elif ev.kind == "door":
                    self.tiles_changed = True
        if self.tiles_changed:
            self.tiles_changed = False
            self.redraw_tiles()

    def control(self, acts):
        dx, dy, gait = move_of(acts)
        self.world.set_input(dx, dy)
        if self.world.gait != gait:
            self.world.gait = gait

    @property
    def outcome(self):
        return {1: "escaped", -1: "caught"}.get(self.world.round, "running")

    # --- drawing -------------------------------------------------------------------------------
    def _sheet_frame(self, sheet, index, columns=None):
        return sheet.subsurface((index * TILE, 0, TILE, TILE)) if columns is None else \
            sheet.subsurface(((index % columns) * TILE, (index // columns) * TILE, TILE, TILE))

    def _background(self, water_frame):
        pg, s = self.pg, self.scale
        surf = pg.Surface((self.lv.w * TILE, self.lv.h * TILE))
        ntiles = self.tiles.get_width() // TILE
        for y in range(self.lv.h):
            for x in range(self.lv.w):
                sprite = self.lv.sprite(x, y)
                if sprite in (2, 3):
                    sprite = 2 + water_frame
                surf.blit(self._sheet_frame(self.tiles, sprite if 0 <= sprite < ntiles else 0), (x * TILE, y * TILE))
                if self.lv.tile(x, y).name in ("door_closed", "door_locked"):
                    surf.fill((150, 120, 110), (x * TILE, y * TILE, TILE, TILE), special_flags=pg.BLEND_RGB_MULT)
        for ox, oy, prop in self.lv.obstacles:
            surf.blit(self._sheet_frame(self.props, prop), (round((ox - 0.5) * TILE), round((oy - 0.5) * TILE)))
        return pg.transform.scale(surf, self.map_px) if s != 1 else surf

    def _sprite(self, row, col, hidden):
        key = (row, col, hidden)
        spr = self.frames.get(key)
        if spr is None:
            spr = self._sheet_frame(self.chars, row * 12 + col, 12).copy()
            if hidden:      # in the leaves' shade
                spr.fill((175, 225, 185, 215), special_flags=self.pg.BLEND_RGBA_MULT)
            if self.scale != 1:
                spr = self.pg.transform.scale(spr, (TILE * self.scale, TILE * self.scale))
            self.frames[key] = spr
        return spr

    def _px(self, x, y):
        """Screen pixel of a point in tiles."""
        k = TILE * self.scale
        return (round(x * k), round(y * k))

    def text(self, msg, pos, colour=(244, 244, 236), size=1, shadow=True):
        """Draws msg with font.png (8x8 glyphs, 6 px advance), size times the map's scale."""
        pg = self.pg
        sheet = self.glyphs.get(colour)
        if sheet is None:
            sheet = self.font.copy()
            sheet.fill(colour + (255,), special_flags=pg.BLEND_RGBA_MULT)
            self.glyphs[colour] = sheet
        k = size * self.scale
        key = (msg, colour, k)
        made = self.texts.get(key)
        if made is None:
            line = pg.Surface((6 * len(msg), 8), pg.SRCALPHA)
            for i, ch in enumerate(msg):
                c = ord(ch) if 32 <= ord(ch) < 128 else 127
                line.blit(sheet, (6 * i, 0), ((c - 32) % 16 * 8, (c - 32) // 16 * 8, 8, 8))
            line = pg.transform.scale(line, (6 * len(msg) * k, 8 * k))
            dark = line.copy()
            dark.fill((0, 0, 0, 255), special_flags=pg.BLEND_RGBA_MULT)
            if len(self.texts) > 200:
                self.texts.clear()
            made = self.texts[key] = (line, dark)
        if shadow:
            self.screen.blit(made[1], (pos[0] + k, pos[1] + k))
        self.screen.blit(made[0], pos)
        return 6 * len(msg) * k

    def draw(self, alpha):
        pg, w, lv, s = self.pg, self.world, self.lv, self.scale
        now = (w.tick + alpha) * w.dt
        self.screen.blit(self.backgrounds[int(now * 2) & 1], (0, 0))
        if self.dark:
            self.draw_dark()
        ents = w.entities
        at = {e.id: w.drawn_pos(e.id, alpha) for e in ents}

        # The guards' view cones, in their state's colour, stopped by opaque tiles.
        self.cones.fill((0, 0, 0, 0))
        for e in ents:
            if e.kind != "guard":
                continue
            dist, angle = e.view
            if dist <= 0 or angle <= 0:
                continue
            ex, ey = at[e.id]
            colour = self.state_colour(e)
            n = max(6, int(math.degrees(angle) / 4)) + 1
            pts = [self._px(ex, ey)]
            h0 = e.heading - angle / 2
            for i in range(n):
                th = h0 + angle * i / (n - 1)
                dx, dy = math.cos(th), math.sin(th)
                d = ray_length(lv, ex, ey, dx, dy, dist)
                pts.append(self._px(ex + dx * d, ey + dy * d))
            pg.draw.polygon(self.cones, colour + (60,), pts)
            pg.draw.lines(self.cones, colour + (130,), True, pts, max(1, s))
        self.screen.blit(self.cones, (0, 0))

        # Everyone, the lower ones over the higher.
        for e in sorted(ents, key=lambda e: at[e.id][1]):
            x, y = at[e.id]
            last = self.last_pos.get(e.id)
            moving = last is not None and (abs(last[0] - x) + abs(last[1] - y)) > 1e-6
            self.last_pos[e.id] = (x, y)
            row = ROW_OF_KIND.get(e.kind, 1)
            if e.flock == "crow":
                row = 4
            h = math.atan2(math.sin(e.heading), math.cos(e.heading))
            d = 2 if abs(h) <= math.pi / 4 else 1 if abs(h) >= 3 * math.pi / 4 else 0 if h > 0 else 3
            frame = (0, 1, 0, 2)[int(now * e.speed * 2) & 3] if moving or e.kind == "boid" else 0
            hidden = e.kind == "player" and lv.hides(e.x, e.y)
            left, top = self._px(x - 0.5, y - 0.5)
            self.screen.blit(self._sprite(row, d * 3 + frame, hidden), (left, top))
            if e.kind == "guard":
                self.draw_marks(e, left, top)
        if w.round == -1:
            left, top = self._px(*(v - 0.5 for v in at[0]))
            self.screen.blit(pg.transform.scale(self._sheet_frame(self.props, 5), (TILE * s, TILE * s)), (left, top))
        self.draw_hud()
        if w.round != 0:
            self.draw_banner()

    def state_colour(self, e):
        c = STATE_COLOUR.get(e.state)
        if c is None:        # calm: white warming to yellow as awareness rises
            k = min(1.0, max(0.0, e.awareness * 2.5))
            c = tuple(round(a + (b - a) * k) for a, b in zip(CALM, WARY))
        return c

    def draw_marks(self, e, left, top):
        pg, s = self.pg, self.scale
        bubble = 4 if e.state == "chase" else 3 if e.state in ("suspicious", "search", "investigate") else -1
        if bubble >= 0:
            b = self._sheet_frame(self.props, bubble)
            self.screen.blit(pg.transform.scale(b, (TILE * s, TILE * s)) if s != 1 else b, (left, top - TILE * s))
        k = min(1.0, max(0.0, e.awareness))
        if k > 0 and e.state != "chase":
            bar = pg.Rect(left + s, top + TILE * s, (TILE - 2) * s, 2 * s)
            pg.draw.rect(self.screen, (0, 0, 0), bar)
            pg.draw.rect(self.screen, WARY, (bar.x, bar.y, max(1, round(bar.w * k)), bar.h))

    def draw_dark(self):
        """Shades each cell by the light the guards see it in (World.light_at: the map's ambient
        level, its lights and the guards' lanterns), darker where a walker is harder to see."""
        w, lv = self.world, self.lv
        for y in range(lv.h):
            for x in range(lv.w):
                self.shade.set_at((x, y), (8, 6, 20, int(190 * (1.0 - w.light_at(x, y)))))
        self.screen.blit(self.pg.transform.scale(self.shade, self.map_px), (0, 0))

    def draw_hud(self):
        pg, w, s = self.pg, self.world, self.scale
        top = self.map_px[1]
        pg.draw.rect(self.screen, INK, (0, top, self.map_px[0], HUD_H * s))
        pg.draw.line(self.screen, (80, 84, 106), (0, top), (self.map_px[0], top), s)
        y = top + (HUD_H - 16) // 2 * s
        x = 6 * s
        secs = w.tick * w.dt
        x += self.text("%d:%04.1f" % (secs // 60, secs % 60), (x, y), size=2)
        x += self.text("  tick %d" % w.tick, (x, y + 4 * s), (150, 150, 170))
        x += 12 * s
        gait = w.gait
        x += self.text(gait.upper(), (x, y), {"run": (240, 122, 92), "sneak": TEAL}.get(gait, (196, 200, 212)), size=2)
        x += 24 * s
        guards = [e for e in w.entities if e.kind == "guard"]
        worst = None
        for state in ("chase", "search", "suspicious", "investigate"):
            worst = next((g for g in guards if g.state == state), None)
            if worst:
                break
        if w.round == 1:
            msg, colour = "ESCAPED", GOLD
        elif w.round == -1:
            msg, colour = "CAUGHT", ALERT
        elif worst is None:
            msg, colour = "UNSEEN", CALM
        else:
            n = sum(g.state == worst.state for g in guards)
            msg = "%s %s" % (worst.state.upper(), worst.name if n == 1 else "(%d)" % n)
            colour = STATE_COLOUR[worst.state]
        x += self.text(msg, (x, y), colour, size=2) + 12 * s
        # The longest help that fits right of the status (a narrow map shows less of it).
        for hint in ("arrows/WASD move  shift run  ctrl sneak  R restart  Esc quit",
                     "shift run  ctrl sneak  R restart  Esc quit", "R restart  Esc quit", ""):
            if self.map_px[0] - (6 * len(hint) + 6) * s >= x:
                break
        if hint:
            self.text(hint, (self.map_px[0] - (6 * len(hint) + 6) * s, y + 4 * s), (150, 150, 170))

    def draw_banner(self):
        pg, w, s = self.pg, self.world, self.scale
        shade = pg.Surface(self.map_px, pg.SRCALPHA)
        shade.fill((0, 0, 0, 110))
        self.screen.blit(shade, (0, 0))
        if w.round == 1:
            big = "YOU ESCAPED"
        else:
            big = "CAUGHT BY %s" % self.caught_by.upper() if self.caught_by else "CAUGHT"
        size = 4
        while size > 1 and 6 * len(big) * size * s > self.map_px[0] - 16 * s:
            size -= 1
        cx, cy = self.map_px[0] // 2, self.map_px[1] // 2
        self.text(big, (cx - 3 * len(big) * size * s, cy - 8 * size * s), GOLD if w.round == 1 else ALERT, size=size)
        small = "R: play again    Esc: quit"
        self.text(small, (cx - 6 * len(small) * s, cy + 6 * s), size=2)


def held_keys(pg):
    """The actions the keyboard holds now."""
    k, mods = pg.key.get_pressed(), pg.key.get_mods()
    acts = set()
    for action, keys in (("left", (pg.K_LEFT, pg.K_a)), ("right", (pg.K_RIGHT, pg.K_d)),
                         ("up", (pg.K_UP, pg.K_w)), ("down", (pg.K_DOWN, pg.K_s))):
        if any(k[c] for c in keys):
            acts.add(action)
    if mods & pg.KMOD_SHIFT:
        acts.add("run")
    if mods & pg.KMOD_CTRL:
        acts.add("sneak")
    return acts


def main(argv=None):
    ap = argparse.ArgumentParser(description="A small stealth game in pygame, the guards patrol's.")
    ap.add_argument("--map", default=str(ROOT / "maps" / "demo.map"), help="the level (default: maps/demo.map)")
    ap.add_argument("--seed", type=int, default=None, help="world seed (default: the map's)")
    ap.add_argument("--scale", type=int, default=0, choices=range(0, 5), metavar="1..4",
                    help="pixels per sprite pixel (default: the largest that fits 1280x760)")
    ap.add_argument("--assets", default=str(ROOT / "assets"), help="the folder of the sprite sheets")
    ap.add_argument("--frames", type=int, default=None, help="headless: run N frames, print the outcome, exit")
    ap.add_argument("--keys", default=None, help="the keys held each frame: a script, or a file of one "
                    "(< > ^ v s c r q . with *N repeats; implies headless, N = its length without --frames)")
    ap.add_argument("--fps", type=int, default=None, help="frames a second: headless, the virtual clock's "
                    "(default 60, one tick a frame); playing, the cap (default 120)")
    ap.add_argument("--screenshot", default=None, help="save the last frame drawn to this PNG file")
    args = ap.parse_args(argv)

    script = None
    if args.keys is not None:
        try:
            text = pathlib.Path(args.keys).read_text() if os.path.isfile(args.keys) else args.keys
            script = parse_keys(text)
        except (OSError, ValueError) as e:
            ap.error("--keys: %s" % e)
    if args.frames is not None and args.frames < 0:
        ap.error("--frames takes 0 or more")
    if args.seed is not None and not 0 <= args.seed < 2**64:
        ap.error("--seed takes 0..2^64-1")
    if args.fps is not None and not 1 <= args.fps <= 1000:
        ap.error("--fps takes 1..1000")
    headless = args.frames is not None or script is not None
    frames = args.frames if args.frames is not None else len(script) if script is not None else None
    if headless:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    import pygame
    import patrol
    try:
        level = patrol.load_map(args.map)
    except patrol.Error as e:
        print(e, file=sys.stderr)
        return 1
    pygame.init()
    try:
        game = Game(pygame, level, args)
    except (pygame.error, OSError) as e:      # a sheet missing from --assets, no display
        print("game.py: error: %s" % e, file=sys.stderr)
        pygame.quit()
        return 1
    clock = FrameClock(headless, args.fps or 60)
    limiter = pygame.time.Clock()
    shown = 0
    running = True
    while running and (frames is None or shown < frames):
        acts = set()
        if headless:
            acts = set(script[shown]) if script is not None and shown < len(script) else set()
            pygame.event.pump()
        else:
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
                    running = False
                elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_r:
                    acts.add("restart")
            acts |= held_keys(pygame)
        clock.advance()
        if "quit" in acts:
            break
        if "restart" in acts:
            game.restart()
            clock.rebase()
        game.control(acts)
        due, alpha = clock.due()
        if not headless and due - game.ticks > MAX_BEHIND:
            clock.skip(due - game.ticks - 1)
            due, alpha = clock.due()
        game.step_to(due)
        game.draw(alpha if game.world.round == 0 else 0.0)
        if not headless:
            pygame.display.flip()
            limiter.tick(args.fps or 120)
        shown += 1
    if args.screenshot:
        pygame.image.save(game.screen, args.screenshot)
    p = game.world.player
    by = " caught_by=" + game.caught_by if game.world.round == -1 else ""
    print("outcome=%s tick=%d player=%d,%d frames=%d%s" % (game.outcome, game.world.tick, p.x, p.y, shown, by))
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
