/* SPDX-License-Identifier: Zlib */
/* Tiled maps (tmx.c): every layer encoding loads the same tiles; external and embedded
 * tilesets agree; flip flags are cleared; tile properties and their defaults; object layers
 * become the player, guards, prey, flocks, obstacles and route patterns on the right cells;
 * a TMX written by scripts/map2tmx.py loads to the same world as its .map; every error kind
 * with its code, file, line and column; limits; robustness on mutated input.
 *
 * Test data: tests/data/tmx/ (castle.map is the source of castle_*.tmx, see regen.sh;
 * features.tmx is hand-written; bad/ holds one broken file per error kind). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/rng.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

#define DATA "tests/data/tmx/"

static void load_tmx_at(const char *path, pt_map *m, pt_patlib *lib, int src_line) {
    pt_error e;
    int rc = pt_tmx_load(m, lib, path, &e);
    ck_assert_msg(rc == PT_OK, "test line %d: %s: %s at %s:%d:%d: %s", src_line, path, pt_code_name(rc), e.file, e.line,
                  e.col, e.message);
}
#define LOAD_TMX(path, m, lib) load_tmx_at((path), (m), (lib), __LINE__)

/* Loads a map with its pattern files, as the game does: .map or .tmx, then the files the
 * map lists. */
static void load_world_at(const char *path, pt_map *m, pt_patlib *lib, int src_line) {
    pt_error e;
    pt_patlib_init(lib);
    int rc = pt_tmx_is_tmx(path) ? pt_tmx_load(m, lib, path, &e) : pt_map_load(m, path, &e);
    ck_assert_msg(rc == PT_OK, "test line %d: %s: %s at %s:%d:%d: %s", src_line, path, pt_code_name(rc), e.file, e.line,
                  e.col, e.message);
    for (int i = 0; i < m->npattern_files; i++) {
        rc = pt_patlib_load(lib, m->pattern_files[i], &e);
        ck_assert_msg(rc == PT_OK, "test line %d: %s: %s at %s:%d:%d: %s", src_line, m->pattern_files[i],
                      pt_code_name(rc), e.file, e.line, e.col, e.message);
    }
}
#define LOAD_WORLD(path, m, lib) load_world_at((path), (m), (lib), __LINE__)

/* ---- comparing two worlds as the game sees them ------------------------------------------- */

typedef struct diff {
    int n;
    char first[512];
} diff;

static void note(diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(diff *d, const char *fmt, ...) {
    if (d->n++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->first, sizeof d->first, fmt, ap);
        va_end(ap);
    }
}

/* Patterns compared by what they make an entity do: same kind and end mode; path patterns
 * the same cells once placed at the entity's origin; other kinds the same name and origin.
 * (Names of paths may differ: map2tmx names a second placement NAME.2.) */
static void diff_pattern(diff *d, const char *who, const pt_entity_def *a, const pt_patlib *la, const pt_entity_def *b,
                         const pt_patlib *lb) {
    const pt_pattern *pa = a->pattern[0] ? pt_patlib_find(la, a->pattern) : NULL;
    const pt_pattern *pb = b->pattern[0] ? pt_patlib_find(lb, b->pattern) : NULL;
    if (!pa || !pb) {
        if (!!pa != !!pb || strcmp(a->pattern, b->pattern) != 0)
            note(d, "%s: pattern '%s' vs '%s'", who, a->pattern, b->pattern);
        return;
    }
    pt_cell oa = pt_pattern_origin(pa, a), ob = pt_pattern_origin(pb, b);
    if (pa->kind != pb->kind || pa->end != pb->end || pa->closed != pb->closed) {
        note(d, "%s: pattern kind/end/closed %d/%d/%d vs %d/%d/%d", who, pa->kind, pa->end, pa->closed, pb->kind, pb->end,
             pb->closed);
        return;
    }
    if (pa->kind != PT_PAT_PATH) {
        if (strcmp(a->pattern, b->pattern) != 0 || oa.x != ob.x || oa.y != ob.y)
            note(d, "%s: pattern %s at %d,%d vs %s at %d,%d", who, a->pattern, oa.x, oa.y, b->pattern, ob.x, ob.y);
        return;
    }
    if (pa->ncells != pb->ncells) {
        note(d, "%s: path of %d cells vs %d", who, pa->ncells, pb->ncells);
        return;
    }
    for (int i = 0; i < pa->ncells; i++)
        if (pa->cells[i].x + oa.x != pb->cells[i].x + ob.x || pa->cells[i].y + oa.y != pb->cells[i].y + ob.y) {
            note(d, "%s: path cell %d at %d,%d vs %d,%d", who, i, pa->cells[i].x + oa.x, pa->cells[i].y + oa.y,
                 pb->cells[i].x + ob.x, pb->cells[i].y + ob.y);
            return;
        }
    /* the same stops (a route's stop objects) and gaits */
    if (pa->gait != pb->gait) note(d, "%s: gait %d vs %d", who, pa->gait, pb->gait);
    for (int i = 0; i < pa->ncells; i++) {
        int ka = pa->look_of_cell ? pa->look_of_cell[i] : -1, kb = pb->look_of_cell ? pb->look_of_cell[i] : -1;
        int ga = pa->gait_of_cell ? pa->gait_of_cell[i] : -1, gb = pb->gait_of_cell ? pb->gait_of_cell[i] : -1;
        if (ga != gb) note(d, "%s: gait at cell %d: %d vs %d", who, i, ga, gb);
        if ((ka < 0) != (kb < 0)) {
            note(d, "%s: a stop at cell %d in one only", who, i);
            continue;
        }
        if (ka < 0) continue;
        const pt_look *x = &pa->looks[ka], *y = &pb->looks[kb];
        int same = x->wait == y->wait && x->look == y->look && x->nangles == y->nangles;
        for (int k = 0; same && k < x->nangles; k++) same = x->angles[k] == y->angles[k];
        if (!same)
            note(d, "%s: stop at cell %d: wait %d look %d angles %d vs wait %d look %d angles %d", who, i, x->wait,
                 x->look, x->nangles, y->wait, y->look, y->nangles);
    }
}

static void diff_entity(diff *d, const pt_entity_def *a, const pt_patlib *la, const pt_entity_def *b, const pt_patlib *lb) {
    char who[96];
    snprintf(who, sizeof who, "%s '%s'", pt_kind_name(a->kind), a->name);
    pt_entity_def ra = *a, rb = *b; /* compare effective values */
    pt_entity_def_resolve(&ra);
    pt_entity_def_resolve(&rb);
    if (strcmp(a->name, b->name) != 0) note(d, "%s: name vs '%s'", who, b->name);
    if (a->kind != b->kind) note(d, "%s: kind %d vs %d", who, a->kind, b->kind);
    if (a->x != b->x || a->y != b->y) note(d, "%s: at %d,%d vs %d,%d", who, a->x, a->y, b->x, b->y);
#define SAME(f) \
    if (ra.f != rb.f) note(d, "%s: " #f " %g vs %g", who, (double)ra.f, (double)rb.f)
    SAME(heading_deg);
    SAME(view_dist);
    SAME(view_angle_deg);
    SAME(speed);
    SAME(chase);
    SAME(aware_rate);
    SAME(aware_decay);
    SAME(suspicious_at);
    SAME(chase_at);
    SAME(hearing);
    SAME(count);
    SAME(flock_kind);
#undef SAME
    if (strcmp(a->group, b->group) != 0) note(d, "%s: group '%s' vs '%s'", who, a->group, b->group);
    if (strcmp(a->steering, b->steering) != 0) note(d, "%s: steering '%s' vs '%s'", who, a->steering, b->steering);
    diff_pattern(d, who, a, la, b, lb);
}

/* Differences between two worlds: size, tile size, seed, title, every cell's tile (flags,
 * sprite, sound, name), the player and every entity field by field, every obstacle. */
static diff world_diff(const pt_map *a, const pt_patlib *la, const pt_map *b, const pt_patlib *lb) {
    diff d = {0, ""};
    if (a->w != b->w || a->h != b->h) {
        note(&d, "size %dx%d vs %dx%d", a->w, a->h, b->w, b->h);
        return d;
    }
    if (a->tile_px != b->tile_px) note(&d, "tile_px %d vs %d", a->tile_px, b->tile_px);
    if (a->seed != b->seed) note(&d, "seed differs");
    if (memcmp(&a->phases, &b->phases, sizeof a->phases) != 0)
        note(&d, "phases %g %g %g %g vs %g %g %g %g", a->phases.evasion, a->phases.caution, a->phases.caution_aware,
             a->phases.caution_fov, b->phases.evasion, b->phases.caution, b->phases.caution_aware, b->phases.caution_fov);
    if (strcmp(a->name, b->name) != 0) note(&d, "title '%s' vs '%s'", a->name, b->name);
    if (a->goal != b->goal) note(&d, "goal %d vs %d", a->goal, b->goal);
    if (strcmp(a->steering_file, b->steering_file) != 0)
        note(&d, "steering file '%s' vs '%s'", a->steering_file, b->steering_file);
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++) {
            const pt_tile_def *ta = pt_map_tile(a, x, y), *tb = pt_map_tile(b, x, y);
            size_t i = (size_t)y * (size_t)a->w + (size_t)x;
            if (ta->flags != tb->flags || ta->sprite != tb->sprite || ta->sound != tb->sound ||
                strcmp(ta->name, tb->name) != 0 || a->flags[i] != b->flags[i])
                note(&d, "tile %d,%d: %s/%d/%d vs %s/%d/%d", x, y, ta->name, ta->flags, ta->sprite, tb->name, tb->flags,
                     tb->sprite);
        }
    diff_entity(&d, &a->player, la, &b->player, lb);
    if (a->nents != b->nents) note(&d, "%d entities vs %d", a->nents, b->nents);
    for (int i = 0; i < a->nents && i < b->nents; i++) diff_entity(&d, &a->ents[i], la, &b->ents[i], lb);
    if (a->nobstacles != b->nobstacles) note(&d, "%d obstacles vs %d", a->nobstacles, b->nobstacles);
    for (int i = 0; i < a->nobstacles && i < b->nobstacles; i++) {
        const pt_obstacle *p = &a->obstacles[i], *q = &b->obstacles[i];
        if (p->x != q->x || p->y != q->y || p->r != q->r || p->sprite != q->sprite)
            note(&d, "obstacle %d: %g,%g r%g s%d vs %g,%g r%g s%d", i, p->x, p->y, p->r, p->sprite, q->x, q->y, q->r,
                 q->sprite);
    }
    if (a->nsources != b->nsources) note(&d, "%d noise sources vs %d", a->nsources, b->nsources);
    for (int i = 0; i < a->nsources && i < b->nsources; i++) {
        const pt_noise_source *p = &a->sources[i], *q = &b->sources[i];
        if (p->x != q->x || p->y != q->y || p->loudness != q->loudness || p->every != q->every || p->first != q->first)
            note(&d, "noise source %d: %d,%d differs", i, p->x, p->y);
    }
    return d;
}

