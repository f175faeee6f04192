#include "launched_ranks.hpp"

#include <cstdlib>

namespace tempcert::detail {

long launched_ranks() {
    for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"})
        if (const char *v = std::getenv(name)) return std::strtol(v, nullptr, 10);
    return 0;
}

} // namespace tempcert::detail
