// Message text of input errors: "FILE: PLACE: what".
#include "tempcert/error.hpp"

namespace tempcert {

std::string InputError::message() const {
    std::string out;
    if (!file_.empty()) out += file_ + ": ";
    if (!place_.empty()) out += place_ + ": ";
    return out + what();
}

} // namespace tempcert
