// `tempcert report`: tables and plots of tight temperatures over cases and
// lengths (src/report/). Cases are ids from the bundled manifests
// (cases/manifest.json, cases/counting/manifest.json), the group `counting`,
// or model files.
#include "commands.hpp"
#include "dispatch.hpp"
#include "options.hpp"
#include "tempcert/error.hpp"
#include "tempcert/ltl.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/output.hpp"
#include "tempcert/report.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace tempcert::cli {

namespace {

nlohmann::json read_manifest(const std::string &path, bool required) {
    std::ifstream in(path);
    if (!in) {
        if (required) throw InputError(path, "", "cannot open the bundled cases' manifest");
        return nlohmann::json::object();
    }
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw InputError(path, "", "expected a JSON object (the bundled cases' manifest)");
    return j;
}

std::string string_field(const nlohmann::json &entry, const char *key, const std::string &path) {
    if (!entry.is_object() || !entry.contains(key) || !entry[key].is_string())
        throw InputError(path, std::string("$.") + key, "expected a string in every entry");
    return entry[key].get<std::string>();
}

// A bundled counting formula (cases/counting/manifest.json), compiled as
// `tempcert compile FORMULA --alphabet ...` does without --pe.
ReportCase counting_case(const nlohmann::json &c, const std::string &path, const Limits &limits) {
    std::string id = string_field(c, "id", path), text = string_field(c, "formula", path);
    if (!c.contains("alphabet") || !c["alphabet"].is_array())
        throw InputError(path, "$.formulas[" + id + "].alphabet", "expected an array of symbols");
    std::vector<std::string> alphabet;
    std::string list;
    for (const auto &a : c["alphabet"]) {
        if (!a.is_string())
            throw InputError(path, "$.formulas[" + id + "].alphabet",
                             "expected symbols as strings");
        alphabet.push_back(a.get<std::string>());
        list += (list.empty() ? "" : ",") + alphabet.back();
    }
    Formula f = [&] {
        try {
            return Formula::parse(text, alphabet);
        } catch (const InputError &e) { // name the manifest entry, then the formula's column
            throw InputError(path, "$.formulas[" + id + "]." + e.place(), e.what());
        }
    }();
    Model m = compile_formula(f, PositionEncoding::Unbounded, false, limits);
    std::string language = text + (c.contains("language") && c["language"].is_string()
                                       ? ": " + c["language"].get<std::string>()
                                       : std::string());
    return {id, language, "tempcert compile '" + text + "' --alphabet " + list, m, {}};
}

// Cases by name: a bundled model's id, a bundled counting formula's id, the
// group `counting` (every counting formula), or a model file. None: every
// bundled model.
std::vector<ReportCase> load_cases(const std::vector<std::string> &wanted, const Limits &limits) {
    std::string dir = cases_dir();
    std::string models_path = dir + "/manifest.json";
    std::string counting_path = dir + "/counting/manifest.json";
    nlohmann::json models = read_manifest(models_path, wanted.empty());
    nlohmann::json counting = read_manifest(counting_path, false);
    auto entries = [](const nlohmann::json &j, const char *key) {
        return j.contains(key) && j[key].is_array() ? j[key] : nlohmann::json::array();
    };
    std::vector<ReportCase> out;
    auto from_manifest = [&](const nlohmann::json &c) {
        std::string path = dir + "/" + string_field(c, "model", models_path);
        out.push_back({string_field(c, "id", models_path),
                       c.contains("language") && c["language"].is_string()
                           ? c["language"].get<std::string>()
                           : "",
                       path,
                       load_model_file(path, limits),
                       {}});
    };
    if (wanted.empty()) {
        if (!models.contains("cases"))
            throw InputError(models_path, "$.cases", "expected the bundled cases");
        for (const auto &c : entries(models, "cases"))
            from_manifest(c);
        return out;
    }
    for (const auto &w : wanted) {
        bool found = false;
        for (const auto &c : entries(models, "cases"))
            if (c.is_object() && c.value("id", "") == w) {
                from_manifest(c);
                found = true;
            }
        for (const auto &c : entries(counting, "formulas"))
            if (c.is_object() && (w == "counting" || c.value("id", "") == w)) {
                out.push_back(counting_case(c, counting_path, limits));
                found = true;
            }
        if (found) continue;
        if (w.find('/') == std::string::npos && w.find(".json") == std::string::npos)
            throw InputError("", "tempcert report",
                             "\"" + w + "\" is neither a bundled case id (see " + models_path +
                                 "), a counting formula's id or `counting` (see " + counting_path +
                                 ") nor a model file");
        Model m = load_model_file(w, limits);
        out.push_back({m.name, "", w, m, {}});
    }
    return out;
}

} // namespace

int run_report(const Args &args) {
    po::options_description desc("report options");
    po::variables_map vm;
    if (!parse_command(
            "report",
            "[CASES...] [--n 2..64] [--eps E] [--out DIR]\n\n"
            "CASES: ids of bundled models (cases/manifest.json; none: all of them), ids of\n"
            "bundled counting formulas or `counting` for all of them\n"
            "(cases/counting/manifest.json, compiled as `compile` does), or model files.",
            desc, args, "cases", -1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    ReportOptions o;
    o.limits = common.limits;
    o.precision = common.precision;
    o.ns = parse_n_list(vm["n"].as<std::string>(), common.limits.max_n);
    o.eps = read_fraction(vm, "eps");
    o.rel = read_fraction(vm, "rel");
    o.tight_words = static_cast<std::uint64_t>(vm["tight-words"].as<long long>());
    o.pump_length = static_cast<std::size_t>(vm["pump-length"].as<long long>());
    if (o.tight_words > common.limits.max_words)
        throw LimitError("--tight-words " + std::to_string(o.tight_words) +
                         " is more than --max-words " + std::to_string(common.limits.max_words));
    std::vector<std::string> wanted;
    if (vm.count("cases")) wanted = vm["cases"].as<std::vector<std::string>>();
    std::vector<ReportCase> cases = load_cases(wanted, common.limits);
    check_output_directory(vm["out"].as<std::string>(), kReportFormat,
                           &common.limits); // before the long part
    if (const ProgressHook &hook = current_run().progress)
        o.progress = [hook](std::size_t k, std::size_t total, const std::string &, std::size_t) {
            hook(k, total);
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
    add_every_n(cases, o);
    if (o.progress && !current_run().progress) std::fprintf(stderr, "\r\x1b[K");
    ReportOutcome out;
    out.files = write_report(vm["out"].as<std::string>(), cases, rows, o, skipped);
    out.rows = std::move(rows);
    out.skipped = std::move(skipped);
    out.cases = cases.size();
    render(out, common);
    return kExitOk;
}

} // namespace tempcert::cli