/* Runs both worlds for `ticks` ticks (the player on its pattern) and compares their CSV
 * traces byte for byte: the worlds play the same. Returns the first differing tick+1, 0 when
 * equal. */
static long trace_diff(const pt_map *a, const pt_patlib *la, const pt_map *b, const pt_patlib *lb, int ticks) {
    pt_world_desc desc;
    memset(&desc, 0, sizeof desc);
    pt_error e;
    pt_world *wa = pt_world_create(a, la, &desc, &e);
    ck_assert_msg(wa != NULL, "world a: %s", e.message);
    pt_world *wb = pt_world_create(b, lb, &desc, &e);
    ck_assert_msg(wb != NULL, "world b: %s", e.message);
    FILE *fa = tmpfile(), *fb = tmpfile();
    ck_assert(fa && fb);
    long first = 0;
    static char ra[1 << 16], rb[1 << 16];
    for (int t = 0; t < ticks && !first; t++) {
        pt_world_step(wa);
        pt_world_step(wb);
        rewind(fa);
        rewind(fb);
        pt_world_trace_rows(wa, fa);
        pt_world_trace_rows(wb, fb);
        long na = ftell(fa), nb = ftell(fb);
        rewind(fa);
        rewind(fb);
        size_t ga = fread(ra, 1, na < (long)sizeof ra ? (size_t)na : sizeof ra, fa);
        size_t gb = fread(rb, 1, nb < (long)sizeof rb ? (size_t)nb : sizeof rb, fb);
        if (na != nb || ga != gb || memcmp(ra, rb, ga) != 0) first = t + 1;
    }
    fclose(fa);
    fclose(fb);
    pt_world_destroy(wa);
    pt_world_destroy(wb);
    return first;
}

static void expect_same_world_at(const char *pa, const char *pb, int src_line) {
    pt_map a, b;
    pt_patlib la, lb;
    load_world_at(pa, &a, &la, src_line);
    load_world_at(pb, &b, &lb, src_line);
    diff d = world_diff(&a, &la, &b, &lb);
    ck_assert_msg(d.n == 0, "test line %d: %s vs %s: %d differences, first: %s", src_line, pa, pb, d.n, d.first);
    long t = trace_diff(&a, &la, &b, &lb, 1200);
    ck_assert_msg(t == 0, "test line %d: %s vs %s: the traces differ at tick %ld", src_line, pa, pb, t);
    pt_map_fini(&a);
    pt_map_fini(&b);
    pt_patlib_fini(&la);
    pt_patlib_fini(&lb);
}
#define EXPECT_SAME_WORLD(a, b) expect_same_world_at((a), (b), __LINE__)

/* ---- encodings, tilesets, flips, the .map round trip ---------------------------------------- */

START_TEST(test_is_tmx) {
    ck_assert(pt_tmx_is_tmx("maps/demo.tmx"));
    ck_assert(pt_tmx_is_tmx("A.TMX"));
    ck_assert(!pt_tmx_is_tmx("maps/demo.map"));
    ck_assert(!pt_tmx_is_tmx("tmx"));
    ck_assert(!pt_tmx_is_tmx(".tmxx"));
    ck_assert(!pt_tmx_is_tmx(NULL));
}
END_TEST

/* castle_*.tmx differ only in how they are written (map2tmx options, see regen.sh). */
static const char *const variants[] = {
    DATA "castle_b64.tmx",  DATA "castle_zlib.tmx",  DATA "castle_gzip.tmx", DATA "castle_xml.tmx",
    DATA "castle_embed.tmx", DATA "castle_flip.tmx", DATA "castle_refs.tmx",
    DATA "castle_tiled.tmx", /* written by Tiled 1.8.2 itself: minimized to one line, tilesets embedded */
};

START_TEST(test_variants_same_world) {
    EXPECT_SAME_WORLD(DATA "castle_csv.tmx", variants[_i]);
}
END_TEST

START_TEST(test_variants_are_what_they_say) {
    /* The data must exercise what the names promise (a regenerated file could silently lose it). */
    static const struct { const char *file, *needle; } has[] = {
        {DATA "castle_csv.tmx", "<tileset firstgid=\"1\" source=\"patrol-tiles.tsx\"/>"},
        {DATA "castle_csv.tmx", "encoding=\"csv\""},
        {DATA "castle_b64.tmx", "<data encoding=\"base64\">"},
        {DATA "castle_zlib.tmx", "compression=\"zlib\""},
        {DATA "castle_gzip.tmx", "compression=\"gzip\""},
        {DATA "castle_xml.tmx", "<tile gid=\"2\"/>"},
        {DATA "castle_embed.tmx", "<tileset firstgid=\"1\" name=\"patrol-tiles\""},
        {DATA "castle_flip.tmx", "2147483650,"},   /* gid 2 with the horizontal flip bit */
        {DATA "castle_flip.tmx", "3758096391,"},   /* gid 7 with all three flip bits */
        {DATA "castle_refs.tmx", "name=\"pattern\" value=\"square\""},
        {DATA "castle_csv.tmx", "<polygon points="},
        {DATA "castle_csv.tmx", "<polyline points="},
        {DATA "looks.tmx", "type=\"stop\""},
        {DATA "castle_tiled.tmx", "tiledversion=\"1.8.2\""},
        {DATA "castle_tiled.tmx", "</tile><tile id=\"1\">"}, /* many same-named tags on one line */
    };
    for (size_t i = 0; i < sizeof has / sizeof has[0]; i++) {
        FILE *f = fopen(has[i].file, "rb");
        ck_assert_msg(f != NULL, "%s missing", has[i].file);
        static char buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        ck_assert_msg(strstr(buf, has[i].needle) != NULL, "%s lacks %s", has[i].file, has[i].needle);
    }
}
END_TEST

START_TEST(test_same_world_as_map) {
    /* The mechanism for maps/demo.tmx: map2tmx.py output loads to the world of its .map. */
    EXPECT_SAME_WORLD(DATA "castle.map", DATA "castle_csv.tmx");
    EXPECT_SAME_WORLD(DATA "castle.map", DATA "castle_refs.tmx");
    /* path patterns with stops: routes with stop objects */
    EXPECT_SAME_WORLD(DATA "looks.map", DATA "looks.tmx");
}
END_TEST

