#include "CLibXML2Baseline.h"
int CLibXML2Baseline_placeholder(void) { return 0; }
