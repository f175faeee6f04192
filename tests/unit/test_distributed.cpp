// The pieces of MPI distribution that run without MPI (docs/commands.md, Running under MPI): task
// results as bytes, the task split (a function of the alphabet and n only),
// and run_tasks_everywhere in one process (every task once). The MPI runs
// themselves are tests/cli/mpi.sh.
#include "../../src/distributed/ranks.hpp"
#include "../../src/eval/prefix_walk.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <random>
#include <stdexcept>

using namespace tempcert::detail;

TEST_CASE("distributed: bytes read back as written, and short bytes are refused") {
    std::mt19937_64 rng(19);
    for (int round = 0; round < 200; ++round) {
        ByteWriter out;
        std::vector<std::uint64_t> numbers;
        std::vector<std::string> texts;
        std::vector<std::vector<int>> words;
        std::vector<double> reals;
        for (int k = 0; k < 5; ++k) {
            numbers.push_back(rng() >> (rng() % 64));
            texts.push_back(std::string(rng() % 40, static_cast<char>(rng() % 256)));
            words.push_back(std::vector<int>(rng() % 20));
            for (int &s : words.back())
                s = static_cast<int>(rng() % 5000);
            std::uint64_t bits = rng();
            double d = 0;
            std::memcpy(&d, &bits, sizeof d);
            reals.push_back(d);
            out.number(numbers.back());
            out.text(texts.back());
            out.word(words.back());
            out.real64(reals.back());
        }
        std::string bytes = out.take();
        ByteReader in(bytes);
        for (int k = 0; k < 5; ++k) {
            CHECK(in.number() == numbers[k]);
            CHECK(in.text() == texts[k]);
            CHECK(in.word() == words[k]);
            double d = in.real64();
            CHECK(std::memcmp(&d, &reals[k], sizeof d) == 0); // NaN payloads and -0 too
        }
        CHECK(in.done());
        // every proper prefix of the bytes ends early somewhere
        std::string cut = bytes.substr(0, rng() % bytes.size());
        ByteReader short_in(cut);
        auto read_all = [&] {
            for (int k = 0; k < 5; ++k) {
                short_in.number();
                short_in.text();
                short_in.word();
                short_in.real64();
            }
        };
        CHECK_THROWS_AS(read_all(), std::runtime_error);
    }
    // exact rationals, lists and optional numbers
    {
        ByteWriter out;
        const tempcert::Rational big("-123456789012345678901234567890/7");
        out.rational(big);
        out.numbers({0, 5, std::numeric_limits<std::size_t>::max()});
        out.maybe_number(std::nullopt);
        out.maybe_number(0);
        std::string bytes = out.take();
        ByteReader in(bytes);
        CHECK(in.rational() == big);
        CHECK(in.numbers() ==
              std::vector<std::size_t>{0, 5, std::numeric_limits<std::size_t>::max()});
        CHECK(!in.maybe_number());
        CHECK(in.maybe_number() == std::optional<std::size_t>(0));
        CHECK(in.done());
        ByteWriter bad;
        bad.text("1/0x");
        std::string bad_bytes = bad.take();
        ByteReader bad_in(bad_bytes);
        CHECK_THROWS_AS(bad_in.rational(), std::runtime_error);
    }
    // a word whose length claims more than the bytes hold is refused before allocating
    ByteWriter out;
    out.number(std::numeric_limits<std::uint64_t>::max());
    std::string bytes = out.take();
    ByteReader in(bytes);
    CHECK_THROWS_AS(in.word(), std::runtime_error);
}

TEST_CASE("distributed: the task split depends on the alphabet and n only") {
    // (symbols, n) -> split length: at least 64 tasks, up to 4096 while 64
    // or more words stay below each task's root per word above the split
    const std::vector<std::array<std::size_t, 3>> table = {
        {1, 50, 50}, {2, 1, 1},   {2, 5, 5},   {2, 6, 6},  {2, 12, 6},  {2, 14, 8},
        {2, 16, 10}, {2, 18, 12}, {2, 40, 12}, {3, 10, 6}, {4, 3, 3},   {4, 8, 5},
        {4, 9, 6},   {4, 30, 6},  {64, 5, 2},  {65, 5, 2}, {4096, 3, 1}};
    for (const auto &row : table) {
        const std::size_t k = row[0], n = row[1]; // named: clang 14 captures no bindings
        INFO("symbols " << k << " n " << n);
        CHECK(prefix_split_length(k, n) == row[2]);
    }
    for (std::size_t k = 2; k <= 8; ++k)
        for (std::size_t n = 1; n <= 40; ++n) {
            const std::size_t s = prefix_split_length(k, n);
            const double tasks = std::pow(double(k), double(s));
            CHECK(s <= n);
            CHECK((s == n || tasks >= 64));
            CHECK(tasks < 4096.0 * double(k));
        }
}

TEST_CASE("distributed: in one process every task runs once, failures as run_tasks") {
    CHECK(rank_count() == 1);
    CHECK(rank_index() == 0);
    for (unsigned threads : {1u, 2u, 5u}) {
        tempcert::Run run;
        run.threads = threads;
        tempcert::Limits limits;
        limits.run = &run;
        std::vector<int> ran(1000, 0);
        std::mutex m;
        run_tasks_everywhere(
            ran.size(), limits,
            [&](std::size_t i) {
                std::lock_guard lock(m);
                ++ran[i];
            },
            [](std::size_t) { return std::string(); },
            [](std::size_t, ByteReader &) { FAIL("unpacked in one process"); });
        CHECK(std::count(ran.begin(), ran.end(), 1) == 1000);
        CHECK_THROWS_WITH_AS(run_tasks_everywhere(
                                 100, limits,
                                 [](std::size_t i) {
                                     if (i == 7 || i == 40)
                                         throw std::runtime_error(std::to_string(i));
                                 },
                                 [](std::size_t) { return std::string(); },
                                 [](std::size_t, ByteReader &) {}),
                             "7", std::runtime_error);
    }
}
