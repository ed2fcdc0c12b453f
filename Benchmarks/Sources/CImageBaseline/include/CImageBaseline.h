#ifndef SATCHEL_CImageBaseline_H
#define SATCHEL_CImageBaseline_H
/* Placeholder: filled in by the benchmark work. */
int CImageBaseline_placeholder(void);
#endif
