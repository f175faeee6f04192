// Input words (docs/model-format.md): symbols run together when every symbol is one
// character ("abba"), otherwise separated by spaces or commas ("the,cat").
#pragma once

#include <string>
#include <vector>

namespace tempcert {

using Word = std::vector<int>; // indices into the alphabet

// Throws InputError(file = "", place = `where` + column) on an unknown
// symbol or an empty word.
Word parse_word(const std::string &text, const std::vector<std::string> &alphabet,
                const std::string &where = "--input");

std::string format_word(const Word &w, const std::vector<std::string> &alphabet);

} // namespace tempcert
