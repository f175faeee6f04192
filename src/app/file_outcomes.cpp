// The summaries of the commands that write a file: compile, import, export
// (include/engine/tempcert/outcome.hpp).
#include "tempcert/model.hpp"
#include "tempcert/outcome.hpp"

#include <sstream>

namespace tempcert {

nlohmann::ordered_json to_json(const CompileOutcome &c) {
    return {{"formula", c.formula},
            {"alphabet", c.alphabet},
            {"pe", c.pe},
            {"accept_at", c.accept_at},
            {"model", c.file},
            {"layers", c.model.layers.size()},
            {"counting", c.counting},
            {"bos", c.model.bos ? nlohmann::ordered_json(*c.model.bos) : nullptr},
            {"width", c.model.width},
            {"sha256", model_sha256(c.model)}};
}

std::string to_text(const CompileOutcome &c) {
    std::ostringstream out;
    const std::size_t layers = c.model.layers.size();
    out << "compiled " << c.formula << " (" << c.pe_note << ") into " << layers
        << (layers == 1 ? " layer" : " layers") << " of width " << c.model.width << ": " << c.file
        << "\n";
    return out.str();
}

namespace {

std::size_t head_count(const Model &m) {
    std::size_t heads = 0;
    for (const auto &l : m.layers)
        heads += l.heads.size();
    return heads;
}

} // namespace

nlohmann::ordered_json to_json(const ImportOutcome &c) {
    const Model &m = c.model;
    return {{"model", c.file},
            {"layers", m.layers.size()},
            {"heads", head_count(m)},
            {"width", m.width},
            {"alphabet", m.alphabet},
            {"max_length", *m.max_length},
            {"beta_native", m.beta_native->canonical()},
            {"sha256", model_sha256(m)}};
}

std::string to_text(const ImportOutcome &c) {
    const Model &m = c.model;
    std::ostringstream out;
    out << "imported " << c.source << ": " << m.layers.size() << " layers, " << head_count(m)
        << " heads, width " << m.width << ", inputs up to length " << *m.max_length
        << ", beta_native " << m.beta_native->canonical() << " -> " << c.file << "\n";
    return out.str();
}

nlohmann::ordered_json to_json(const ExportOutcome &c) {
    return {{"certificate", c.certificate},
            {"file", c.file},
            {"heads", c.exported.heads},
            {"gaps", c.exported.gaps},
            {"words", c.exported.words}};
}

std::string to_text(const ExportOutcome &c) {
    const CoqExport &e = c.exported;
    std::ostringstream out;
    out << "exported " << c.certificate << " -> " << c.file << ": " << e.heads << " head"
        << (e.heads == 1 ? "" : "s") << ", " << e.words << " words, " << e.gaps
        << " gaps in its table of exponential bounds\n"
        << "check it: make -C proofs/coq && coqc -Q proofs/coq TempcertProofs " << c.file << "\n";
    return out.str();
}

} // namespace tempcert
