/* libFuzzer target: the Tiled TMX parser must return PT_OK or a located error, never crash,
 * never leak. */
#include <patrol/tmx.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pt_map m;
    pt_error err;
    if (pt_tmx_parse(&m, NULL, (const char *)data, size, "fuzz.tmx", &err) == PT_OK) pt_map_fini(&m);
    else if (err.code >= 0 || (err.line < 0)) __builtin_trap(); /* an error must be an error */
    return 0;
}
