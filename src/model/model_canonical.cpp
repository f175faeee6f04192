// Canonical form of a model and its SHA-256, which certificates bind
// (docs/certificates.md). The canonical form depends only on the parsed model: key
// order is fixed, numbers are reduced "p/q" strings, expressions are the
// parser's fully parenthesised rendering, so "0.5" and "1/2" or "j/n" and
// "j / n" hash alike.
#include "json_source.hpp"
#include "tempcert/model.hpp"
#include "tempcert/sha256.hpp"

#include <openssl/evp.h>

#include <cstdio>

namespace tempcert {

namespace {

OJson vec(const Vector &v) {
    OJson a = OJson::array();
    for (const auto &x : v)
        a.push_back(to_string(x));
    return a;
}
OJson mat(const Matrix &m) {
    OJson a = OJson::array();
    for (const auto &row : m)
        a.push_back(vec(row));
    return a;
}

} // namespace

std::string canonical_json(const Model &m) {
    OJson doc;
    doc["format"] = "tempcert-model/1";
    doc["name"] = m.name;
    doc["alphabet"] = m.alphabet;
    doc["bos"] = m.bos ? OJson(*m.bos) : OJson(nullptr);
    doc["width"] = m.width;
    OJson emb = OJson::object();
    for (const auto &s : m.alphabet)
        emb[s] = vec(m.embedding.at(s));
    if (m.bos) emb[*m.bos] = vec(m.embedding.at(*m.bos));
    doc["embedding"] = emb;
    OJson pos = OJson::array();
    for (const auto &f : m.positions)
        pos.push_back({{"dim", f.dim}, {"expr", f.expr.canonical()}});
    doc["positions"] = pos;
    OJson layers = OJson::array();
    for (const auto &layer : m.layers) {
        OJson heads = OJson::array();
        for (const auto &h : layer.heads)
            heads.push_back({{"kind", to_string(h.kind)},
                             {"mask", to_string(h.mask)},
                             {"query", mat(h.query)},
                             {"key", mat(h.key)},
                             {"value", mat(h.value)},
                             {"output", mat(h.output)}});
        OJson ffn = nullptr;
        if (layer.ffn)
            ffn = {{"w1", mat(layer.ffn->w1)},
                   {"b1", vec(layer.ffn->b1)},
                   {"w2", mat(layer.ffn->w2)},
                   {"b2", vec(layer.ffn->b2)}};
        layers.push_back({{"heads", heads}, {"ffn", ffn}});
    }
    doc["layers"] = layers;
    if (m.output.kind == ReadKind::Linear) {
        doc["output"] = {{"position", to_string(m.output.position)},
                         {"weights", vec(m.output.weights)},
                         {"bias", to_string(m.output.bias)}};
    } else {
        OJson classes = OJson::array();
        for (const auto &c : m.output.classes)
            classes.push_back({{"dim", c.dim}, {"label", c.label}});
        doc["output"] = {{"position", to_string(m.output.position)},
                         {"kind", "categorical"},
                         {"classes", classes}};
    }
    // Keys added with Tracr import (max_length, beta_native) appear only when set, so the canonical
    // form (and every certificate's model hash) of older models is unchanged.
    if (m.max_length) doc["max_length"] = *m.max_length;
    if (m.beta_native) doc["beta_native"] = m.beta_native->canonical();
    return doc.dump();
}

std::string sha256_hex(const std::string &bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
    std::string hex;
    char buf[3];
    for (unsigned int i = 0; i < length; ++i) {
        std::snprintf(buf, sizeof buf, "%02x", digest[i]);
        hex += buf;
    }
    return hex;
}

std::string model_sha256(const Model &m) {
    return sha256_hex(canonical_json(m));
}

} // namespace tempcert
