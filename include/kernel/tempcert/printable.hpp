// Text from an input shown to a person (docs/reliability.md, What reaches a terminal or a report):
// a name, a label or an error message echoing either must not act on the terminal (ESC sequences,
// BEL), reorder the text around it (bidirectional controls) or make an SVG ill-formed
// (non-characters).
#pragma once

#include <string>
#include <string_view>

namespace tempcert {

// `text` with every character that would act rather than be read replaced
// by a visible escape: C0 controls and DEL as \xNN (a newline kept when
// `keep_newlines`), C1 controls, bidirectional controls (U+061C, U+200E,
// U+200F, U+202A..U+202E, U+2066..U+2069) and non-characters (U+FDD0..
// U+FDEF, U+xxFFFE, U+xxFFFF) as \uXXXX, and bytes that are not UTF-8 as
// \xNN. Everything else, other scripts included, is kept as it is.
std::string printable(std::string_view text, bool keep_newlines = false);

// Whether printable(text) == text: what a model's names must be.
bool is_printable(std::string_view text);

} // namespace tempcert
