#include "CImageBaseline.h"
int CImageBaseline_placeholder(void) { return 0; }
