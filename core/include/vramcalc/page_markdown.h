// The whole reference page for one scenario as Markdown, for documentation sites that want
// static tables: every section in the reference page's order, in German or English, with the
// page's display rounding. `response` must hold every section.
#ifndef VRAMCALC_PAGE_MARKDOWN_H_
#define VRAMCALC_PAGE_MARKDOWN_H_

#include <string>

#include "vramcalc/evaluate.h"
#include "vramcalc/i18n.h"

namespace vramcalc {

std::string RenderPageMarkdown(const Response& response, Lang lang);

}  // namespace vramcalc

#endif  // VRAMCALC_PAGE_MARKDOWN_H_
