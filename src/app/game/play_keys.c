/* SPDX-License-Identifier: Zlib */
/* play_keys.c - the window's input during a round: keys (movement by scancode, commands by
 * the letter printed), a replay's keys, the click that throws, F11, and reloads. */
#include "game/play_ui.h"

#include <SDL.h>

#include <patrol/render.h>
#include <patrol/world.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

const double play_speeds[PLAY_NSPEEDS] = {0.25, 0.5, 1.0, 2.0, 4.0};

#define ERROR_SECONDS 8.0 /* a reload error box stays this long (or until a key) */

void play_ui_log(const play_ui *ui, const char *fmt, const char *arg) {
    if (!ui->log) return;
    fprintf(ui->log, fmt, arg);
    fputc('\n', ui->log);
    fflush(ui->log);
}

/* Sneaking wins when both are held: the quiet choice is the safe one. */
pt_gait play_held_gait(void) {
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    SDL_Keymod mod = SDL_GetModState();
    if ((mod & KMOD_CTRL) || k[SDL_SCANCODE_C]) return PT_GAIT_SNEAK;
    if (mod & KMOD_SHIFT) return PT_GAIT_RUN;
    return PT_GAIT_WALK;
}

void play_held_direction(int *dx, int *dy) {
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    *dx = (k[SDL_SCANCODE_RIGHT] || k[SDL_SCANCODE_D]) - (k[SDL_SCANCODE_LEFT] || k[SDL_SCANCODE_A]);
    *dy = (k[SDL_SCANCODE_DOWN] || k[SDL_SCANCODE_S]) - (k[SDL_SCANCODE_UP] || k[SDL_SCANCODE_W]);
}

static void toggle_overlay(play_ui *ui, unsigned bit) {
    ui->frame.overlays ^= bit;
    if (ui->log) {
        fprintf(ui->log, "overlay %s %s\n", pt_overlay_name(bit), ui->frame.overlays & bit ? "on" : "off");
        fflush(ui->log);
    }
}

/* Replay: to world tick `to` (at most the recording's end). Back in time is a restart and
 * the ticks again: the world is deterministic, and a run of a few thousand ticks is quick. */
void play_replay_jump(play_session *s, const play_ui *ui, uint64_t to) {
    pt_error err;
    if (to > s->replay->ticks) to = s->replay->ticks;
    if (to < pt_world_tick(s->world) && play_restart(s, &err) < 0) {
        pt_error_print(stderr, &err);
        return;
    }
    while (pt_world_tick(s->world) < to && s->round == 0 && !play_replay_done(s)) play_tick(s, 0, 0);
    if (ui->log) fprintf(ui->log, "tick %llu\n", (unsigned long long)pt_world_tick(s->world)), fflush(ui->log);
}

/* After F5 or a --watch reload (rc < 0: failed, the game goes on as it was). */
void play_reloaded(const play_session *s, play_ui *ui, int rc, const pt_error *err, double now) {
    if (rc < 0) {
        fprintf(stderr, "patrol play: reload failed; the game goes on with the last good version\n");
        pt_error_print(stderr, err);
        ui->error = *err;
        ui->error_until = now + ERROR_SECONDS;
    } else {
        fprintf(stderr, "patrol play: reloaded %s\n", s->path);
        ui->error_until = 0;
    }
}

/* Window points -> output pixels (a high-DPI window has more pixels than points). */
void play_to_output(SDL_Window *win, SDL_Renderer *sdl, int *x, int *y) {
    int ww = 0, wh = 0, ow = 0, oh = 0;
    SDL_GetWindowSize(win, &ww, &wh);
    SDL_GetRendererOutputSize(sdl, &ow, &oh);
    if (ww > 0 && wh > 0) {
        *x = (int)((long)*x * ow / ww);
        *y = (int)((long)*y * oh / wh);
    }
}

/* A left click: a stone toward the cell under the pointer (window points -> output pixels). */
void play_click_throw(play_session *s, const play_ui *ui, SDL_Window *win, SDL_Renderer *sdl, int mx, int my) {
    int cx, cy;
    play_to_output(win, sdl, &mx, &my);
    if (play_frame_pick(&ui->frame, mx, my, &cx, &cy)) play_throw(s, cx, cy, NULL, NULL); /* logged by the session */
}

/* F11. Under X11 SDL's fullscreen asks the window manager (_NET_WM_STATE); without one (a
 * bare Xvfb, a kiosk) SDL then believed the window as large as the screen while X kept it
 * as it was, and the HUD was drawn for a size nobody saw. There a borderless window moved
 * and sized to the display by hand is the same to a user, with or without a manager. */
