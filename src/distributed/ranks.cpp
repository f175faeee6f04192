// What both implementations of ranks.hpp share.
#include "ranks.hpp"
#include "tempcert/error.hpp"

#include <cstdlib>
#include <iostream>

namespace tempcert::detail {

// The number of processes mpirun started, from its environment (0: not
// started by mpirun).
long launched_ranks() {
    for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"})
        if (const char *v = std::getenv(name)) return std::strtol(v, nullptr, 10);
    return 0;
}

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
