// The TurboJPEG API of libjpeg-turbo: every call returns an error code, and libjpeg's
// setjmp/longjmp error recovery stays inside the library.
#include <stddef.h>
#include <turbojpeg.h>
