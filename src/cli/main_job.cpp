// The bare `tempcert` command: the main job on the bundled cases. For each
// case of cases/manifest.json it checks the listed words against the hard
// and soft model, certifies the Lemma GT beta for every word up to a small n
// (writing the certificate to certificates/ and verifying it with the
// small checker, the fast checker beside it), brackets the tight inverse temperature, and,
// where the layerwise method applies, certifies every word up to n = 100000 (500 with features
// reading n) with a certificate the checker re-derives. Then it writes the report of tight
// temperatures over every case and the default lengths (`tempcert report`) into report/, and that
// of the bundled counting formulas (`tempcert report counting`) into report/counting/.
#include "commands.hpp"
#include "option_table.hpp"
#include "options.hpp"
#include "small_checker.hpp"
#include "tempcert/error.hpp"
#include "tempcert/method.hpp"
#include "tempcert/outcome.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <variant>

namespace tempcert::cli {

namespace {

// Words listed in the manifest: hard and soft (at the demo beta) acceptance.
std::pair<int, int> check_words(const nlohmann::json &c, const Model &m) {
    std::optional<BetaSpec> beta;
    if (c.contains("demo_beta"))
        beta = BetaSpec::parse(c["demo_beta"].get<std::string>(), m.layers.size(), "demo_beta");
    int ok = 0, total = 0;
    for (const auto &[key, expected] : {std::pair{"accept", true}, std::pair{"reject", false}})
        for (const auto &text : c.at("words").at(key)) {
            Word w = parse_word(text.get<std::string>(), m.alphabet, "manifest");
            Trace hard = evaluate_hard(m, w);
            Tri want = expected ? Tri::True : Tri::False;
            bool good = hard.outputs.back().accept == want;
            if (beta) good = good && evaluate_soft(m, w, *beta, hard).outputs.back().accept == want;
            ++total;
            ok += good;
            if (!good) std::cout << "    MISMATCH on " << text.get<std::string>() << "\n";
        }
    return {ok, total};
}

// TEMPCERT_REPORT_N (set by the test suite, tests/CMakeLists.txt) asks for
// a shorter job that takes every step: shorter words in each step too.
bool shorter_job() {
    return std::getenv("TEMPCERT_REPORT_N") != nullptr;
}

// Passed and total checks of the job so far.
struct Tally {
    int checks = 0, failures = 0;
    int certificates = 0; // written (each whole), for the Ctrl-C message
    void add(bool ok) {
        ++checks;
        failures += !ok;
    }
};

// Has the small checker (tempcert-check: its own process, its own code)
// verify a written certificate, then the fast checker (tempcert-fastcheck's
// code, in this process) read it back, and says both on the line `what`
// begins; counts it. Only the small checker's VERIFIED passes: a
// certificate it refuses, leaves out or cannot run on is a failure.
void recheck(const std::string &path, const std::string &model_path, const CertifyOptions &o,
             const std::string &what, Tally &tally) {
    ++tally.certificates;
    SmallCheck small = run_small_checker(path, model_path, o.limits);
    CheckOutcome c = check_certificate(path, model_path, o.limits, o.precision);
    std::cout << what << path << ": " << to_text(small) << "; "
              << (c.accepted ? "fast check passed" : "fast check FAILED: " + c.reason) << "\n";
    tally.add(c.accepted && small.verdict == SmallCheckVerdict::Verified);
}

// Exhaustive certification at Lemma GT's beta up to n (as `certify`
// computes it), its certificate written and re-verified by the checker.
// Returns the options used.
CertifyOptions certify_case(const Model &m, const std::string &id, const std::string &model_path,
                            const Limits &lim, Tally &tally) {
    CertifyOptions o;
    o.limits = lim;
    o.precision.budget = &lim;
    o.n = m.alphabet.size() == 2 ? (shorter_job() ? 6 : 8) : (shorter_job() ? 4 : 5);
    o.eps = Rational(1, 100);
    CertifyOutcome c = certify_enumerating(m, model_path, o, std::nullopt);
    const CertifyResult &r = c.result;
    std::cout << "  n <= " << o.n << ": minimum gap "
              << (c.gaps.min_gap ? to_string(*c.gaps.min_gap) : std::string("inf"))
              << ", Lemma GT beta = " << c.beta_gap.beta_decimal_up << ": " << to_string(r.verdict);
    if (r.counterexample)
        std::cout << " (counterexample " << format_word(r.counterexample->word, m.alphabet)
                  << ": soft errors of earlier layers shrink later gaps)";
    std::cout << "\n";
    const std::string path = "certificates/" + id + ".certificate.json";
    write_certificate(c, path);
    if (c.written)
        recheck(path, model_path, o, "  certificate ", tally);
    else
        tally.add(false); // undecided: no certificate to write (said above)
    return o;
}

void print_tight(const Model &m, const CertifyOptions &o) {
    CertifyOptions t = o;
    t.n = m.alphabet.size() == 2 ? (shorter_job() ? 5 : 6) : (shorter_job() ? 3 : 4);
    TightResult tr = tight_auto(m, t, Rational(1, 1000000), t.limits.max_words);
    std::cout << "  n <= " << t.n << ": tight beta in ["
              << decimal_significant(tr.beta_lo, 12, false) << ", "
              << decimal_significant(tr.beta_hi, 12, true) << "] (" << to_string(tr.kind) << ")";
    if (tr.lo_witness)
        std::cout << ", refuted below by " << format_word(tr.lo_witness->word, m.alphabet);
    std::cout << "\n";
}

// Beyond enumeration: certify's own chooser asked for the layerwise method
// (certify_chosen: exact rounding, else the perturbation argument), its
// certificate written by certify's writer (which checks it before writing)
// and re-verified from the file. A model neither argument reaches is said
// so (an undecided claim, not a failed check).
void certify_case_beyond(const Model &m, const std::string &id, const std::string &model_path,
                         const CertifyOptions &o, Tally &tally) {
    CertifyOptions at_big = o;
    at_big.n = m.features_use_n() ? 500 : 100000;
    if (shorter_job()) at_big.n = m.features_use_n() ? 40 : 1000;
    std::optional<CertifyAnswer> a;
    try {
        a = certify_chosen(m, model_path, at_big, CertifyMethodAsked::Layerwise, std::nullopt);
    } catch (const Undecided &e) {
        std::cout << "  n <= " << at_big.n << " (no enumeration): undecided: " << e.what() << "\n";
        return;
    }
    const bool layerwise = std::holds_alternative<LayerwiseCertifyOutcome>(*a);
    const std::string line = "  n <= " + std::to_string(at_big.n) +
                             (layerwise ? " (layerwise, no enumeration): beta = "
                                        : " (perturbation bounds, no enumeration; exact rounding "
                                          "does not apply): beta = ");
    const std::string &beta = layerwise ? std::get<LayerwiseCertifyOutcome>(*a).beta
                                        : std::get<PerturbationCertifyOutcome>(*a).beta;
    if (verdict_of(*a) != Verdict::Certified) {
        std::cout << line << beta << " not certified: "
                  << (layerwise
                          ? std::get<LayerwiseCertifyOutcome>(*a).verdict.certificate_shortfall
                          : std::get<PerturbationCertifyOutcome>(*a).run.shortfall)
                  << "\n";
        tally.add(false);
        return;
    }
    const std::string path =
        "certificates/" + id +
        (layerwise ? ".layerwise-certificate.json" : ".perturbation-certificate.json");
    write_certificate(*a, path);
    recheck(path, model_path, at_big,
            line + decimal_significant(Rational(beta), 12, true) + " certified; ", tally);
}

// The two reports: the bundled models to n = 10^4, then the counting
// formulas (enumerated brackets to n = 6, layerwise to 1000, lower ends from
// every word up to 8 and pumped words). A row whose
// symbolic analysis would examine more than 10^7 query configurations is
// left out and listed with the reason (the bounded cases past n = 1024,
// whose every length has its own positional values), which keeps the job
// to minutes. TEMPCERT_REPORT_N narrows the lengths (the test runs use it).
constexpr const char *kReportLengths = "2..8,16,32,64,128,256,512,1024,2048,4096,8192,10000";
constexpr const char *kReportQueries = "10000000";

int write_reports() {
    std::cout << "writing the report of tight temperatures (tempcert report) ...\n";
    const char *ns = std::getenv("TEMPCERT_REPORT_N");
    // lower ends pumped to 256 (not tight's 1024): each row past 256 repeats
    // its case's search, and at 1024 one multi-layer row takes about 30 s
    Args report_args{"--out",         "report",       "--n",           ns ? ns : kReportLengths,
                     "--max-queries", kReportQueries, "--pump-length", "256"};
    int rc = run_report(report_args);
    if (rc != kExitOk) return rc;
    std::cout << "\nwriting the report of the counting formulas (tempcert report counting) ...\n";
    // enumeration up to n = 8 (510 words) for the lower ends beyond it: the
    // counting models are wide, and each enumeration costs a second at 2046
    Args counting_args{"counting", "--out", "report/counting",    "--tight-words",
                       "510",      "--n",   "2..6,16,64,256,1000"};
    if (const char *ns = std::getenv("TEMPCERT_REPORT_N")) counting_args.back() = ns;
    rc = run_report(counting_args);
    std::cout << "\nopen report/report.md and report/counting/report.md (tables, plots, what "
                 "each column means)\n";
    return rc;
}

} // namespace

// The cases one by one: words, certificates, tight brackets, layerwise.
int run_cases(const Limits &lim, Tally &tally) {
    std::string dir = cases_dir();
    std::string manifest_path = dir + "/manifest.json";
    std::ifstream in(manifest_path);
    if (!in) throw InputError(manifest_path, "", "cannot open the bundled cases' manifest");
    nlohmann::json manifest = nlohmann::json::parse(in);
    std::filesystem::create_directories("certificates");
    std::cout << "tempcert " << TEMPCERT_VERSION << ": the bundled cases in " << dir
              << ", eps = 1/100, criterion tv\n\n";
    for (const auto &c : manifest.at("cases")) {
        std::string id = c.at("id");
        std::string model_path = dir + "/" + c.at("model").get<std::string>();
        Model m = load_model_file(model_path, lim);
        std::cout << id << ": " << c.at("language").get<std::string>() << "\n";
        auto [ok, total] = check_words(c, m);
        tally.checks += total;
        tally.failures += total - ok;
        std::cout << "  words: " << ok << "/" << total
                  << " as the manifest expects (hard and soft)\n";
        CertifyOptions o = certify_case(m, id, model_path, lim, tally);
        print_tight(m, o);
        certify_case_beyond(m, id, model_path, o, tally);
        std::cout << "\n";
    }
    std::cout << "tempcert: " << tally.checks - tally.failures << " passed, " << tally.failures
              << " failed (certificates in certificates/)\n\n";
    return kExitOk;
}

int run_main_job(const Args &args) {
    // the options every command has (--threads, --time-limit, the limits)
    po::options_description desc("options (every command's)");
    po::variables_map vm;
    if (!parse_command("",
                       "[--threads N] [--time-limit S] [limits]\n\n"
                       "No command: the bundled cases (words, certificates, tight brackets),\n"
                       "then the reports (report/, report/counting/).",
                       desc, args, nullptr, 0, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    if (common.json) throw InputError("", "--json", "the main job has no JSON output");
    // every step of the job stops on Ctrl-C (docs/reliability.md, Long steps obey Ctrl-C)
    Limits lim = common.limits;
    Tally tally;
    int rc = kExitOk;
    try {
        run_cases(lim, tally);
        rc = write_reports();
    } catch (const Interrupted &) {
        // what was written is whole and stays: say so
        std::cerr << "tempcert: interrupted; the " << tally.certificates
                  << " certificates written before it are complete (certificates/); no "
                     "other file was written\n";
        return kExitInterrupted;
    }
    if (rc != kExitOk) return rc;
    return tally.failures == 0 ? kExitOk : kExitRefuted;
}

} // namespace tempcert::cli
