// tempcert command line: install the SIGINT handler and GMP's allocation
// failure handler, then run the command (dispatch.cpp maps errors to exit
// codes).
#include "../numeric/distributed.hpp"
#include "dispatch.hpp"
#include "tempcert/error.hpp"
#include "tempcert/gmp_memory.hpp"

#include <csignal>
#include <iostream>

int main(int argc, char **argv) {
    tempcert::install_gmp_out_of_memory_exit("tempcert");
    std::signal(SIGINT, tempcert::cli::on_sigint);
    // under mpirun, every rank runs the command (src/numeric/distributed.hpp)
    std::string refused = tempcert::detail::start_ranks(&argc, &argv);
    if (!refused.empty()) {
        std::cerr << "tempcert: " << refused << "\n";
        return tempcert::kExitBadInput;
    }
    int code = tempcert::cli::dispatch(tempcert::cli::Args(argv + 1, argv + argc));
    tempcert::detail::stop_ranks(code);
    return code;
}
