// `tempcert compile FORMULA --alphabet a,b --pe unbounded|bounded
// [--accept-at last|first] -o MODEL [--mona FILE]` (docs/ltl.md, docs/commands.md).
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/error.hpp"
#include "tempcert/ltl.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/output.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

namespace tempcert::cli {

int run_compile(const Args &args) {
    po::options_description desc("compile options");
    po::variables_map vm;
    if (!parse_command(
            "compile",
            "FORMULA --alphabet a,b [--pe unbounded|bounded] [--accept-at last|first] -o MODEL",
            desc, args, "formula", 1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    if (!vm.count("formula")) throw InputError("", "tempcert compile", "expected a FORMULA");
    std::vector<std::string> alphabet = read_alphabet(vm, common.limits);
    if (!vm.count("output")) throw InputError("", "-o", "expected -o MODEL, the file to write");
    std::string pe_text = vm.count("pe") ? vm["pe"].as<std::string>() : "unbounded";
    std::string at = vm["accept-at"].as<std::string>();
    std::string text = vm["formula"].as<std::vector<std::string>>().front();
    Formula f = Formula::parse(text, alphabet);
    if (f.has_counts() && vm.count("mona"))
        throw InputError("", "--mona",
                         "MONA has no counting: a formula with #(...) has no MONA program");
    // What the model's positional features are, for the summary line.
    std::string pe_note = pe_text + " PE";
    if (f.has_counts() && !f.has_temporal())
        pe_note = "no positional features: counting needs only BOS";
    else if (!vm.count("pe"))
        pe_note = "unbounded PE, chosen: temporal gaps stay 1 at every n";
    PositionEncoding pe =
        pe_text == "bounded" ? PositionEncoding::Bounded : PositionEncoding::Unbounded;
    Model m = compile_formula(f, pe, at == "first", common.limits);
    if (m.width > common.limits.max_width || m.layers.size() > common.limits.max_layers)
        throw LimitError("the compiled model has width " + std::to_string(m.width) + " and " +
                         std::to_string(m.layers.size()) +
                         " layers, over --max-width or --max-layers");
    std::string description = "Compiled by tempcert from the formula " + f.to_string() + " over {" +
                              vm["alphabet"].as<std::string>() + "}, " + pe_note +
                              ", accepting at the " + at + " position (proofs/ltl-construction.md" +
                              (f.has_counts() ? ", proofs/counting-construction.md" : "") + ").";
    std::string out_path = vm["output"].as<std::string>();
    std::string model_text = model_to_json(m, description);
    if (vm.count("mona"))
        write_output_files(
            {{out_path, model_text}, {vm["mona"].as<std::string>(), to_mona(f, at == "first")}},
            &common.limits);
    else
        write_output_file(out_path, model_text, &common.limits);
    CompileOutcome out{f.to_string(),
                       alphabet,
                       f.has_counts() && !f.has_temporal() ? std::string("none") : pe_text,
                       pe_note,
                       at,
                       out_path,
                       std::move(m),
                       f.has_counts()};
    render(out, common);
    return kExitOk;
}

} // namespace tempcert::cli
