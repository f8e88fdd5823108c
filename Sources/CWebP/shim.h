// libwebp's decoder (still images) and its demuxer's animation decoder (the first frame of an
// animated WebP). Both report failure by return value.
#include <stddef.h>
#include <webp/decode.h>
#include <webp/demux.h>
