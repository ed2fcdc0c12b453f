#ifndef SATCHEL_CLIBXML2_SHIM_H
#define SATCHEL_CLIBXML2_SHIM_H
/* Debian's libxml2 is built with ICU, so <libxml/encoding.h> includes ICU's <unicode/ucnv.h>,
 * whose enums clash with the copy of ICU inside Swift's Foundation. Satchel never touches the
 * ICU members of xmlCharEncodingHandler (it only passes handler pointers), so the headers are
 * read without them. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlsave.h>
#include <libxml/entities.h>

/* xmlFree is a macro over a per-thread function pointer, which Swift cannot import. */
static inline void satchel_xml_free(void *pointer) {
    xmlFree(pointer);
}
#endif
