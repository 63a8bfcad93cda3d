#!/usr/bin/env python3
# SPDX-License-Identifier: Zlib
"""Convert a patrol text map (.map) into a Tiled map (.tmx) plus its tileset (.tsx).

    python3 scripts/map2tmx.py maps/demo.map maps/demo.tmx

writes maps/demo.tmx and, beside it, patrol-tiles.tsx: the eleven tiles of assets/tiles.png
with the default legend's properties (walkable, opaque, goal, name). The .tmx loads in
patrol (pt_tmx_load) to the same world as the .map (see docs/tiled.md):

  * the grid becomes one tile layer; tile kinds that are not the default kind of their
    sprite go into small tilesets embedded in the .tmx (same image, own properties);
  * the player, guards, prey and flocks become point objects at their tile's centre with
    class (type) player/guard/prey/flock and the .map keys as typed properties;
  * obstacles become point objects of class obstacle with properties r and sprite;
  * timed noise sources become point objects of class noise at their tile's centre with
    properties loudness, every and first;
  * doors (`door X,Y STATE [closes]`) become point objects of class door at their tile's
    centre with properties state and closes, and `door_look` a bool map property;
  * lights (`light NAME at=X,Y radius=R [level=L] [on|off]`) become point objects of class
    light named NAME at their tile's centre with properties radius, level and on (the last
    two when given), `ambient` a float map property and `relight` a bool one;
  * the alert phases' header directives (evasion, caution, caution_aware, caution_fov)
    become float map properties of the same names;
  * path patterns used by the map become route polylines (polygons when closed), drawn
    where they are walked, and the entity's `route` object property points at its route;
    a path's stops (points with wait=, look, angles=, gait=) become point objects of class
    stop on their tiles, linked to their route, and its `gait` the route's gait property.
    A pattern file stays listed in the map's `patterns` property when the map uses a
    non-path pattern from it. A route is named like its pattern unless that name is taken
    (by a pattern of a file the map still lists - one library cannot hold two patterns of
    one name - or by the same pattern walked from another origin): then NAME.2, NAME.3...

Options: --encoding csv|base64|base64-zlib|base64-gzip|xml (tile layer format, default csv),
--embed (embed the main tileset instead of writing the .tsx), --tileset FILE (the .tsx name,
default patrol-tiles.tsx), --routes auto|none (none: keep every pattern a reference),
--flip-every N (test data: set flip bits on every Nth tile id; patrol clears them),
--image PATH (the tileset image as written in the .tsx; default: assets/tiles.png of this
repository, relative to the .tsx).

Standard library only. Exit status: 0 done, 1 input problem (message on stderr), 2 usage.
"""
import argparse
import base64
import gzip
import os
import struct
import sys
import zlib
from xml.sax.saxutils import quoteattr

# The default legend of src/core/map/map.c: char -> (name, walkable, opaque, goal, sprite).
DEFAULT_LEGEND = [
    ('.', 'floor', 1, 0, 0, 0),
    ('#', 'wall', 0, 1, 0, 1),
    ('~', 'water', 0, 0, 0, 2),
    ('=', 'bridge', 1, 0, 0, 4),
    ('+', 'door', 1, 0, 0, 5),
    (',', 'grass', 1, 0, 0, 6),
    ('*', 'bush', 1, 1, 0, 7),
    ('E', 'exit', 1, 0, 1, 8),
    (':', 'dirt', 1, 0, 0, 9),
    ('T', 'tree', 0, 1, 0, 10),
]
SHEET_TILES = 11  # assets/tiles.png: a strip of eleven 16x16 tiles
SHEET_PX = 16
# What each sprite of the strip is by default (3 is the second water frame).
SHEET_KINDS = {s: (n, w, o, g) for (_, n, w, o, g, s) in DEFAULT_LEGEND}
SHEET_KINDS[3] = ('water', 0, 0, 0)

# The alert phases' header directives: Tiled map properties of the same names (float).
PHASE_KEYS = ('evasion', 'caution', 'caution_aware', 'caution_fov')

