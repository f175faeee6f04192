// `tempcert import tracr FILE.safetensors -o MODEL.json` (docs/import.md): a
// model from another tool's layout, written as an exact tempcert-model/1
// file that every other command reads unchanged.
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/error.hpp"
#include "tempcert/import.hpp"
#include "tempcert/ltl.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/output.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

namespace tempcert::cli {

int run_import(const Args &args) {
    po::options_description desc("import options");
    po::variables_map vm;
    if (!parse_command("import", "tracr FILE.safetensors -o MODEL.json", desc, args, "input", 2,
                       vm))
        return kExitOk;
    Common common = read_common_options(vm);
    auto inputs =
        vm.count("input") ? vm["input"].as<std::vector<std::string>>() : std::vector<std::string>{};
    if (inputs.size() != 2 || inputs[0] != "tracr")
        throw InputError("", "tempcert import",
                         "expected the layout and a file: tempcert import tracr FILE.safetensors");
    if (!vm.count("output")) throw InputError("", "-o", "expected -o MODEL, the file to write");
    const std::string &path = inputs[1];
    Model m = import_tracr(read_safetensors(path, common.limits), common.limits);
    std::string description =
        "Imported by tempcert from " + path +
        " (Tracr's layout): exact dyadic rationals of its float weights; average-hard "
        "attention on its scores as the hard model; beta_native = 1/sqrt(key_size).";
    std::string text = model_to_json(m, description);
    // the written file must load back as the same model (same hash)
    // (a limit the model as written would pass names the safetensors file)
    Model back = load_model_text(text, path + " (as imported)", common.limits);
    if (model_sha256(back) != model_sha256(m))
        throw std::logic_error("import: the written model does not read back identically");
    write_output_file(vm["output"].as<std::string>(), text, &common.limits);
    render(ImportOutcome{path, vm["output"].as<std::string>(), std::move(m)}, common);
    return kExitOk;
}

} // namespace tempcert::cli
