/* SPDX-License-Identifier: Zlib */
/* The keys of entity declarations, shared by the .map parser and the Tiled loader so that a
 * key, its range and the kinds it applies to are defined once. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "map/keys.h"

enum { K_P = 1 << PT_KIND_PLAYER, K_G = 1 << PT_KIND_GUARD, K_R = 1 << PT_KIND_PREY, K_F = 1 << PT_KIND_BOID };
enum { BOTH = PT__EK_MAP | PT__EK_TMX };

const pt__entity_key pt__entity_keys[] = {
    {"at", PT__KT_AT, K_P | K_G | K_R | K_F, PT__EK_MAP, 0, 0, 0, 0},
    {"speed", PT__KT_POS, K_P | K_G | K_R | K_F, BOTH, offsetof(pt_entity_def, speed), 0, 0, 50},
    {"heading", PT__KT_NUM, K_P | K_G | K_R | K_F, BOTH, offsetof(pt_entity_def, heading_deg), 0, -360, 360},
    {"pattern", PT__KT_NAME, K_P | K_G, BOTH, offsetof(pt_entity_def, pattern), PT_MAX_PATH, 0, 0},
    {"route", PT__KT_ROUTE, K_P | K_G, PT__EK_TMX, 0, 0, 0, 0},
    {"origin", PT__KT_ORIGIN, K_P | K_G, BOTH, 0, 0, 0, 0},
    {"view", PT__KT_POS, K_G | K_R | K_F, BOTH, offsetof(pt_entity_def, view_dist), 0, 0, 256},
    {"fov", PT__KT_POS, K_G | K_R | K_F, BOTH, offsetof(pt_entity_def, view_angle_deg), 0, 0, 360},
    {"chase", PT__KT_CHASE, K_G, BOTH, 0, 0, 0, 0},
    {"aware_rate", PT__KT_POS, K_G, BOTH, offsetof(pt_entity_def, aware_rate), 0, 0, 100},
    {"aware_decay", PT__KT_POS, K_G, BOTH, offsetof(pt_entity_def, aware_decay), 0, 0, 100},
    {"suspicious_at", PT__KT_POS, K_G, BOTH, offsetof(pt_entity_def, suspicious_at), 0, 0, 100},
    {"chase_at", PT__KT_POS, K_G, BOTH, offsetof(pt_entity_def, chase_at), 0, 0, 100},
    {"hearing", PT__KT_POS, K_G, BOTH, offsetof(pt_entity_def, hearing), 0, 0, 256},
    {"shout", PT__KT_POS, K_G, BOTH, offsetof(pt_entity_def, shout), 0, 0, 256},
    {"radio", PT__KT_NAME, K_G, BOTH, offsetof(pt_entity_def, radio), PT_MAX_NAME, 0, 0},
    {"memory", PT__KT_POS, K_G, BOTH, offsetof(pt_entity_def, memory), 0, 0, 600},
    {"lantern", PT__KT_POS, K_G, BOTH, offsetof(pt_entity_def, lantern), 0, 0, 32}, /* PT__LIGHT_MAX_RADIUS */
    {"steering", PT__KT_NAME, K_G | K_R | K_F, BOTH, offsetof(pt_entity_def, steering), PT_MAX_NAME, 0, 0},
    {"count", PT__KT_INT, K_F, BOTH, offsetof(pt_entity_def, count), 0, 1, PT_MAX_ENTITIES},
    {"kind", PT__KT_FLOCK, K_F, BOTH, 0, 0, 0, 0},
};
const int pt__entity_nkeys = (int)(sizeof pt__entity_keys / sizeof pt__entity_keys[0]);

const char *const pt__chase_words[] = {"tile", "steer", "intercept", NULL};
const char *const pt__flock_words[] = {"hound", "crow", NULL};

int pt__entity_key_find(const char *name, size_t len, pt_kind kind, unsigned format) {
    for (int i = 0; i < pt__entity_nkeys; i++) {
        const pt__entity_key *k = &pt__entity_keys[i];
        if (!(k->kinds & (1u << kind)) || !(k->formats & format)) continue;
        if (strlen(k->name) == len && memcmp(k->name, name, len) == 0) return i;
    }
    return -1;
}

void pt__entity_key_list(pt_kind kind, unsigned format, char *buf, size_t cap) {
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < pt__entity_nkeys; i++) {
        const pt__entity_key *k = &pt__entity_keys[i];
        if (!(k->kinds & (1u << kind)) || !(k->formats & format)) continue;
        int n = snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", k->name);
        if (n > 0 && used + (size_t)n < cap) used += (size_t)n;
    }
}

int pt__entity_key_elsewhere(const char *name, size_t len, unsigned format, char *buf, size_t cap) {
    /* The words a map declares them by: boids are declared by `flock` lines. */
    static const char *const word[PT_KIND_COUNT] = {"player", "guard", "prey", "flock"};
    unsigned kinds = 0;
    for (int i = 0; i < pt__entity_nkeys; i++)
        if ((pt__entity_keys[i].formats & format) && strlen(pt__entity_keys[i].name) == len &&
            memcmp(pt__entity_keys[i].name, name, len) == 0)
            kinds |= pt__entity_keys[i].kinds;
    buf[0] = '\0';
    if (!kinds) return 0;
    int n = 0, total = 0;
    for (int k = 0; k < PT_KIND_COUNT; k++) total += (kinds >> k) & 1;
    size_t used = (size_t)snprintf(buf, cap, " (only a");
    for (int k = 0; k < PT_KIND_COUNT && used < cap; k++) {
        if (!((kinds >> k) & 1)) continue;
        const char *sep = n == 0 ? " " : n == total - 1 ? " or " : ", ";
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", sep, word[k]);
        n++;
    }
    if (used < cap) snprintf(buf + used, cap - used, " has it)");
    return 1;
}
