// giflib's record-by-record decoder (DGif*): every call returns GIF_OK or GIF_ERROR and sets
// the file's Error field, so no jump crosses a Swift frame. Input comes through a read callback.
#include <stddef.h>
#include <gif_lib.h>
