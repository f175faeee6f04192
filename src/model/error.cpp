// Message text of input errors: "FILE: PLACE: what", and the one mapping
// from how a command ended to its exit code.
#include "tempcert/error.hpp"
#include "tempcert/limits.hpp"

#include <new>

namespace tempcert {

std::string InputError::message() const {
    std::string out;
    if (!file_.empty()) out += file_ + ": ";
    if (!place_.empty()) out += place_ + ": ";
    return out + what();
}

CommandEnding ending_of_current_exception(const std::string &interrupted) {
    try {
        throw;
    } catch (const InputError &e) {
        return {kExitBadInput, e.message()};
    } catch (const LimitError &e) {
        return {kExitUndecided, std::string("limit reached: ") + e.what()};
    } catch (const Undecided &e) {
        return {kExitUndecided, std::string("undecided: ") + e.what()};
    } catch (const Interrupted &) {
        return {kExitInterrupted, interrupted};
    } catch (const std::bad_alloc &) {
        return {kExitUndecided, "out of memory (lower n or the limits)"};
    } catch (const std::exception &e) {
        return {kExitInternal,
                std::string("internal error: ") + e.what() + " (please report this)"};
    } catch (...) {
        return {kExitInternal, "internal error: an unknown exception (please report this)"};
    }
}

} // namespace tempcert
