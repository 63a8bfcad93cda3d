/* SPDX-License-Identifier: Zlib */
/* Which kind of patrol file a path is (patrol/level.h): by its extension, else by the first word
 * of its first significant line; and the errors of a file given where another kind was due. */
#include <patrol/level.h>

#include <stdio.h>
#include <string.h>

/* path ends in ext, ASCII letters in any case. */
static int ext_is(const char *path, const char *ext) {
    size_t n = strlen(path), e = strlen(ext);
    if (n <= e) return 0;
    for (size_t i = 0; i < e; i++) {
        unsigned char a = (unsigned char)path[n - e + i], b = (unsigned char)ext[i];
        if (a >= 'A' && a <= 'Z') a = (unsigned char)(a - 'A' + 'a');
        if (a != b) return 0;
    }
    return 1;
}

/* The first significant line of a file: its number, its first word copied to word, the line
 * itself to src (may be NULL). 0 when there is none (empty, unreadable). */
static int first_word(const char *path, char *word, size_t cap, int *line_no, int *col, char *src, size_t src_cap) {
    FILE *f = pt_file_open(path, NULL); /* not a FIFO or /proc/kmsg: the loader says why */
    if (!f) return 0;
    char line[512];
    int no = 0, found = 0;
    /* Only the head of the file: a kind shows in its first lines, and a binary file must not
     * cost a full read. */
    while (!found && no < 200 && fgets(line, sizeof line, f)) {
        no++;
        const char *s = line;
        if (no == 1 && (unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb && (unsigned char)s[2] == 0xbf)
            s += 3;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || *s == '\n' || *s == '\r' || *s == '#') continue;
        if (s[0] == '<' && (s[1] == '?' || s[1] == '!')) continue; /* the XML declaration, a DOCTYPE */
        size_t n = s[0] == '<'                   ? 1 + strcspn(s + 1, " \t\r\n>/")
                   : s[0] == '"' || s[0] == '\'' ? 1 + strcspn(s + 1, s[0] == '"' ? "\"\r\n" : "'\r\n") + 1
                                                  : strcspn(s, " \t\r\n");
        if (s[0] == '"' || s[0] == '\'') { /* a quoted word: without its quotes */
            s++;
            n -= 2;
        }
        if (n >= cap) n = cap - 1;
        memcpy(word, s, n);
        word[n] = '\0';
        *line_no = no;
        *col = (int)(s - line) + 1;
        if (src) snprintf(src, src_cap, "%.*s", (int)strcspn(line, "\r\n"), line);
        found = 1;
    }
    fclose(f);
    return found;
}

/* The kind a file's first word shows; `other` for a word no kind begins with (a map's usual
 * first directives name a map). */
static pt_file_kind kind_of_word(const char *w, pt_file_kind other) {
    if (!strcmp(w, "pattern")) return PT_FILE_PAT;
    if (!strcmp(w, "set") || !strcmp(w, "entity")) return PT_FILE_STEER;
    if (!strcmp(w, "<tileset")) return PT_FILE_TSX;
    if (!strcmp(w, "<map")) return PT_FILE_TMX;
    /* A test file's own words (its `seed` and `patterns` are a map's too). */
    static const char *const test_words[] = {"map", "visits", "stays", "covers", "unseen", "caught", "goal", "solvable"};
    for (size_t i = 0; i < sizeof test_words / sizeof test_words[0]; i++)
        if (!strcmp(w, test_words[i])) return PT_FILE_TEST;
    if (!strcmp(w, "patrol-recording")) return PT_FILE_REC;
    if (!strcmp(w, "at")) return PT_FILE_SCRIPT;
    if (ext_is(w, ".map") || ext_is(w, ".tmx")) return PT_FILE_LEVELS; /* a level list names maps */
    static const char *const map_words[] = {"format", "title", "tile_size", "tile", "grid", "player", "guard"};
    for (size_t i = 0; i < sizeof map_words / sizeof map_words[0]; i++)
        if (!strcmp(w, map_words[i])) return PT_FILE_MAP;
    return other;
}

