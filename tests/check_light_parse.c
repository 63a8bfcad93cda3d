/* SPDX-License-Identifier: Zlib */
/* The text side of light (docs/formats.md "Lights", docs/tiled.md "Lights"): the `ambient`,
 * `relight` and `light` lines of a .map and the guard key `lantern=`, with their defaults and
 * every error located; the same in a Tiled map (lights.tmx, made by map2tmx from lights.map,
 * loads to the same declarations); the script command `light NAME on|off` (its errors
 * located, a script switching lights gives the trace of the same pt_world_set_light calls);
 * the save fingerprint covers the lights and is unchanged for a map without them. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/light.h>
#include <patrol/map.h>
#include <patrol/script.h>
#include <patrol/spawn.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

#include "state/world_state.h"
#include "test_util.h"
#include "world/save_priv.h"

#define DATA "tests/data/tmx/"

/* ---- .map ---------------------------------------------------------------------------- */

/* Two halls; EXTRA goes on line 3 (and may span lines). */
static const char *HALLS = "player at=1,3\n"
                           "guard g at=1,1\n"
                           "%s\n"
                           "grid\n"
                           "############\n"
                           "#..........#\n"
                           "#####.######\n"
                           "#..........#\n"
                           "############\n"
                           "end\n";

static int load(pt_map *m, const char *extra, pt_error *err) {
    char text[2048];
    snprintf(text, sizeof text, HALLS, extra);
    return pt_map_parse(m, text, strlen(text), "lights.map", err);
}

static void must_load(pt_map *m, const char *extra) {
    pt_error err;
    int rc = load(m, extra, &err);
    ck_assert_msg(rc == PT_OK, "'%s': %d:%d %s", extra, err.line, err.col, err.message);
}

