// `tempcert export coq CERT --model MODEL -o FILE.v` (
// include/engine/tempcert/export_coq.hpp, docs/certificates.md): a verified
// certificate's claim as a Coq file checked by Coq's kernel alone. The
// precondition is the small checker's VERIFIED on the certificate's bytes.
#include "commands.hpp"
#include "model/json_source.hpp"
#include "options.hpp"
#include "small_checker.hpp"
#include "tempcert/error.hpp"
#include "tempcert/export_coq.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/output.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

namespace tempcert::cli {

int run_export(const Args &args) {
    po::options_description desc("export options");
    po::variables_map vm;
    if (!parse_command("export", "coq CERT --model MODEL -o FILE.v", desc, args, "input", 2, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    auto inputs =
        vm.count("input") ? vm["input"].as<std::vector<std::string>>() : std::vector<std::string>{};
    if (inputs.size() != 2 || inputs[0] != "coq")
        throw InputError(
            "", "tempcert export",
            "expected the proof assistant and a certificate: tempcert export coq CERT");
    if (!vm.count("model")) throw InputError("", "tempcert export", "expected --model MODEL");
    if (!vm.count("output"))
        throw InputError("", "-o", "expected -o FILE.v, the Coq file to write");
    const std::string &cert = inputs[1], out = vm["output"].as<std::string>();
    Model m = load_model_file(vm["model"].as<std::string>(), common.limits);
    std::string text = read_text_file(cert, common.limits.max_file_bytes, &common.limits);
    // the precondition: the small checker verifies these very bytes
    SmallCheck sc = run_small_checker_on_text(text, vm["model"].as<std::string>(), common.limits);
    if (sc.verdict == SmallCheckVerdict::LeftOut || sc.verdict == SmallCheckVerdict::Absent)
        throw Undecided(cert + ": nothing exported: " + to_text(sc));
    if (sc.verdict != SmallCheckVerdict::Verified)
        throw InputError(cert, "",
                         "does not verify, so there is nothing to export: " + to_text(sc));
    CoqExport e = export_coq(cert, text, m, common.limits, common.precision);
    write_output_file(out, e.text, &common.limits);
    render(ExportOutcome{cert, out, e}, common);
    return kExitOk;
}

} // namespace tempcert::cli
