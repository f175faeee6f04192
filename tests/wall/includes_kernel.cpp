// Compiled as the checker's sources are (tests/CMakeLists.txt,
// checker_wall): the kernel's headers are reachable. The control for
// includes_engine.cpp, so that the wall test cannot pass by a broken build.
#include "tempcert/check.hpp"
#include "tempcert/hard_eval.hpp"
#include "tempcert/rational.hpp"

int checker_wall_kernel_probe() {
    return tempcert::Rational(1, 2) < 1 ? 0 : 1;
}
