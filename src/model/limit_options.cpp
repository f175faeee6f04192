// The resource limits as options: see include/kernel/tempcert/limit_options.hpp.
#include "tempcert/limit_options.hpp"

namespace tempcert {

const std::vector<LimitOption> &limit_options() {
    static const std::vector<LimitOption> rows = {
        {"max-width", 1, 1 << 20, &Limits::max_width,
         "largest residual, key, value or hidden width"},
        {"max-layers", 1, 1 << 16, &Limits::max_layers, "most layers in a model"},
        {"max-heads", 1, 1 << 16, &Limits::max_heads, "most heads in one layer"},
        {"max-alphabet", 1, 1 << 20, &Limits::max_alphabet, "most symbols in an alphabet"},
        {"max-number-chars", 1, 1 << 24, &Limits::max_number_chars,
         "most characters in one number of a model file"},
        {"max-entries", 1, 1LL << 32, &Limits::max_entries,
         "most entries of a model, a trace or a position table"},
        {"max-file-bytes", 1, 1LL << 34, &Limits::max_file_bytes, "largest input file"},
        {"max-n", 1, 1LL << 32, &Limits::max_n, "longest input length n"},
        {"max-words", 1, 1LL << 40, &Limits::max_words,
         "most words an exhaustive enumeration may visit"},
        {"max-queries", 1, 1LL << 48, &Limits::max_queries,
         "most query configurations one head's symbolic or layerwise analysis may examine, each "
         "counted at the symbol pairs or positions it compares"},
        {"max-values", 1, 1LL << 32, &Limits::max_values,
         "most hard values one position may hold in the layerwise method"},
    };
    return rows;
}

const LimitOption *find_limit_option(std::string_view name) {
    for (const auto &row : limit_options())
        if (name == row.name) return &row;
    return nullptr;
}

} // namespace tempcert
