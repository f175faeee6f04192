// tempcert command line: install the SIGINT handler and GMP's allocation
// failure handler, then run the command (dispatch.cpp maps errors to exit
// codes).
#include "../distributed/ranks.hpp"
#include "dispatch.hpp"
#include "tempcert/error.hpp"
#include "tempcert/gmp_memory.hpp"
#include "tempcert/output.hpp"

#include <csignal>

int main(int argc, char **argv) {
    tempcert::install_gmp_out_of_memory_exit("tempcert");
    std::signal(SIGINT, tempcert::cli::on_sigint);
    // under mpirun, every rank runs the command (src/distributed/ranks.hpp)
    int code = tempcert::detail::run_on_ranks(&argc, &argv, "tempcert", [&] {
        return tempcert::cli::dispatch(tempcert::cli::Args(argv + 1, argv + argc));
    });
    return tempcert::finish_standard_output("tempcert", code);
}
