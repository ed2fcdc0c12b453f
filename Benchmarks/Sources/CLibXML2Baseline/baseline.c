/* SPDX-License-Identifier: Apache-2.0 */
#include "CLibXML2Baseline.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <string.h>

static long count_elements(xmlNodePtr node) {
    long count = 0;
    for (; node != NULL; node = node->next) {
        if (node->type == XML_ELEMENT_NODE) count += 1 + count_elements(node->children);
    }
    return count;
}

int satchel_bench_xml_read_memory(const char *bytes, size_t length, long *elements) {
    int options = XML_PARSE_NONET | XML_PARSE_NOENT | XML_PARSE_HUGE | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    xmlDocPtr document = xmlReadMemory(bytes, (int)length, NULL, NULL, options);
    if (document == NULL) return -1;
    if (elements != NULL) *elements = count_elements(document->children);
    xmlFreeDoc(document);
    return 0;
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                     const xmlChar **attributes) {
    (void)localname; (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces;
    (void)nb_attributes; (void)nb_defaulted; (void)attributes;
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)ctx;
    *(long *)parser->_private += 1;
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)ctx; (void)localname; (void)prefix; (void)uri;
}

static void on_characters(void *ctx, const xmlChar *characters, int length) {
    (void)ctx; (void)characters; (void)length;
}

static void on_text(void *ctx, const xmlChar *value) {
    (void)ctx; (void)value;
}

static void on_instruction(void *ctx, const xmlChar *target, const xmlChar *data) {
    (void)ctx; (void)target; (void)data;
}

int satchel_bench_xml_sax_push(const char *bytes, size_t length, long *elements) {
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    xmlSAXVersion(&handler, 2);
    handler.startElementNs = on_start;
    handler.endElementNs = on_end;
    handler.characters = on_characters;
    handler.ignorableWhitespace = on_characters;
    handler.cdataBlock = on_characters;
    handler.comment = on_text;
    handler.processingInstruction = on_instruction;
    handler.startElement = NULL;
    handler.endElement = NULL;
    size_t head = length < 4 ? length : 4;
    xmlParserCtxtPtr parser = xmlCreatePushParserCtxt(&handler, NULL, bytes, (int)head, NULL);
    if (parser == NULL) return -1;
    xmlCtxtUseOptions(parser, XML_PARSE_NONET | XML_PARSE_HUGE | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    parser->replaceEntities = 1;
    *elements = 0;
    parser->_private = elements;
    xmlParseChunk(parser, bytes + head, (int)(length - head), 1);
    int status = parser->wellFormed ? 0 : -1;
    if (parser->myDoc != NULL) xmlFreeDoc(parser->myDoc);
    xmlFreeParserCtxt(parser);
    return status;
}
