/* SPDX-License-Identifier: Zlib */
/* The callback mixer: voices point into the decoded sounds; the callback adds them up with
 * their gains and clips. The game thread starts voices under the device lock. */
#include "game/audio.h"
#include "common/quiet.h"

#include <SDL.h>

#include <patrol/config.h>

#include <stdio.h>
#include <string.h>

static const char *const files[APP_SND_COUNT] = {
    "step_soft.wav", "step_hard.wav", "step_wood.wav", "step_water.wav", "sting_suspicious.wav",
    "sting_chase.wav", "call.wav", "thud.wav", "caught.wav", "escaped.wav",
};

typedef struct voice {
    const Sint16 *pcm; /* NULL = free */
    Uint32 len, pos;   /* samples */
    float gain;
    Uint32 started;    /* order of starting (the oldest gives way) */
} voice;

struct app_audio {
    SDL_AudioDeviceID dev;        /* 0 = silent */
    Sint16 *pcm[APP_SND_COUNT];   /* mono samples at the device's rate (NULL = not loaded) */
    Uint32 len[APP_SND_COUNT];
    voice voices[APP_AUDIO_VOICES];
    Uint32 started;
    int muted, volume;            /* volume in tenths */
    int subsystem;                /* 1: SDL_INIT_AUDIO was started here */
};

const char *app_sound_file(app_sound s) { return (unsigned)s < APP_SND_COUNT ? files[s] : "?"; }

static void mix(void *user, Uint8 *stream, int bytes) {
    app_audio *a = user;
    Sint16 *out = (Sint16 *)stream;
    int n = bytes / (int)sizeof *out;
    float master = a->muted ? 0.0f : a->volume / 10.0f;
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = 0; k < APP_AUDIO_VOICES; k++) {
            voice *v = &a->voices[k];
            if (!v->pcm) continue;
            acc += v->pcm[v->pos] * v->gain;
            if (++v->pos >= v->len) v->pcm = NULL;
        }
        acc *= master;
        out[i] = (Sint16)(acc > 32767.0f ? 32767 : acc < -32768.0f ? -32768 : acc);
    }
}

/* Loads a WAV and converts it to the device's format (mono S16 at its rate). */
static int load(app_audio *a, const char *dir, int which, const SDL_AudioSpec *have) {
    char path[PT_MAX_PATH + 32];
    snprintf(path, sizeof path, "%s/%s", dir, files[which]);
    SDL_AudioSpec spec;
    Uint8 *buf = NULL;
    Uint32 len = 0;
    if (!SDL_LoadWAV(path, &spec, &buf, &len)) return 0;
    SDL_AudioCVT cvt;
    int need = SDL_BuildAudioCVT(&cvt, spec.format, spec.channels, spec.freq, AUDIO_S16SYS, 1, have->freq);
    if (need < 0) {
        SDL_FreeWAV(buf);
        return 0;
    }
    cvt.len = (int)len;
    cvt.buf = PT_MALLOC((size_t)len * (size_t)(cvt.len_mult > 0 ? cvt.len_mult : 1));
    if (!cvt.buf) {
        SDL_FreeWAV(buf);
        return 0;
    }
    memcpy(cvt.buf, buf, len);
    SDL_FreeWAV(buf);
    if (need > 0 && SDL_ConvertAudio(&cvt) != 0) {
        PT_FREE(cvt.buf);
        return 0;
    }
    Uint32 out_len = (Uint32)(need > 0 ? cvt.len_cvt : cvt.len) / 2;
    if (out_len == 0) {
        PT_FREE(cvt.buf);
        return 0;
    }
    a->pcm[which] = (Sint16 *)cvt.buf;
    a->len[which] = out_len;
    return 1;
}

app_audio *app_audio_open(const char *asset_dir, int quiet) {
    app_audio *a = PT_CALLOC(1, sizeof *a);
    if (!a) return NULL;
    a->volume = 8;
    /* ALSA's library prints its own errors (eight lines without a sound card) before SDL
     * returns: the line below says it once. */
    if (!SDL_WasInit(SDL_INIT_AUDIO)) {
        int hush = app_quiet_begin();
        int rc = SDL_InitSubSystem(SDL_INIT_AUDIO);
        app_quiet_end(hush);
        if (rc != 0) {
            if (!quiet) fprintf(stderr, "patrol play: no sound: %s\n", SDL_GetError());
            return a;
        }
        a->subsystem = 1;
    }
    SDL_AudioSpec want, have;
    SDL_zero(want);
    want.freq = 22050;
    want.format = AUDIO_S16SYS;
    want.channels = 1;
    want.samples = 512; /* 23 ms: a footstep lands with its step */
    want.callback = mix;
    want.userdata = a;
    int hush = app_quiet_begin();
    a->dev = SDL_OpenAudioDevice(NULL, 0, &want, &have, SDL_AUDIO_ALLOW_FREQUENCY_CHANGE);
    app_quiet_end(hush);
    if (!a->dev) {
        if (!quiet) fprintf(stderr, "patrol play: no sound: %s\n", SDL_GetError());
        return a;
    }
    int missing = 0;
    for (int i = 0; i < APP_SND_COUNT; i++) missing += !load(a, asset_dir ? asset_dir : "assets", i, &have);
    if (missing && !quiet)
        fprintf(stderr, "patrol play: %d of %d sounds missing or unreadable in %s (the rest play)\n", missing,
                APP_SND_COUNT, asset_dir ? asset_dir : "assets");
    SDL_PauseAudioDevice(a->dev, 0);
    return a;
}

void app_audio_close(app_audio *a) {
    if (!a) return;
    if (a->dev) SDL_CloseAudioDevice(a->dev);
    for (int i = 0; i < APP_SND_COUNT; i++) PT_FREE(a->pcm[i]);
    if (a->subsystem) SDL_QuitSubSystem(SDL_INIT_AUDIO);
    PT_FREE(a);
}

int app_audio_live(const app_audio *a) { return a && a->dev != 0; }

void app_audio_play(app_audio *a, app_sound s, float gain) {
    if (!a || !a->dev || (unsigned)s >= APP_SND_COUNT || !a->pcm[s] || a->muted) return;
    SDL_LockAudioDevice(a->dev);
    voice *v = &a->voices[0];
    for (int k = 0; k < APP_AUDIO_VOICES; k++) {
        if (!a->voices[k].pcm) {
            v = &a->voices[k];
            break;
        }
        if (a->voices[k].started < v->started) v = &a->voices[k];
    }
    *v = (voice){a->pcm[s], a->len[s], 0, gain < 0 ? 0 : gain > 1 ? 1 : gain, ++a->started};
    SDL_UnlockAudioDevice(a->dev);
}

void app_audio_mute(app_audio *a, int on) {
    if (!a) return;
    if (a->dev) SDL_LockAudioDevice(a->dev);
    a->muted = on != 0;
    if (a->dev) SDL_UnlockAudioDevice(a->dev);
}

int app_audio_muted(const app_audio *a) { return a ? a->muted : 1; }

int app_audio_volume(app_audio *a, int delta) {
    if (!a) return 0;
    int v = a->volume + delta;
    if (a->dev) SDL_LockAudioDevice(a->dev);
    a->volume = v < 0 ? 0 : v > 10 ? 10 : v;
    if (a->dev) SDL_UnlockAudioDevice(a->dev);
    return v < 0 ? 0 : v > 10 ? 10 : v;
}
