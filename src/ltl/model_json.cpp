// Writing a model as a readable `tempcert-model/1` file: the canonical form
// (exact numbers as strings), with matrix rows on one line each.
#include "tempcert/ltl.hpp"

#include <nlohmann/json.hpp>

#include <sstream>

namespace tempcert {

namespace {

using OJ = nlohmann::ordered_json;

bool scalar_array(const OJ &v) {
    if (!v.is_array()) return false;
    for (const auto &x : v)
        if (x.is_array() || x.is_object()) return false;
    return true;
}

void write(std::ostringstream &out, const OJ &v, int indent) {
    std::string pad(static_cast<std::size_t>(indent), ' ');
    if (v.is_object()) {
        out << "{\n";
        std::size_t i = 0;
        for (auto it = v.begin(); it != v.end(); ++it, ++i) {
            out << pad << "  " << OJ(it.key()).dump() << ": ";
            write(out, it.value(), indent + 2);
            out << (i + 1 < v.size() ? ",\n" : "\n");
        }
        out << pad << "}";
    } else if (v.is_array() && !scalar_array(v)) {
        out << "[\n";
        for (std::size_t i = 0; i < v.size(); ++i) {
            out << pad << "  ";
            write(out, v[i], indent + 2);
            out << (i + 1 < v.size() ? ",\n" : "\n");
        }
        out << pad << "]";
    } else {
        out << v.dump(-1, ' ', false);
    }
}

} // namespace

std::string model_to_json(const Model &m, const std::string &description) {
    OJ canon = OJ::parse(canonical_json(m));
    OJ doc;
    for (auto it = canon.begin(); it != canon.end(); ++it) {
        doc[it.key()] = it.value();
        if (it.key() == "name") doc["description"] = description;
    }
    std::ostringstream out;
    write(out, doc, 0);
    out << "\n";
    return out.str();
}

} // namespace tempcert
