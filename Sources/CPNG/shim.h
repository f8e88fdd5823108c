#include <png.h>

// Only libpng's simplified API (png_image) is used: it keeps its setjmp/longjmp inside
// libpng and reports failure through the png_image struct, so no jump crosses a Swift frame.
// The format and failure tests are macros Swift cannot call.
static inline png_uint_32 cpng_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline png_uint_32 cpng_format_rgb(void) { return PNG_FORMAT_RGB; }
static inline int cpng_format_has_alpha(png_uint_32 format) { return (format & PNG_FORMAT_FLAG_ALPHA) != 0; }
static inline int cpng_image_failed(const png_image *image) { return PNG_IMAGE_FAILED(*image); }
