#ifndef SATCHEL_CIMAGECODECS_H
#define SATCHEL_CIMAGECODECS_H
/* The setjmp/longjmp error exits of libpng and libjpeg, which Swift cannot express.
   (Placeholder: the image work fills this in.) */
int satchel_image_codecs_placeholder(void);
#endif