START_TEST(map_lines_and_defaults) {
    pt_map m;
    must_load(&m, "ambient 0.25\nrelight off\nlight hall at=3,1 radius=6\n"
                  "light cellar at=9,3 radius=2.5 level=0.6 off\nlight yard at=6,3 on radius=32 level=1");
    ck_assert_int_eq(m.ambient_set, 1);
    ck_assert_double_eq(m.ambient, 0.25);
    ck_assert_int_eq(m.ambient_line, 3);
    ck_assert_int_eq(m.relight, -1);
    ck_assert_int_eq(m.nlights, 3);
    const pt_light_def *l = m.lights;
    ck_assert_str_eq(l[0].name, "hall");
    ck_assert_int_eq(l[0].x, 3);
    ck_assert_int_eq(l[0].y, 1);
    ck_assert_double_eq(l[0].radius, 6);
    ck_assert_double_eq(l[0].level, 1.0); /* the default level */
    ck_assert_int_eq(l[0].on, 1);         /* on by default */
    ck_assert_int_eq(l[0].line, 5);
    ck_assert_int_eq(l[0].col, 15); /* its at= value */
    ck_assert_str_eq(l[1].name, "cellar");
    ck_assert_double_eq(l[1].radius, 2.5);
    ck_assert_double_eq(l[1].level, 0.6);
    ck_assert_int_eq(l[1].on, 0);
    ck_assert_int_eq(l[2].on, 1);
    ck_assert_double_eq(l[2].radius, 32);
    /* the world: every light as declared, findable by name */
    pt_error err;
    pt_world *w = pt_world_create(&m, NULL, NULL, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    ck_assert_int_eq(pt_world_light_count(w), 3);
    ck_assert_int_eq(pt_world_light_find(w, "cellar"), 1);
    pt_light got;
    ck_assert_int_eq(pt_world_light_get(w, 1, &got), PT_OK);
    ck_assert_int_eq(got.on, 0);
    ck_assert_double_eq(w->ambient, 0.25);
    pt_world_destroy(w);
    pt_map_fini(&m);
    /* relight on; ambient at both ends of its range */
    must_load(&m, "relight on\nambient 0");
    ck_assert_int_eq(m.relight, 1);
    ck_assert_double_eq(m.ambient, 0);
    ck_assert_int_eq(m.ambient_set, 1);
    pt_map_fini(&m);
    must_load(&m, "ambient 1\nlight \"q\" at=1,1 radius=0.5 level=0.001");
    ck_assert_double_eq(m.ambient, 1);
    ck_assert_str_eq(m.lights[0].name, "q");
    pt_map_fini(&m);
    /* none of these lines: nothing set, as before lights */
    must_load(&m, "");
    ck_assert_int_eq(m.ambient_set, 0);
    ck_assert_int_eq(m.ambient_line, 0);
    ck_assert_int_eq(m.relight, 0);
    ck_assert_int_eq(m.nlights, 0);
    ck_assert_ptr_null(m.lights);
    pt_map_fini(&m);
}
END_TEST

START_TEST(map_errors_are_located) {
    static const struct {
        const char *extra;
        int code, line, col;
    } cases[] = {
        /* ambient */
        {"ambient 1.5", PT_ERR_RANGE, 3, 9},
        {"ambient -0.1", PT_ERR_RANGE, 3, 9},
        {"ambient dark", PT_ERR_BAD_NUMBER, 3, 9},
        {"ambient", PT_ERR_SYNTAX, 3, 8},
        {"ambient 0.5 0.6", PT_ERR_SYNTAX, 3, 13},
        {"ambient 0.5\nambient 0.5", PT_ERR_DUPLICATE, 4, 1},
        /* relight */
        {"relight maybe", PT_ERR_BAD_VALUE, 3, 9},
        {"relight", PT_ERR_SYNTAX, 3, 8},
        {"relight on off", PT_ERR_SYNTAX, 3, 12},
        {"relight on\nrelight off", PT_ERR_DUPLICATE, 4, 1},
        /* light: the line */
        {"light", PT_ERR_SYNTAX, 3, 6},
        {"light at=1,1 radius=2", PT_ERR_SYNTAX, 3, 7},
        {"light a!b at=1,1 radius=2", PT_ERR_SYNTAX, 3, 8},
        {"light t radius=2", PT_ERR_MISSING, 3, 1},
        {"light t at=1,1", PT_ERR_MISSING, 3, 1},
        {"light t at=1,1 radius=2 colour=red", PT_ERR_UNKNOWN_KEY, 3, 25},
        {"light t at=1,1 radus=2", PT_ERR_UNKNOWN_KEY, 3, 16},
        {"light t at=1,1 radius=2 radius=3", PT_ERR_DUPLICATE, 3, 25},
        {"light t at=1,1 radius=2 onn", PT_ERR_BAD_VALUE, 3, 25},
        {"light t at=1,1 radius=2 on off", PT_ERR_DUPLICATE, 3, 28},
        {"light t at=1,1 radius=2 off on", PT_ERR_DUPLICATE, 3, 29},
        {"light t at=1,1 radius=2 off off", PT_ERR_DUPLICATE, 3, 29},
        /* values */
        {"light t at=1;1 radius=2", PT_ERR_SYNTAX, 3, 12},
        {"light t at=1,1 radius=0", PT_ERR_RANGE, 3, 23},
        {"light t at=1,1 radius=32.5", PT_ERR_RANGE, 3, 23},
        {"light t at=1,1 radius=-1", PT_ERR_RANGE, 3, 23},
        {"light t at=1,1 radius=far", PT_ERR_BAD_NUMBER, 3, 23},
        {"light t at=1,1 radius=2 level=0", PT_ERR_RANGE, 3, 31},
        {"light t at=1,1 radius=2 level=1.01", PT_ERR_RANGE, 3, 31},
        /* its cell, once the grid is read (a light line may come before it) */
        {"light t at=12,1 radius=2", PT_ERR_OUT_OF_MAP, 3, 12},
        {"light t at=-1,1 radius=2", PT_ERR_OUT_OF_MAP, 3, 12},
        {"light t at=0,1 radius=2", PT_ERR_BAD_VALUE, 3, 12},
        {"light t at=5,0 radius=2", PT_ERR_BAD_VALUE, 3, 12},
        /* names: unique among lights (at the second one's name) */
        {"light t at=1,1 radius=2\nlight u at=2,1 radius=2\nlight  t at=3,1 radius=2", PT_ERR_DUPLICATE, 5, 8},
        {"light t at=1,1 radius=2\nlight t at=0,0 radius=2", PT_ERR_DUPLICATE, 4, 7},
        {"light g at=1,1 radius=2", PT_OK, 0, 0}, /* a guard's name is no light's */
        /* lantern=: guards only, 0 < R <= 32 */
        {"guard h at=2,1 lantern=0", PT_ERR_RANGE, 3, 24},
        {"guard h at=2,1 lantern=33", PT_ERR_RANGE, 3, 24},
        {"guard h at=2,1 lantern=x", PT_ERR_BAD_NUMBER, 3, 24},
        {"prey h at=2,1 lantern=2", PT_ERR_UNKNOWN_KEY, 3, 15},
        {"flock h at=2,1 lantern=2", PT_ERR_UNKNOWN_KEY, 3, 16},
        {"guard h at=2,1 lantern=2 lantern=3", PT_ERR_DUPLICATE, 3, 26},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pt_map m;
        pt_error err;
        pt_error_clear(&err);
        int rc = load(&m, cases[i].extra, &err);
        ck_assert_msg(rc == cases[i].code, "'%s': code %d, want %d (%s)", cases[i].extra, rc, cases[i].code, err.message);
        if (rc < 0) {
            ck_assert_msg(err.line == cases[i].line && err.col == cases[i].col, "'%s': at %d:%d, want %d:%d (%s)",
                          cases[i].extra, err.line, err.col, cases[i].line, cases[i].col, err.message);
            ck_assert_str_eq(err.file, "lights.map");
        }
        pt_map_fini(&m);
    }
    /* the player takes no lantern either (its line is line 1) */
    const char *text = "player at=1,1 lantern=2\ngrid\n###\n#.#\n###\nend\n";
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&m, text, strlen(text), "p.map", &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_int_eq(err.line, 1);
    ck_assert_int_eq(err.col, 15);
}
END_TEST

START_TEST(map_suggestions) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(load(&m, "light t at=1,1 radus=2", &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_msg(strstr(err.message, "'radius'") != NULL, "%s", err.message);
    ck_assert_int_eq(load(&m, "light t at=1,1 radius=2 colour=red", &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_msg(strstr(err.message, "at, radius, level") != NULL, "%s", err.message);
    ck_assert_int_eq(load(&m, "light t at=1,1 radius=2 offf", &err), PT_ERR_BAD_VALUE);
    ck_assert_msg(strstr(err.message, "'off'") != NULL, "%s", err.message);
    ck_assert_int_eq(load(&m, "light t at=1,1 radius=2\nlight t at=2,1 radius=2", &err), PT_ERR_DUPLICATE);
    ck_assert_msg(strstr(err.message, "line 3") != NULL, "%s", err.message);
    ck_assert_int_eq(load(&m, "ligth t at=1,1 radius=2", &err), PT_ERR_UNKNOWN_DIRECTIVE);
    ck_assert_msg(strstr(err.message, "'light'") != NULL, "%s", err.message);
}
END_TEST

/* lantern= on guard lines: the map's and a spawn line's (a script's spawn too). */
START_TEST(lantern_key) {
    pt_map m;
    must_load(&m, "guard h at=2,1 lantern=3.5\nguard k at=4,1 lantern=32");
    ck_assert_double_eq(m.ents[0].lantern, 0); /* g: none, the default */
    ck_assert_double_eq(m.ents[1].lantern, 3.5);
    ck_assert_double_eq(m.ents[2].lantern, 32);
    pt_error err;
    pt_world *w = pt_world_create(&m, NULL, NULL, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    int id = pt_world_spawn_line(w, "guard s at=6,1 lantern=2.5", NULL, NULL, &err);
    ck_assert_msg(id > 0, "%s", err.message);
    ck_assert_double_eq(w->defs[id].lantern, 2.5);
    ck_assert_int_lt(pt_world_spawn_line(w, "guard s2 at=6,1 lantern=40", NULL, NULL, &err), 0);
    ck_assert_int_eq(err.code, PT_ERR_RANGE);
    ck_assert_int_eq(err.line, 1);
    ck_assert_int_eq(err.col, 25);
    ck_assert_int_lt(pt_world_spawn_line(w, "prey p at=6,3 lantern=2", NULL, NULL, &err), 0);
    ck_assert_int_eq(err.code, PT_ERR_UNKNOWN_KEY);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* 65,536 lights load (their names checked in one pass); one more is PT_ERR_LIMIT at its at=
 * value; the last of many names used twice is found at its name. */
START_TEST(map_limits) {
    enum { MAX = 65536 };
    size_t cap = (size_t)(MAX + 2) * 40 + 256;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    size_t n = (size_t)snprintf(text, cap, "player at=1,1\ngrid\n###\n#.#\n###\nend\n");
    for (int i = 0; i < MAX; i++) n += (size_t)snprintf(text + n, cap - n, "light l%d at=1,1 radius=1\n", i);
    pt_map m;
    pt_error err;
    ck_assert_msg(pt_map_parse(&m, text, n, "many.map", &err) == PT_OK, "%s", err.message);
    ck_assert_int_eq(m.nlights, MAX);
    pt_map_fini(&m);
    size_t more = n + (size_t)snprintf(text + n, cap - n, "light extra at=1,1 radius=1\n");
    ck_assert_int_eq(pt_map_parse(&m, text, more, "many.map", &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 6 + MAX + 1);
    ck_assert_int_eq(err.col, 16);
    n += (size_t)snprintf(text + n, cap - n, "light   l65000 at=1,1 radius=1\n");
    ck_assert_int_eq(pt_map_parse(&m, text, n, "many.map", &err), PT_ERR_LIMIT); /* the limit comes first */
    /* a name twice among many: at the second one's name */
    n = (size_t)snprintf(text, cap, "player at=1,1\ngrid\n###\n#.#\n###\nend\n");
    for (int i = 0; i < 1000; i++) n += (size_t)snprintf(text + n, cap - n, "light l%d at=1,1 radius=1\n", i);
    n += (size_t)snprintf(text + n, cap - n, "light   l999 at=1,1 radius=1\n");
    ck_assert_int_eq(pt_map_parse(&m, text, n, "many.map", &err), PT_ERR_DUPLICATE);
    ck_assert_int_eq(err.line, 6 + 1000 + 1);
    ck_assert_int_eq(err.col, 9);
    free(text);
}
END_TEST

/* ---- Tiled ----------------------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    ck_assert_int_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

START_TEST(tmx_equals_map) {
    pt_map a, b;
    pt_patlib la, lb;
    pt_error err;
    pt_patlib_init(&la);
    pt_patlib_init(&lb);
    ck_assert_msg(pt_map_load(&a, DATA "lights.map", &err) == PT_OK, "%s", err.message);
    ck_assert_msg(pt_tmx_load(&b, &lb, DATA "lights.tmx", &err) == PT_OK, "%d:%d %s", err.line, err.col, err.message);
    ck_assert_int_eq(a.ambient_set, 1);
    ck_assert_int_eq(b.ambient_set, 1);
    ck_assert_double_eq(a.ambient, b.ambient);
    ck_assert_int_eq(a.relight, -1);
    ck_assert_int_eq(b.relight, -1);
    ck_assert_int_eq(a.nlights, 3);
    ck_assert_int_eq(b.nlights, 3);
    for (int i = 0; i < a.nlights; i++) {
        ck_assert_str_eq(a.lights[i].name, b.lights[i].name);
        ck_assert_int_eq(a.lights[i].x, b.lights[i].x);
        ck_assert_int_eq(a.lights[i].y, b.lights[i].y);
        ck_assert_double_eq(a.lights[i].radius, b.lights[i].radius);
        ck_assert_double_eq(a.lights[i].level, b.lights[i].level);
        ck_assert_int_eq(a.lights[i].on, b.lights[i].on);
        ck_assert_int_gt(b.lights[i].line, 0);
        ck_assert_int_gt(b.lights[i].col, 0);
    }
    ck_assert_int_eq(a.nents, b.nents);
    for (int i = 0; i < a.nents; i++) ck_assert_double_eq(a.ents[i].lantern, b.ents[i].lantern);
    ck_assert_double_eq(b.ents[0].lantern, 3.5);
    /* one fingerprint: the same level for a save */
    ck_assert_uint_eq(pt__save_map_fp(&a), pt__save_map_fp(&b));
    pt_map_fini(&a);
    pt_map_fini(&b);
    pt_patlib_fini(&la);
    pt_patlib_fini(&lb);
}
END_TEST

/* lights.tmx with `from` replaced by `to`: its load error's code, and its place is the
 * first byte of `at` (a text in the changed file). */
static void tmx_bad(const char *from, const char *to, int code, const char *at) {
    size_t n;
    char *src = slurp(DATA "lights.tmx", &n);
    const char *hit = strstr(src, from);
    ck_assert_msg(hit != NULL, "no '%s' in lights.tmx", from);
    size_t cap = n + strlen(to) + 1;
    char *text = malloc(cap);
    size_t head = (size_t)(hit - src);
    snprintf(text, cap, "%.*s%s%s", (int)head, src, to, hit + strlen(from));
    pt_map m;
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_error err;
    pt_error_clear(&err);
    int rc = pt_tmx_parse(&m, &lib, text, strlen(text), DATA "lights.tmx", &err);
    ck_assert_msg(rc == code, "'%s': code %d, want %d (%s)", to, rc, code, err.message);
    const char *want = strstr(text + head, at);
    if (!want) want = strstr(text, at); /* a place before the change (the object's start) */
    ck_assert_msg(want != NULL, "no '%s' after the change", at);
    int line = 1, col = 1;
    for (const char *p = text; p < want; p++) {
        if (*p == '\n') line++, col = 1;
        else col++;
    }
    ck_assert_msg(err.line == line && err.col == col, "'%s': at %d:%d, want %d:%d (%s)", to, err.line, err.col, line, col,
                  err.message);
    pt_patlib_fini(&lib);
    free(text);
    free(src);
}

START_TEST(tmx_errors_are_located) {
    const char *radius = "<property name=\"radius\" type=\"float\" value=\"6\"/>";
    tmx_bad(radius, "<property name=\"radius\" type=\"float\" value=\"33\"/>", PT_ERR_RANGE, "33\"");
    tmx_bad(radius, "<property name=\"radius\" type=\"float\" value=\"0\"/>", PT_ERR_RANGE, "0\"");
    tmx_bad(radius, "<property name=\"radius\" type=\"string\" value=\"6\"/>", PT_ERR_BAD_VALUE, "string");
    tmx_bad(radius, "<property name=\"radus\" type=\"float\" value=\"6\"/>", PT_ERR_UNKNOWN_KEY, "radus");
    tmx_bad(radius, "<property name=\"level\" type=\"float\" value=\"1\"/>", PT_ERR_MISSING, "<object id=\"6\"");
    tmx_bad(radius, "<property name=\"radius\" type=\"float\" value=\"6\"/><property name=\"radius\" type=\"float\" value=\"6\"/>",
            PT_ERR_DUPLICATE, "radius\" type=\"float\" value=\"6\"/>\n");
    tmx_bad("<property name=\"level\" type=\"float\" value=\"0.6\"/>",
            "<property name=\"level\" type=\"float\" value=\"1.5\"/>", PT_ERR_RANGE, "1.5");
    tmx_bad("<property name=\"on\" type=\"bool\" value=\"false\"/>", "<property name=\"on\" type=\"bool\" value=\"dim\"/>",
            PT_ERR_BAD_VALUE, "dim");
    /* the cell: a wall, outside the map */
    tmx_bad("name=\"hall\" type=\"light\" x=\"56\"", "name=\"hall\" type=\"light\" x=\"8\"", PT_ERR_BAD_VALUE, "8\"");
    tmx_bad("name=\"hall\" type=\"light\" x=\"56\"", "name=\"hall\" type=\"light\" x=\"900\"", PT_ERR_OUT_OF_MAP, "900");
    /* names: unique among lights, at the second name; a light is a spot */
    tmx_bad("name=\"yard\"", "name=\"hall\"", PT_ERR_DUPLICATE, "hall\" type=\"light\" x=\"104\"");
    tmx_bad("name=\"yard\"", "name=\"ya rd\"", PT_ERR_SYNTAX, " rd");
    /* map properties */
    tmx_bad("<property name=\"ambient\" type=\"float\" value=\"0.25\"/>",
            "<property name=\"ambient\" type=\"float\" value=\"1.25\"/>", PT_ERR_RANGE, "1.25");
    tmx_bad("<property name=\"ambient\" type=\"float\" value=\"0.25\"/>",
            "<property name=\"ambient\" type=\"float\" value=\"0.25\"/><property name=\"ambient\" type=\"float\" value=\"0.5\"/>",
            PT_ERR_DUPLICATE, "ambient\" type=\"float\" value=\"0.5");
    tmx_bad("<property name=\"relight\" type=\"bool\" value=\"false\"/>",
            "<property name=\"relight\" type=\"string\" value=\"false\"/>", PT_ERR_BAD_VALUE, "string");
    tmx_bad("<property name=\"relight\" type=\"bool\" value=\"false\"/>",
            "<property name=\"relight\" type=\"bool\" value=\"false\"/><property name=\"relight\" type=\"bool\" value=\"true\"/>",
            PT_ERR_DUPLICATE, "relight\" type=\"bool\" value=\"true");
    /* lantern: guards only, 0 < R <= 32 */
    tmx_bad("<property name=\"lantern\" type=\"float\" value=\"3.5\"/>",
            "<property name=\"lantern\" type=\"float\" value=\"40\"/>", PT_ERR_RANGE, "40");
    tmx_bad("<object id=\"3\" type=\"player\" x=\"24\" y=\"88\">\n   <point/>",
            "<object id=\"3\" type=\"player\" x=\"24\" y=\"88\">\n   <properties><property name=\"lantern\" type=\"float\" "
            "value=\"2\"/></properties><point/>",
            PT_ERR_UNKNOWN_KEY, "lantern\" type=\"float\" value=\"2\"");
}
END_TEST

/* A light object without a name is light_<id>; other classes' objects are no lights. */
START_TEST(tmx_defaults) {
    size_t n;
    char *src = slurp(DATA "lights.tmx", &n);
    const char *from = "name=\"hall\" type=\"light\"";
    char *hit = strstr(src, from);
    ck_assert_ptr_nonnull(hit);
    char *text = malloc(n + 1);
    snprintf(text, n + 1, "%.*s%s%s", (int)(hit - src), src, "type=\"Light\"", hit + strlen(from));
    pt_map m;
    pt_error err;
    ck_assert_msg(pt_tmx_parse(&m, NULL, text, strlen(text), DATA "lights.tmx", &err) == PT_OK, "%s", err.message);
    ck_assert_str_eq(m.lights[0].name, "light_6");
    ck_assert_double_eq(m.lights[0].level, 1.0);
    ck_assert_int_eq(m.lights[0].on, 1);
    pt_map_fini(&m);
    free(text);
    free(src);
}
END_TEST

/* ---- scripts ---------------------------------------------------------------------------- */

static void lights_map(pt_map *m, pt_patlib *lib) {
    pt_error err;
    ck_assert_msg(pt_map_load(m, DATA "lights.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(lib);
    ck_assert_msg(pt_patlib_load(lib, DATA "doors.pat", &err) == PT_OK, "%s", err.message);
}

static int parse(pt_script *s, const char *text, pt_error *err) {
    return pt_script_parse(s, text, strlen(text), "l.script", err);
}

START_TEST(script_errors_are_located) {
    static const struct {
        const char *text;
        int code, line, col;
    } cases[] = {
        {"at 5 light hall dim\n", PT_ERR_BAD_VALUE, 1, 17},
        {"at 5 light hall\n", PT_ERR_MISSING, 1, 17},
        {"at 5 light\n", PT_ERR_MISSING, 1, 12},
        {"at 5 light hall on now\n", PT_ERR_SYNTAX, 1, 20},
        {"at 5 lihgt hall on\n", PT_ERR_UNKNOWN_DIRECTIVE, 1, 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pt_script s;
        pt_error err;
        int rc = parse(&s, cases[i].text, &err);
        ck_assert_msg(rc == cases[i].code && err.line == cases[i].line && err.col == cases[i].col,
                      "'%s': %d at %d:%d (%s), want %d at %d:%d", cases[i].text, rc, err.line, err.col, err.message,
                      cases[i].code, cases[i].line, cases[i].col);
    }
    pt_script s;
    pt_error err;
    ck_assert_int_eq(parse(&s, "at 5 light hall on\nat 6 light cellar off\n", &err), PT_OK);
    ck_assert_int_eq(s.count, 2);
    ck_assert_int_eq(s.cmds[0].verb, PT_SCRIPT_LIGHT);
    ck_assert_str_eq(s.cmds[0].text, "hall");
    ck_assert_int_eq(s.cmds[0].choice, 1);
    ck_assert_int_eq(s.cmds[1].choice, 0);
    ck_assert_str_eq(pt_script_verb_name(PT_SCRIPT_LIGHT), "light");
    pt_script_fini(&s);
    /* bind: the name must be a light of the map, at the name, with a suggestion */
    pt_map m;
    pt_patlib lib;
    lights_map(&m, &lib);
    ck_assert_int_eq(parse(&s, "at 1 light hall off\n# next\nat 2   light cellr on\n", &err), PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_ERR_MISSING);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 14);
    ck_assert_str_eq(err.file, "l.script");
    ck_assert_msg(strstr(err.message, "'cellar'") != NULL, "%s", err.message);
    pt_script_fini(&s);
    ck_assert_int_eq(parse(&s, "at 0 light g1 off\n", &err), PT_OK); /* a guard's name is no light's */
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_ERR_MISSING);
    /* apply without bind: the same name error, located, at its tick */
    pt_world *w = pt_world_create(&m, &lib, NULL, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    int cursor = 0;
    ck_assert_int_eq(pt_script_apply(&s, &cursor, w, &err), PT_ERR_MISSING);
    ck_assert_int_eq(err.line, 1);
    ck_assert_int_eq(err.col, 12);
    ck_assert_int_eq(cursor, 0);
    pt_world_destroy(w);
    pt_script_fini(&s);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* The lights' states and the light events, tick by tick, as text. */
static char *light_run(const pt_map *m, const pt_patlib *lib, uint64_t seed, const pt_script *s, const uint64_t *at,
                       const int *which, const int *on, int nhand) {
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    pt_world_desc d = {0};
    d.seed = seed;
    pt_error err;
    pt_world *w = pt_world_create(m, lib, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    int cursor = 0;
    for (uint64_t t = 0; t < 400; t++) {
        if (s) ck_assert_int_ge(pt_script_apply(s, &cursor, w, &err), 0);
        for (int k = 0; k < nhand; k++)
            if (at[k] == t) ck_assert_int_eq(pt_world_set_light(w, which[k], on[k], &err), PT_OK);
        int n = 0;
        const pt_event *ev = pt_world_events(w, &n);
        for (int i = 0; i < n; i++)
            if (ev[i].kind == PT_EVENT_LIGHT) fprintf(out, "%llu ev %u %u %d,%d\n", (unsigned long long)t, ev[i].a, ev[i].b, ev[i].x, ev[i].y);
        for (int i = 0; i < pt_world_light_count(w); i++) {
            pt_light l;
            ck_assert_int_eq(pt_world_light_get(w, i, &l), PT_OK);
            fputc(l.on ? '1' : '0', out);
        }
        fputc('\n', out);
        pt_world_step(w);
    }
    pt_world_destroy(w);
    fclose(out);
    return buf;
}

START_TEST(script_equals_calls_by_hand) {
    pt_map m;
    pt_patlib lib;
    lights_map(&m, &lib);
    pt_script s;
    pt_error err;
    ck_assert_int_eq(parse(&s, "at 10 light hall off\nat 10 light cellar on\nat 2s light hall on\n"
                               "at 2s light hall on\nat 300 light yard off\n",
                           &err),
                     PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_OK);
    const uint64_t at[] = {10, 10, 120, 120, 300};
    const int which[] = {0, 1, 0, 0, 2}, on[] = {0, 1, 1, 1, 0};
    for (uint64_t seed = 1; seed <= 3; seed++) {
        char *a = light_run(&m, &lib, seed, &s, NULL, NULL, NULL, 0);
        char *b = light_run(&m, &lib, seed, NULL, at, which, on, 5);
        ck_assert_str_eq(a, b);
        ck_assert_msg(strstr(a, "ev 4294967295 0") != NULL, "no light event in the run");
        free(a);
        free(b);
    }
    pt_script_fini(&s);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* ---- the save fingerprint --------------------------------------------------------------- */

START_TEST(fingerprint_covers_lights) {
    static const char *const variants[] = {
        "",                                                   /* no light lines */
        "ambient 0.5",                                        /* ambient */
        "ambient 0.6",                                        /* another level */
        "ambient 0.5\nrelight off",                           /* relight */
        "ambient 0.5\nlight t at=1,1 radius=2",               /* a light */
        "ambient 0.5\nlight u at=1,1 radius=2",               /* its name */
        "ambient 0.5\nlight t at=2,1 radius=2",               /* its cell */
        "ambient 0.5\nlight t at=1,1 radius=2.5",             /* its radius */
        "ambient 0.5\nlight t at=1,1 radius=2 level=0.5",     /* its level */
        "ambient 0.5\nlight t at=1,1 radius=2 off",           /* its state */
        "ambient 0.5\nguard h at=3,1 lantern=2",              /* a lantern */
        "ambient 0.5\nguard h at=3,1 lantern=3",              /* its radius */
    };
    enum { N = sizeof variants / sizeof variants[0] };
    uint32_t fp[N];
    for (int i = 0; i < N; i++) {
        pt_map m;
        must_load(&m, variants[i]);
        fp[i] = pt__save_map_fp(&m);
        pt_map_fini(&m);
        for (int j = 0; j < i; j++) ck_assert_msg(fp[i] != fp[j], "'%s' and '%s' have one fingerprint", variants[i], variants[j]);
    }
    /* a map without these lines keeps the fingerprint it had before lights (the figure the
     * code before them gave for HALLS) */
    ck_assert_uint_eq(fp[0], 0xc34ca3cdu);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("light_parse");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, map_lines_and_defaults);
    tcase_add_test(tc, map_errors_are_located);
    tcase_add_test(tc, map_suggestions);
    tcase_add_test(tc, lantern_key);
    tcase_add_test(tc, map_limits);
    tcase_add_test(tc, tmx_equals_map);
    tcase_add_test(tc, tmx_errors_are_located);
    tcase_add_test(tc, tmx_defaults);
    tcase_add_test(tc, script_errors_are_located);
    tcase_add_test(tc, script_equals_calls_by_hand);
    tcase_add_test(tc, fingerprint_covers_lights);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
