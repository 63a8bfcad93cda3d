/* SPDX-License-Identifier: Zlib */
/* audio.h - the game's sounds through SDL2's own audio: WAV files of the assets folder
 * (scripts/gen_assets.py), mixed in a small callback mixer of APP_AUDIO_VOICES voices.
 *
 *     app_audio *a = app_audio_open(asset_dir);  // never NULL unless out of memory
 *     app_audio_play(a, APP_SND_CALL, 1.0f);       // starts a voice (or none, silently)
 *     app_audio_mute(a, !app_audio_muted(a));      // M
 *     app_audio_close(a);
 *
 * Without an audio device (or SDL_AUDIODRIVER=dummy, or a sound file missing) the game
 * runs the same: app_audio_open says why on stderr once and every call does nothing (a
 * missing file silences only that sound). Sounds are chosen from what the world reports
 * (play_session's cues); playing them never changes the world.
 * Memory: the decoded sounds (about 150 KiB) and the device's buffer. Cost: the mixer adds
 * at most APP_AUDIO_VOICES samples per output sample, on SDL's audio thread.
 */
#ifndef PATROL_APP_AUDIO_H
#define PATROL_APP_AUDIO_H

#define APP_AUDIO_VOICES 16

typedef enum app_sound {
    APP_SND_STEP_SOFT = 0, /* grass, dirt, bush */
    APP_SND_STEP_HARD,     /* floor, wall, door, exit */
    APP_SND_STEP_WOOD,     /* the bridge */
    APP_SND_STEP_WATER,
    APP_SND_SUSPICIOUS,    /* a guard's "?" */
    APP_SND_CHASE,         /* a guard's "!" */
    APP_SND_CALL,          /* a guard calls another for help */
    APP_SND_THUD,          /* a thrown stone lands (a noise made by pt_world_noise) */
    APP_SND_CAUGHT,
    APP_SND_ESCAPED,
    APP_SND_COUNT
} app_sound;

typedef struct app_audio app_audio;

/* The WAV file name of a sound ("step_soft.wav"). */
const char *app_sound_file(app_sound s);
/* Opens the default audio device and loads the sounds from asset_dir. Returns a silent
 * object when there is no device (after one line on stderr, unless quiet); NULL only
 * when out of memory. */
app_audio *app_audio_open(const char *asset_dir, int quiet);
void app_audio_close(app_audio *a);
/* 1 when sound reaches a device. */
int app_audio_live(const app_audio *a);
/* Starts a sound at gain (0..1, times the volume); the oldest voice gives way when all
 * play. */
void app_audio_play(app_audio *a, app_sound s, float gain);
void app_audio_mute(app_audio *a, int on);
int app_audio_muted(const app_audio *a);
/* The master volume in tenths, 0..10 (default 8); returns the new value. */
int app_audio_volume(app_audio *a, int delta);

#endif
