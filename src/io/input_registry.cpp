// The files a command reads: see include/kernel/tempcert/input_registry.hpp.
#include "tempcert/input_registry.hpp"
#include "tempcert/error.hpp"

#include <mutex>
#include <set>
#include <sys/stat.h>
#include <utility>

namespace tempcert {

namespace {

namespace fs = std::filesystem;

std::mutex g_inputs_mutex;
std::set<std::pair<dev_t, ino_t>> g_inputs; // (device, inode) of every input read
std::vector<fs::path> g_input_paths;        // and its path, links followed

void forget_inputs() {
    std::lock_guard lock(g_inputs_mutex);
    g_inputs.clear();
    g_input_paths.clear();
}

} // namespace

void note_input_file(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return;
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(fs::absolute(path, ec), ec);
    std::lock_guard lock(g_inputs_mutex);
    g_inputs.insert({st.st_dev, st.st_ino});
    if (!ec) g_input_paths.push_back(canonical);
}

InputScope::InputScope() {
    forget_inputs();
}

InputScope::~InputScope() {
    forget_inputs();
}

void refuse_input_as_output(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return;
    std::lock_guard lock(g_inputs_mutex);
    if (S_ISREG(st.st_mode) && g_inputs.count({st.st_dev, st.st_ino}))
        throw InputError(path, "",
                         "is also an input of this command; refusing to overwrite it "
                         "(name another output file)");
}

std::vector<fs::path> input_paths() {
    std::lock_guard lock(g_inputs_mutex);
    return g_input_paths;
}

} // namespace tempcert
