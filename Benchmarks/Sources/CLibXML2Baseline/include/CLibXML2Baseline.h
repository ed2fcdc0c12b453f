#ifndef SATCHEL_CLibXML2Baseline_H
#define SATCHEL_CLibXML2Baseline_H
/* Placeholder: filled in by the benchmark work. */
int CLibXML2Baseline_placeholder(void);
#endif
