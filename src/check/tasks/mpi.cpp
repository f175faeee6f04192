// check_tasks.hpp under MPI (-DTEMPCERT_MPI=ON): the tasks are spread over
// the ranks of the job by src/distributed/ranks.hpp, and each task's part
// travels to the other ranks as bytes. A reader who runs tempcert-check
// under mpirun trusts this file and src/distributed too (proofs/
// certificate.md, Trusted base); local.cpp is the one-process build's.
#include "../../distributed/ranks.hpp"
#include "../check_tasks.hpp"

namespace tempcert::check {

namespace {

std::string pack_gaps(const std::vector<HeadFacts> &facts) {
    detail::ByteWriter out;
    for (const HeadFacts &f : facts) {
        out.number(f.min_gap ? 1 : 0);
        if (f.min_gap) out.rational(*f.min_gap);
        out.word(f.witness);
        out.word(f.tie);
        for (std::size_t v : {f.witness_query, f.tie_query, f.N})
            out.number(v);
        out.numbers(f.witness_argmax);
        out.numbers(f.tie_argmax);
        out.maybe_number(f.witness_runner_up);
        out.maybe_number(f.tie_runner_up);
    }
    return out.take();
}

void unpack_gaps(detail::ByteReader &in, std::vector<HeadFacts> &facts) {
    for (HeadFacts &f : facts) {
        f.min_gap.reset();
        if (in.number()) f.min_gap = in.rational();
        f.witness = in.word();
        f.tie = in.word();
        f.witness_query = in.number();
        f.tie_query = in.number();
        f.N = in.number();
        f.witness_argmax = in.numbers();
        f.tie_argmax = in.numbers();
        f.witness_runner_up = in.maybe_number();
        f.tie_runner_up = in.maybe_number();
    }
}

std::string pack_judged(const JudgedPart &part) {
    detail::ByteWriter out;
    out.number(part.words);
    out.word(part.failed);
    out.text(part.failure);
    return out.take();
}

void unpack_judged(detail::ByteReader &in, JudgedPart &part) {
    part.words = in.number();
    part.failed = in.word();
    part.failure = in.text();
}

} // namespace

void run_check_tasks(std::size_t count, const Limits &limits,
                     const std::function<void(std::size_t)> &task, const TaskParts &parts) {
    detail::run_tasks_everywhere(
        count, limits, task,
        [&](std::size_t t) {
            return parts.gaps ? pack_gaps((*parts.gaps)[t + 1])
                              : pack_judged((*parts.judged)[t + 1]);
        },
        [&](std::size_t t, detail::ByteReader &in) {
            if (parts.gaps)
                unpack_gaps(in, (*parts.gaps)[t + 1]);
            else
                unpack_judged(in, (*parts.judged)[t + 1]);
        });
}

int run_checker(int *argc, char ***argv, const std::function<int()> &run) {
    return detail::run_on_ranks(argc, argv, "tempcert-check", run);
}

} // namespace tempcert::check