START_TEST(test_demo_tmx) {
    /* Registered only when maps/demo.tmx exists (the lead generates it from demo.map). */
    EXPECT_SAME_WORLD("maps/demo.map", "maps/demo.tmx");
}
END_TEST

START_TEST(test_world_diff_sees_differences) {
    /* The comparison itself must be able to fail: change one thing at a time. */
    pt_map a, b;
    pt_patlib la, lb;
    LOAD_WORLD(DATA "castle_csv.tmx", &a, &la);
    LOAD_WORLD(DATA "castle_csv.tmx", &b, &lb);
    ck_assert_int_eq(world_diff(&a, &la, &b, &lb).n, 0);
    b.flags[20] ^= PT_TILE_OPAQUE;
    ck_assert_int_eq(world_diff(&a, &la, &b, &lb).n, 1);
    b.flags[20] ^= PT_TILE_OPAQUE;
    b.ents[0].view_dist += 1;
    ck_assert_int_eq(world_diff(&a, &la, &b, &lb).n, 1);
    b.ents[0].view_dist -= 1;
    b.ents[1].has_origin = 1; /* g2's control pattern starts one tile further east */
    b.ents[1].origin_x = b.ents[1].x + 1;
    b.ents[1].origin_y = b.ents[1].y;
    ck_assert_int_eq(world_diff(&a, &la, &b, &lb).n, 1);
    b.ents[1].has_origin = 0;
    ck_assert_int_eq(world_diff(&a, &la, &b, &lb).n, 0);
    b.ents[0].pattern[0] = '\0'; /* g1 loses its route */
    ck_assert_int_eq(world_diff(&a, &la, &b, &lb).n, 1);
    snprintf(b.ents[0].pattern, sizeof b.ents[0].pattern, "zigzag"); /* another route */
    ck_assert_int_eq(world_diff(&a, &la, &b, &lb).n, 1);
    snprintf(b.ents[0].pattern, sizeof b.ents[0].pattern, "square");
    ck_assert_int_eq(trace_diff(&a, &la, &b, &lb, 300), 0);
    b.ents[0].speed = 4; /* g1 walks faster: the same at first, then ahead */
    ck_assert_int_eq(world_diff(&a, &la, &b, &lb).n, 1);
    ck_assert_int_gt(trace_diff(&a, &la, &b, &lb, 300), 1);
    b.ents[0].speed = a.ents[0].speed;
    b.obstacles[1].r = 0.5;
    ck_assert_int_eq(world_diff(&a, &la, &b, &lb).n, 1);
    pt_map_fini(&a);
    pt_map_fini(&b);
    pt_patlib_fini(&la);
    pt_patlib_fini(&lb);
}
END_TEST

/* ---- what castle_csv.tmx holds, written out by hand ------------------------------------------ */

static const char *const castle_rows[] = {
    "###############",
    "#....,,,,.....#",
    "#..*......~~..#",
    "#..+......==..#",
    "#.:::.....~~..#",
    "#......o..T...#",
    "#.............#",
    "#........E....#",
    "###############",
};

