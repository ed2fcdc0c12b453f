/* SPDX-License-Identifier: Apache-2.0 */
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

/* libxml2 reports a few failures only through its generic error handler, a printf-style
 * variadic callback Swift cannot define, which prints to stderr by default ("xmlParseChunk:
 * encoder error"). Satchel detects those failures itself (XMLParseContext.inputFailure), so
 * xmlParseChunk runs with the calling thread's generic handler discarding them; the caller's
 * handler is restored after. */
static void satchel_xml_discard_message(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static inline int satchel_xml_parse_chunk(xmlParserCtxtPtr parser, const char *chunk, int size, int terminate) {
    xmlGenericErrorFunc saved = xmlGenericError;
    void *savedContext = xmlGenericErrorContext;
    xmlSetGenericErrorFunc(NULL, satchel_xml_discard_message);
    int status = xmlParseChunk(parser, chunk, size, terminate);
    xmlSetGenericErrorFunc(savedContext, saved);
    return status;
}
#endif
