/* SPDX-License-Identifier: Zlib */
/* play_menu.c - the screens around the levels (--levels, or no MAP): the title screen, the
 * level select with each level's best time and badges, the result after an escape. The
 * screen logic is levels.c's (app_menu, SDL-free); here it meets the session and SDL. */
#include "game/levels.h"
#include "game/play_ui.h"
#include "game/progress.h"

#include <SDL.h>

#include <patrol/render.h>

#include <stdio.h>
#include <string.h>

/* Opens level i of the list into s: a fresh round, recorded when played (--record; a level
 * behind a menu is not, so the recording keeps the last round played). On failure (the file
 * changed since the list was read) s keeps what it had and the error is printed. */
static int open_level(play_session *s, play_menus *pm, int i, const play_opts *o, app_rec *rec, int played) {
    static play_session next; /* large: not on the stack */
    pt_error err;
    if (play_open(&next, pm->levels.items[i].path, &err) < 0) {
        pt_error_print(stderr, &err);
        return -1;
    }
    if (played && o->record && play_record(&next, rec, &err) < 0) {
        pt_error_print(stderr, &err);
        play_close(&next);
        return -1;
    }
    play_close(s);
    *s = next;
    play_set_logs(s, o);
    pm->shown = i;
    return 0;
}

#define MENU_NOTE_S 2.5 /* a note in a menu's footer stays this long */

static const char *screen_name(app_screen sc) {
    static const char *const names[] = {"title", "levels", "play", "result", "quit"};
    return (unsigned)sc < sizeof names / sizeof names[0] ? names[sc] : "?";
}

static void badge_words(char *buf, size_t cap, int ghost, int calm, int no_stones) {
    snprintf(buf, cap, "%s%s%s%s%s", ghost ? "GHOST" : "", ghost && (calm || no_stones) ? " " : "", calm ? "CALM" : "",
             calm && no_stones ? " " : "", no_stones ? "NO-STONES" : "");
}

/* The menu of the screen shown, from the state (the same for drawing and for the mouse). */
void play_menu_build(play_menus *pm, const play_session *s, const play_ui *ui, double now, pt_menu *m) {
    const app_menu *mn = &pm->menu;
    *m = (pt_menu){.selected = app_menu_selected(mn), .time = now};
    if (mn->screen == APP_SCREEN_TITLE) {
        m->title = "PATROL";
        m->subtitle = "a stealth game\n"
                      "slip past the guards to the exit - unseen if you can\n"
                      "\n"
                      "arrows/WASD move   Shift run   Ctrl/C sneak   Space/click throw a stone";
        m->prompt = "press Enter";
        m->footer = "Enter start   F1 all keys   M sound   Esc quit";
    } else if (mn->screen == APP_SCREEN_LEVELS) {
        int escaped = 0;
        for (int i = 0; i < pm->levels.n; i++) {
            const app_level_item *it = &pm->levels.items[i];
            const app_level_best *b = app_progress_find(&pm->progress, it->hash);
            app_level_label(&pm->levels, i, pm->label[i], sizeof pm->label[i]);
            pm->marks[i][0] = '\0';
            if (b) {
                escaped++;
                play_fmt_clock(pm->detail[i], sizeof pm->detail[i], b->best_ms / 1000.0);
                badge_words(pm->marks[i], sizeof pm->marks[i], b->ghost, b->calm, b->no_stones);
            } else {
                snprintf(pm->detail[i], sizeof pm->detail[i], "new");
            }
            pm->rows[i] = (pt_menu_row){pm->label[i], pm->detail[i], pm->marks[i][0] ? pm->marks[i] : NULL, !b};
        }
        snprintf(pm->subtitle, sizeof pm->subtitle,
                 "%d of %d escaped   best times and badges:\n"
                 "GHOST never spotted   CALM no alarm   NO-STONES none thrown",
                 escaped, pm->levels.n);
        m->title = "CHOOSE A LEVEL";
        m->subtitle = pm->subtitle;
        m->rows = pm->rows;
        m->nrows = pm->levels.n;
        m->footer = "Up/Down choose   Enter play   (or click a level)   F1 keys   Esc title";
    } else if (mn->screen == APP_SCREEN_RESULT) {
        char clock[64], old[64], best[80], badges[48];
        play_fmt_clock(clock, sizeof clock, ui->last_ms / 1000.0);
        play_fmt_clock(old, sizeof old, ui->last_old_ms / 1000.0);
        if (ui->last_new_best && ui->last_old_ms >= 0) snprintf(best, sizeof best, "NEW BEST!");
        else if (ui->last_old_ms >= 0) snprintf(best, sizeof best, "best %s", old);
        else if (ui->last_new_best) snprintf(best, sizeof best, "first escape!");
        else best[0] = '\0';
        int ghost, calm, no_stones;
        play_badges(s, &ghost, &calm, &no_stones);
        badge_words(badges, sizeof badges, ghost, calm, no_stones);
        char rest[256];
        snprintf(rest, sizeof rest, "time %s   %s\nbadges: %s", clock, best, badges[0] ? badges : "none this time");
        int escaped = 0; /* levels escaped so far, this one counted (the list's progress + this round) */
        for (int i = 0; i < pm->levels.n; i++)
            escaped += i == mn->level || app_progress_find(&pm->progress, pm->levels.items[i].hash) != NULL;
        m->title = app_result_text(&pm->levels, mn->level, play_level_title(s), rest, escaped, pm->subtitle,
                                   sizeof pm->subtitle);
        m->subtitle = pm->subtitle;
        int n = app_menu_rows(mn);
        for (int i = 0; i < n; i++) {
            app_result_choice c = app_menu_choice_at(mn, i);
            if (c == APP_RESULT_NEXT)
                snprintf(pm->label[i], sizeof pm->label[i], "next: %s", pm->levels.items[mn->level + 1].title);
            else snprintf(pm->label[i], sizeof pm->label[i], "%s", c == APP_RESULT_RETRY ? "play again" : "level list");
            pm->rows[i] = (pt_menu_row){pm->label[i], NULL, NULL, 0};
        }
        m->rows = pm->rows;
        m->nrows = n;
        m->footer = "Up/Down choose   Enter ok   Esc level list";
    }
    if (ui->note[0] && now < ui->note_until) m->footer = ui->note; /* M just pressed: what it did */
}

