// The system zlib (zlib1g-dev), exposed to Swift as the CZlib module.
#include <zlib.h>

// deflateInit2/inflateInit2 are macros in zlib.h, which Swift cannot call; these wrappers can.
static inline int czlib_deflate_init(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

static inline int czlib_inflate_init(z_streamp stream) {
    return inflateInit2(stream, -15);
}