START_TEST(test_castle_by_hand) {
    pt_map m;
    pt_patlib lib;
    pt_patlib_init(&lib);
    LOAD_TMX(DATA "castle_csv.tmx", &m, &lib);
    ck_assert_int_eq(m.w, 15);
    ck_assert_int_eq(m.h, 9);
    ck_assert_int_eq(m.tile_px, 16);
    ck_assert_str_eq(m.name, "TMX test castle");
    ck_assert(m.seed == 42);
    ck_assert_int_eq(m.goal, 1);
    ck_assert_int_eq(m.npattern_files, 1); /* routes.pat became route polylines */
    ck_assert_str_eq(m.pattern_files[0], DATA "moves.pat");
    ck_assert_str_eq(m.path, DATA "castle_csv.tmx");
    /* every cell: default kinds keep their character; pit and torch are new kinds */
    int bad = 0;
    for (int y = 0; y < m.h; y++)
        for (int x = 0; x < m.w; x++) {
            const pt_tile_def *t = pt_map_tile(&m, x, y);
            char c = castle_rows[y][x];
            if (c == 'o') bad += !(strcmp(t->name, "pit") == 0 && t->flags == PT_TILE_OPAQUE && t->sprite == 2);
            else if (c == 'T') bad += !(strcmp(t->name, "torch") == 0 && t->flags == PT_TILE_WALKABLE && t->sprite == -1);
            else bad += t->ch != c;
        }
    ck_assert_int_eq(bad, 0);
    ck_assert(!pt_map_walkable(&m, 7, 5) && pt_map_opaque(&m, 7, 5));
    ck_assert(pt_map_walkable(&m, 3, 2) && pt_map_opaque(&m, 3, 2)); /* bush */
    /* entities, in declaration order */
    ck_assert_int_eq(m.player.x, 1);
    ck_assert_int_eq(m.player.y, 1);
    ck_assert(m.player.speed == 5 && m.player.heading_deg == 90);
    ck_assert_int_eq(m.nents, 5);
    const pt_entity_def *g1 = &m.ents[0], *g2 = &m.ents[1], *g3 = &m.ents[2], *chick = &m.ents[3], *crows = &m.ents[4];
    ck_assert_str_eq(g1->name, "g1");
    ck_assert_int_eq(g1->kind, PT_KIND_GUARD);
    ck_assert(g1->x == 3 && g1->y == 2);
    ck_assert_str_eq(g1->pattern, "square");
    ck_assert(g1->has_origin && g1->origin_x == 3 && g1->origin_y == 2); /* the route's first vertex */
    ck_assert(g1->view_dist == 6 && g1->view_angle_deg == 100 && g1->speed == 2.5 && g1->heading_deg == 90);
    ck_assert_int_eq(g1->chase, PT_CHASE_STEER);
    ck_assert_str_eq(g2->pattern, "loop_ctl");
    ck_assert(!g2->has_origin);
    ck_assert(g2->aware_rate == 1.5 && g2->suspicious_at == 0.25 && g2->view_dist == 0); /* 0 = default */
    ck_assert_str_eq(g3->pattern, "zigzag");
    ck_assert(g3->has_origin && g3->origin_x == 2 && g3->origin_y == 6);
    ck_assert_str_eq(g3->steering, "sneaky");
    ck_assert_int_eq(chick->kind, PT_KIND_PREY);
    ck_assert(chick->x == 6 && chick->y == 6 && chick->view_angle_deg == 270 && chick->speed == 3.5);
    ck_assert_int_eq(crows->kind, PT_KIND_BOID);
    ck_assert(crows->count == 3 && crows->flock_kind == PT_FLOCK_CROW);
    ck_assert_str_eq(crows->group, "crows");
    ck_assert_int_eq(m.nobstacles, 2);
    ck_assert(m.obstacles[0].x == 7.5 && m.obstacles[0].y == 3.5 && m.obstacles[0].r == 0.4);
    ck_assert_int_eq(m.obstacles[0].sprite, PT_OBSTACLE_TREE);
    ck_assert(m.obstacles[1].x == 12.5 && m.obstacles[1].y == 4.5 && m.obstacles[1].r == 0.45);
    ck_assert_int_eq(m.obstacles[1].sprite, PT_OBSTACLE_PILLAR);
    /* lines point at the objects (map2tmx writes one object per few lines, in order) */
    ck_assert_int_gt(g1->line, m.player.line);
    ck_assert_int_gt(g2->line, g1->line);
    ck_assert_int_gt(g1->col, 0);
    /* the routes, now path patterns of the library */
    ck_assert_int_eq(lib.count, 2);
    const pt_pattern *sq = pt_patlib_find(&lib, "square"), *zz = pt_patlib_find(&lib, "zigzag");
    ck_assert(sq && zz);
    ck_assert_int_eq(sq->kind, PT_PAT_PATH);
    ck_assert(sq->closed);
    ck_assert_int_eq(sq->end, PT_END_LOOP);
    ck_assert_int_eq(sq->ncells, 14); /* a 5x4 rectangle's border */
    ck_assert(!zz->closed);
    ck_assert_int_eq(zz->end, PT_END_RESTART);
    ck_assert_str_eq(sq->file, DATA "castle_csv.tmx");
    ck_assert(pt_patlib_find(&lib, "castle_csv.tmx:square") == sq);
    pt_cell o = pt_pattern_origin(sq, g1);
    ck_assert(o.x == 3 && o.y == 2);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

/* ---- features.tmx: tile rules, layers, objects --------------------------------------------- */

START_TEST(test_tiles_and_layers) {
    pt_map m;
    LOAD_TMX(DATA "features.tmx", &m, NULL);
    ck_assert_int_eq(m.w, 6);
    ck_assert_int_eq(m.h, 4);
    /* Expected kind of every cell: the last tile layer with a tile there wins (flip bits
     * cleared): base is all gid 1; deco (in a group, hidden) and top override some cells. */
    static const struct { const char *name; int flags, sprite; } k[] = {
        /* 0 */ {"tile_1", PT_TILE_WALKABLE, 0},                 /* no <tile>: every default */
        /* 1 */ {"lava", 0, 2},                                  /* named by its type */
        /* 2 */ {"stone", PT_TILE_OPAQUE, 1},
        /* 3 */ {"tile_5", PT_TILE_WALKABLE | PT_TILE_GOAL, 8},  /* sprite property */
        /* 4 */ {"marsh", PT_TILE_WALKABLE, 3},                  /* name property beats class */
        /* 5 */ {"statue", PT_TILE_OPAQUE, -1},                  /* image collection */
        /* 6 */ {"tile_20", PT_TILE_WALKABLE, -1},               /* collection, no properties */
        /* 7 */ {"tile_6", PT_TILE_WALKABLE, 5},                 /* an unknown property is ignored */
    };
    static const char *const grid[] = {
        "042000",
        "000306",
        "400070",
        "000005",
    };
    int bad = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 6; x++) {
            const pt_tile_def *t = pt_map_tile(&m, x, y);
            int e = grid[y][x] - '0';
            int ok = strcmp(t->name, k[e].name) == 0 && t->flags == k[e].flags && t->sprite == k[e].sprite &&
                     m.flags[y * 6 + x] == k[e].flags;
            if (!ok && bad++ == 0) ck_assert_msg(ok, "cell %d,%d is %s/%d/%d, expected %s", x, y, t->name, t->flags, t->sprite, k[e].name);
        }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(m.goal, 1);
    /* lava was placed by a lower layer and covered: not in the map, but a kind it met */
    ck_assert_int_eq(m.nlegend, 10 + 8);
    /* the legend keeps the defaults first; new kinds get unused characters */
    ck_assert_int_eq(m.legend[0].ch, '.');
    for (int i = 10; i < m.nlegend; i++) ck_assert_int_lt(pt_map_legend_find(&m, m.legend[i].ch), i + 1);
    /* map properties */
    ck_assert_str_eq(m.name, "Two\nlines");
    ck_assert(m.seed == 18446744073709551615ull);
    ck_assert_int_eq(m.npattern_files, 2);
    ck_assert_str_eq(m.pattern_files[0], DATA "a.pat");
    ck_assert_str_eq(m.pattern_files[1], DATA "sub/b.pat");
    ck_assert_str_eq(m.steering_file, "/abs/demo.steer");
    ck_assert(m.phases.evasion == 20.0 && m.phases.caution == 42.5 && m.phases.caution_fov == 2.0);
    ck_assert(m.phases.caution_aware == 0.0); /* not given: the default */
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_objects_pixels_to_tiles) {
    pt_map m;
    pt_patlib lib;
    pt_patlib_init(&lib);
    LOAD_TMX(DATA "features.tmx", &m, &lib);
    /* The object layer is offset by (16,16) through its group and itself. */
    ck_assert(m.player.x == 0 && m.player.y == 3);           /* point (-8,40) + (16,16) */
    ck_assert_int_eq(m.nents, 3);
    ck_assert_str_eq(m.ents[0].name, "guard_2");             /* no name: class and id */
    ck_assert(m.ents[0].x == 2 && m.ents[0].y == 1);         /* rectangle: its centre */
    ck_assert_str_eq(m.ents[1].name, "tg");                  /* "class" attribute, tile object */
    ck_assert(m.ents[1].x == 4 && m.ents[1].y == 2);         /* tile objects hang from bottom-left */
    ck_assert_str_eq(m.ents[2].name, "walker");
    ck_assert(m.ents[2].x == 1 && m.ents[2].y == 1);
    ck_assert_str_eq(m.ents[2].pattern, "rot");
    ck_assert(m.ents[2].has_origin && m.ents[2].origin_x == 1 && m.ents[2].origin_y == 1);
    ck_assert(m.ents[2].view_dist == 5);                     /* an int property for a number */
    ck_assert_int_eq(m.nobstacles, 2);
    ck_assert(m.obstacles[0].x == 3.5 && m.obstacles[0].y == 2.5 && m.obstacles[0].r == 0.5); /* ellipse */
    ck_assert_int_eq(m.obstacles[0].sprite, PT_OBSTACLE_PILLAR);
    ck_assert(m.obstacles[1].x == 0.25 && m.obstacles[1].y == 0.25 && m.obstacles[1].r == 0.3);
    ck_assert_int_eq(m.obstacles[1].sprite, PT_OBSTACLE_TREE);
    /* routes: an unnamed polygon (closed) and a rotated polyline; a polyline of another
     * class is not a route */
    ck_assert_int_eq(lib.count, 2);
    const pt_pattern *poly = pt_patlib_find(&lib, "route_10"), *rot = pt_patlib_find(&lib, "rot");
    ck_assert(poly && rot);
    ck_assert(poly->closed);
    ck_assert_int_eq(poly->end, PT_END_LOOP);
    pt_entity_def none;
    memset(&none, 0, sizeof none);
    pt_cell o = pt_pattern_origin(poly, &none); /* drawn routes are placed where drawn */
    ck_assert(o.x == 1 && o.y == 1);
    /* polygon (1,1) (3,1) (3,3) back to (1,1): its cells, the closing cell not repeated */
    static const pt_cell want[] = {{1, 1}, {2, 1}, {3, 1}, {3, 2}, {3, 3}, {2, 2}};
    ck_assert_int_eq(poly->ncells, 6);
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(poly->cells[i].x + o.x, want[i].x);
        ck_assert_int_eq(poly->cells[i].y + o.y, want[i].y);
    }
    ck_assert(!rot->closed);
    ck_assert_int_eq(rot->end, PT_END_STOP);                 /* at_end property */
    ck_assert_int_eq(rot->ncells, 3);                        /* (1,1) down to (1,3): rotated 90 */
    ck_assert(rot->cells[2].x == 0 && rot->cells[2].y == 2);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(test_memory_and_null) {
    /* pt_tmx_parse resolves the external tileset against the name's folder; lib and err may
     * be NULL. */
    FILE *f = fopen(DATA "castle_csv.tmx", "rb");
    ck_assert(f != NULL);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    pt_map a, b;
    pt_patlib la, lb;
    pt_patlib_init(&la);
    pt_patlib_init(&lb);
    ck_assert_int_eq(pt_tmx_parse(&a, &la, buf, n, DATA "castle_csv.tmx", NULL), PT_OK);
    LOAD_TMX(DATA "castle_csv.tmx", &b, &lb);
    diff d = world_diff(&a, &la, &b, &lb);
    ck_assert_msg(d.n == 0, "%s", d.first);
    pt_map_fini(&a);
    /* without a library the routes are still linked by name */
    ck_assert_int_eq(pt_tmx_parse(&a, NULL, buf, n, DATA "castle_csv.tmx", NULL), PT_OK);
    ck_assert_str_eq(a.ents[0].pattern, "square");
    pt_map_fini(&a);
    /* elsewhere, the relative .tsx is not found: a located I/O error */
    pt_error e;
    memset(&a, 0xAB, sizeof a);
    ck_assert_int_eq(pt_tmx_parse(&a, NULL, buf, n, "elsewhere/castle.tmx", &e), PT_ERR_IO);
    ck_assert_str_eq(e.file, "elsewhere/castle.tmx");
    ck_assert_int_gt(e.line, 1);
    ck_assert(a.tiles == NULL && a.nents == 0 && a.w == 0); /* zeroed */
    ck_assert_int_eq(pt_tmx_load(&a, NULL, DATA "no-such.tmx", &e), PT_ERR_IO);
    ck_assert_int_eq(e.line, 0);
    ck_assert_int_eq(pt_tmx_parse(&a, NULL, NULL, 0, NULL, &e), PT_ERR_SYNTAX);
    pt_map_fini(&b);
    pt_patlib_fini(&la);
    pt_patlib_fini(&lb);
}
END_TEST

