/* SPDX-License-Identifier: Zlib */
/* Searching together (search.c; docs/ai.md, "Searching"): the world's one search around the
 * last known position, its area split among its members. Below the brain: the search puts
 * guards in the search state itself (pt__search_send) and never calls the brain. */
#ifndef PATROL_GUARDS_SEARCH_H
#define PATROL_GUARDS_SEARCH_H

#include "state/world_state.h"

/* Guard e (in search) searches around `at`: joins the world's search, starting one there
 * when none is on or `at` lies outside its area (the members then search the new area, and
 * the guards on their way to look at a place in it are sent to search it too). */
int pt__search_join(pt_world *w, const pt_entity *e, pt_cell at);
/* A search around `at` with no member yet (alone: each member covers the whole area). */
int pt__search_begin(pt_world *w, pt_cell at, int alone);
/* Guard e leaves the search (it left the search state). */
void pt__search_leave(pt_world *w, const pt_entity *e);
/* A guard taken out of the world (spawn.h): it leaves the search and its share of the area is
 * anyone's until the next split. */
void pt__search_forget(pt_world *w, const pt_entity *e);
/* Guard id owns an area cell or is a member (for tests of removes); 0 otherwise. */
int pt__search_knows(const pt_world *w, int id);
/* Marks the cells member e notices as searched and gives the cell it should walk to: 1; 0
 * when the search is over for e (covered, timed out, its own sweep done when alone, or
 * nothing left it can reach after it has walked some of the area); -1 when e has never had
 * a cell it can reach. */
int pt__search_step(pt_world *w, const pt_entity *e, pt_cell *goal);
/* Ends the world's search at once (the player starts again): its guards are no longer its
 * members; the caller moves them out of the search state. */
void pt__search_end(pt_world *w);
void pt__search_destroy(pt__search *s);
/* Writes the world's search to io, or reads it back into w (save and load, world/save.c):
 * whether there is one, its area, searched cells, shares and members. A reader fails io on a
 * value the search cannot hold. */
struct pt__io;
void pt__search_io(struct pt__io *io, pt_world *w);
/* Puts guard e in search around `at` as its last known position, ready to step the world's
 * search (pt_world_search_start, a search that grows over an investigating guard); a guard
 * in chase is left alone. */
void pt__search_send(pt_world *w, pt_entity *e, pt_cell at);

#endif
