/* SPDX-License-Identifier: Zlib */
/* suggest.h - "did you mean" for every unknown name (not installed). */
#ifndef PATROL_BASE_SUGGEST_H
#define PATROL_BASE_SUGGEST_H

#include <stddef.h>

/* Keeps the candidate nearest to word (edit distance with transpositions, case ignored) if it
 * is near enough to be a typo of it: at most one edit per three letters of word. */
typedef struct pt__suggest {
    const char *word;
    int len;
    char best[64];
    int best_d;
} pt__suggest;
void pt__suggest_init(pt__suggest *s, const char *word, size_t len);
void pt__suggest_add(pt__suggest *s, const char *cand);
void pt__suggest_addn(pt__suggest *s, const char *cand, size_t len);
void pt__suggest_words(pt__suggest *s, const char *const *words); /* NULL-terminated */
void pt__suggest_list(pt__suggest *s, const char *list);          /* "a, b, c" */
/* The suggestion, or NULL when no candidate is near enough. */
const char *pt__suggest_text(const pt__suggest *s);
/* The end of an "unknown X" message: "; did you mean 'X'?" when there is a suggestion, else
 * otherwise (e.g. " (keys: a, b)"; NULL = nothing), written to buf. */
const char *pt__suggest_hint(const pt__suggest *s, const char *otherwise, char *buf, size_t cap);

#endif
