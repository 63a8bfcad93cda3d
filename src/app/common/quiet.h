/* SPDX-License-Identifier: Zlib */
/* quiet.h - stderr silenced around a library call that prints its own errors there (ALSA's
 * library when SDL opens a sound device that is not there, libwayland's XDG_RUNTIME_DIR line
 * when SDL tries a Wayland display): patrol prints its own one line about it instead.
 *
 *     int saved = app_quiet_begin();
 *     SDL_InitSubSystem(SDL_INIT_AUDIO);
 *     app_quiet_end(saved);
 *
 * What the call writes to file descriptor 2 meanwhile goes to /dev/null. */
#ifndef PATROL_APP_QUIET_H
#define PATROL_APP_QUIET_H

/* Points fd 2 at /dev/null; returns a copy of the old fd 2 for app_quiet_end (-1 when nothing
 * could be done: stderr stays as it was). PATROL_VERBOSE_SDL=1 in the environment keeps
 * stderr (returns -1), to see what the libraries say. */
int app_quiet_begin(void);
/* Puts fd 2 back (saved from app_quiet_begin; -1 does nothing). */
void app_quiet_end(int saved);

#endif