# Entity keys of the .map format and the Tiled property type each becomes.
KEY_TYPES = {
    'speed': 'float', 'heading': 'float', 'view': 'float', 'fov': 'float',
    'aware_rate': 'float', 'aware_decay': 'float', 'suspicious_at': 'float', 'chase_at': 'float',
    'hearing': 'float', 'shout': 'float', 'radio': 'string',
    'count': 'int', 'pattern': 'string', 'origin': 'string', 'chase': 'string',
    'steering': 'string', 'kind': 'string', 'lantern': 'float',
}


class InputError(Exception):
    pass


def tokenize(line, where):
    """The shared lexer's rules: blanks separate, '#' at an item's start comments, quotes."""
    toks, i, n = [], 0, len(line)
    while i < n:
        while i < n and line[i] in ' \t\r\v\f':
            i += 1
        if i >= n or line[i] == '#':
            break
        if line[i] in '\'"':
            q = line[i]
            j = line.find(q, i + 1)
            if j < 0:
                raise InputError('%s: unterminated quote' % where)
            toks.append(line[i + 1:j])
            i = j + 1
        else:
            j = i
            while j < n and line[j] not in ' \t\r\v\f':
                j += 1
            toks.append(line[i:j])
            i = j
    return toks


def kv(tok):
    if '=' not in tok:
        return None, None
    k, v = tok.split('=', 1)
    if len(v) >= 2 and v[0] in '\'"' and v[-1] == v[0]:
        v = v[1:-1]
    return k, v


def read_map(path):
    m = {'title': None, 'seed': None, 'tile_size': 16, 'patterns': [], 'steering': None, 'phases': {},
         'legend': {c: (n, w, o, g, s) for (c, n, w, o, g, s) in DEFAULT_LEGEND},
         'player': None, 'ents': [], 'obstacles': [], 'noises': [], 'doors': [], 'door_look': None,
         'lights': [], 'ambient': None, 'relight': None, 'grid': []}
    with open(path, encoding='utf-8-sig') as f:
        lines = f.read().split('\n')
    in_grid = False
    for no, raw in enumerate(lines, 1):
        where = '%s:%d' % (path, no)
        line = raw.rstrip('\r')
        if in_grid:
            row = line.rstrip(' \t\r\v\f')
            if row.strip() == 'end':
                in_grid = False
            else:
                m['grid'].append(row)
            continue
        t = tokenize(line, where)
        if not t:
            continue
        w = t[0]
        if w == 'grid':
            in_grid = True
        elif w == 'title':
            m['title'] = t[1]
        elif w == 'seed':
            m['seed'] = t[1]
        elif w in PHASE_KEYS:
            m['phases'][w] = t[1]
        elif w == 'tile_size':
            m['tile_size'] = int(t[1])
        elif w == 'format':
            pass
        elif w == 'patterns':
            m['patterns'].append(t[1])
        elif w == 'steering':
            m['steering'] = t[1]
        elif w == 'tile':
            ch, name = t[1], t[2]
            flags, sprite = set(), -1
            for x in t[3:]:
                k, v = kv(x)
                if k == 'sprite':
                    sprite = int(v)
                else:
                    flags.add(x)
            m['legend'][ch] = (name, int('walkable' in flags), int('opaque' in flags),
                               int('goal' in flags), sprite)
        elif w in ('player', 'guard', 'prey', 'flock'):
            e = {'kind': w, 'line': no, 'keys': []}
            rest = t[1:]
            if w == 'player':
                e['name'] = 'player'
            else:
                e['name'], rest = t[1], t[2:]
            for x in rest:
                k, v = kv(x)
                if k is None:
                    raise InputError('%s: expected key=value, found %r' % (where, x))
                if k == 'at':
                    e['at'] = tuple(int(c) for c in v.split(','))
                else:
                    e['keys'].append((k, v))
            if 'at' not in e:
                raise InputError('%s: %s has no at=X,Y' % (where, w))
            if w == 'player':
                m['player'] = e
            else:
                m['ents'].append(e)
        elif w == 'obstacle':
            o = {'r': '0.45', 'sprite': 'pillar'}
            for x in t[1:]:
                k, v = kv(x)
                o[k] = v
            if 'at' not in o:
                raise InputError('%s: obstacle has no at=X,Y' % where)
            m['obstacles'].append(o)
        elif w == 'noise':
            o = {}
            for x in t[1:]:
                k, v = kv(x)
                o[k] = v
            if 'at' not in o or 'loudness' not in o or 'every' not in o:
                raise InputError('%s: noise needs at=X,Y, loudness= and every=' % where)
            o.setdefault('first', o['every'])
            m['noises'].append(o)
        elif w == 'door':
            if len(t) < 3 or len(t) > 4 or (len(t) == 4 and t[3] != 'closes'):
                raise InputError('%s: door takes X,Y open|closed|locked [closes]' % where)
            m['doors'].append({'at': t[1], 'state': t[2], 'closes': len(t) == 4})
        elif w == 'door_look':
            if len(t) != 2 or t[1] not in ('on', 'off'):
                raise InputError('%s: door_look takes on or off' % where)
            m['door_look'] = t[1] == 'on'
        elif w == 'light':
            o = {'name': t[1], 'on': None}
            for x in t[2:]:
                k, v = kv(x)
                if k is None and x in ('on', 'off'):
                    o['on'] = x == 'on'
                elif k in ('at', 'radius', 'level'):
                    o[k] = v
                else:
                    raise InputError('%s: light takes NAME at=X,Y radius=R [level=L] [on|off]' % where)
            if 'at' not in o or 'radius' not in o:
                raise InputError('%s: light needs at=X,Y and radius=R' % where)
            m['lights'].append(o)
        elif w == 'ambient':
            m['ambient'] = t[1]
        elif w == 'relight':
            if len(t) != 2 or t[1] not in ('on', 'off'):
                raise InputError('%s: relight takes on or off' % where)
            m['relight'] = t[1] == 'on'
        else:
            raise InputError('%s: unknown directive %r' % (where, w))
    if not m['grid']:
        raise InputError('%s: the map has no grid' % path)
    if m['player'] is None:
        raise InputError('%s: the map has no player' % path)
    width = len(m['grid'][0])
    for y, row in enumerate(m['grid']):
        if len(row) != width:
            raise InputError('%s: grid row %d is %d wide, not %d' % (path, y + 1, len(row), width))
        for x, c in enumerate(row):
            if c not in m['legend']:
                raise InputError('%s: grid row %d: unknown tile %r' % (path, y + 1, c))
    return m