START_TEST(test_library_all_or_nothing) {
    /* A route named like a pattern already in the library: the load fails at the route's
     * name and the library is exactly as it was. */
    pt_patlib lib;
    pt_patlib_init(&lib);
    static const char pat[] = "pattern square\n  kind path\n  points 0,0 1,0\nend\n";
    pt_error e;
    ck_assert_int_eq(pt_patlib_parse(&lib, pat, strlen(pat), "mine.pat", &e), PT_OK);
    ck_assert_int_eq(lib.count, 1);
    const pt_pattern *before = pt_patlib_find(&lib, "square");
    pt_map m;
    ck_assert_int_eq(pt_tmx_load(&m, &lib, DATA "castle_csv.tmx", &e), PT_ERR_DUPLICATE);
    ck_assert_str_eq(e.file, DATA "castle_csv.tmx");
    ck_assert_int_gt(e.line, 1);
    ck_assert_int_gt(e.col, 0);
    ck_assert_msg(strstr(e.source, "name=\"square\"") != NULL, "error not on the route: %s", e.source);
    ck_assert_int_eq(lib.count, 1);
    ck_assert(pt_patlib_find(&lib, "square") == before);
    ck_assert(pt_patlib_find(&lib, "zigzag") == NULL);
    /* a failure after the routes were read (no player) leaves it alone too */
    ck_assert_int_eq(pt_tmx_load(&m, &lib, DATA "bad/no_player.tmx", &e), PT_ERR_NO_PLAYER);
    ck_assert_int_eq(lib.count, 1);
    pt_patlib_fini(&lib);
}
END_TEST

/* 1-based line of the first line of the file containing needle, and the column of needle
 * in it (found by the test, independently of the loader). */
static void find_in_file(const char *path, const char *needle, int *line, int *col) {
    FILE *f = fopen(path, "rb");
    ck_assert(f != NULL);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *at = strstr(buf, needle);
    ck_assert_msg(at != NULL, "%s lacks %s", path, needle);
    *line = 1;
    const char *ls = buf;
    for (const char *c = buf; c < at; c++)
        if (*c == '\n') {
            (*line)++;
            ls = c + 1;
        }
    *col = (int)(at - ls) + 1;
}

/* Stop objects on routes: each becomes the stop of the route point on its tile (a polygon's
 * first point: cell 0), with its wait, look, angles and gait; a stop without any of them looks
 * by default; the route's gait property is the pattern's. The looks point at their objects. */
