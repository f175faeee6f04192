// `tempcert report`: tables and plots of tight temperatures over cases and
// lengths (src/report/). Cases are ids from the bundled manifest or model
// files.
#include "commands.hpp"
#include "dispatch.hpp"
#include "options.hpp"
#include "tempcert/error.hpp"
#include "tempcert/report.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace tempcert::cli {

namespace {

// Enumerated brackets to n = 8, symbolic (heads in layer 1) or layerwise
// beyond: about a minute and a half on two cores for the bundled cases.
const char *kDefaultNs = "2..8,16,32,64";

std::vector<ReportCase> load_cases(const std::vector<std::string> &wanted, const Limits &limits) {
    std::string dir = cases_dir();
    std::string manifest_path = dir + "/manifest.json";
    std::ifstream in(manifest_path);
    nlohmann::json manifest;
    if (in) manifest = nlohmann::json::parse(in, nullptr, false);
    std::vector<ReportCase> out;
    auto from_manifest = [&](const nlohmann::json &c) {
        std::string path = dir + "/" + c.at("model").get<std::string>();
        out.push_back({c.at("id"), c.value("language", ""), path, load_model_file(path, limits)});
    };
    if (wanted.empty()) {
        if (manifest.is_discarded() || !manifest.contains("cases"))
            throw InputError(manifest_path, "", "cannot read the bundled cases' manifest");
        for (const auto &c : manifest["cases"])
            from_manifest(c);
        return out;
    }
    for (const auto &w : wanted) {
        bool found = false;
        if (!manifest.is_discarded() && manifest.contains("cases"))
            for (const auto &c : manifest["cases"])
                if (c.at("id") == w) {
                    from_manifest(c);
                    found = true;
                }
        if (found) continue;
        if (w.find('/') == std::string::npos && w.find(".json") == std::string::npos)
            throw InputError("", "tempcert report",
                             "\"" + w + "\" is neither a bundled case id (see " + manifest_path +
                                 ") nor a model file");
        Model m = load_model_file(w, limits);
        out.push_back({m.name, "", w, m});
    }
    return out;
}

} // namespace

int run_report(const Args &args) {
    po::options_description desc("report options");
    desc.add_options()("n", po::value<std::string>()->default_value(kDefaultNs),
                       "lengths: ranges and lists, e.g. 2..64 or 2..10,16,32")(
        "eps", po::value<std::string>()->default_value("1/100"),
        "tolerance, 0 < eps < 1")("rel", po::value<std::string>()->default_value("1e-6"),
                                  "tight brackets stop when hi - lo <= rel * hi")(
        "out", po::value<std::string>()->default_value("report"), "directory to write into")(
        "tight-words", po::value<std::uint64_t>()->default_value(2048),
        "enumerate every word (tight bracket by bisection) when 1..n has at most this many "
        "words; beyond, the symbolic tight bracket (heads in layer 1) or layerwise bounds");
    add_common_options(desc);
    po::variables_map vm;
    if (!parse_command("report", "[CASES...] [--n 2..64] [--eps E] [--out DIR]", desc, args,
                       "cases", -1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    ReportOptions o;
    o.limits = common.limits;
    o.precision = common.precision;
    o.ns = parse_n_list(vm["n"].as<std::string>(), common.limits.max_n);
    o.eps = read_fraction(vm, "eps", true);
    o.rel = read_fraction(vm, "rel", true);
    o.tight_words = vm["tight-words"].as<std::uint64_t>();
    if (o.tight_words > common.limits.max_words)
        throw LimitError("--tight-words " + std::to_string(o.tight_words) +
                         " is more than --max-words " + std::to_string(common.limits.max_words));
    std::vector<std::string> wanted;
    if (vm.count("cases")) wanted = vm["cases"].as<std::vector<std::string>>();
    std::vector<ReportCase> cases = load_cases(wanted, common.limits);
    if (progress_hook())
        o.progress = [](std::size_t k, std::size_t total, const std::string &, std::size_t) {
            progress_hook()(k, total);
        };
    else if (isatty(STDERR_FILENO))
        o.progress = [](std::size_t k, std::size_t total, const std::string &id, std::size_t n) {
            const int width = 30;
            int filled = total ? static_cast<int>(width * k / total) : width;
            std::fprintf(stderr, "\r  [%.*s%*s] %zu/%zu  %s, n = %zu\x1b[K", filled,
                         "##############################", width - filled, "", k, total, id.c_str(),
                         n);
        };
    std::vector<std::string> skipped;
    std::vector<ReportRow> rows = compute_report(cases, o, skipped);
    if (o.progress && !progress_hook()) std::fprintf(stderr, "\r\x1b[K");
    std::vector<std::string> files =
        write_report(vm["out"].as<std::string>(), cases, rows, o, skipped);
    if (common.json) {
        std::cout << nlohmann::json{{"files", files}, {"rows", rows.size()}}.dump(2) << "\n";
    } else {
        std::cout << "report: " << rows.size() << " rows over " << cases.size() << " case"
                  << (cases.size() == 1 ? "" : "s") << "\n";
        for (const auto &f : files)
            std::cout << "  " << f << "\n";
    }
    return kExitOk;
}

} // namespace tempcert::cli
