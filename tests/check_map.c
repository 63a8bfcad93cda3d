/* SPDX-License-Identifier: Zlib */
/* Map loader (map_parse.c) and map utilities (map.c): every error kind with its code, line
 * and column; a full round trip; the demo map's promises; limits; robustness on mutated input. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/rng.h>

/* A 5x4 grid: walls around, floor inside, water at 2,2. Entity lines go before or after it. */
#define G "grid\n#####\n#...#\n#.~.#\n#####\nend\n"
#define P "player at=1,1\n"

static int all_zero(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

/* Parses text and requires exactly code at line:col, with the output zeroed. */
static void expect_err_at(const char *text, size_t len, int code, int line, int col, int src_line) {
    pt_map m;
    memset(&m, 0xAB, sizeof m); /* garbage in: a failed load must zero it */
    pt_error e;
    int rc = pt_map_parse(&m, text, len, "t.map", &e);
    ck_assert_msg(rc == code && e.code == code && e.line == line && e.col == col,
                  "test line %d: expected %s at %d:%d, got %s (rc %s) at %d:%d: %s", src_line, pt_code_name(code), line,
                  col, pt_code_name(e.code), pt_code_name(rc), e.line, e.col, e.message);
    ck_assert_msg(all_zero(&m, sizeof m), "test line %d: output not zeroed after a failed load", src_line);
    ck_assert_str_eq(e.file, "t.map");
    if (line > 0) ck_assert_msg(e.source[0] || text[0] == '\0' || code == PT_ERR_NO_PLAYER || code == PT_ERR_MISSING ||
                                    code == PT_ERR_RAGGED_ROW,
                                "test line %d: no source line", src_line);
}
#define EXPECT_ERR(text, code, line, col) expect_err_at((text), strlen(text), (code), (line), (col), __LINE__)

static void expect_ok_at(const char *text, pt_map *m, int src_line) {
    pt_error e;
    int rc = pt_map_parse(m, text, strlen(text), "t.map", &e);
    ck_assert_msg(rc == PT_OK, "test line %d: expected ok, got %s at %d:%d: %s", src_line, pt_code_name(e.code), e.line,
                  e.col, e.message);
}
#define EXPECT_OK(text, m) expect_ok_at((text), (m), __LINE__)

/* 1-based number of the first line of text starting with prefix (computed by the test). */
static int line_of(const char *text, const char *prefix) {
    int line = 1;
    size_t n = strlen(prefix);
    for (const char *s = text; *s; line++) {
        if (strncmp(s, prefix, n) == 0) return line;
        const char *nl = strchr(s, '\n');
        if (!nl) break;
        s = nl + 1;
    }
    return -1;
}

/* ---- grid errors ------------------------------------------------------------------------ */

START_TEST(test_grid_errors) {
    EXPECT_ERR(P "grid\n#####\n#..X#\n#.~.#\n#####\nend\n", PT_ERR_UNKNOWN_TILE, 4, 4);
    EXPECT_ERR(P "grid\n#####\n#. .#\n#####\nend\n", PT_ERR_UNKNOWN_TILE, 4, 3);     /* space is not a tile */
    EXPECT_ERR(P "grid\n#####\n#...#\n#.\t.#\n#####\nend\n", PT_ERR_UNKNOWN_TILE, 5, 3);
    EXPECT_ERR(P "grid\n#####\n#....#\n#####\nend\n", PT_ERR_RAGGED_ROW, 4, 6);      /* longer */
    EXPECT_ERR(P "grid\n#####\n#..#\n#####\nend\n", PT_ERR_RAGGED_ROW, 4, 5);        /* shorter */
    EXPECT_ERR(P "grid\n#####\n\n#####\nend\n", PT_ERR_RAGGED_ROW, 4, 1);            /* blank row */
    EXPECT_ERR(P "grid\n\n#####\nend\n", PT_ERR_RAGGED_ROW, 3, 1);                   /* blank first row */
    EXPECT_ERR(P "# no grid here\n", PT_ERR_MISSING, 2, 1);
    EXPECT_ERR(P "grid\n###\n#.#\n", PT_ERR_UNTERMINATED, 2, 1);
    EXPECT_ERR(P "  grid\n####\n#..#\nend.\n", PT_ERR_UNTERMINATED, 2, 3); /* `end.` is a row */
    EXPECT_ERR(P "grid\nend\n", PT_ERR_EMPTY, 2, 1);
    EXPECT_ERR(P G "grid\n#\nend\n", PT_ERR_DUPLICATE, 8, 1);
    EXPECT_ERR(P "grid x\n#\nend\n", PT_ERR_SYNTAX, 2, 6);
    EXPECT_ERR("end\n" P G, PT_ERR_UNKNOWN_DIRECTIVE, 1, 1);
    /* A tile line after the grid still defines its characters (any order). */
    pt_map m;
    EXPECT_OK(P "grid\n#####\n#.o.#\n#####\nend\ntile o pond\n", &m);
    ck_assert_str_eq(pt_map_tile(&m, 2, 1)->name, "pond");
    pt_map_fini(&m);
    /* Trailing blanks and CR are stripped from rows; `end` may carry blanks. */
    EXPECT_OK("player at=1,1\r\ngrid\r\n#####  \r\n#...#\t\r\n#####\r\n  end  \r\n", &m);
    ck_assert_int_eq(m.w, 5);
    ck_assert_int_eq(m.h, 3);
    pt_map_fini(&m);
}
END_TEST

/* ---- entities and positions ------------------------------------------------------------- */

START_TEST(test_player_errors) {
    EXPECT_ERR(G "# trailing comment\n", PT_ERR_NO_PLAYER, 7, 1);          /* last line of the file */
    EXPECT_ERR(G "guard g at=1,1\n", PT_ERR_NO_PLAYER, 7, 1);
    EXPECT_ERR(P "player at=2,1\n" G, PT_ERR_DUP_PLAYER, 2, 1);
    EXPECT_ERR(P G P, PT_ERR_DUP_PLAYER, 8, 1);
    EXPECT_ERR("player bob at=1,1\n" G, PT_ERR_SYNTAX, 1, 8);              /* the player has no name */
    EXPECT_ERR("player speed=2\n" G, PT_ERR_MISSING, 1, 1);               /* no at= */
}
END_TEST

START_TEST(test_position_errors) {
    EXPECT_ERR(P "guard g at=9,1\n" G, PT_ERR_OUT_OF_MAP, 2, 12);          /* before the grid */
    EXPECT_ERR("player at=-1,1\n" G, PT_ERR_OUT_OF_MAP, 1, 11);
    EXPECT_ERR("player at=1,4\n" G, PT_ERR_OUT_OF_MAP, 1, 11);
    EXPECT_ERR("player at=5,0\n" G, PT_ERR_OUT_OF_MAP, 1, 11);
    EXPECT_ERR("player at=0,0\n" G, PT_ERR_NOT_WALKABLE, 1, 11);           /* wall */
    EXPECT_ERR("player at=2,2\n" G, PT_ERR_NOT_WALKABLE, 1, 11);           /* water */
    EXPECT_ERR(P G "guard g at=2,2\n", PT_ERR_NOT_WALKABLE, 8, 12);        /* after the grid */
    EXPECT_ERR(P G "prey hen at=4,3\n", PT_ERR_NOT_WALKABLE, 8, 13);
    EXPECT_ERR(P G "flock f at=0,1\n", PT_ERR_NOT_WALKABLE, 8, 12);
    EXPECT_ERR(P "guard g at=1,1 origin=1,9\n" G, PT_ERR_OUT_OF_MAP, 2, 23);
    EXPECT_ERR(P "obstacle at=5.5,1\n" G, PT_ERR_OUT_OF_MAP, 2, 13);
    EXPECT_ERR(P "obstacle at=-0.01,1\n" G, PT_ERR_OUT_OF_MAP, 2, 13);
    EXPECT_ERR(P "obstacle r=1\n" G, PT_ERR_MISSING, 2, 1);
    EXPECT_ERR(P "guard g speed=2\n" G, PT_ERR_MISSING, 2, 1);
    EXPECT_ERR(P "guard at=1,1\n" G, PT_ERR_SYNTAX, 2, 7);                 /* no name */
    EXPECT_ERR(P "guard\n" G, PT_ERR_SYNTAX, 2, 6);
    EXPECT_ERR(P "guard g at=1,1\nprey g at=2,1\n" G, PT_ERR_DUPLICATE, 3, 6);
    EXPECT_ERR(P "guard g at=1,1\nflock h at=1,1\nflock g at=2,1\n" G, PT_ERR_DUPLICATE, 4, 7);
    EXPECT_ERR(P "guard player at=1,1\n" G, PT_ERR_DUPLICATE, 2, 7);
    /* Order of checks: the first failing position in declaration order. */
    EXPECT_ERR(P "guard a at=1,1\nguard b at=0,0\nguard c at=9,9\n" G, PT_ERR_NOT_WALKABLE, 3, 12);
    /* Inside, on the edges of the map: fine (an obstacle may stand on any tile). */
    pt_map m;
    EXPECT_OK(P "obstacle at=4.99,3.99\nobstacle at=0,0\nguard g at=3,2\n" G, &m);
    ck_assert_int_eq(m.nobstacles, 2);
    pt_map_fini(&m);
}
END_TEST

/* ---- keys and values -------------------------------------------------------------------- */

START_TEST(test_key_errors) {
    EXPECT_ERR(P "  wall x\n" G, PT_ERR_UNKNOWN_DIRECTIVE, 2, 3);
    EXPECT_ERR(P "'grid'\n" G, PT_ERR_UNKNOWN_DIRECTIVE, 2, 1);
    EXPECT_ERR("player at=1,1 colour=red\n" G, PT_ERR_UNKNOWN_KEY, 1, 15);
    EXPECT_ERR(P "flock f at=1,1 chase=tile\n" G, PT_ERR_UNKNOWN_KEY, 2, 16);  /* a guard key */
    EXPECT_ERR(P "guard g at=1,1 count=3\n" G, PT_ERR_UNKNOWN_KEY, 2, 16);     /* a flock key */
    EXPECT_ERR(P "guard g at=1,1 =3\n" G, PT_ERR_UNKNOWN_KEY, 2, 16);
    EXPECT_ERR(P "obstacle at=1,1 size=2\n" G, PT_ERR_UNKNOWN_KEY, 2, 17);
    EXPECT_ERR(P "tile o pond size=2\n" G, PT_ERR_UNKNOWN_KEY, 2, 13);
    EXPECT_ERR("player at=1,1 at=2,1\n" G, PT_ERR_DUPLICATE, 1, 15);
    EXPECT_ERR(P "guard g at=1,1 view=3 speed=1 view=4\n" G, PT_ERR_DUPLICATE, 2, 31);
    EXPECT_ERR(P "obstacle at=1,1 r=1 r=2\n" G, PT_ERR_DUPLICATE, 2, 21);
    EXPECT_ERR(P "tile o pond sprite=1 sprite=2\n" G, PT_ERR_DUPLICATE, 2, 22);
    EXPECT_ERR(P "tile o pond walkable walkable\n" G, PT_ERR_DUPLICATE, 2, 22);
    EXPECT_ERR("tile o pond sound=1 sound=2\n" P G, PT_ERR_DUPLICATE, 1, 21);
    EXPECT_ERR("tile o pond soud=1\n" P G, PT_ERR_UNKNOWN_KEY, 1, 13);
    EXPECT_ERR("player at=1,1 fast\n" G, PT_ERR_SYNTAX, 1, 15);
    EXPECT_ERR(P "obstacle 2,2\n" G, PT_ERR_SYNTAX, 2, 10);
    EXPECT_ERR("player at=1\n" G, PT_ERR_SYNTAX, 1, 11);                 /* not X,Y */
    EXPECT_ERR("title \"abc\n" P G, PT_ERR_SYNTAX, 1, 7);                /* unterminated quote */
    EXPECT_ERR("title a b\n" P G, PT_ERR_SYNTAX, 1, 9);
    EXPECT_ERR("patterns\n" P G, PT_ERR_SYNTAX, 1, 9);
    EXPECT_ERR("tile\n" P G, PT_ERR_SYNTAX, 1, 5);
    EXPECT_ERR("tile # wall\n" P G, PT_ERR_SYNTAX, 1, 5);                /* '#' must be quoted */
    EXPECT_ERR("tile o\n" P G, PT_ERR_SYNTAX, 1, 7);
    EXPECT_ERR("title a\ntitle b\n" P G, PT_ERR_DUPLICATE, 2, 1);
    EXPECT_ERR("seed 1\nformat 1\nseed 2\n" P G, PT_ERR_DUPLICATE, 3, 1);
    EXPECT_ERR("tile_size 16\ntile_size 16\n" P G, PT_ERR_DUPLICATE, 2, 1);
    EXPECT_ERR("steering a.steer\nsteering b.steer\n" P G, PT_ERR_DUPLICATE, 2, 1);
    EXPECT_ERR("format 1\nformat 1\n" P G, PT_ERR_DUPLICATE, 2, 1);
    EXPECT_ERR("patterns a.pat\npatterns a.pat\n" P G, PT_ERR_DUPLICATE, 2, 10);
    EXPECT_ERR("tile 'o' pond\ntile 'o' lake\n" P G, PT_ERR_DUPLICATE, 2, 6);
    EXPECT_ERR("tile . marble walkable\ntile . stone walkable\n" P G, PT_ERR_DUPLICATE, 2, 6);
}
END_TEST

/* The legend's sound: the defaults, sound=N and sound=block, the rule for kinds without it. */
START_TEST(test_tile_sound) {
    pt_map m;
    pt_error e;
    ck_assert_int_eq(pt_map_init_blank(&m, 1, 1, &e), PT_OK);
    static const struct { char ch; int sound; } defaults[] = {
        {'.', 0}, {'#', PT_SOUND_BLOCK}, {'~', 0}, {'=', 0}, {'+', 20}, {',', 0}, {'*', 10}, {'E', 0}, {':', 0},
        {'T', 10}, /* a tree: not walkable and opaque, yet sound passes (not the rule's block) */
    };
    ck_assert_int_eq(m.nlegend, 10);
    for (int i = 0; i < 10; i++) {
        const pt_tile_def *t = &m.legend[pt_map_legend_find(&m, defaults[i].ch)];
        ck_assert_msg(t->sound == defaults[i].sound, "%s: %d", t->name, t->sound);
        ck_assert_int_eq(pt_tile_sound_default(t->name, 0), defaults[i].sound); /* by name */
    }
    pt_map_fini(&m);
    ck_assert_int_eq(pt_tile_sound_default("rock", PT_TILE_OPAQUE), PT_SOUND_BLOCK);
    ck_assert_int_eq(pt_tile_sound_default("pond", 0), 0);
    ck_assert_int_eq(pt_tile_sound_default("hedge", PT_TILE_WALKABLE | PT_TILE_OPAQUE), 0);
    ck_assert_int_eq(pt_tile_sound_default(NULL, PT_TILE_OPAQUE), PT_SOUND_BLOCK);
    EXPECT_OK("tile c carpet walkable sound=3.5\n"
              "tile g glass sound=block\n"
              "tile '+' door walkable\n"             /* a default name keeps its sound */
              "tile r rock opaque\n"                 /* neither walkable nor transparent: blocks */
              "tile p pond\n"
              "tile q hedge walkable opaque\n"
              "tile '#' wall opaque sound=0.5\n"     /* given: wins over the name */
              "tile b bell walkable sound=100\n"
              "tile z zero walkable sound=1e1 opaque\n" P G,
              &m);
    static const struct { char ch; int sound; } want[] = {
        {'c', 35}, {'g', PT_SOUND_BLOCK}, {'+', 20}, {'r', PT_SOUND_BLOCK}, {'p', 0}, {'q', 0}, {'#', 5}, {'b', 1000}, {'z', 100},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_int_eq(m.legend[pt_map_legend_find(&m, want[i].ch)].sound, want[i].sound);
    pt_map clone;
    ck_assert_int_eq(pt_map_clone(&clone, &m), PT_OK);
    ck_assert_int_eq(clone.legend[pt_map_legend_find(&clone, 'c')].sound, 35);
    pt_map_fini(&clone);
    pt_map_fini(&m);
    /* every value in tenths, written in several ways, is read exactly */
    for (int v = 0; v <= PT_SOUND_MAX; v++) {
        char text[256];
        if (v % 3 == 0) snprintf(text, sizeof text, "tile c c walkable sound=%d.%d\n" P G, v / 10, v % 10);
        else if (v % 3 == 1) snprintf(text, sizeof text, "tile c c walkable sound=%ge-1\n" P G, (double)v);
        else snprintf(text, sizeof text, "tile c c walkable sound=%.2f0\n" P G, v / 10.0);
        EXPECT_OK(text, &m);
        ck_assert_msg(m.legend[pt_map_legend_find(&m, 'c')].sound == v, "%s", text);
        pt_map_fini(&m);
    }
}
END_TEST

START_TEST(test_value_errors) {
    EXPECT_ERR("player at=1,1 speed=fast\n" G, PT_ERR_BAD_NUMBER, 1, 21);
    EXPECT_ERR("player at=1,x\n" G, PT_ERR_BAD_NUMBER, 1, 13);
    EXPECT_ERR("player at=1.5,1\n" G, PT_ERR_BAD_NUMBER, 1, 11);          /* tiles are whole */
    EXPECT_ERR("player at=1,1 speed=nan\n" G, PT_ERR_BAD_NUMBER, 1, 21);
    EXPECT_ERR("player at=1,1 speed=\n" G, PT_ERR_BAD_NUMBER, 1, 21);
    EXPECT_ERR("player at=1,1 speed=500\n" G, PT_ERR_RANGE, 1, 21);
    EXPECT_ERR("player at=1,1 speed=0\n" G, PT_ERR_RANGE, 1, 21);          /* 0 would mean default */
    EXPECT_ERR("player at=1,1 speed=-2\n" G, PT_ERR_RANGE, 1, 21);
    EXPECT_ERR("player at=1,1 heading=720\n" G, PT_ERR_RANGE, 1, 23);
    EXPECT_ERR("player at=99999999,1\n" G, PT_ERR_RANGE, 1, 11);
    EXPECT_ERR(P "guard g at=1,1 fov=400\n" G, PT_ERR_RANGE, 2, 20);
    EXPECT_ERR(P "guard g at=1,1 suspicious_at=1.5\n" G, PT_ERR_RANGE, 2, 30);   /* above chase_at 1 */
    EXPECT_ERR(P "guard g at=1,1 chase_at=0.2\n" G, PT_ERR_RANGE, 2, 25);        /* below suspicious 0.3 */
    EXPECT_ERR(P "guard g at=1,1 hearing=0\n" G, PT_ERR_RANGE, 2, 24);           /* 0 would mean default */
    EXPECT_ERR(P "guard g at=1,1 hearing=300\n" G, PT_ERR_RANGE, 2, 24);
    EXPECT_ERR(P "prey p at=1,1 hearing=2\n" G, PT_ERR_UNKNOWN_KEY, 2, 15);       /* guards only, for now */
    EXPECT_ERR(P "flock f at=1,1 count=0\n" G, PT_ERR_RANGE, 2, 22);
    EXPECT_ERR(P "obstacle at=1,1 r=0\n" G, PT_ERR_RANGE, 2, 19);
    EXPECT_ERR(P "obstacle at=1,1 r=9\n" G, PT_ERR_RANGE, 2, 19);
    EXPECT_ERR("tile_size 2\n" P G, PT_ERR_RANGE, 1, 11);
    EXPECT_ERR("tile_size 16.5\n" P G, PT_ERR_BAD_NUMBER, 1, 11);
    EXPECT_ERR("tile o pond sprite=x\n" P G, PT_ERR_BAD_NUMBER, 1, 20);
    EXPECT_ERR("tile o pond sound=blok\n" P G, PT_ERR_BAD_VALUE, 1, 19);
    EXPECT_ERR("tile o pond sound=nan\n" P G, PT_ERR_BAD_VALUE, 1, 19);
    EXPECT_ERR("tile o pond sound=101\n" P G, PT_ERR_RANGE, 1, 19);
    EXPECT_ERR("tile o pond sound=-1\n" P G, PT_ERR_RANGE, 1, 19);
    EXPECT_ERR("tile o pond sound=1e999\n" P G, PT_ERR_RANGE, 1, 19);
    EXPECT_ERR("tile o pond sound=0.25\n" P G, PT_ERR_BAD_NUMBER, 1, 19);      /* tenths at most */
    EXPECT_ERR("tile o pond sound=\n" P G, PT_ERR_BAD_NUMBER, 1, 19);
    EXPECT_ERR("tile o pond sound=1,5\n" P G, PT_ERR_BAD_NUMBER, 1, 19);
    EXPECT_ERR("seed -1\n" P G, PT_ERR_RANGE, 1, 6);
    EXPECT_ERR("seed abc\n" P G, PT_ERR_BAD_NUMBER, 1, 6);
    EXPECT_ERR("seed 18446744073709551616\n" P G, PT_ERR_RANGE, 1, 6);
    EXPECT_ERR("format x\n" P G, PT_ERR_BAD_NUMBER, 1, 8);
    EXPECT_ERR("format 2\n" P G, PT_ERR_BAD_VALUE, 1, 8);
    EXPECT_ERR(P "guard g at=1,1 chase=run\n" G, PT_ERR_BAD_VALUE, 2, 22);
    EXPECT_ERR(P "flock f at=1,1 kind=cat\n" G, PT_ERR_BAD_VALUE, 2, 21);
    EXPECT_ERR(P "obstacle at=1,1 sprite=rock\n" G, PT_ERR_BAD_VALUE, 2, 24);
    EXPECT_ERR("tile x thing walkabel\n" P G, PT_ERR_BAD_VALUE, 1, 14);
    EXPECT_ERR("tile ab thing\n" P G, PT_ERR_BAD_VALUE, 1, 6);
    EXPECT_ERR("tile ' ' blank\n" P G, PT_ERR_BAD_VALUE, 1, 6);
    EXPECT_ERR(P "guard g! at=1,1\n" G, PT_ERR_SYNTAX, 2, 8);
    EXPECT_ERR("title \"0123456789012345678901234567890123456789012345678901234567890123\"\n" P G, PT_ERR_LIMIT, 1, 7);
    pt_map m;
    EXPECT_OK("seed 18446744073709551615\n" P G, &m);
    ck_assert(m.seed == UINT64_MAX);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_io_and_binary) {
    pt_map m;
    memset(&m, 0xAB, sizeof m);
    pt_error e;
    ck_assert_int_eq(pt_map_load(&m, "tests/data/maps/does-not-exist.map", &e), PT_ERR_IO);
    ck_assert_int_eq(e.line, 0);
    ck_assert_str_eq(e.file, "tests/data/maps/does-not-exist.map");
    ck_assert(all_zero(&m, sizeof m));
    memset(&m, 0xAB, sizeof m);
    ck_assert_int_eq(pt_map_load(&m, "tests/data/maps", &e), PT_ERR_IO); /* a folder */
    ck_assert(all_zero(&m, sizeof m));
    memset(&m, 0xAB, sizeof m);
    ck_assert_int_eq(pt_map_load(&m, "tests/data/maps/binary.map", &e), PT_ERR_BINARY);
    ck_assert_int_eq(e.line, 4);
    ck_assert_int_eq(e.col, 2);
    ck_assert(all_zero(&m, sizeof m));
    static const char nul[] = "player at=1,1\ngr\0id\n";
    expect_err_at(nul, sizeof nul - 1, PT_ERR_BINARY, 2, 3, __LINE__);
    /* A file error is located in the file, with its source line. */
    ck_assert_int_eq(pt_map_load(&m, "tests/data/maps/bad_tile.map", &e), PT_ERR_UNKNOWN_TILE);
    ck_assert_int_eq(e.line, 6);
    ck_assert_int_eq(e.col, 4);
    ck_assert_str_eq(e.file, "tests/data/maps/bad_tile.map");
    ck_assert_str_eq(e.source, "#..X.#");
    /* Byte-order mark and CRLF line ends. */
    ck_assert_int_eq(pt_map_load(&m, "tests/data/maps/crlf_bom.map", &e), PT_OK);
    ck_assert_str_eq(m.name, "Windows");
    ck_assert_int_eq(m.w, 5);
    ck_assert_int_eq(pt_map_tile(&m, 4, 1)->ch, '#');
    ck_assert_int_eq(m.goal, 1);
    pt_map_fini(&m);
    /* Loading from a file resolves paths against its folder and records the path. */
    ck_assert_int_eq(pt_map_load(&m, "tests/data/maps/small.map", &e), PT_OK);
    ck_assert_str_eq(m.path, "tests/data/maps/small.map");
    ck_assert_int_eq(m.npattern_files, 1);
    ck_assert_str_eq(m.pattern_files[0], "tests/data/maps/small.pat");
    ck_assert_int_eq(m.goal, 0);
    pt_map_fini(&m);
    /* err may be NULL. */
    ck_assert_int_eq(pt_map_parse(&m, "grid\n", 5, NULL, NULL), PT_ERR_UNTERMINATED);
    ck_assert_int_eq(pt_map_parse(&m, "", 0, NULL, NULL), PT_ERR_MISSING);
}
END_TEST

/* ---- a valid map round-trips ------------------------------------------------------------ */

static const char rt_text[] =
    "# A map that uses every directive\n"
    "format 1\n"
    "title \"Round trip\"\n"
    "tile_size 24\n"
    "seed 12345678901\n"
    "patterns castle.pat\n"
    "patterns /abs/other.pat\n"
    "steering demo.steer\n"
    "tile 'o' pond sprite=3\n"
    "tile ':' path walkable sprite=12\n"
    "tile G gate walkable goal opaque\n"
    "player at=1,1 speed=4.5 heading=90 pattern=walk_past origin=2,1\n"
    "guard g_gate at=3,1 pattern=castle.pat:rectangle view=7.5 fov=120 speed=2.5 chase=intercept heading=-45 "
    "origin=3,2 aware_rate=1.5 aware_decay=0.25 suspicious_at=0.4 chase_at=0.9 steering=slow hearing=2.5\n"
    "prey hen at=1,3 speed=3.5 view=6 fov=270 heading=180 steering=skittish\n"
    "flock crows at=5,3 count=5 kind=crow speed=6 view=4 fov=300\n"
    "  flock hounds   at=6,3   # defaults\n"
    "guard lazy at=7,3 chase=steer\n"
    "obstacle at=2.5,2.5 r=0.45 sprite=tree\n"
    "obstacle at=6,1\n"
    "grid\n"
    "#########\n"
    "#.::,*G.#\n"
    "#~o=+E..#\n"
    "#,,:....#\n"
    "#########\n"
    "end\n"
    "# comments after the grid are fine\n";

START_TEST(test_round_trip) {
    pt_map m;
    pt_error e;
    int rc = pt_map_parse(&m, rt_text, strlen(rt_text), "maps/sub/rt.map", &e);
    ck_assert_msg(rc == PT_OK, "%s at %d:%d: %s", pt_code_name(rc), e.line, e.col, e.message);
    /* header */
    ck_assert_str_eq(m.name, "Round trip");
    ck_assert_int_eq(m.tile_px, 24);
    ck_assert(m.seed == 12345678901ull);
    ck_assert_str_eq(m.path, "maps/sub/rt.map");
    ck_assert_int_eq(m.npattern_files, 2);
    ck_assert_str_eq(m.pattern_files[0], "maps/sub/castle.pat");
    ck_assert_str_eq(m.pattern_files[1], "/abs/other.pat");
    ck_assert_int_eq(m.pattern_file_lines[0], line_of(rt_text, "patterns castle"));
    ck_assert_int_eq(m.pattern_file_lines[1], line_of(rt_text, "patterns /abs"));
    ck_assert_str_eq(m.steering_file, "maps/sub/demo.steer");
    ck_assert_int_eq(m.goal, 1);
    /* tiles: the legend character at every cell is the grid's character */
    const char *grid = strstr(rt_text, "grid\n") + 5;
    ck_assert_int_eq(m.w, 9);
    ck_assert_int_eq(m.h, 5);
    int bad = 0;
    for (int y = 0; y < m.h; y++)
        for (int x = 0; x < m.w; x++) {
            char want = grid[y * (m.w + 1) + x];
            const pt_tile_def *t = pt_map_tile(&m, x, y);
            if (!t || t->ch != want || m.flags[y * m.w + x] != t->flags) bad++;
        }
    ck_assert_int_eq(bad, 0);
    /* legend: two new kinds, ':' redefined in place */
    pt_map blank;
    pt_error be;
    ck_assert_int_eq(pt_map_init_blank(&blank, 1, 1, &be), PT_OK);
    ck_assert_int_eq(m.nlegend, blank.nlegend + 2);
    ck_assert_int_eq(pt_map_legend_find(&m, ':'), pt_map_legend_find(&blank, ':'));
    pt_map_fini(&blank);
    const pt_tile_def *path = &m.legend[pt_map_legend_find(&m, ':')];
    ck_assert_str_eq(path->name, "path");
    ck_assert_int_eq(path->flags, PT_TILE_WALKABLE);
    ck_assert_int_eq(path->sprite, 12);
    ck_assert_int_eq(path->line, line_of(rt_text, "tile ':'"));
    const pt_tile_def *pond = pt_map_tile(&m, 2, 2);
    ck_assert_str_eq(pond->name, "pond");
    ck_assert_int_eq(pond->flags, 0);
    ck_assert_int_eq(pond->sprite, 3);
    const pt_tile_def *gate = pt_map_tile(&m, 6, 1);
    ck_assert_str_eq(gate->name, "gate");
    ck_assert_int_eq(gate->flags, PT_TILE_WALKABLE | PT_TILE_GOAL | PT_TILE_OPAQUE);
    ck_assert_int_eq(gate->sprite, -1);
    ck_assert_int_eq(gate->line, line_of(rt_text, "tile G"));
    ck_assert_int_eq(pt_map_tile(&m, 5, 2)->flags, PT_TILE_WALKABLE | PT_TILE_GOAL); /* default E */
    ck_assert_int_eq(pt_map_tile(&m, 5, 1)->flags, PT_TILE_WALKABLE | PT_TILE_OPAQUE); /* default bush */
    ck_assert_int_eq(pt_map_tile(&m, 0, 0)->line, 0);                                /* default wall */
    /* player */
    const pt_entity_def *pl = &m.player;
    ck_assert_int_eq(pl->kind, PT_KIND_PLAYER);
    ck_assert_str_eq(pl->name, "player");
    ck_assert_int_eq(pl->x, 1);
    ck_assert_int_eq(pl->y, 1);
    ck_assert_double_eq(pl->speed, 4.5);
    ck_assert_double_eq(pl->heading_deg, 90);
    ck_assert_str_eq(pl->pattern, "walk_past");
    ck_assert_int_eq(pl->has_origin, 1);
    ck_assert_int_eq(pl->origin_x, 2);
    ck_assert_int_eq(pl->origin_y, 1);
    ck_assert_int_eq(pl->line, line_of(rt_text, "player"));
    ck_assert_int_eq(pl->col, 11);
    ck_assert_double_eq(pl->view_dist, 0); /* unspecified: left for pt_entity_def_resolve */
    /* entities in declaration order */
    ck_assert_int_eq(m.nents, 5);
    const pt_entity_def *g = &m.ents[0];
    ck_assert_int_eq(g->kind, PT_KIND_GUARD);
    ck_assert_str_eq(g->name, "g_gate");
    ck_assert_int_eq(g->x, 3);
    ck_assert_int_eq(g->y, 1);
    ck_assert_str_eq(g->pattern, "castle.pat:rectangle");
    ck_assert_double_eq(g->view_dist, 7.5);
    ck_assert_double_eq(g->view_angle_deg, 120);
    ck_assert_double_eq(g->speed, 2.5);
    ck_assert_int_eq(g->chase, PT_CHASE_INTERCEPT);
    ck_assert_double_eq(g->heading_deg, -45);
    ck_assert_int_eq(g->has_origin, 1);
    ck_assert_int_eq(g->origin_x, 3);
    ck_assert_int_eq(g->origin_y, 2);
    ck_assert_double_eq(g->aware_rate, 1.5);
    ck_assert_double_eq(g->aware_decay, 0.25);
    ck_assert_double_eq(g->suspicious_at, 0.4);
    ck_assert_double_eq(g->chase_at, 0.9);
    ck_assert_double_eq(g->hearing, 2.5);
    ck_assert_str_eq(g->steering, "slow");
    ck_assert_int_eq(g->count, 0);
    ck_assert_str_eq(g->group, "");
    ck_assert_int_eq(g->line, line_of(rt_text, "guard g_gate"));
    ck_assert_int_eq(g->col, 17);
    const pt_entity_def *hen = &m.ents[1];
    ck_assert_int_eq(hen->kind, PT_KIND_PREY);
    ck_assert_str_eq(hen->name, "hen");
    ck_assert_int_eq(hen->x, 1);
    ck_assert_int_eq(hen->y, 3);
    ck_assert_double_eq(hen->speed, 3.5);
    ck_assert_double_eq(hen->view_dist, 6);
    ck_assert_double_eq(hen->view_angle_deg, 270);
    ck_assert_double_eq(hen->heading_deg, 180);
    ck_assert_str_eq(hen->steering, "skittish");
    ck_assert_str_eq(hen->pattern, "");
    ck_assert_int_eq(hen->has_origin, 0);
    const pt_entity_def *crows = &m.ents[2];
    ck_assert_int_eq(crows->kind, PT_KIND_BOID);
    ck_assert_str_eq(crows->name, "crows");
    ck_assert_str_eq(crows->group, "crows");
    ck_assert_int_eq(crows->count, 5);
    ck_assert_int_eq(crows->flock_kind, PT_FLOCK_CROW);
    ck_assert_double_eq(crows->speed, 6);
    ck_assert_double_eq(crows->view_dist, 4);
    ck_assert_double_eq(crows->view_angle_deg, 300);
    ck_assert_int_eq(crows->x, 5);
    ck_assert_int_eq(crows->y, 3);
    const pt_entity_def *hounds = &m.ents[3];
    ck_assert_int_eq(hounds->kind, PT_KIND_BOID);
    ck_assert_str_eq(hounds->group, "hounds");
    ck_assert_int_eq(hounds->count, 0);
    ck_assert_int_eq(hounds->flock_kind, PT_FLOCK_HOUND);
    ck_assert_int_eq(hounds->col, 21); /* indented: the column of the at= value */
    ck_assert_double_eq(hounds->speed, 0);
    ck_assert_double_eq(hounds->view_dist, 0);
    ck_assert_int_eq(m.ents[4].chase, PT_CHASE_STEER);
    /* obstacles */
    ck_assert_int_eq(m.nobstacles, 2);
    ck_assert_double_eq(m.obstacles[0].x, 2.5);
    ck_assert_double_eq(m.obstacles[0].y, 2.5);
    ck_assert_double_eq(m.obstacles[0].r, 0.45);
    ck_assert_int_eq(m.obstacles[0].sprite, PT_OBSTACLE_TREE);
    ck_assert_int_eq(m.obstacles[0].line, line_of(rt_text, "obstacle at=2.5"));
    ck_assert_int_eq(m.obstacles[0].col, 13);
    ck_assert_double_eq(m.obstacles[1].x, 6);
    ck_assert_double_eq(m.obstacles[1].y, 1);
    ck_assert_double_eq(m.obstacles[1].r, 0.45); /* documented default */
    ck_assert_int_eq(m.obstacles[1].sprite, PT_OBSTACLE_PILLAR);
    pt_map_fini(&m);
    ck_assert(all_zero(&m, sizeof m));
}
END_TEST

/* Defaults: a minimal map gets tile size 16, seed 0, no title, no files; resolve fills the
 * documented entity defaults and keeps given values. */
START_TEST(test_defaults) {
    pt_map m;
    EXPECT_OK(P "guard g at=3,1\nprey p at=1,2 speed=1\nflock f at=3,2\n" G, &m);
    ck_assert_int_eq(m.tile_px, 16);
    ck_assert(m.seed == 0);
    ck_assert_str_eq(m.name, "");
    ck_assert_int_eq(m.npattern_files, 0);
    ck_assert_str_eq(m.steering_file, "");
    ck_assert_int_eq(m.goal, 0);
    pt_entity_def pl = m.player, g = m.ents[0], p = m.ents[1], f = m.ents[2];
    pt_entity_def_resolve(&pl);
    pt_entity_def_resolve(&g);
    pt_entity_def_resolve(&p);
    pt_entity_def_resolve(&f);
    ck_assert_double_eq(pl.speed, 5.0);
    ck_assert_double_eq(g.speed, 3.0);
    ck_assert_double_eq(p.speed, 1.0);
    ck_assert_double_eq(f.speed, 3.0);
    ck_assert_double_eq(g.view_dist, 8.0);
    ck_assert_double_eq(g.view_angle_deg, 90.0);
    ck_assert_double_eq(g.aware_rate, 2.0);
    ck_assert_double_eq(g.aware_decay, 0.35);
    ck_assert_double_eq(g.suspicious_at, 0.3);
    ck_assert_double_eq(g.chase_at, 1.0);
    ck_assert_double_eq(g.hearing, 1.0);
    ck_assert_int_eq(g.chase, PT_CHASE_TILE);
    ck_assert_int_eq(f.count, 1);
    ck_assert_int_eq(g.origin_x, 3);
    ck_assert_int_eq(g.origin_y, 1);
    pt_entity_def again = g;
    pt_entity_def_resolve(&again); /* idempotent */
    ck_assert(memcmp(&again, &g, sizeof g) == 0);
    pt_map_fini(&m);
}
END_TEST

/* ---- the demo map ----------------------------------------------------------------------- */

/* Cells reachable from (sx,sy) over walkable tiles (4-neighbours); bridges optional. */
static int reach(const pt_map *m, int sx, int sy, int use_bridges, unsigned char *seen) {
    int *q = malloc(sizeof *q * (size_t)(m->w * m->h));
    int head = 0, tail = 0, n = 0;
    memset(seen, 0, (size_t)(m->w * m->h));
    int bridge = pt_map_legend_find(m, '=');
    seen[sy * m->w + sx] = 1;
    q[tail++] = sy * m->w + sx;
    while (head < tail) {
        int c = q[head++], x = c % m->w, y = c / m->w;
        n++;
        static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
        for (int k = 0; k < 4; k++) {
            int nx = x + dx[k], ny = y + dy[k];
            if (!pt_map_walkable(m, nx, ny) || seen[ny * m->w + nx]) continue;
            if (!use_bridges && m->tiles[ny * m->w + nx] == bridge) continue;
            seen[ny * m->w + nx] = 1;
            q[tail++] = ny * m->w + nx;
        }
    }
    free(q);
    return n;
}

START_TEST(test_demo_map) {
    pt_map m;
    pt_error e;
    int rc = pt_map_load(&m, "maps/demo.map", &e);
    ck_assert_msg(rc == PT_OK, "%s:%d:%d: %s", e.file, e.line, e.col, e.message);
    ck_assert_int_ge(m.w, 48);
    ck_assert_int_ge(m.h, 32);
    /* exactly one player line, and the player stands on a walkable tile */
    FILE *f = fopen("maps/demo.map", "r");
    ck_assert_ptr_nonnull(f);
    char buf[512];
    int players = 0;
    while (fgets(buf, sizeof buf, f)) players += strncmp(buf, "player", 6) == 0;
    fclose(f);
    ck_assert_int_eq(players, 1);
    ck_assert(pt_map_walkable(&m, m.player.x, m.player.y));
    /* a goal tile */
    int goals = 0;
    for (int i = 0; i < m.w * m.h; i++) goals += (m.flags[i] & PT_TILE_GOAL) != 0;
    ck_assert_int_gt(goals, 0);
    ck_assert_int_eq(m.goal, 1);
    /* bridges: exactly two 4-connected groups, each with water on both sides and land at both ends */
    int bridge = pt_map_legend_find(&m, '='), water = pt_map_legend_find(&m, '~');
    unsigned char *group = calloc((size_t)(m.w * m.h), 1);
    int ngroups = 0, spanning = 0;
    for (int s = 0; s < m.w * m.h; s++) {
        if (m.tiles[s] != bridge || group[s]) continue;
        ngroups++;
        int stack[256], top = 0, x0 = m.w, x1 = -1, y0 = m.h, y1 = -1;
        stack[top++] = s;
        group[s] = 1;
        while (top) {
            int c = stack[--top], x = c % m.w, y = c / m.w;
            if (x < x0) x0 = x;
            if (x > x1) x1 = x;
            if (y < y0) y0 = y;
            if (y > y1) y1 = y;
            static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
            for (int k = 0; k < 4; k++) {
                int nx = x + dx[k], ny = y + dy[k];
                if (pt_map_in(&m, nx, ny) && m.tiles[ny * m.w + nx] == bridge && !group[ny * m.w + nx] && top < 256) {
                    group[ny * m.w + nx] = 1;
                    stack[top++] = ny * m.w + nx;
                }
            }
        }
        /* vertical bridge: water left and right of every row, walkable land above and below */
        int ok = pt_map_walkable(&m, x0, y0 - 1) && pt_map_walkable(&m, x0, y1 + 1);
        for (int y = y0; y <= y1; y++)
            ok = ok && m.tiles[y * m.w + x0 - 1] == water && m.tiles[y * m.w + x1 + 1] == water;
        spanning += ok;
    }
    free(group);
    ck_assert_int_eq(ngroups, 2);
    ck_assert_int_eq(spanning, 2);
    /* the river crosses the map: without the bridges the exit cannot be reached */
    unsigned char *seen = malloc((size_t)(m.w * m.h));
    reach(&m, m.player.x, m.player.y, 1, seen);
    int exit_reached = 0;
    for (int i = 0; i < m.w * m.h; i++) exit_reached += seen[i] && (m.flags[i] & PT_TILE_GOAL);
    ck_assert_int_gt(exit_reached, 0);
    reach(&m, m.player.x, m.player.y, 0, seen);
    exit_reached = 0;
    for (int i = 0; i < m.w * m.h; i++) exit_reached += seen[i] && (m.flags[i] & PT_TILE_GOAL);
    ck_assert_int_eq(exit_reached, 0);
    free(seen);
    /* the tiles the brief asks for are there */
    const char *kinds = ".#~=+,*E:";
    for (const char *k = kinds; *k; k++) {
        int idx = pt_map_legend_find(&m, *k), count = 0;
        for (int i = 0; i < m.w * m.h; i++) count += m.tiles[i] == idx;
        ck_assert_msg(count > 0, "no '%c' in the demo map", *k);
    }
    ck_assert_int_gt(m.nobstacles, 0);
    pt_map_fini(&m);
}
END_TEST

/* ---- clone ------------------------------------------------------------------------------ */

START_TEST(test_clone_deep) {
    pt_map a, b;
    pt_error e;
    ck_assert_int_eq(pt_map_parse(&a, rt_text, strlen(rt_text), "rt.map", &e), PT_OK);
    ck_assert_int_eq(pt_map_clone(&b, &a), PT_OK);
    ck_assert_ptr_ne(a.tiles, b.tiles);
    ck_assert_ptr_ne(a.flags, b.flags);
    ck_assert_ptr_ne(a.ents, b.ents);
    ck_assert_ptr_ne(a.obstacles, b.obstacles);
    size_t n = (size_t)(a.w * a.h);
    ck_assert(memcmp(a.tiles, b.tiles, n) == 0);
    ck_assert(memcmp(a.flags, b.flags, n) == 0);
    ck_assert(memcmp(a.ents, b.ents, sizeof *a.ents * (size_t)a.nents) == 0);
    ck_assert(memcmp(a.obstacles, b.obstacles, sizeof *a.obstacles * (size_t)a.nobstacles) == 0);
    ck_assert_str_eq(b.pattern_files[0], a.pattern_files[0]);
    /* changing the copy leaves the original alone */
    b.tiles[0] = 0;
    b.flags[0] = PT_TILE_WALKABLE;
    b.ents[0].x = 99;
    b.obstacles[0].r = 3;
    ck_assert_int_eq(pt_map_tile(&a, 0, 0)->ch, '#');
    ck_assert(!pt_map_walkable(&a, 0, 0));
    ck_assert_int_eq(a.ents[0].x, 3);
    ck_assert_double_eq(a.obstacles[0].r, 0.45);
    pt_map_fini(&a); /* the copy outlives the original */
    ck_assert_int_eq(b.ents[1].x, 1);
    pt_map_fini(&b);
    /* a map without entities or obstacles clones too */
    ck_assert_int_eq(pt_map_parse(&a, P G, strlen(P G), "x.map", &e), PT_OK);
    ck_assert_int_eq(pt_map_clone(&b, &a), PT_OK);
    ck_assert_int_eq(b.nents, 0);
    ck_assert(memcmp(a.tiles, b.tiles, (size_t)(a.w * a.h)) == 0);
    pt_map_fini(&a);
    pt_map_fini(&b);
}
END_TEST

/* ---- limits ----------------------------------------------------------------------------- */

typedef struct sbuf { char *s; size_t len, cap; } sbuf;
static void sb_add(sbuf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        ck_assert_ptr_nonnull(b->s);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}
static void sb_str(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }
static void sb_rep(sbuf *b, char c, int n) {
    for (int i = 0; i < n; i++) sb_add(b, &c, 1);
}

START_TEST(test_limit_width) {
    sbuf b = {0};
    sb_str(&b, P "grid\n");
    sb_rep(&b, '.', PT_MAP_MAX_W + 1);
    sb_str(&b, "\nend\n");
    expect_err_at(b.s, b.len, PT_ERR_LIMIT, 3, PT_MAP_MAX_W + 1, __LINE__);
    /* exactly the limit loads */
    b.len = 0;
    sb_str(&b, "player at=1,0\ngrid\n");
    sb_rep(&b, '.', PT_MAP_MAX_W);
    sb_str(&b, "\nend\n");
    pt_map m;
    EXPECT_OK(b.s, &m);
    ck_assert_int_eq(m.w, PT_MAP_MAX_W);
    pt_map_fini(&m);
    free(b.s);
}
END_TEST

START_TEST(test_limit_height) {
    sbuf b = {0};
    sb_str(&b, P "grid\n");
    for (int i = 0; i < PT_MAP_MAX_H; i++) sb_str(&b, "..\n");
    pt_map m;
    sbuf ok = {0};
    sb_add(&ok, b.s, b.len);
    sb_str(&ok, "end\n");
    EXPECT_OK(ok.s, &m);
    ck_assert_int_eq(m.h, PT_MAP_MAX_H);
    pt_map_fini(&m);
    sb_str(&b, "..\nend\n");
    expect_err_at(b.s, b.len, PT_ERR_LIMIT, 3 + PT_MAP_MAX_H, 1, __LINE__);
    free(b.s);
    free(ok.s);
}
END_TEST

START_TEST(test_limit_entities) {
    char text[256];
    /* one flock of PT_MAX_ENTITIES members plus the player is one too many */
    snprintf(text, sizeof text, P "flock f at=1,1 count=%d\n" G, PT_MAX_ENTITIES);
    EXPECT_ERR(text, PT_ERR_LIMIT, 2, 22);
    snprintf(text, sizeof text, P "flock f at=1,1 count=%d\n" G, PT_MAX_ENTITIES - 1);
    pt_map m;
    EXPECT_OK(text, &m);
    ck_assert_int_eq(m.ents[0].count, PT_MAX_ENTITIES - 1);
    pt_map_fini(&m);
    /* two flocks that overflow together: the second one is placed */
    snprintf(text, sizeof text, P "flock a at=1,1 count=%d\nflock b at=1,1 count=%d\n" G, PT_MAX_ENTITIES / 2,
             PT_MAX_ENTITIES / 2);
    EXPECT_ERR(text, PT_ERR_LIMIT, 3, 22);
    /* many single guards: also checks that names stay fast to compare */
    sbuf b = {0};
    sb_str(&b, P);
    char line[64];
    for (int i = 0; i < PT_MAX_ENTITIES - 1; i++) {
        int n = snprintf(line, sizeof line, "guard g%d at=1,1\n", i);
        sb_add(&b, line, (size_t)n);
    }
    size_t keep = b.len;
    sb_str(&b, G);
    EXPECT_OK(b.s, &m);
    ck_assert_int_eq(m.nents, PT_MAX_ENTITIES - 1);
    ck_assert_str_eq(m.ents[PT_MAX_ENTITIES - 2].name, "g65534");
    pt_map_fini(&m);
    b.len = keep;
    sb_str(&b, "guard g0 at=1,1\n" G); /* a duplicate name at the very end */
    expect_err_at(b.s, b.len, PT_ERR_DUPLICATE, PT_MAX_ENTITIES + 1, 7, __LINE__);
    b.len = keep;
    sb_str(&b, "prey last at=1,1\n" G);
    expect_err_at(b.s, b.len, PT_ERR_LIMIT, PT_MAX_ENTITIES + 1, 1, __LINE__);
    free(b.s);
}
END_TEST

START_TEST(test_limit_obstacles) {
    sbuf b = {0};
    sb_str(&b, P);
    for (int i = 0; i < PT_MAX_OBSTACLES; i++) sb_str(&b, "obstacle at=1,1\n");
    size_t keep = b.len;
    sb_str(&b, G);
    pt_map m;
    EXPECT_OK(b.s, &m);
    ck_assert_int_eq(m.nobstacles, PT_MAX_OBSTACLES);
    pt_map_fini(&m);
    b.len = keep;
    sb_str(&b, "obstacle at=1,1\n" G);
    expect_err_at(b.s, b.len, PT_ERR_LIMIT, PT_MAX_OBSTACLES + 2, 1, __LINE__);
    free(b.s);
}
END_TEST

START_TEST(test_limit_tiles_and_files) {
    /* tile kinds: fill the legend to the limit with new characters, then one more */
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDFGHIJKLMNOPQRSUVWXYZ0123456789@$%&"; /* no default */
    pt_map blank;
    pt_error e;
    ck_assert_int_eq(pt_map_init_blank(&blank, 1, 1, &e), PT_OK);
    int room = PT_MAX_TILE_KINDS - blank.nlegend;
    pt_map_fini(&blank);
    ck_assert_int_lt(room + 1, (int)sizeof chars - 1);
    sbuf b = {0};
    char line[64];
    for (int i = 0; i < room; i++) {
        snprintf(line, sizeof line, "tile %c kind%d walkable\n", chars[i], i);
        sb_str(&b, line);
    }
    size_t keep = b.len;
    sb_str(&b, P G);
    pt_map m;
    EXPECT_OK(b.s, &m);
    ck_assert_int_eq(m.nlegend, PT_MAX_TILE_KINDS);
    pt_map_fini(&m);
    b.len = keep;
    snprintf(line, sizeof line, "tile %c one_too_many\n", chars[room]);
    sb_str(&b, line);
    sb_str(&b, P G);
    expect_err_at(b.s, b.len, PT_ERR_LIMIT, room + 1, 6, __LINE__);
    /* redefining a default character does not take a new slot */
    b.len = keep;
    sb_str(&b, "tile . marble walkable\n" P G);
    EXPECT_OK(b.s, &m);
    ck_assert_int_eq(m.nlegend, PT_MAX_TILE_KINDS);
    pt_map_fini(&m);
    /* pattern files */
    b.len = 0;
    for (int i = 0; i < PT_MAX_PATTERN_FILES; i++) {
        snprintf(line, sizeof line, "patterns p%d.pat\n", i);
        sb_str(&b, line);
    }
    keep = b.len;
    sb_str(&b, P G);
    EXPECT_OK(b.s, &m);
    ck_assert_int_eq(m.npattern_files, PT_MAX_PATTERN_FILES);
    pt_map_fini(&m);
    b.len = keep;
    sb_str(&b, "patterns extra.pat\n" P G);
    expect_err_at(b.s, b.len, PT_ERR_LIMIT, PT_MAX_PATTERN_FILES + 1, 10, __LINE__);
    /* a path that does not fit once joined to the map's folder */
    b.len = 0;
    sb_str(&b, "patterns ");
    sb_rep(&b, 'p', PT_MAX_PATH - 4);
    sb_str(&b, "\n" P G);
    ck_assert_int_eq(pt_map_parse(&m, b.s, b.len, "maps/x.map", &e), PT_ERR_LIMIT);
    ck_assert_int_eq(e.line, 1);
    ck_assert_int_eq(e.col, 10);
    /* a line longer than the reader's limit */
    b.len = 0;
    sb_str(&b, "title ");
    sb_rep(&b, 'x', PT_MAX_LINE_BYTES);
    sb_str(&b, "\n" P G);
    expect_err_at(b.s, b.len, PT_ERR_LIMIT, 1, PT_MAX_LINE_BYTES + 1, __LINE__);
    free(b.s);
}
END_TEST

/* ---- robustness: mutated maps ----------------------------------------------------------- */

START_TEST(test_mutations) {
    /* Every mutant must load or fail with a located error (line >= 1, column within the line
     * or one past it), never crash, and leave the output zeroed on failure. ASan checks memory. */
    static const char alphabet[] = " \t\n\r=,#'\"~.:+E*-0123456789eax_";
    size_t base = strlen(rt_text);
    char *buf = malloc(base * 2 + 64);
    pt_rng rng;
    pt_rng_seed(&rng, 20240611, 7);
    int ok = 0, errors = 0, bad = 0;
    char first[256] = "";
    for (int iter = 0; iter < 600; iter++) {
        memcpy(buf, rt_text, base);
        size_t len = base;
        int edits = 1 + (int)pt_rng_below(&rng, 4);
        for (int k = 0; k < edits && len > 0; k++) {
            size_t at = pt_rng_below(&rng, (uint32_t)len);
            uint32_t op = pt_rng_below(&rng, 10);
            char c = op == 9 ? (char)(1 + pt_rng_below(&rng, 255)) : alphabet[pt_rng_below(&rng, sizeof alphabet - 1)];
            if (op < 4) buf[at] = c;                                   /* replace */
            else if (op < 6 && len < base * 2) {                       /* insert */
                memmove(buf + at + 1, buf + at, len - at);
                buf[at] = c;
                len++;
            } else if (op < 8) {                                       /* delete a run */
                size_t n = 1 + pt_rng_below(&rng, 8);
                if (n > len - at) n = len - at;
                memmove(buf + at, buf + at + n, len - at - n);
                len -= n;
            } else if (op == 8) len = at;                              /* truncate */
            else buf[at] = iter % 50 == 0 ? '\0' : c;                  /* odd bytes, a few NULs */
        }
        pt_map m;
        memset(&m, 0xAB, sizeof m);
        pt_error e;
        int rc = pt_map_parse(&m, buf, len, "mut.map", &e);
        const char *why = NULL;
        if (rc == PT_OK) {
            ok++;
            if (m.w < 1 || m.h < 1 || !pt_map_walkable(&m, m.player.x, m.player.y)) why = "loaded an invalid map";
            for (int i = 0; !why && i < m.nents; i++)
                if (!pt_map_walkable(&m, m.ents[i].x, m.ents[i].y)) why = "entity on a blocked tile";
            pt_map_fini(&m);
        } else {
            errors++;
            /* length of the error's line in the mutant (the reader drops one final CR) */
            int srclen = -1, line = 1;
            for (size_t i = 0, start = 0; i <= len; i++)
                if (i == len || buf[i] == '\n') {
                    if (line == e.line) {
                        srclen = (int)(i - start);
                        if (srclen > 0 && buf[i - 1] == '\r') srclen--;
                        break;
                    }
                    line++;
                    start = i + 1;
                }
            if (rc != e.code || strcmp(pt_code_name(rc), "unknown") == 0) why = "code";
            else if (e.line < 1) why = "no line";
            else if (srclen < 0 && !(e.line == line && rc == PT_ERR_NO_PLAYER)) why = "line past the end";
            else if (e.col < 1 || e.col > srclen + 1)
                why = "column outside the line";
            else if (!all_zero(&m, sizeof m)) why = "output not zeroed";
        }
        if (why && bad++ == 0)
            snprintf(first, sizeof first, "mutant %d: %s (%s at %d:%d: %.80s)", iter, why, pt_code_name(rc), e.line,
                     e.col, rc ? e.message : "");
    }
    free(buf);
    ck_assert_msg(bad == 0, "%d bad results, first: %s", bad, first);
    /* the mutations must exercise both outcomes */
    ck_assert_int_gt(ok, 10);
    ck_assert_int_gt(errors, 100);
}
END_TEST

/* ---- map.c utilities -------------------------------------------------------------------- */

START_TEST(test_blank_and_set) {
    pt_map m;
    pt_error e;
    ck_assert_int_eq(pt_map_init_blank(&m, 0, 5, &e), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_map_init_blank(&m, PT_MAP_MAX_W + 1, 1, &e), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_map_init_blank(&m, 4, 3, &e), PT_OK);
    ck_assert_int_eq(m.tile_px, 16);
    ck_assert(pt_map_walkable(&m, 3, 2));
    ck_assert(!pt_map_walkable(&m, 4, 2));
    ck_assert(pt_map_opaque(&m, -1, 0));
    ck_assert_int_eq(pt_map_set(&m, 1, 1, '#'), 1);
    ck_assert(!pt_map_walkable(&m, 1, 1));
    ck_assert(pt_map_opaque(&m, 1, 1));
    ck_assert_int_eq(pt_map_set(&m, 1, 1, 'Q'), 0);
    ck_assert_int_eq(pt_map_set(&m, 9, 1, '.'), 0);
    ck_assert_int_eq(m.goal, 0);
    ck_assert_int_eq(pt_map_set(&m, 2, 2, 'E'), 1);
    ck_assert_int_eq(m.goal, 1);
    ck_assert_str_eq(pt_kind_name(PT_KIND_BOID), "boid");
    ck_assert_str_eq(pt_chase_name(PT_CHASE_INTERCEPT), "intercept");
    ck_assert_str_eq(pt_kind_name((pt_kind)99), "unknown");
    pt_map_fini(&m);
    pt_map_fini(NULL);
}
END_TEST

static Suite *map_suite(void) {
    Suite *s = suite_create("map");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_grid_errors);
    tcase_add_test(core, test_player_errors);
    tcase_add_test(core, test_position_errors);
    tcase_add_test(core, test_key_errors);
    tcase_add_test(core, test_value_errors);
    tcase_add_test(core, test_tile_sound);
    tcase_add_test(core, test_io_and_binary);
    tcase_add_test(core, test_round_trip);
    tcase_add_test(core, test_defaults);
    tcase_add_test(core, test_demo_map);
    tcase_add_test(core, test_clone_deep);
    tcase_add_test(core, test_mutations);
    tcase_add_test(core, test_blank_and_set);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_limit_width);
    tcase_add_test(limits, test_limit_height);
    tcase_add_test(limits, test_limit_entities);
    tcase_add_test(limits, test_limit_obstacles);
    tcase_add_test(limits, test_limit_tiles_and_files);
    suite_add_tcase(s, limits);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(map_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
