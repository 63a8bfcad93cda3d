/* Placeholder translation unit until the renderer lands (issue 2). */
#include <SDL.h>
int pt__render_placeholder(void) { return SDL_GetTicks() > 0; }
