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

void check_budget(const Limits &limits) {
    if (limits.interrupted && *limits.interrupted) throw Interrupted{};
    if (limits.deadline && std::chrono::steady_clock::now() > *limits.deadline)
        throw LimitError("the wall-clock budget of " + seconds(limits.time_limit_seconds) +
                         " s is spent (--time-limit); nothing was certified");
}

} // namespace tempcert
