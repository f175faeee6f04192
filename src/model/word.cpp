// Word text in both directions (docs/model-format.md).
#include "tempcert/word.hpp"
#include "tempcert/error.hpp"

#include <algorithm>

namespace tempcert {

namespace {

bool single_chars(const std::vector<std::string> &alphabet) {
    return std::all_of(alphabet.begin(), alphabet.end(),
                       [](const std::string &s) { return s.size() == 1; });
}

int index_of(const std::vector<std::string> &alphabet, const std::string &s) {
    auto it = std::find(alphabet.begin(), alphabet.end(), s);
    return it == alphabet.end() ? -1 : static_cast<int>(it - alphabet.begin());
}

std::string listing(const std::vector<std::string> &alphabet) {
    std::string out;
    for (const auto &s : alphabet)
        out += (out.empty() ? "" : ", ") + s;
    return out;
}

} // namespace

Word parse_word(const std::string &text, const std::vector<std::string> &alphabet,
                const std::string &where) {
    Word w;
    bool separated = text.find_first_of(" ,") != std::string::npos;
    auto unknown = [&](std::size_t col, const std::string &sym) {
        throw InputError("", where + ", column " + std::to_string(col + 1),
                         "unknown symbol \"" + sym + "\"; the alphabet is {" + listing(alphabet) +
                             "}");
    };
    if (!separated && single_chars(alphabet)) {
        for (std::size_t i = 0; i < text.size(); ++i) {
            int k = index_of(alphabet, std::string(1, text[i]));
            if (k < 0) unknown(i, std::string(1, text[i]));
            w.push_back(k);
        }
    } else {
        // Symbols separated by commas or spaces (runs of spaces are one
        // separator). Between two commas there must be a symbol: "a,b,,a"
        // is refused, never read as aba (docs/model-format.md).
        const bool commas = text.find(',') != std::string::npos;
        std::size_t i = 0;
        bool expect_symbol = true; // after a comma, or at the start
        while (i < text.size()) {
            if (text[i] == ' ') {
                ++i;
                continue;
            }
            if (text[i] == ',') {
                if (expect_symbol)
                    throw InputError("", where + ", column " + std::to_string(i + 1),
                                     "expected a symbol before this comma");
                expect_symbol = true;
                ++i;
                continue;
            }
            std::size_t j = text.find_first_of(" ,", i);
            if (j == std::string::npos) j = text.size();
            std::string sym = text.substr(i, j - i);
            int k = index_of(alphabet, sym);
            if (k < 0) unknown(i, sym);
            w.push_back(k);
            expect_symbol = false;
            i = j;
        }
        if (commas && expect_symbol && !w.empty())
            throw InputError("", where + ", column " + std::to_string(text.size()),
                             "expected a symbol after the last comma");
    }
    if (w.empty()) throw InputError("", where, "empty word: an input has at least one symbol");
    return w;
}

std::string format_word(const Word &w, const std::vector<std::string> &alphabet) {
    bool compact = single_chars(alphabet);
    std::string out;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (!compact && i > 0) out += ",";
        out += alphabet[static_cast<std::size_t>(w[i])];
    }
    return out;
}

} // namespace tempcert
