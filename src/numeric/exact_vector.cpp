#include "tempcert/exact_vector.hpp"

namespace tempcert {

Rational dot(const Vector &a, const Vector &b) {
    Rational s = 0;
    for (std::size_t c = 0; c < a.size(); ++c)
        if (a[c] != 0 && b[c] != 0) s += a[c] * b[c];
    return s;
}

Vector matvec(const Matrix &w, const Vector &x) {
    Vector out;
    out.reserve(w.size());
    for (const auto &row : w)
        out.push_back(dot(row, x));
    return out;
}

} // namespace tempcert
