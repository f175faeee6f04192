// `tempcert compile FORMULA --alphabet a,b --pe unbounded|bounded
// [--accept-at last|first] -o MODEL [--mona FILE]` (docs/ltl.md, docs/commands.md).
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/error.hpp"
#include "tempcert/ltl.hpp"
#include "tempcert/output.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

namespace tempcert::cli {

int run_compile(const Args &args) {
    po::options_description desc("compile options");
    desc.add_options()("alphabet", po::value<std::string>(),
                       "the symbols, comma-separated (a,b,c)")(
        "pe", po::value<std::string>(), "positional encoding: unbounded (j) or bounded (j/n)")(
        "accept-at", po::value<std::string>()->default_value("last"),
        "the position whose truth value decides acceptance: last or first")(
        "output,o", po::value<std::string>(), "the model file to write")(
        "mona", po::value<std::string>(), "also write the formula as a MONA (M2L-Str) program");
    add_common_options(desc);
    po::variables_map vm;
    if (!parse_command(
            "compile",
            "FORMULA --alphabet a,b --pe unbounded|bounded [--accept-at last|first] -o MODEL", desc,
            args, "formula", 1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    if (!vm.count("formula")) throw InputError("", "tempcert compile", "expected a FORMULA");
    std::vector<std::string> alphabet = read_alphabet(vm, common.limits);
    if (!vm.count("pe")) throw InputError("", "--pe", "expected --pe unbounded or --pe bounded");
    if (!vm.count("output")) throw InputError("", "-o", "expected -o MODEL, the file to write");
    std::string pe_text = vm["pe"].as<std::string>();
    if (pe_text != "unbounded" && pe_text != "bounded")
        throw InputError("", "--pe", "expected unbounded or bounded, got \"" + pe_text + "\"");
    std::string at = vm["accept-at"].as<std::string>();
    if (at != "last" && at != "first")
        throw InputError("", "--accept-at", "expected last or first, got \"" + at + "\"");
    std::string text = vm["formula"].as<std::vector<std::string>>().front();
    Formula f = Formula::parse(text, alphabet);
    PositionEncoding pe =
        pe_text == "bounded" ? PositionEncoding::Bounded : PositionEncoding::Unbounded;
    Model m = compile_formula(f, pe, at == "first", common.limits);
    if (m.width > common.limits.max_width || m.layers.size() > common.limits.max_layers)
        throw LimitError("the compiled model has width " + std::to_string(m.width) + " and " +
                         std::to_string(m.layers.size()) +
                         " layers, over --max-width or --max-layers");
    std::string description = "Compiled by tempcert from the LTL formula " + f.to_string() +
                              " over {" + vm["alphabet"].as<std::string>() + "}, " + pe_text +
                              " positional encoding, accepting at the " + at +
                              " position (proofs/ltl-construction.md).";
    std::string out_path = vm["output"].as<std::string>();
    std::string model_text = model_to_json(m, description);
    if (vm.count("mona"))
        write_output_files({{out_path, model_text}, {vm["mona"].as<std::string>(), to_mona(f, at == "first")}});
    else
        write_output_file(out_path, model_text);
    if (common.json) {
        nlohmann::ordered_json j{
            {"formula", f.to_string()}, {"alphabet", alphabet},     {"pe", pe_text},
            {"accept_at", at},          {"model", out_path},        {"layers", m.layers.size()},
            {"width", m.width},         {"sha256", model_sha256(m)}};
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "compiled " << f.to_string() << " (" << pe_text << " PE) into "
                  << m.layers.size() << " layers of width " << m.width << ": " << out_path << "\n";
    }
    return kExitOk;
}

} // namespace tempcert::cli