START_TEST(test_route_stops) {
    pt_map m;
    pt_patlib lib;
    LOAD_WORLD(DATA "stops.tmx", &m, &lib);
    const pt_pattern *p = pt_patlib_find(&lib, "ring");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->ncells, 12);
    ck_assert_ptr_nonnull(p->look_of_cell);
    ck_assert_int_eq(p->gait, PT_GAIT_SNEAK);
    int stops = 0;
    for (int i = 0; i < p->ncells; i++) stops += p->look_of_cell[i] >= 0;
    ck_assert_int_eq(stops, 3);
    const pt_look *a = &p->looks[p->look_of_cell[4]], *b = &p->looks[p->look_of_cell[6]], *c = &p->looks[p->look_of_cell[0]];
    ck_assert_int_eq(a->look, 90);
    ck_assert_int_eq(a->wait, 0);
    ck_assert_int_eq(a->nangles, 2);
    ck_assert(a->angles[0] == -90.0 && a->angles[1] == 90.0);
    ck_assert_int_eq(b->wait, 60);
    ck_assert_int_eq(b->look, 0);
    ck_assert_int_eq(p->gait_of_cell[6], PT_GAIT_RUN);
    ck_assert_int_eq(c->look, PT_LOOK_DEFAULT_TICKS);
    ck_assert_int_eq(c->nangles, 2);
    int line, col;
    find_in_file(DATA "stops.tmx", "<object id=\"4\"", &line, &col);
    ck_assert_int_eq(a->line, line);
    find_in_file(DATA "stops.tmx", "<object id=\"5\"", &line, &col);
    ck_assert_int_eq(b->line, line);
    find_in_file(DATA "stops.tmx", "<object id=\"6\"", &line, &col);
    ck_assert_int_eq(c->line, line);
    ck_assert_int_eq(pt_patlib_lint_map(&lib, &m, NULL, 0), 0);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(test_lint_points_into_tmx) {
    /* The route passes a wall at 3,1: the map loads (the loader does not lint), and the lint
     * error names the .tmx, the line of the polyline, and the column of the vertex whose
     * segment enters the wall (16,0 -> 64,0 covers 3,1). */
    pt_map m;
    pt_patlib lib;
    LOAD_WORLD(DATA "lint.tmx", &m, &lib);
    pt_error errs[8];
    int n = pt_patlib_lint_map(&lib, &m, errs, 8);
    ck_assert_int_ge(n, 1);
    int line, col;
    find_in_file(DATA "lint.tmx", "16,0 64,0", &line, &col);
    ck_assert_int_eq(errs[0].code, PT_ERR_PATTERN_BLOCKED);
    ck_assert_str_eq(errs[0].file, DATA "lint.tmx");
    ck_assert_int_eq(errs[0].line, line);
    ck_assert_int_eq(errs[0].col, col);
    /* the pattern itself points at the route's name, its at_end at the property */
    const pt_pattern *p = pt_patlib_find(&lib, "through");
    ck_assert(p != NULL);
    find_in_file(DATA "lint.tmx", "through\"", &line, &col);
    ck_assert(p->line == line && p->col == col);
    find_in_file(DATA "lint.tmx", "restart\"", &line, &col);
    ck_assert(p->end_line == line && p->end_col == col);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

/* ---- errors: one broken file per kind ------------------------------------------------------- */

/* code, line and column of each, found by hand; col -1: the XML parser's own column */
static const struct bad_case {
    const char *file;
    int code, line, col;
    const char *in; /* the file the error is in */
} bad_cases[] = {
    {"unknown_encoding.tmx", PT_ERR_BAD_ENCODING, 13, 19, "unknown_encoding.tmx"},
    {"zstd.tmx", PT_ERR_BAD_ENCODING, 13, 40, "zstd.tmx"},
    {"csv_compressed.tmx", PT_ERR_BAD_ENCODING, 13, 37, "csv_compressed.tmx"},
    {"base64_garbage.tmx", PT_ERR_BAD_ENCODING, 13, 3, "base64_garbage.tmx"},
    {"zlib_corrupt.tmx", PT_ERR_BAD_ENCODING, 13, 3, "zlib_corrupt.tmx"},
    {"gzip_truncated.tmx", PT_ERR_BAD_ENCODING, 13, 3, "gzip_truncated.tmx"},
    {"base64_length.tmx", PT_ERR_RAGGED_ROW, 13, 3, "base64_length.tmx"},
    {"zlib_long.tmx", PT_ERR_RAGGED_ROW, 13, 3, "zlib_long.tmx"},
    {"csv_short.tmx", PT_ERR_RAGGED_ROW, 15, 4, "csv_short.tmx"},
    {"csv_long.tmx", PT_ERR_RAGGED_ROW, 15, 7, "csv_long.tmx"},
    {"csv_bad_number.tmx", PT_ERR_BAD_NUMBER, 15, 3, "csv_bad_number.tmx"},
    {"gid_no_tileset.tmx", PT_ERR_UNKNOWN_TILE, 15, 3, "gid_no_tileset.tmx"},
    {"xml_tiles_short.tmx", PT_ERR_RAGGED_ROW, 13, 3, "xml_tiles_short.tmx"},
    {"xml_tile_gid.tmx", PT_ERR_UNKNOWN_TILE, 15, 15, "xml_tile_gid.tmx"},
    {"gid_out_of_range.tmx", PT_ERR_UNKNOWN_TILE, 15, 3, "gid_out_of_range.tmx"},
    {"empty_cell.tmx", PT_ERR_UNKNOWN_TILE, 13, 3, "empty_cell.tmx"},
    {"missing_tsx.tmx", PT_ERR_IO, 3, 32, "missing_tsx.tmx"},
    {"broken_tsx.tmx", PT_ERR_SYNTAX, 6, -1, "broken.tsx"},
    {"tsx_bad_prop.tmx", PT_ERR_BAD_VALUE, 6, 36, "badprop.tsx"},
    {"prop_type.tmx", PT_ERR_BAD_VALUE, 8, 35, "prop_type.tmx"},
    {"prop_value.tmx", PT_ERR_BAD_VALUE, 7, 50, "prop_value.tmx"},
    {"sprite_range.tmx", PT_ERR_RANGE, 9, 47, "sprite_range.tmx"},
    {"tile_id_range.tmx", PT_ERR_RANGE, 5, 13, "tile_id_range.tmx"},
    {"no_tilecount.tmx", PT_ERR_MISSING, 3, 2, "no_tilecount.tmx"},
    {"firstgid_order.tmx", PT_ERR_BAD_VALUE, 12, 21, "firstgid_order.tmx"},
    {"tsj.tmx", PT_ERR_BAD_VALUE, 3, 32, "tsj.tmx"},
    {"guard_prop_number.tmx", PT_ERR_BAD_NUMBER, 22, 47, "guard_prop_number.tmx"},
    {"guard_prop_range.tmx", PT_ERR_RANGE, 22, 46, "guard_prop_range.tmx"},
    {"guard_prop_zero.tmx", PT_ERR_RANGE, 22, 46, "guard_prop_zero.tmx"},
    {"guard_prop_type.tmx", PT_ERR_BAD_VALUE, 22, 33, "guard_prop_type.tmx"},
    {"guard_chase.tmx", PT_ERR_BAD_VALUE, 22, 35, "guard_chase.tmx"},
    {"guard_unknown_prop.tmx", PT_ERR_UNKNOWN_KEY, 22, 21, "guard_unknown_prop.tmx"},
    {"guard_flock_prop.tmx", PT_ERR_UNKNOWN_KEY, 22, 21, "guard_flock_prop.tmx"},
    {"guard_prop_twice.tmx", PT_ERR_DUPLICATE, 23, 21, "guard_prop_twice.tmx"},
    {"suspicious.tmx", PT_ERR_RANGE, 22, 56, "suspicious.tmx"},
    {"route_missing.tmx", PT_ERR_MISSING, 25, 49, "route_missing.tmx"},
    {"route_unset.tmx", PT_ERR_MISSING, 25, 49, "route_unset.tmx"},
    {"route_not_polyline.tmx", PT_ERR_BAD_VALUE, 25, 49, "route_not_polyline.tmx"},
    {"route_prop_type.tmx", PT_ERR_BAD_VALUE, 25, 34, "route_prop_type.tmx"},
    {"route_and_pattern.tmx", PT_ERR_DUPLICATE, 25, 21, "route_and_pattern.tmx"},
    {"route_bad_point.tmx", PT_ERR_BAD_NUMBER, 21, 29, "route_bad_point.tmx"},
    {"route_at_end.tmx", PT_ERR_BAD_VALUE, 22, 36, "route_at_end.tmx"},
    {"route_name.tmx", PT_ERR_SYNTAX, 20, 26, "route_name.tmx"},
    {"guard_polyline.tmx", PT_ERR_BAD_VALUE, 20, 3, "guard_polyline.tmx"},
    {"infinite.tmx", PT_ERR_BAD_VALUE, 2, 107, "infinite.tmx"},
    {"chunk.tmx", PT_ERR_BAD_VALUE, 14, 4, "chunk.tmx"},
    {"isometric.tmx", PT_ERR_BAD_VALUE, 2, 33, "isometric.tmx"},
    {"huge.tmx", PT_ERR_LIMIT, 2, 52, "huge.tmx"},
    {"not_square.tmx", PT_ERR_BAD_VALUE, 2, 93, "not_square.tmx"},
    {"tile_size.tmx", PT_ERR_RANGE, 2, 77, "tile_size.tmx"},
    {"layer_size.tmx", PT_ERR_BAD_VALUE, 12, 37, "layer_size.tmx"},
    {"layer_offset.tmx", PT_ERR_BAD_VALUE, 12, 60, "layer_offset.tmx"},
    {"no_layer.tmx", PT_ERR_MISSING, 2, 1, "no_layer.tmx"},
    {"no_player.tmx", PT_ERR_NO_PLAYER, 2, 1, "no_player.tmx"},
    {"two_players.tmx", PT_ERR_DUP_PLAYER, 20, 3, "two_players.tmx"},
    {"guard_on_wall.tmx", PT_ERR_NOT_WALKABLE, 20, 34, "guard_on_wall.tmx"},
    {"guard_outside.tmx", PT_ERR_OUT_OF_MAP, 20, 34, "guard_outside.tmx"},
    {"obstacle_outside.tmx", PT_ERR_OUT_OF_MAP, 20, 37, "obstacle_outside.tmx"},
    {"obstacle_prop.tmx", PT_ERR_BAD_VALUE, 22, 36, "obstacle_prop.tmx"},
    {"dup_names.tmx", PT_ERR_DUPLICATE, 21, 24, "dup_names.tmx"},
    {"dup_object_id.tmx", PT_ERR_DUPLICATE, 20, 15, "dup_object_id.tmx"},
    {"template.tmx", PT_ERR_BAD_VALUE, 20, 28, "template.tmx"},
    {"xml_syntax.tmx", PT_ERR_SYNTAX, 21, -1, "xml_syntax.tmx"},
    {"doctype.tmx", PT_ERR_SYNTAX, 2, 1, "doctype.tmx"},
    {"not_map.tmx", PT_ERR_SYNTAX, 2, 1, "not_map.tmx"},
    {"seed.tmx", PT_ERR_BAD_NUMBER, 4, 32, "seed.tmx"},
    {"evasion_zero.tmx", PT_ERR_RANGE, 4, 48, "evasion_zero.tmx"},
    {"caution_range.tmx", PT_ERR_RANGE, 5, 48, "caution_range.tmx"},
    {"caution_type.tmx", PT_ERR_BAD_VALUE, 4, 19, "caution_type.tmx"},
    {"caution_fov_twice.tmx", PT_ERR_DUPLICATE, 5, 19, "caution_fov_twice.tmx"},
    {"group_offset.tmx", PT_ERR_BAD_VALUE, 13, 2, "group_offset.tmx"},
    {"collection_gap.tmx", PT_ERR_UNKNOWN_TILE, 20, 3, "collection_gap.tmx"},
    {"zlib_bomb.tmx", PT_ERR_RAGGED_ROW, 13, 3, "zlib_bomb.tmx"},
    /* from the pattern parser, placed back on the route object */
    {"route_one_point.tmx", PT_ERR_MISSING, 21, 22, "route_one_point.tmx"},
    {"route_dup_name.tmx", PT_ERR_DUPLICATE, 23, 24, "route_dup_name.tmx"},
    /* stops on routes */
    {"stop_off_route.tmx", PT_ERR_BAD_VALUE, 45, 33, "stop_off_route.tmx"},
    {"stop_angles.tmx", PT_ERR_RANGE, 33, 40, "stop_angles.tmx"},
    {"stop_unknown_prop.tmx", PT_ERR_UNKNOWN_KEY, 39, 21, "stop_unknown_prop.tmx"},
    {"stop_zero.tmx", PT_ERR_RANGE, 32, 47, "stop_zero.tmx"},
};
enum { NBAD = (int)(sizeof bad_cases / sizeof bad_cases[0]) };

START_TEST(test_error_kinds) {
    const struct bad_case *c = &bad_cases[_i];
    char path[256];
    snprintf(path, sizeof path, DATA "bad/%s", c->file);
    pt_map m;
    memset(&m, 0xAB, sizeof m); /* garbage in: a failed load must zero it */
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_error e;
    int rc = pt_tmx_load(&m, &lib, path, &e);
    const char *base = strrchr(e.file, '/');
    base = base ? base + 1 : e.file;
    ck_assert_msg(rc == c->code && e.code == c->code && e.line == c->line && (c->col < 0 || e.col == c->col) &&
                      strcmp(base, c->in) == 0,
                  "%s: expected %s at %s:%d:%d, got %s at %s:%d:%d: %s", c->file, pt_code_name(c->code), c->in, c->line,
                  c->col, pt_code_name(rc), base, e.line, e.col, e.message);
    ck_assert_msg(e.source[0] != '\0', "%s: no source line", c->file);
    ck_assert(m.tiles == NULL && m.ents == NULL && m.w == 0 && m.nlegend == 0);
    ck_assert_int_eq(lib.count, 0);
    pt_patlib_fini(&lib);
}
END_TEST

/* A property of other kinds only says whose it is (the message is the feature here). */
START_TEST(test_property_of_another_kind) {
    pt_map m;
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_error e;
    ck_assert_int_eq(pt_tmx_load(&m, &lib, DATA "bad/guard_flock_prop.tmx", &e), PT_ERR_UNKNOWN_KEY);
    ck_assert_str_eq(e.message, "a guard has no property 'count' (only a flock has it)");
    pt_patlib_fini(&lib);
}
END_TEST

/* ---- limits ------------------------------------------------------------------------------------ */

typedef struct sbuf { char *s; size_t len, cap; } sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        ck_assert(b->s != NULL);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* A w x h map whose cell i has gid gid_of(i); tileset of `kinds` tiles, tile t named k<t>. */
static void make_map(sbuf *b, int w, int h, int kinds, int (*gid_of)(int i, int kinds)) {
    b->len = 0;
    sb_printf(b, "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"%d\" height=\"%d\" tilewidth=\"16\" "
                 "tileheight=\"16\">\n <tileset firstgid=\"1\" name=\"k\" tilewidth=\"16\" tileheight=\"16\" "
                 "tilecount=\"%d\" columns=\"1\">\n  <image source=\"k.png\" width=\"16\" height=\"%d\"/>\n",
              w, h, kinds, 16 * kinds);
    for (int t = 0; t < kinds; t++)
        sb_printf(b, "  <tile id=\"%d\"><properties><property name=\"name\" value=\"k%d\"/></properties></tile>\n", t, t);
    sb_printf(b, " </tileset>\n <layer name=\"l\" width=\"%d\" height=\"%d\">\n  <data encoding=\"csv\">\n", w, h);
    for (int i = 0; i < w * h; i++) sb_printf(b, "%d%s", gid_of(i, kinds), i + 1 < w * h ? "," : "\n");
    sb_printf(b, "</data>\n </layer>\n <objectgroup name=\"o\">\n  <object id=\"1\" type=\"player\" x=\"1\" y=\"1\"><point/></object>\n"
                 " </objectgroup>\n</map>\n");
}

static int gid_each_kind(int i, int kinds) { return 1 + i % kinds; }
static int gid_one(int i, int kinds) {
    (void)i;
    (void)kinds;
    return 1;
}

START_TEST(test_limit_tile_kinds) {
    /* 10 default kinds + 54 = 64: fits; one more does not (at the cell that needs it). */
    sbuf b = {0};
    pt_map m;
    pt_error e;
    make_map(&b, 54, 1, 54, gid_each_kind);
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, b.s, b.len, "k.tmx", &e), PT_OK);
    ck_assert_int_eq(m.nlegend, PT_MAX_TILE_KINDS);
    for (int i = 10; i < m.nlegend; i++) ck_assert_int_eq(pt_map_legend_find(&m, m.legend[i].ch), i); /* unique chars */
    pt_map_fini(&m);
    make_map(&b, 55, 1, 55, gid_each_kind);
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, b.s, b.len, "k.tmx", &e), PT_ERR_LIMIT);
    /* the error points at the 55th tile id of the data */
    int data_line = 4 /* xml, map, tileset, image */ + 55 /* tiles */ + 3 /* </tileset> <layer> <data> */ + 1;
    ck_assert_int_eq(e.line, data_line);
    ck_assert_int_eq(e.col, (int)strlen("1,2,3,4,5,6,7,8,9,") + 3 * 45 /* "10," .. "54," */ + 1);
    free(b.s);
}
END_TEST

