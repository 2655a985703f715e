// libxml2's pull parser (xmlTextReader), used by PMFeeds' XMLTree. The include directory
// (/usr/include/libxml2) comes from pkg-config's libxml-2.0.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, so encoding.h would include the system's <unicode/ucnv.h>,
// whose enums clash with the toolchain's _FoundationICU in any module that also imports Foundation.
// The macro only adds ICU converter fields to xmlCharEncodingHandler, which Swift never touches
// (it only ever holds one by pointer).
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/HTMLparser.h>

static void pm_xml_ignore_message(void *context, const char *format, ...) {
    (void)context;
    (void)format;
}

/// Silences the calling thread's generic error channel, where libxml2 prints a few messages
/// (`xmlParseChunk: encoder error`) straight to stderr whatever the parser options say. The
/// handler is variadic, which Swift cannot write, hence this inline function.
static inline void pm_xml_silence_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, pm_xml_ignore_message);
}