void play_toggle_fullscreen(play_ui *ui, SDL_Window *win) {
    const char *drv = SDL_GetCurrentVideoDriver();
    int by_hand = drv && strcmp(drv, "x11") == 0;
    ui->fullscreen = !ui->fullscreen;
    if (!by_hand) {
        SDL_SetWindowFullscreen(win, ui->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
    } else if (ui->fullscreen) {
        SDL_GetWindowPosition(win, &ui->saved.x, &ui->saved.y);
        SDL_GetWindowSize(win, &ui->saved.w, &ui->saved.h);
        SDL_Rect b;
        int d = SDL_GetWindowDisplayIndex(win);
        if (SDL_GetDisplayBounds(d < 0 ? 0 : d, &b) != 0) b = (SDL_Rect){0, 0, ui->saved.w, ui->saved.h};
        SDL_SetWindowBordered(win, SDL_FALSE);
        SDL_SetWindowPosition(win, b.x, b.y);
        SDL_SetWindowSize(win, b.w, b.h);
    } else {
        SDL_SetWindowBordered(win, SDL_TRUE);
        SDL_SetWindowSize(win, ui->saved.w, ui->saved.h);
        SDL_SetWindowPosition(win, ui->saved.x, ui->saved.y);
    }
    play_ui_log(ui, "fullscreen %s", ui->fullscreen ? "on" : "off");
}

int play_help_key(play_ui *ui, int sym) {
    if (!ui->help) return 0;
    if (sym == SDLK_UP || sym == SDLK_PAGEUP || sym == SDLK_KP_8) ui->frame.help_page--;
    else if (sym == SDLK_DOWN || sym == SDLK_PAGEDOWN || sym == SDLK_KP_2) ui->frame.help_page++;
    else return 0;
    return 1;
}

void play_sound_note(const play_ui *ui, char *buf, size_t cap) {
    snprintf(buf, cap, "%s - volume %d/10%s", app_audio_muted(ui->audio) ? "sound off" : "sound on",
             app_audio_volume(ui->audio, 0), app_audio_live(ui->audio) ? "" : " (no sound device)");
}

/* M, [ and ] in a round: the sound's state on screen, as a note. */
static void sound_note(play_session *s, const play_ui *ui) {
    char text[64];
    play_sound_note(ui, text, sizeof text);
    play_note(s, 0xa0c8ffffu, text);
}

/* Acts on a key press. Movement goes by physical position (scancodes: WASD wherever the
 * layout puts those letters), commands by the letter they print. */
int play_handle_key(play_session *s, play_ui *ui, SDL_Window *win, const SDL_KeyboardEvent *k, double now) {
    if (k->repeat) return PLAY_KEY_GO_ON;
    if (ui->error_until > 0 && k->keysym.sym != SDLK_F5) ui->error_until = 0; /* any key hides the box */
    if (play_help_key(ui, k->keysym.sym)) return PLAY_KEY_GO_ON;
    if (s->replay) { /* a replay's keys: the arrows and Home/End move through the recording */
        uint64_t now_t = pt_world_tick(s->world), step = 60, to;
        SDL_Keycode sym = k->keysym.sym;
        int key = sym >= SDLK_0 && sym <= SDLK_9     ? '0' + (int)(sym - SDLK_0)
                  : sym >= SDLK_KP_1 && sym <= SDLK_KP_9 ? '1' + (int)(sym - SDLK_KP_1)
                  : sym == SDLK_KP_0                 ? '0'
                  : sym == SDLK_BACKSPACE            ? '\b'
                  : sym == SDLK_ESCAPE               ? 27
                  : sym == SDLK_RETURN || sym == SDLK_KP_ENTER ? '\r'
                                                     : -1;
        int typed = key < 0 ? -1 : play_tick_entry_key(ui->tick_entry, key, s->replay->ticks, &to);
        if (typed == 1) play_replay_jump(s, ui, to);
        if (typed >= 0) return PLAY_KEY_GO_ON;
        switch (sym) {
        case SDLK_RIGHT: play_replay_jump(s, ui, now_t + step); return PLAY_KEY_GO_ON;
        case SDLK_LEFT: play_replay_jump(s, ui, now_t > step ? now_t - step : 0); return PLAY_KEY_GO_ON;
        case SDLK_HOME: play_replay_jump(s, ui, 0); return PLAY_KEY_GO_ON;
        case SDLK_END: play_replay_jump(s, ui, s->replay->ticks); return PLAY_KEY_GO_ON;
        case SDLK_r: case SDLK_F5: return PLAY_KEY_GO_ON; /* Home starts again; the level is the recorded one */
        default: break;
        }
    }
    if ((k->keysym.sym == SDLK_SPACE || k->keysym.sym == SDLK_RETURN) && play_catch_skip(s)) return PLAY_KEY_GO_ON;
    switch (k->keysym.scancode) {
    case SDL_SCANCODE_RIGHT: case SDL_SCANCODE_D: if (!ui->paused && !ui->help) play_tap(s, 1, 0); return PLAY_KEY_GO_ON;
    case SDL_SCANCODE_LEFT: case SDL_SCANCODE_A: if (!ui->paused && !ui->help) play_tap(s, -1, 0); return PLAY_KEY_GO_ON;
    case SDL_SCANCODE_DOWN: case SDL_SCANCODE_S: if (!ui->paused && !ui->help) play_tap(s, 0, 1); return PLAY_KEY_GO_ON;
    case SDL_SCANCODE_UP: case SDL_SCANCODE_W: if (!ui->paused && !ui->help) play_tap(s, 0, -1); return PLAY_KEY_GO_ON;
    case SDL_SCANCODE_Q: if (!ui->paused && !ui->help) play_douse(s); return PLAY_KEY_GO_ON; /* beside WASD */
    default: break;
    }
    pt_error err;
    switch (k->keysym.sym) {
    case SDLK_ESCAPE: return PLAY_KEY_QUIT;
    case SDLK_SPACE:
        if (!ui->paused) play_throw_facing(s, NULL, NULL); /* logged by the session (--log) */
        break;
    case SDLK_p:
        ui->paused = !ui->paused;
        play_ui_log(ui, "%s", ui->paused ? "paused" : "resumed");
        break;
    case SDLK_n:
        if (ui->paused) return PLAY_KEY_STEP;
        break;
    case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS:
        if (ui->speed + 1 < PLAY_NSPEEDS) ui->speed++;
        if (ui->log) fprintf(ui->log, "speed %g\n", play_speeds[ui->speed]), fflush(ui->log);
        break;
    case SDLK_MINUS: case SDLK_KP_MINUS: case SDLK_UNDERSCORE:
        if (ui->speed > 0) ui->speed--;
        if (ui->log) fprintf(ui->log, "speed %g\n", play_speeds[ui->speed]), fflush(ui->log);
        break;
    case SDLK_r:
        if (play_restart(s, &err) < 0) pt_error_print(stderr, &err);
        break;
    case SDLK_F5: play_reloaded(s, ui, play_reload(s, &err), &err, now); break;
    case SDLK_F6: case SDLK_F9:
        if (!ui->quicksave_path[0]) {
            play_note(s, 0xff8060ffu, "no folder for a quick save");
            break;
        }
        if ((k->keysym.sym == SDLK_F6 ? play_quick_save(s, ui->quicksave_path, &err)
                                      : play_quick_load(s, ui->quicksave_path, &err)) < 0) {
            fprintf(stderr, "patrol play: quick %s failed: ", k->keysym.sym == SDLK_F6 ? "save" : "load");
            pt_error_print(stderr, &err);
        }
        play_ui_log(ui, "quick %s", k->keysym.sym == SDLK_F6 ? "save" : "load");
        break;
    case SDLK_F1: case SDLK_h:
        ui->help = !ui->help;
        ui->frame.help_page = 0;
        play_ui_log(ui, "help %s", ui->help ? "on" : "off");
        break;
    case SDLK_F11: play_toggle_fullscreen(ui, win); break;
    case SDLK_TAB:
        /* All debug overlays at once: off if any is on, else all on. */
        ui->frame.overlays = (ui->frame.overlays & (PT_OVERLAY_DEBUG & ~PT_OVERLAY_CONES))
                                 ? (ui->frame.overlays & ~PT_OVERLAY_DEBUG) | PT_OVERLAY_CONES
                                 : ui->frame.overlays | PT_OVERLAY_DEBUG;
        play_ui_log(ui, "debug %s", ui->frame.overlays & PT_OVERLAY_SIGHT ? "on" : "off");
        break;
    case SDLK_g: toggle_overlay(ui, PT_OVERLAY_GRID); break;
    case SDLK_v: toggle_overlay(ui, PT_OVERLAY_CONES); break;
    case SDLK_l: toggle_overlay(ui, PT_OVERLAY_LABELS); break;
    case SDLK_b: toggle_overlay(ui, PT_OVERLAY_AWARENESS); break;
    case SDLK_o: toggle_overlay(ui, PT_OVERLAY_SIGHT); break;
    case SDLK_t: toggle_overlay(ui, PT_OVERLAY_PATHS); break;
    case SDLK_i: toggle_overlay(ui, PT_OVERLAY_PATTERNS); break;
    case SDLK_m:
        app_audio_mute(ui->audio, !app_audio_muted(ui->audio));
        play_ui_log(ui, "sound %s", app_audio_muted(ui->audio) ? "off" : "on");
        sound_note(s, ui);
        break;
    case SDLK_LEFTBRACKET: case SDLK_RIGHTBRACKET: {
        int v = app_audio_volume(ui->audio, k->keysym.sym == SDLK_LEFTBRACKET ? -1 : 1);
        if (ui->log) fprintf(ui->log, "volume %d\n", v), fflush(ui->log);
        sound_note(s, ui);
        break;
    }
    case SDLK_x: toggle_overlay(ui, PT_OVERLAY_RAYS); break;
    case SDLK_f: toggle_overlay(ui, PT_OVERLAY_STEER); break;
    case SDLK_e: toggle_overlay(ui, PT_OVERLAY_SEARCH); break;
    case SDLK_k: toggle_overlay(ui, PT_OVERLAY_MEMORY); break;
    case SDLK_u: toggle_overlay(ui, PT_OVERLAY_HEARING); break;
    case SDLK_y: toggle_overlay(ui, PT_OVERLAY_LIGHT); break;
    default: break;
    }
    return PLAY_KEY_GO_ON;
}
