// Budget checks shared by every long loop (docs/commands.md).
#include "tempcert/limits.hpp"
#include "tempcert/error.hpp"

#include <sstream>
#include <string>

namespace tempcert {

namespace {
std::string seconds(double s) {
    std::ostringstream out;
    out << s;
    return out.str();
}
} // namespace

void Run::set_time_limit(double s) {
    if (s <= 0) return;
    time_limit_seconds = s;
    deadline = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(s));
}

void check_budget(const Limits &limits) {
    const Run *run = limits.run;
    if (!run) return;
    if (run->interrupted && *run->interrupted) throw Interrupted{};
    if (run->deadline && std::chrono::steady_clock::now() > *run->deadline)
        throw LimitError("the wall-clock budget of " + seconds(run->time_limit_seconds) +
                         " s is spent (--time-limit); nothing was certified");
}

} // namespace tempcert