static int ext_kind(const char *path, pt_file_kind *k) {
    static const struct { const char *ext; pt_file_kind kind; } exts[] = {
        {".map", PT_FILE_MAP}, {".tmx", PT_FILE_TMX}, {".tsx", PT_FILE_TSX},
        {".pat", PT_FILE_PAT}, {".steer", PT_FILE_STEER}, {".test", PT_FILE_TEST}, {".rec", PT_FILE_REC},
        {".script", PT_FILE_SCRIPT},
    };
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (ext_is(path, exts[i].ext)) {
            *k = exts[i].kind;
            return 1;
        }
    return 0;
}

/* A file's kind: its first word's where that word belongs to one kind (a test file named .map
 * is a test file), else its extension's, else `fallback`. The first word goes to w, its place to
 * line and col, its line to src; *seen says whether there was one. */
static pt_file_kind kind_read(const char *path, pt_file_kind fallback, int *seen, char *w, size_t cap, int *line,
                               int *col, char *src, size_t src_cap) {
    pt_file_kind k = fallback;
    ext_kind(path, &k);
    *seen = first_word(path, w, cap, line, col, src, src_cap);
    return *seen ? kind_of_word(w, k) : k;
}

pt_file_kind pt_file_kind_of(const char *path) {
    char w[256];
    int seen, line, col;
    return kind_read(path, PT_FILE_MAP, &seen, w, sizeof w, &line, &col, NULL, 0);
}

const char *pt_file_kind_name(pt_file_kind k) {
    switch (k) {
    case PT_FILE_TMX: return "Tiled map";
    case PT_FILE_TSX: return "Tiled tileset";
    case PT_FILE_PAT: return "pattern file";
    case PT_FILE_STEER: return "steering file";
    case PT_FILE_TEST: return "test file";
    case PT_FILE_REC: return "recording";
    case PT_FILE_LEVELS: return "level list";
    case PT_FILE_SCRIPT: return "script";
    case PT_FILE_MAP:
    case PT_FILE_KIND_COUNT: break;
    }
    return "map";
}

/* The located "this is a KIND" error: at the file's first word when there is one. */
static int wrong_kind(const char *path, pt_file_kind k, int seen, const char *w, int line, int col, const char *src,
                      const char *rest, pt_error *err) {
    pt_error_clear(err);
    pt_error_set(err, PT_ERR_BAD_VALUE, seen ? line : 0, seen ? col : 0, "this is a %s%s%s%s; %s", pt_file_kind_name(k),
                 seen ? " (it begins with '" : "", seen ? w : "", seen ? "')" : "", rest);
    if (err) {
        snprintf(err->file, sizeof err->file, "%s", path);
        snprintf(err->source, sizeof err->source, "%s", src);
    }
    return PT_ERR_BAD_VALUE;
}

int pt_level_expect_map(const char *path, pt_error *err) {
    char w[256] = "";
    int seen, line = 0, col = 0;
    char src[PT_ERROR_SRC_MAX] = "";
    pt_file_kind k = kind_read(path, PT_FILE_MAP, &seen, w, sizeof w, &line, &col, src, sizeof src);
    if (k == PT_FILE_MAP || k == PT_FILE_TMX) return PT_OK; /* the loader says the rest */
    return wrong_kind(path, k, seen, w, line, col, src,
                      "a map starts with 'format 1' and has a 'grid' block, or is a Tiled .tmx", err);
}

int pt_level_expect_pattern(const char *path, const char *instead, pt_error *err) {
    char w[256] = "";
    int seen, line = 0, col = 0;
    char src[PT_ERROR_SRC_MAX] = "";
    /* A word no kind begins with: the pattern loader reports it itself. */
    pt_file_kind k = kind_read(path, PT_FILE_PAT, &seen, w, sizeof w, &line, &col, src, sizeof src);
    if (k == PT_FILE_PAT) return PT_OK;
    char rest[PT_ERROR_MSG_MAX];
    snprintf(rest, sizeof rest, "a pattern file starts with 'pattern NAME'%s%s", instead ? "; " : "", instead ? instead : "");
    return wrong_kind(path, k, seen, w, line, col, src, rest, err);
}

int pt_file_is_map(const char *path) {
    pt_file_kind k = pt_file_kind_of(path);
    return k == PT_FILE_MAP || k == PT_FILE_TMX;
}