POINT_KEYS = ('wait', 'look', 'angles', 'gait')
PATTERN_TICK_HZ = 60  # PT_PATTERN_TICK_HZ
LOOK_DEFAULT_S = 2.0  # PT_LOOK_DEFAULT_TICKS / PT_PATTERN_TICK_HZ


def seconds(d):
    """A .pat duration (`N` ticks or `Xs` seconds) in seconds."""
    return float(d[:-1]) if d.endswith('s') else int(d) / PATTERN_TICK_HZ


def read_patterns(path):
    """name -> dict(kind, origin, points, at_end, stops, gait) for every pattern of a .pat
    file (only path patterns are read in full); stops: point index -> {item: value}."""
    pats = {}
    with open(path, encoding='utf-8-sig') as f:
        lines = f.read().split('\n')
    cur, depth = None, 0
    for no, raw in enumerate(lines, 1):
        t = tokenize(raw.rstrip('\r'), '%s:%d' % (path, no))
        if not t:
            continue
        if cur is None:
            if t[0] == 'pattern' and len(t) >= 2:
                cur = {'name': t[1], 'kind': None, 'origin': None, 'points': [], 'at_end': None, 'stops': {},
                       'gait': None}
                depth = 0
            continue
        if t[0] == 'end':
            if depth:
                depth -= 1
                continue
            pats[cur['name']] = cur
            cur = None
        elif t[0] in ('repeat', 'rows'):
            depth += 1
        elif depth:
            continue
        elif t[0] == 'kind':
            cur['kind'] = t[1]
        elif t[0] == 'origin':
            cur['origin'] = tuple(int(c) for c in t[1].split(','))
        elif t[0] == 'points' and cur['kind'] in (None, 'path'):
            for p in t[1:]:
                key, _, val = p.partition('=')
                if key in POINT_KEYS:  # an item of the point before it
                    cur['stops'].setdefault(len(cur['points']) - 1, {})[key] = val
                else:
                    cur['points'].append(tuple(int(c) for c in p.split(',')))
        elif t[0] == 'gait':
            cur['gait'] = t[1]
        elif t[0] == 'at_end':
            cur['at_end'] = t[1]
    return pats


