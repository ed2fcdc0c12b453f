#include "CImageCodecs.h"
int satchel_image_codecs_placeholder(void) { return 0; }