START_TEST(test_limit_size) {
    sbuf b = {0};
    pt_map m;
    pt_error e;
    make_map(&b, PT_MAP_MAX_W, 2, 1, gid_one);
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, b.s, b.len, "w.tmx", &e), PT_OK);
    ck_assert_int_eq(m.w, PT_MAP_MAX_W);
    pt_map_fini(&m);
    make_map(&b, PT_MAP_MAX_W + 1, 1, 1, gid_one);
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, b.s, b.len, "w.tmx", &e), PT_ERR_LIMIT);
    ck_assert_int_eq(e.line, 2);
    make_map(&b, 1, PT_MAP_MAX_H + 1, 1, gid_one);
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, b.s, b.len, "h.tmx", &e), PT_ERR_LIMIT);
    /* a tileset claiming more tiles than the limit: refused before any allocation */
    make_map(&b, 2, 2, 1, gid_one);
    char *tc = strstr(b.s, "tilecount=\"1\"");
    ck_assert(tc != NULL);
    static char big[4096];
    snprintf(big, sizeof big, "%.*stilecount=\"%d\"%s", (int)(tc - b.s), b.s, PT_TMX_MAX_TILESET_TILES + 1,
             tc + strlen("tilecount=\"1\""));
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, big, strlen(big), "tc.tmx", &e), PT_ERR_LIMIT);
    ck_assert_int_eq(e.line, 3);
    free(b.s);
}
END_TEST

START_TEST(test_limit_nesting) {
    /* group layers nested deeper than the limit: a located PT_ERR_LIMIT, no recursion blowup */
    sbuf b = {0};
    sb_printf(&b, "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"16\" "
                  "tileheight=\"16\">\n");
    for (int i = 0; i < PT_TMX_MAX_DEPTH + 2; i++) sb_printf(&b, "<group>\n");
    for (int i = 0; i < PT_TMX_MAX_DEPTH + 2; i++) sb_printf(&b, "</group>\n");
    sb_printf(&b, "</map>\n");
    pt_map m;
    pt_error e;
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, b.s, b.len, "deep.tmx", &e), PT_ERR_LIMIT);
    ck_assert_int_eq(e.line, 2 + PT_TMX_MAX_DEPTH + 1);
    free(b.s);
}
END_TEST

START_TEST(test_mutations) {
    /* Every mutant of castle_csv.tmx and features.tmx loads or fails with an error that has a
     * code and a line, never crashes (ASan), never leaks, and leaves the output zeroed. */
    static const char *const srcs[] = {DATA "castle_csv.tmx", DATA "features.tmx"};
    static const char alphabet[] = " \n\"'<>/=,.-0123456789abxyz_&;#!";
    pt_rng rng;
    pt_rng_seed(&rng, 20240612, 3);
    int ok = 0, errors = 0, bad = 0;
    char first[300] = "";
    for (int s = 0; s < 2; s++) {
        FILE *f = fopen(srcs[s], "rb");
        ck_assert(f != NULL);
        static char orig[1 << 16];
        size_t base = fread(orig, 1, sizeof orig, f);
        fclose(f);
        char *buf = malloc(base * 2 + 64);
        for (int iter = 0; iter < 400; iter++) {
            memcpy(buf, orig, base);
            size_t len = base;
            int edits = 1 + (int)pt_rng_below(&rng, 3);
            for (int k = 0; k < edits && len > 0; k++) {
                size_t at = pt_rng_below(&rng, (uint32_t)len);
                uint32_t op = pt_rng_below(&rng, 10);
                char c = op == 9 ? (char)(1 + pt_rng_below(&rng, 255)) : alphabet[pt_rng_below(&rng, sizeof alphabet - 1)];
                if (op < 5) buf[at] = c;
                else if (op < 7 && len < base * 2) {
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = c;
                    len++;
                } else if (op < 9) {
                    size_t n = 1 + pt_rng_below(&rng, 12);
                    if (n > len - at) n = len - at;
                    memmove(buf + at, buf + at + n, len - at - n);
                    len -= n;
                } else if (pt_rng_below(&rng, 4) == 0) len = at;
                else buf[at] = c;
            }
            pt_map m;
            memset(&m, 0xAB, sizeof m);
            pt_patlib lib;
            pt_patlib_init(&lib);
            pt_error e;
            int rc = pt_tmx_parse(&m, &lib, buf, len, srcs[s], &e);
            const char *why = NULL;
            if (rc == PT_OK) {
                ok++;
                if (m.w < 1 || m.h < 1 || !pt_map_walkable(&m, m.player.x, m.player.y)) why = "loaded an invalid map";
                for (int i = 0; !why && i < m.nents; i++)
                    if (!pt_map_walkable(&m, m.ents[i].x, m.ents[i].y)) why = "entity on a blocked tile";
                for (int i = 0; !why && i < m.w * m.h; i++)
                    if (m.tiles[i] >= m.nlegend || m.flags[i] != m.legend[m.tiles[i]].flags) why = "bad cell";
                pt_map_fini(&m);
            } else {
                errors++;
                if (rc != e.code || strcmp(pt_code_name(rc), "unknown") == 0) why = "code";
                else if (e.line < 1 && rc != PT_ERR_NOMEM && rc != PT_ERR_IO) why = "no line";
                else if (m.tiles != NULL || m.nents != 0 || m.w != 0) why = "output not zeroed";
                else if (lib.count != 0) why = "library changed";
            }
            pt_patlib_fini(&lib);
            if (why && bad++ == 0)
                snprintf(first, sizeof first, "%s mutant %d: %s (%s at %d:%d: %.80s)", srcs[s], iter, why,
                         pt_code_name(rc), e.line, e.col, rc ? e.message : "");
        }
        free(buf);
    }
    ck_assert_msg(bad == 0, "%d bad results, first: %s", bad, first);
    ck_assert_int_gt(ok, 20);
    ck_assert_int_gt(errors, 200);
}
END_TEST