/* Acts on what the menu says: start a level, show another one behind the list, quit. */
void play_menu_did(play_menus *pm, app_menu_do d, play_session *s, play_ui *ui, const play_opts *o, app_rec *rec,
                     int *running) {
    app_menu *mn = &pm->menu;
    if (d == APP_MENU_NOTHING) return;
    if (ui->log && d != APP_MENU_MOVED) fprintf(ui->log, "screen %s\n", screen_name(mn->screen)), fflush(ui->log);
    if (mn->screen == APP_SCREEN_QUIT) {
        *running = 0;
        return;
    }
    pm->escaped_at = -1;
    if (d == APP_MENU_START) {
        if (open_level(s, pm, mn->level, o, rec, 1) < 0) {
            mn->screen = APP_SCREEN_LEVELS;
            return;
        }
        ui->paused = 0;
        ui->help = 0;
        ui->best[0] = '\0';
        if (ui->log) fprintf(ui->log, "level %d %s\n", mn->level + 1, s->path), fflush(ui->log);
        return;
    }
    if (mn->screen == APP_SCREEN_LEVELS) {
        if (d == APP_MENU_SHOW && ui->progress_path[0]) app_progress_load(&pm->progress, ui->progress_path, stderr);
        /* Behind the list: the level selected, its guards walking - a fresh round when the
         * one shown has ended (a world after a catch or an escape stands still), not paused. */
        if (pm->shown != mn->level || s->round != 0) open_level(s, pm, mn->level, o, rec, 0);
        ui->paused = 0;
    }
}

static int menu_input_of(SDL_Keycode sym, app_menu_input *in) {
    switch (sym) {
    case SDLK_UP: case SDLK_w: case SDLK_KP_8: *in = APP_MENU_UP; return 1;
    case SDLK_DOWN: case SDLK_s: case SDLK_KP_2: *in = APP_MENU_DOWN; return 1;
    case SDLK_HOME: case SDLK_PAGEUP: *in = APP_MENU_HOME; return 1;
    case SDLK_END: case SDLK_PAGEDOWN: *in = APP_MENU_END; return 1;
    case SDLK_RETURN: case SDLK_KP_ENTER: case SDLK_SPACE: *in = APP_MENU_ENTER; return 1;
    case SDLK_ESCAPE: case SDLK_BACKSPACE: *in = APP_MENU_BACK; return 1;
    default: return 0;
    }
}

/* An event while a menu shows. */
void play_menu_event(play_menus *pm, const SDL_Event *e, play_session *s, play_ui *ui, const play_opts *o,
                       app_rec *rec, SDL_Window *win, SDL_Renderer *sdl, double now, int *running) {
    app_menu_input in;
    if (e->type == SDL_KEYDOWN) {
        SDL_Keycode sym = e->key.keysym.sym;
        if (sym == SDLK_F1 || sym == SDLK_h) {
            ui->help = !ui->help;
            ui->frame.help_page = 0;
            play_ui_log(ui, "help %s", ui->help ? "on" : "off");
        } else if (ui->help && sym == SDLK_ESCAPE) {
            ui->help = 0;
            play_ui_log(ui, "help %s", "off");
        } else if (sym == SDLK_F11 && !e->key.repeat) {
            play_toggle_fullscreen(ui, win);
        } else if (sym == SDLK_m && !e->key.repeat) {
            app_audio_mute(ui->audio, !app_audio_muted(ui->audio));
            play_ui_log(ui, "sound %s", app_audio_muted(ui->audio) ? "off" : "on");
            play_sound_note(ui, ui->note, sizeof ui->note);
            ui->note_until = now + MENU_NOTE_S;
        } else if (play_help_key(ui, sym)) {
            /* a page of the help turned */
        } else if (!ui->help && menu_input_of(sym, &in)) {
            play_menu_did(pm, app_menu_key(&pm->menu, in), s, ui, o, rec, running);
        }
    } else if ((e->type == SDL_MOUSEMOTION || (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT)) &&
               !ui->help) {
        int click = e->type == SDL_MOUSEBUTTONDOWN;
        int mx = click ? e->button.x : e->motion.x, my = click ? e->button.y : e->motion.y, ow = 0, oh = 0;
        play_to_output(win, sdl, &mx, &my);
        SDL_GetRendererOutputSize(sdl, &ow, &oh);
        pt_menu m;
        play_menu_build(pm, s, ui, now, &m);
        int row = pt_menu_row_at(&m, 0, 0, ow, oh, mx, my);
        play_menu_did(pm, app_menu_point(&pm->menu, row, click), s, ui, o, rec, running);
    }
}
