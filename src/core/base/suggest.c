/* SPDX-License-Identifier: Zlib */
/* "Did you mean": the nearest known name to an unknown one, for every "unknown X" message. */
#include <stdio.h>
#include <string.h>

#include <patrol/error.h>   /* pt_suggest: its public declaration makes it exported */

#include "base/suggest.h"

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* Optimal string alignment distance (Damerau-Levenshtein without re-editing a transposed
 * pair), case ignored: "Guard" is a typo of "guard". Names are short; longer ones than the
 * buffer are never suggested. */
static int distance(const char *a, int n, const char *b, int m) {
    enum { MAXN = 64 };
    if (n >= MAXN || m >= MAXN) return 1 << 20;
    int d[MAXN + 1][MAXN + 1];
    for (int i = 0; i <= n; i++) d[i][0] = i;
    for (int j = 0; j <= m; j++) d[0][j] = j;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            int cost = lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]);
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && lower((unsigned char)a[i - 1]) == lower((unsigned char)b[j - 2]) &&
                lower((unsigned char)a[i - 2]) == lower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

void pt__suggest_init(pt__suggest *s, const char *word, size_t len) {
    s->word = word;
    s->len = len > 1000 ? 1000 : (int)len;
    s->best[0] = '\0';
    s->best_d = 1 << 20;
}

void pt__suggest_addn(pt__suggest *s, const char *cand, size_t len) {
    if (!cand || !len || len >= sizeof s->best) return;
    if ((size_t)s->len == len && memcmp(cand, s->word, len) == 0) return; /* the word itself is not news */
    int d = distance(s->word, s->len, cand, (int)len);
    /* A typo, not another word: about one edit in three letters, and never all of it. */
    int limit = s->len / 3 > 1 ? s->len / 3 : 1;
    if (d > limit || d >= s->len || d >= (int)len || d >= s->best_d) return;
    memcpy(s->best, cand, len);
    s->best[len] = '\0';
    s->best_d = d;
}

void pt__suggest_add(pt__suggest *s, const char *cand) {
    if (cand) pt__suggest_addn(s, cand, strlen(cand));
}

void pt__suggest_words(pt__suggest *s, const char *const *words) {
    for (int i = 0; words[i]; i++) pt__suggest_add(s, words[i]);
}

void pt__suggest_list(pt__suggest *s, const char *list) {
    const char *p = list;
    while (*p) {
        while (*p == ' ' || *p == ',') p++;
        size_t n = strcspn(p, ", ");
        if (n) pt__suggest_addn(s, p, n);
        p += n;
    }
}

const char *pt__suggest_text(const pt__suggest *s) { return s->best[0] ? s->best : NULL; }

const char *pt__suggest_hint(const pt__suggest *s, const char *otherwise, char *buf, size_t cap) {
    if (s->best[0]) snprintf(buf, cap, "; did you mean '%s'?", s->best);
    else snprintf(buf, cap, "%s", otherwise ? otherwise : "");
    return buf;
}

const char *pt_suggest(const char *word, size_t len, const char *list, char *buf, size_t cap) {
    if (!word || !list || !buf || !cap) return NULL;
    pt__suggest s;
    pt__suggest_init(&s, word, len);
    pt__suggest_list(&s, list);
    if (!s.best[0]) return NULL;
    snprintf(buf, cap, "%s", s.best);
    return buf;
}