/* libxml2 keeps an element's line in 16 bits: an error past line 65535 was reported at 65535
 * or on a neighbour's line (the caret on another value). A 300x334 map with one <tile> per
 * line is 100,000 lines; the bad gid is at `bad_line`, alone or second on its line. */
static void big_map_error_at(int bad_line, int second_on_line, const char *bad_gid, int want_col) {
    enum { W = 300, H = 334 };
    char dir[] = "/tmp/patrol_bigtmxXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/big.tmx", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"%d\" height=\"%d\" "
               "tilewidth=\"16\" tileheight=\"16\">\n <tileset firstgid=\"1\" name=\"k\" tilewidth=\"16\" "
               "tileheight=\"16\" tilecount=\"1\" columns=\"1\">\n  <image source=\"k.png\" width=\"16\" "
               "height=\"16\"/>\n </tileset>\n <layer name=\"l\" width=\"%d\" height=\"%d\">\n  <data>\n",
            W, H, W, H);
    int line = 8; /* of the first tile */
    for (int i = 0; i < W * H; line++) {
        if (line != bad_line) fprintf(f, "   <tile gid=\"1\"/>\n"), i++;
        else if (!second_on_line) fprintf(f, "   <tile gid=\"%s\"/>\n", bad_gid), i++;
        else fprintf(f, "   <tile gid=\"1\"/><tile gid=\"%s\"/>\n", bad_gid), i += 2;
    }
    fprintf(f, "  </data>\n </layer>\n <objectgroup name=\"o\">\n  <object id=\"1\" type=\"player\" x=\"8\" "
               "y=\"8\"><point/></object>\n </objectgroup>\n</map>\n");
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_gt(line, 100000);
    pt_map m;
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_error e;
    int rc = pt_tmx_load(&m, &lib, path, &e);
    ck_assert_msg(rc == PT_ERR_BAD_NUMBER && e.line == bad_line && e.col == want_col,
                  "expected BAD_NUMBER at %d:%d, got %s at %d:%d: %s", bad_line, want_col, pt_code_name(rc), e.line,
                  e.col, e.message);
    ck_assert_str_eq(e.file, path);
    ck_assert_msg(strstr(e.source, bad_gid) != NULL, "source line: '%s'", e.source);
    ck_assert_int_eq(strncmp(e.source + e.col - 1, bad_gid, strlen(bad_gid)), 0);
    pt_patlib_fini(&lib);
    remove(path);
    rmdir(dir);
}

START_TEST(test_lines_past_65535) {
    big_map_error_at(70007, 0, "1x", 15);
    big_map_error_at(99208, 1, "7y", 30);
    big_map_error_at(60000, 0, "2z", 15); /* below the 16-bit limit, as before */
}
END_TEST

/* A one-row map of `n` tiles, tile i of the tileset with the property text props[i] ("" =
 * no <tile> element), loaded; returns the code and fills m (or err). */
static int load_sound_tiles(const char *const *props, int n, pt_map *m, pt_error *err) {
    char dir[] = "/tmp/patrol_soundXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/s.tmx", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"%d\" height=\"1\" tilewidth=\"16\" "
               "tileheight=\"16\">\n<tileset firstgid=\"1\" name=\"k\" tilewidth=\"16\" tileheight=\"16\" "
               "tilecount=\"%d\" columns=\"%d\"><image source=\"k.png\" width=\"%d\" height=\"16\"/>\n",
            n, n, n, 16 * n);
    for (int i = 0; i < n; i++)
        if (props[i][0]) fprintf(f, "<tile id=\"%d\"><properties>%s</properties></tile>\n", i, props[i]);
    fprintf(f, "</tileset>\n<layer name=\"l\" width=\"%d\" height=\"1\"><data encoding=\"csv\">", n);
    for (int i = 0; i < n; i++) fprintf(f, "%s%d", i ? "," : "", i + 1);
    fprintf(f, "</data></layer>\n<objectgroup name=\"o\"><object id=\"1\" type=\"player\" x=\"8\" y=\"8\"><point/>"
               "</object></objectgroup>\n</map>\n");
    ck_assert_int_eq(fclose(f), 0);
    pt_patlib lib;
    pt_patlib_init(&lib);
    int rc = pt_tmx_load(m, &lib, path, err);
    pt_patlib_fini(&lib);
    remove(path);
    rmdir(dir);
    return rc;
}

#define SOUND(type, value) "<property name=\"sound\" type=\"" type "\" value=\"" value "\"/>"
#define WALK "<property name=\"walkable\" type=\"bool\" value=\"true\"/>"

START_TEST(test_tile_sound) {
    static const char *const props[] = {
        WALK,                                                 /* no sound: carries (0) */
        WALK SOUND("float", "3.5"),
        WALK SOUND("int", "2"),
        WALK SOUND("string", "block"),
        WALK SOUND("string", "0.7"),
        "<property name=\"walkable\" type=\"bool\" value=\"false\"/><property name=\"opaque\" type=\"bool\" "
        "value=\"true\"/>",                                    /* a wall by its flags: blocks */
        WALK "<property name=\"name\" value=\"door\"/>",         /* the default door: 2 */
        WALK "<property name=\"name\" value=\"door\"/>" SOUND("int", "5"), /* another kind */
        "",                                                   /* no <tile>: walkable, carries */
    };
    static const int want[] = {0, 35, 20, PT_SOUND_BLOCK, 7, PT_SOUND_BLOCK, 20, 50, 0};
    enum { N = (int)(sizeof want / sizeof want[0]) };
    pt_map m;
    pt_error err;
    int rc = load_sound_tiles(props, N, &m, &err);
    ck_assert_msg(rc == PT_OK, "%s:%d:%d: %s", err.file, err.line, err.col, err.message);
    for (int x = 0; x < N; x++) ck_assert_msg(pt_map_tile(&m, x, 0)->sound == want[x], "tile %d: %d", x, pt_map_tile(&m, x, 0)->sound);
    ck_assert_int_ne(pt_map_tile(&m, 6, 0)->ch, pt_map_tile(&m, 7, 0)->ch); /* another sound, another kind */
    pt_map_fini(&m);
    /* errors at the value (or the type) */
    static const struct { const char *prop; int code, col; } bad[] = {
        {SOUND("string", "blok"), PT_ERR_BAD_VALUE, 70}, /* col 70: the value's first byte */
        {SOUND("float", "101"), PT_ERR_RANGE, 69},
        {SOUND("float", "0.25"), PT_ERR_BAD_NUMBER, 69},
        {SOUND("bool", "true"), PT_ERR_BAD_VALUE, 55},  /* the type */
        {SOUND("string", "1 2"), PT_ERR_BAD_NUMBER, 70},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *one[] = {bad[i].prop};
        memset(&m, 0xAB, sizeof m);
        rc = load_sound_tiles(one, 1, &m, &err);
        ck_assert_msg(rc == bad[i].code && err.line == 4 && err.col == bad[i].col, "%s: %s at %d:%d: %s", bad[i].prop,
                      pt_code_name(rc), err.line, err.col, err.message);
        ck_assert(m.tiles == NULL && m.nlegend == 0);
    }
}
END_TEST

static int readable(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

static Suite *tmx_suite(void) {
    Suite *s = suite_create("tmx");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_is_tmx);
    tcase_add_loop_test(core, test_variants_same_world, 0, (int)(sizeof variants / sizeof variants[0]));
    tcase_add_test(core, test_variants_are_what_they_say);
    tcase_add_test(core, test_same_world_as_map);
    if (readable("maps/demo.tmx")) tcase_add_test(core, test_demo_tmx);
    tcase_add_test(core, test_world_diff_sees_differences);
    tcase_add_test(core, test_castle_by_hand);
    tcase_add_test(core, test_tiles_and_layers);
    tcase_add_test(core, test_tile_sound);
    tcase_add_test(core, test_objects_pixels_to_tiles);
    tcase_add_test(core, test_memory_and_null);
    tcase_add_test(core, test_library_all_or_nothing);
    tcase_add_test(core, test_lint_points_into_tmx);
    tcase_add_test(core, test_route_stops);
    suite_add_tcase(s, core);
    TCase *errs = tcase_create("errors");
    tcase_add_loop_test(errs, test_error_kinds, 0, NBAD);
    tcase_add_test(errs, test_property_of_another_kind);
    tcase_add_test(errs, test_lines_past_65535);
    suite_add_tcase(s, errs);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_limit_tile_kinds);
    tcase_add_test(limits, test_limit_size);
    tcase_add_test(limits, test_limit_nesting);
    tcase_add_test(limits, test_mutations);
    suite_add_tcase(s, limits);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(tmx_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
