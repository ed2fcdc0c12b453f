#ifndef SATCHEL_CLIBXML2_SHIM_H
#define SATCHEL_CLIBXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlsave.h>
#include <libxml/entities.h>
#endif