def fnum(v):
    """Pixels as short exact text."""
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def props_xml(props, indent):
    if not props:
        return ''
    pad = ' ' * indent
    out = [pad + '<properties>']
    for name, typ, val in props:
        t = '' if typ == 'string' else ' type="%s"' % typ
        out.append('%s <property name=%s%s value=%s/>' % (pad, quoteattr(name), t, quoteattr(str(val))))
    out.append(pad + '</properties>')
    return '\n'.join(out) + '\n'


def tile_props(kind):
    name, w, o, g, sprite = kind
    props = [('goal', 'bool', 'true' if g else 'false'), ('name', 'string', name),
             ('opaque', 'bool', 'true' if o else 'false'), ('walkable', 'bool', 'true' if w else 'false')]
    return props


def tileset_body(name, image, tiles, indent, firstgid=None, source=None):
    """tiles: {local id: (name, walkable, opaque, goal, sprite or None)}."""
    pad = ' ' * indent
    fg = ' firstgid="%d"' % firstgid if firstgid else ''
    head = '%s<tileset%s name=%s tilewidth="%d" tileheight="%d" tilecount="%d" columns="%d">\n' % (
        pad, fg, quoteattr(name), SHEET_PX, SHEET_PX, SHEET_TILES, SHEET_TILES)
    body = '%s <image source=%s width="%d" height="%d"/>\n' % (pad, quoteattr(image), SHEET_PX * SHEET_TILES, SHEET_PX)
    for tid in sorted(tiles):
        kind = tiles[tid]
        props = tile_props(kind)
        if kind[4] is not None:
            props.append(('sprite', 'int', kind[4]))
            props.sort(key=lambda p: p[0])
        body += '%s <tile id="%d">\n%s%s </tile>\n' % (pad, tid, props_xml(props, indent + 2), pad)
    return head + body + pad + '</tileset>\n'


