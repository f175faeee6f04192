// Compiled as the checker's sources are (tests/CMakeLists.txt,
// checker_wall): an engine header is not reachable, so this must not
// compile. If it does, a checker source could call into the engine.
#include "tempcert/gap.hpp"

int checker_wall_engine_probe() {
    return 0;
}
