// The bare `tempcert` command: the main job on the bundled cases. Until the
// certifier lands it evaluates every case's listed words in the hard model
// and in the soft model at the case's demo beta, and checks both against
// the manifest's expected acceptance.
#include "commands.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>

namespace tempcert::cli {

int run_main_job(const Args &) {
    std::string dir = cases_dir();
    std::string manifest_path = dir + "/manifest.json";
    std::ifstream in(manifest_path);
    if (!in) throw InputError(manifest_path, "", "cannot open the bundled cases' manifest");
    nlohmann::json manifest = nlohmann::json::parse(in);
    Limits limits;
    int failures = 0, checks = 0;
    std::cout << "tempcert: evaluating the bundled cases in " << dir << "\n";
    for (const auto &c : manifest.at("cases")) {
        Model m = load_model_file(dir + "/" + c.at("model").get<std::string>(), limits);
        std::optional<BetaSpec> beta;
        if (c.contains("demo_beta"))
            beta = BetaSpec::parse(c["demo_beta"].get<std::string>(), m.layers.size(), "demo_beta");
        int ok = 0, total = 0;
        for (const auto &[key, expected] : {std::pair{"accept", true}, std::pair{"reject", false}}) {
            for (const auto &word_text : c.at("words").at(key)) {
                Word w = parse_word(word_text.get<std::string>(), m.alphabet, "manifest");
                Trace hard = evaluate_hard(m, w);
                bool hard_ok = hard.outputs.back().accept == (expected ? Tri::True : Tri::False);
                bool soft_ok = true;
                if (beta) {
                    Trace soft = evaluate_soft(m, w, *beta, hard);
                    soft_ok = soft.outputs.back().accept == (expected ? Tri::True : Tri::False);
                }
                ++total;
                if (hard_ok && soft_ok) ++ok;
                else
                    std::cout << "  MISMATCH " << c.at("id").get<std::string>() << " on "
                              << word_text.get<std::string>() << ": hard "
                              << (hard_ok ? "ok" : "wrong") << ", soft "
                              << (soft_ok ? "ok" : "wrong") << "\n";
            }
        }
        std::cout << "  " << c.at("id").get<std::string>() << ": " << ok << "/" << total
                  << " words as expected (hard" << (beta ? " and soft at beta = " + beta->text() : "")
                  << ")\n";
        checks += total;
        failures += total - ok;
    }
    std::cout << "tempcert: " << checks - failures << " passed, " << failures << " failed\n";
    return failures == 0 ? kExitOk : kExitRefuted;
}

} // namespace tempcert::cli