def encode_layer(gids, w, encoding):
    if encoding == 'xml':
        return '  <data>\n' + ''.join('   <tile gid="%d"/>\n' % g if g else '   <tile/>\n' for g in gids) + '  </data>\n'
    if encoding == 'csv':
        rows = [','.join(str(g) for g in gids[y * w:(y + 1) * w]) for y in range(len(gids) // w)]
        return '  <data encoding="csv">\n' + ',\n'.join(rows) + '\n</data>\n'
    raw = struct.pack('<%dI' % len(gids), *gids)
    comp = ''
    if encoding == 'base64-zlib':
        raw, comp = zlib.compress(raw, 9), ' compression="zlib"'
    elif encoding == 'base64-gzip':
        raw, comp = gzip.compress(raw, 9, mtime=0), ' compression="gzip"'
    return '  <data encoding="base64"%s>\n   %s\n  </data>\n' % (comp, base64.b64encode(raw).decode('ascii'))


def convert(args):
    src, dst = args.map, args.tmx
    m = read_map(src)
    src_dir = os.path.dirname(os.path.abspath(src))
    dst_dir = os.path.dirname(os.path.abspath(dst))
    tp = m['tile_size']
    w, h = len(m['grid'][0]), len(m['grid'])

    # ---- tiles: the main tileset holds the default kind of each sprite; other kinds go to
    # embedded extra tilesets over the same image (one kind per local id).
    kind_gid = {}
    extras = []  # list of {local id: kind}
    for ch in sorted({c for row in m['grid'] for c in row}):
        name, wk, op, gl, sprite = m['legend'][ch]
        if 0 <= sprite < SHEET_TILES and SHEET_KINDS[sprite] == (name, wk, op, gl):
            kind_gid[ch] = 1 + sprite
            continue
        want = sprite if 0 <= sprite < SHEET_TILES else None
        for k, ex in enumerate(extras + [None]):
            if ex is None:
                extras.append({})
                ex = extras[-1]
            free = [want] if want is not None else [i for i in range(SHEET_TILES)]
            free = [i for i in free if i not in ex]
            if free:
                # the sprite property is written only when it differs from the local id
                ex[free[0]] = (name, wk, op, gl, None if free[0] == sprite else sprite)
                kind_gid[ch] = 1 + SHEET_TILES * (k + 1) + free[0]
                break

    gids = [kind_gid[c] for row in m['grid'] for c in row]
    if args.flip_every:
        flips = [0x80000000, 0x40000000, 0x20000000, 0xE0000000]
        for i in range(0, len(gids), args.flip_every):
            gids[i] |= flips[(i // args.flip_every) % len(flips)]

    # ---- patterns: which files stay references, which path patterns become routes
    pat_files = []  # (path as written in the .map relative to its folder, absolute path, patterns)
    for p in m['patterns']:
        ap = p if os.path.isabs(p) else os.path.join(src_dir, p)
        pat_files.append((p, ap, read_patterns(ap)))

    def lookup(ref):
        fname, name = (ref.rsplit(':', 1) if ':' in ref else (None, ref))
        for i, (p, ap, pats) in enumerate(pat_files):
            if fname and os.path.basename(ap) != os.path.basename(fname):
                continue
            if name in pats:
                return i, pats[name]
        return None, None

    users = [m['player']] + m['ents']
    keep_file = set()
    for e in users:
        ref = dict(e['keys']).get('pattern')
        if not ref:
            continue
        i, pat = lookup(ref)
        if args.routes == 'none' or pat is None or pat['kind'] != 'path':
            if i is not None:
                keep_file.add(i)
            elif pat_files:
                keep_file.update(range(len(pat_files)))  # unknown: keep every file, patrol will say
    taken = {n for i in keep_file for n in pat_files[i][2]}  # names the library will hold
    routes = []  # dicts: name, cells, at_end, id
    placed = {}  # (pattern name, origin) -> route
    for e in users:
        keys = dict(e['keys'])
        ref = keys.get('pattern')
        if not ref:
            continue
        i, pat = lookup(ref)
        if args.routes == 'none' or pat is None or pat['kind'] != 'path':
            continue
        if len(pat['points']) < 2:
            raise InputError('%s: path pattern %r has fewer than two points' % (pat_files[i][1], pat['name']))
        if pat['origin'] is not None:
            org = pat['origin']
        elif 'origin' in keys:
            org = tuple(int(c) for c in keys['origin'].split(','))
        else:
            org = e['at']
        v0 = pat['points'][0]
        cells = [(org[0] + x - v0[0], org[1] + y - v0[1]) for (x, y) in pat['points']]
        key = (pat['name'], org)
        if key not in placed:
            name, n = pat['name'], 1
            while name in taken:
                n += 1
                name = '%s.%d' % (pat['name'], n)
            taken.add(name)
            stops = [(cells[k], items) for k, items in sorted(pat['stops'].items())]
            placed[key] = {'name': name, 'cells': cells, 'at_end': pat['at_end'], 'stops': stops, 'gait': pat['gait']}
            routes.append(placed[key])
        e['route'] = placed[key]

    # ---- objects
    next_id = 1
    for r in routes:
        r['id'] = next_id
        next_id += 1
    route_xml = ''
    stop_xml = []
    for r in routes:
        cells = r['cells']
        closed = len(cells) > 2 and cells[0] == cells[-1]
        pts = cells[:-1] if closed else cells
        x0, y0 = (cells[0][0] + 0.5) * tp, (cells[0][1] + 0.5) * tp
        rel = ' '.join('%s,%s' % (fnum((x - cells[0][0]) * tp), fnum((y - cells[0][1]) * tp)) for (x, y) in pts)
        props = [('at_end', 'string', r['at_end'])] if r['at_end'] else []
        if r['gait']:
            props.append(('gait', 'string', r['gait']))
        route_xml += '  <object id="%d" name=%s type="route" x="%s" y="%s">\n%s   <%s points="%s"/>\n  </object>\n' % (
            r['id'], quoteattr(r['name']), fnum(x0), fnum(y0), props_xml(props, 3),
            'polygon' if closed else 'polyline', rel)
    # stops: a point object of class stop on the tile of each point with items
    for r in routes:
        for (x, y), items in r['stops']:
            props = [('route', 'object', r['id'])]
            if 'wait' in items:
                props.append(('wait', 'float', repr(seconds(items['wait']))))
            if 'look' in items:
                props.append(('look', 'float', repr(seconds(items['look']) if items['look'] else LOOK_DEFAULT_S)))
            if 'angles' in items:
                props.append(('angles', 'string', items['angles']))
            if 'gait' in items:
                props.append(('gait', 'string', items['gait']))
            props.sort(key=lambda p: p[0])
            stop_xml.append('  <object id="%%d" type="stop" x="%s" y="%s">\n%s   <point/>\n  </object>\n' % (
                fnum((x + 0.5) * tp), fnum((y + 0.5) * tp), props_xml(props, 3).replace('%', '%%')))

    for sx in stop_xml:
        route_xml += sx % next_id
        next_id += 1
    ent_xml = ''
    for e in users:
        props = []
        for k, v in e['keys']:
            if k in ('pattern', 'origin') and 'route' in e:
                continue
            if k not in KEY_TYPES:
                raise InputError('%s:%d: key %r has no Tiled property' % (src, e['line'], k))
            props.append((k, KEY_TYPES[k], v))
        if 'route' in e:
            props.append(('route', 'object', e['route']['id']))
        props.sort(key=lambda p: p[0])  # Tiled writes properties sorted by name
        name = '' if e['kind'] == 'player' else ' name=%s' % quoteattr(e['name'])
        ent_xml += '  <object id="%d"%s type="%s" x="%s" y="%s">\n%s   <point/>\n  </object>\n' % (
            next_id, name, e['kind'], fnum((e['at'][0] + 0.5) * tp), fnum((e['at'][1] + 0.5) * tp),
            props_xml(props, 3))
        next_id += 1
    for o in m['obstacles']:
        ox, oy = o['at'].split(',')
        props = [('r', 'float', o['r']), ('sprite', 'string', o['sprite'])]
        ent_xml += '  <object id="%d" type="obstacle" x="%s" y="%s">\n%s   <point/>\n  </object>\n' % (
            next_id, fnum(float(ox) * tp), fnum(float(oy) * tp), props_xml(props, 3))
        next_id += 1

    for o in m['noises']:
        ox, oy = (int(c) for c in o['at'].split(','))
        props = [('every', 'float', o['every']), ('first', 'float', o['first']), ('loudness', 'float', o['loudness'])]
        ent_xml += '  <object id="%d" type="noise" x="%s" y="%s">\n%s   <point/>\n  </object>\n' % (
            next_id, fnum((ox + 0.5) * tp), fnum((oy + 0.5) * tp), props_xml(props, 3))
        next_id += 1

    for o in m['doors']:
        ox, oy = (int(c) for c in o['at'].split(','))
        props = [('closes', 'bool', 'true')] if o['closes'] else []
        props.append(('state', 'string', o['state']))
        ent_xml += '  <object id="%d" type="door" x="%s" y="%s">\n%s   <point/>\n  </object>\n' % (
            next_id, fnum((ox + 0.5) * tp), fnum((oy + 0.5) * tp), props_xml(props, 3))
        next_id += 1

    for o in m['lights']:
        ox, oy = (int(c) for c in o['at'].split(','))
        props = [('radius', 'float', o['radius'])]
        if 'level' in o:
            props.append(('level', 'float', o['level']))
        if o['on'] is not None:
            props.append(('on', 'bool', 'true' if o['on'] else 'false'))
        props.sort(key=lambda p: p[0])
        ent_xml += '  <object id="%d" name=%s type="light" x="%s" y="%s">\n%s   <point/>\n  </object>\n' % (
            next_id, quoteattr(o['name']), fnum((ox + 0.5) * tp), fnum((oy + 0.5) * tp), props_xml(props, 3))
        next_id += 1

    # ---- map properties
    mprops = []
    listed = [pat_files[i] for i in sorted(keep_file)]
    if listed:
        mprops.append(('patterns', 'string', ','.join(
            os.path.relpath(ap, dst_dir).replace(os.sep, '/') for (_, ap, _) in listed)))
    if m['seed'] is not None:
        s = int(m['seed'])
        mprops.append(('seed', 'int' if s < 2 ** 31 else 'string', m['seed']))
    if m['steering']:
        ap = m['steering'] if os.path.isabs(m['steering']) else os.path.join(src_dir, m['steering'])
        mprops.append(('steering', 'file', os.path.relpath(ap, dst_dir).replace(os.sep, '/')))
    if m['title'] is not None:
        mprops.append(('title', 'string', m['title']))
    for k, v in m['phases'].items():
        mprops.append((k, 'float', v))
    if m['door_look'] is not None:
        mprops.append(('door_look', 'bool', 'true' if m['door_look'] else 'false'))
    if m['ambient'] is not None:
        mprops.append(('ambient', 'float', m['ambient']))
    if m['relight'] is not None:
        mprops.append(('relight', 'bool', 'true' if m['relight'] else 'false'))
    mprops.sort(key=lambda p: p[0])  # Tiled writes properties sorted by name

    # ---- tilesets
    tsx_name = args.tileset
    tsx_path = os.path.join(dst_dir, tsx_name)
    here = os.path.dirname(os.path.abspath(__file__))
    image_abs = os.path.join(os.path.dirname(here), 'assets', 'tiles.png')
    main_tiles = {s: SHEET_KINDS[s] + (None,) for s in range(SHEET_TILES)}
    if args.embed:
        image = args.image or os.path.relpath(image_abs, dst_dir).replace(os.sep, '/')
        tilesets = tileset_body('patrol-tiles', image, main_tiles, 1, firstgid=1)
    else:
        image = args.image or os.path.relpath(image_abs, os.path.dirname(tsx_path)).replace(os.sep, '/')
        tilesets = ' <tileset firstgid="1" source=%s/>\n' % quoteattr(tsx_name)
    img_tmx = args.image or os.path.relpath(image_abs, dst_dir).replace(os.sep, '/')
    for k, ex in enumerate(extras):
        tilesets += tileset_body('patrol-extra-%d' % (k + 1), img_tmx, ex, 1, firstgid=1 + SHEET_TILES * (k + 1))

    out = ['<?xml version="1.0" encoding="UTF-8"?>\n',
           '<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" '
           'width="%d" height="%d" tilewidth="%d" tileheight="%d" infinite="0" nextlayerid="4" nextobjectid="%d">\n'
           % (w, h, tp, tp, next_id),
           props_xml(mprops, 1), tilesets,
           ' <layer id="1" name="tiles" width="%d" height="%d">\n' % (w, h),
           encode_layer(gids, w, args.encoding), ' </layer>\n',
           ' <objectgroup id="2" name="routes">\n', route_xml, ' </objectgroup>\n',
           ' <objectgroup id="3" name="entities">\n', ent_xml, ' </objectgroup>\n',
           '</map>\n']
    with open(dst, 'w', encoding='utf-8', newline='\n') as f:
        f.write(''.join(out))
    if not args.embed:
        with open(tsx_path, 'w', encoding='utf-8', newline='\n') as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n' +
                    tileset_body('patrol-tiles', image, main_tiles, 0).replace(
                        '<tileset name=', '<tileset version="1.8" tiledversion="1.8.2" name=', 1))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('map', help='the patrol .map to convert')
    ap.add_argument('tmx', help='the .tmx to write (the .tsx goes beside it)')
    ap.add_argument('--encoding', default='csv', choices=['csv', 'base64', 'base64-zlib', 'base64-gzip', 'xml'])
    ap.add_argument('--embed', action='store_true', help='embed the main tileset in the .tmx')
    ap.add_argument('--tileset', default='patrol-tiles.tsx', help='file name of the .tsx (beside the .tmx)')
    ap.add_argument('--routes', default='auto', choices=['auto', 'none'])
    ap.add_argument('--flip-every', type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument('--image', default=None, help='tileset image path to write (default: assets/tiles.png)')
    args = ap.parse_args(argv)
    if args.flip_every < 0:
        ap.error('--flip-every must be >= 0')
    try:
        convert(args)
    except (InputError, OSError, ValueError, IndexError) as e:
        print('map2tmx: error: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
