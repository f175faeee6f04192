// What both implementations of ranks.hpp share.
#include "ranks.hpp"
#include "tempcert/error.hpp"

#include <iostream>

namespace tempcert::detail {

int run_on_ranks(int *argc, char ***argv, const char *program, const std::function<int()> &run) {
    std::string refused = start_ranks(argc, argv, program);
    if (!refused.empty()) {
        std::cerr << program << ": " << refused << "\n";
        return kExitBadInput;
    }
    int code = run();
    stop_ranks(code);
    return code;
}

} // namespace tempcert::detail
