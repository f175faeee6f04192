// The end of a program: what it printed must have reached standard output.
#pragma once

namespace tempcert {

// Flushes and closes standard output. If any of what was printed could not
// be written (a full disk, /dev/full, an I/O error), says so on standard
// error as "PROGRAM: cannot write standard output" and returns exit 2 in
// place of 0, so results are never lost behind exit 0 (docs/reliability.md,
// Files and directories written); other codes are kept.
int finish_standard_output(const char *program, int code);

} // namespace tempcert
