// ranks.hpp under MPI (built with -DTEMPCERT_MPI=ON; ranks_local.cpp is
// the other implementation).
#include "../parallel/task_pool.hpp"
#include "ranks.hpp"
#include "tempcert/error.hpp"
#include "tempcert/input_registry.hpp"
#include "tempcert/limits.hpp"

#include <mpfr.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <fcntl.h>
#include <iostream>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace tempcert::detail {

namespace {

bool g_started = false;
const char *g_program = "tempcert"; // for the message of a rank that ends the job
int g_rank = 0, g_size = 1;
MPI_Comm g_exit_comm = MPI_COMM_NULL; // the end's barrier, apart from the work's collectives
int g_stderr = -1;                    // ranks other than 0: the standard error mpirun gave them
// FNV-1a over the process's command line: the ranks compare it (and the
// run's inputs, InputRegistry::digest) before they share out work
std::uint64_t g_command_line_digest = kDigestBasis;

// What this rank wrote to its standard error (kept aside), on the one
// mpirun shows, before it ends the job alone.
void show_own_errors() {
    if (g_stderr < 0) return;
    char text[4096];
    ssize_t got = ::pread(2, text, sizeof text, 0);
    std::string line = "tempcert: rank " + std::to_string(g_rank) + " stops the job: ";
    line += got > 0 ? std::string(text, static_cast<std::size_t>(got)) : "(no message)\n";
    if (::write(g_stderr, line.data(), line.size()) < 0) return;
}

constexpr int kTagAsk = 71, kTagGrant = 72;
constexpr std::uint64_t kNone = ~std::uint64_t{0};

// What a rank other than 0 was granted and has not yet run (rank 0's workers
// take task numbers from hand_out's counter), and on every rank the results
// of the tasks run there and the failure of the lowest-numbered one.
class TaskQueue {
  public:
    void push(std::size_t i) {
        {
            std::lock_guard lock(mutex_);
            items_.push_back(i);
        }
        ready_.notify_one();
    }
    void close() {
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
        }
        ready_.notify_all();
    }
    // The next task, or kNone once closed and empty (or after a failure).
    std::uint64_t pop() {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return closed_ || !items_.empty() || failed_; });
        if (failed_ || items_.empty()) return kNone;
        std::size_t i = items_.front();
        items_.pop_front();
        low_.notify_all();
        return i;
    }
    // Waits (without polling) until fewer than `depth` tasks wait or a task
    // failed.
    void wait_until_below(std::size_t depth) {
        std::unique_lock lock(mutex_);
        low_.wait(lock, [&] { return items_.size() < depth || failed_; });
    }
    std::size_t waiting() {
        std::lock_guard lock(mutex_);
        return items_.size();
    }
    // Records a task's failure (keeping the lowest-numbered); the workers
    // then take no more tasks.
    void fail(std::size_t i, std::exception_ptr e) {
        {
            std::lock_guard lock(mutex_);
            if (i < failed_task_) {
                failed_task_ = i;
                failure_ = e;
            }
            failed_ = true;
        }
        ready_.notify_all();
        low_.notify_all();
    }
    bool failed() {
        std::lock_guard lock(mutex_);
        return failed_;
    }
    std::uint64_t failed_task() const { return failed_task_; }
    std::exception_ptr failure() const { return failure_; }
    void keep(std::size_t i, std::string bytes) {
        std::lock_guard lock(mutex_);
        results_.emplace_back(i, std::move(bytes));
    }
    std::vector<std::pair<std::size_t, std::string>> &results() { return results_; }

  private:
    std::mutex mutex_;
    std::condition_variable ready_, low_;
    std::deque<std::size_t> items_;
    bool closed_ = false, failed_ = false;
    std::uint64_t failed_task_ = kNone;
    std::exception_ptr failure_;
    std::vector<std::pair<std::size_t, std::string>> results_;
};

// Between polls of MPI (its blocking calls spin, taking a core from the
// workers): rank 0 between looks for asks (a rank asks while it still holds
// tasks, so an answer may take this long), the others while a grant is due.
void pause_briefly() {
    std::this_thread::sleep_for(std::chrono::microseconds(g_rank == 0 ? 500 : 100));
}

// A wait on the other ranks (for an ask, a grant, a collective step) that
// also ends when the run's budget is spent: a rank that is stopped
// (SIGSTOP, a machine gone) never answers, and polls inside the tasks
// cannot end a wait outside them. Every living rank's tasks poll the budget
// themselves and answer within moments, so a wait gives up only a second
// after the deadline or the interrupt: check() then throws check_budget's
// LimitError or Interrupted (stop_ranks ends the job rather than wait for
// the stopped rank), check_or_end_job() ends the job at once.
class BudgetedWait {
  public:
    explicit BudgetedWait(const Limits &limits) : limits_(limits) {}
    void check() {
        if (given_up()) check_budget(limits_);
    }
    // For a wait whose receive buffers MPI may still write into (a grant
    // asked for, a collective step): unwinding would free them under MPI,
    // so the rank ends the job itself, with check_budget's message and
    // exit code, as stop_ranks would a second later.
    void check_or_end_job() {
        if (!given_up()) return;
        try {
            check_budget(limits_);
        } catch (...) {
            CommandEnding end = ending_of_current_exception("interrupted; nothing was certified");
            std::string line = std::string(g_program) + ": " + end.message + "\n";
            // rank 0's standard error is mpirun's; another rank's is kept aside
            // and shown by show_own_errors
            if (::write(2, line.data(), line.size()) < 0) { /* nothing left to do */
            }
            if (g_rank != 0) show_own_errors();
            MPI_Abort(MPI_COMM_WORLD, end.code);
        }
    }

  private:
    // a second after the deadline or the interrupt
    bool given_up() {
        const Run *run = limits_.run;
        const bool spent =
            run && ((run->interrupted && *run->interrupted) ||
                    (run->deadline && std::chrono::steady_clock::now() > *run->deadline));
        if (!spent) return false;
        const auto now = std::chrono::steady_clock::now();
        if (!spent_since_) spent_since_ = now;
        return now - *spent_since_ > std::chrono::seconds(1);
    }
    const Limits &limits_;
    std::optional<std::chrono::steady_clock::time_point> spent_since_;
};

// Waits for a non-blocking collective step (the blocking ones spin and
// cannot be left when a rank never comes).
void wait_for(MPI_Request &request, BudgetedWait &budget) {
    for (int done = 0;;) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) return;
        budget.check_or_end_job();
        pause_briefly();
    }
}

// How many tasks one grant hands out: a share of what is left (guided
// self-scheduling), so that short tasks cost few messages and the last
// grants are single tasks that even out the ranks' finishing times.
std::size_t batch_size(std::size_t left, unsigned threads) {
    std::size_t share = left / (4 * static_cast<std::size_t>(g_size) * threads);
    return std::clamp<std::size_t>(share, 1, 256);
}

// Rank 0 hands out task numbers from `next`, which its own workers also
// take from one at a time, to each rank that asks, until none are left or a
// task failed; it returns once every other rank has been told there are no
// more.
void hand_out(std::size_t count, unsigned threads, std::atomic<std::size_t> &next,
              std::atomic<bool> &stop, TaskQueue &queue, std::atomic<std::uint64_t> *progress,
              BudgetedWait &budget) {
    int told_done = 0;
    while (true) {
        if (queue.failed()) stop = true;
        int asked = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, kTagAsk, MPI_COMM_WORLD, &asked, &status);
        if (asked) {
            std::uint64_t ask[2]; // progress made since the last ask; whether a task failed
            MPI_Recv(ask, 2, MPI_UINT64_T, status.MPI_SOURCE, kTagAsk, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            if (progress) progress->fetch_add(ask[0], std::memory_order_relaxed);
            if (ask[1] != 0) stop = true;
            std::uint64_t grant[2] = {kNone, 0}; // first task, how many
            std::size_t seen = next.load();
            if (!stop && seen < count) {
                const std::size_t batch = batch_size(count - seen, threads);
                std::size_t first = next.fetch_add(batch);
                if (first < count) {
                    grant[0] = first;
                    grant[1] = std::min(batch, count - first);
                }
            }
            if (grant[0] == kNone) ++told_done;
            MPI_Send(grant, 2, MPI_UINT64_T, status.MPI_SOURCE, kTagGrant, MPI_COMM_WORLD);
            continue;
        }
        if (told_done == g_size - 1 && (stop || next.load() >= count)) break;
        budget.check();
        pause_briefly();
    }
}

// A rank other than 0 asks rank 0 for tasks whenever it holds fewer than
// twice `threads`, and at once after a failure, until told there are no
// more.
void ask_for_tasks(unsigned threads, TaskQueue &queue, std::atomic<std::uint64_t> *progress,
                   BudgetedWait &budget) {
    // what this rank counted before the tasks (the words above the split,
    // which rank 0 counts itself) is not reported
    std::uint64_t reported = progress ? progress->load(std::memory_order_relaxed) : 0;
    std::uint64_t grant[2] = {0, 0};
    bool waiting_for_grant = false;
    MPI_Request request = MPI_REQUEST_NULL;
    while (true) {
        if (!waiting_for_grant) {
            queue.wait_until_below(2 * threads);
            std::uint64_t now = progress ? progress->load(std::memory_order_relaxed) : 0;
            std::uint64_t ask[2] = {now - reported, queue.failed() ? 1u : 0u};
            reported = now;
            MPI_Send(ask, 2, MPI_UINT64_T, 0, kTagAsk, MPI_COMM_WORLD);
            MPI_Irecv(grant, 2, MPI_UINT64_T, 0, kTagGrant, MPI_COMM_WORLD, &request);
            waiting_for_grant = true;
        }
        int arrived = 0;
        if (waiting_for_grant) MPI_Test(&request, &arrived, MPI_STATUS_IGNORE);
        if (arrived) {
            waiting_for_grant = false;
            if (grant[0] == kNone) break;
            for (std::uint64_t k = 0; k < grant[1]; ++k)
                queue.push(static_cast<std::size_t>(grant[0] + k));
            continue;
        }
        budget.check_or_end_job(); // a grant may still arrive into `grant`
        pause_briefly();
    }
    queue.close();
}

enum class ErrorKind : std::uint64_t { Input, Limit, Undecided, Interrupted, Memory, Other };

void write_failure(ByteWriter &out, std::uint64_t task, const std::exception_ptr &e) {
    out.number(task);
    if (task == kNone) return;
    auto put = [&](ErrorKind k, std::string_view what, std::string_view file = {},
                   std::string_view place = {}) {
        out.number(static_cast<std::uint64_t>(k));
        out.text(what);
        out.text(file);
        out.text(place);
    };
    try {
        std::rethrow_exception(e);
    } catch (const InputError &x) {
        put(ErrorKind::Input, x.what(), x.file(), x.place());
    } catch (const LimitError &x) {
        put(ErrorKind::Limit, x.what());
    } catch (const Undecided &x) {
        put(ErrorKind::Undecided, x.what());
    } catch (const Interrupted &) {
        put(ErrorKind::Interrupted, "");
    } catch (const std::bad_alloc &) {
        put(ErrorKind::Memory, "");
    } catch (const std::exception &x) {
        put(ErrorKind::Other, x.what());
    } catch (...) {
        put(ErrorKind::Other, "unknown error");
    }
}

[[noreturn]] void throw_failure(ByteReader &in) {
    auto kind = static_cast<ErrorKind>(in.number());
    std::string what = in.text(), file = in.text(), place = in.text();
    switch (kind) {
    case ErrorKind::Input:
        throw InputError(file, place, what);
    case ErrorKind::Limit:
        throw LimitError(what);
    case ErrorKind::Undecided:
        throw Undecided(what);
    case ErrorKind::Interrupted:
        throw Interrupted{};
    case ErrorKind::Memory:
        throw std::bad_alloc();
    default:
        throw std::runtime_error(what);
    }
}

// Every rank's bytes, to every rank: [failed task or kNone, its failure,
// result count, (task, bytes)...].
std::vector<std::string> exchange(const std::string &mine, BudgetedWait &budget) {
    if (mine.size() > static_cast<std::size_t>(INT32_MAX))
        throw LimitError("one rank's task results exceed 2 GiB; use more ranks");
    int size = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(g_size)), offsets(sizes.size());
    MPI_Request request;
    MPI_Iallgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD, &request);
    wait_for(request, budget);
    long long total = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
        offsets[r] = static_cast<int>(total);
        total += sizes[r];
        if (total > INT32_MAX) throw LimitError("the task results exceed 2 GiB; use fewer tasks");
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    MPI_Iallgatherv(mine.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR,
                    MPI_COMM_WORLD, &request);
    wait_for(request, budget);
    std::vector<std::string> parts;
    for (std::size_t r = 0; r < sizes.size(); ++r)
        parts.push_back(
            all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r])));
    return parts;
}

} // namespace

std::string start_ranks(int *argc, char ***argv, const char *program) {
    g_program = program;
    if (launched_ranks() < 1) return "";
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    g_started = true;
    for (int i = 0; i < *argc; ++i)
        g_command_line_digest = fold_digest(g_command_line_digest, (*argv)[i]);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Comm_dup(MPI_COMM_WORLD, &g_exit_comm);
    if (g_rank != 0) { // rank 0 speaks for the job
        // standard error is kept aside in an unlinked file, shown only when
        // this rank ends the job alone (stop_ranks)
        g_stderr = ::dup(2);
        char name[] = "/tmp/tempcert-rank-XXXXXX";
        int aside = ::mkstemp(name);
        if (aside >= 0) ::unlink(name);
        int null = ::open("/dev/null", O_WRONLY);
        if (null >= 0) {
            ::dup2(null, 1);
            ::dup2(aside >= 0 ? aside : null, 2);
            ::close(null);
        }
        if (aside >= 0) ::close(aside);
    }
    return "";
}

void stop_ranks(int exit_code) {
    if (!g_started) return;
    MPI_Request all_here;
    MPI_Ibarrier(g_exit_comm, &all_here);
    const bool consistent = exit_code == 0 || exit_code == 1; // a verdict every rank reached
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    for (int done = 0;;) {
        MPI_Test(&all_here, &done, MPI_STATUS_IGNORE);
        if (done) break;
        if (!consistent && std::chrono::steady_clock::now() > give_up) {
            show_own_errors();
            MPI_Abort(MPI_COMM_WORLD, exit_code);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    MPI_Comm_free(&g_exit_comm);
    MPI_Finalize();
    g_started = false;
}

int rank_index() {
    return g_rank;
}
int rank_count() {
    return g_size;
}

void run_tasks_everywhere(std::size_t count, const Limits &limits,
                          const std::function<void(std::size_t)> &task,
                          const std::function<std::string(std::size_t)> &pack,
                          const std::function<void(std::size_t, ByteReader &)> &unpack,
                          std::atomic<std::uint64_t> *progress) {
    unsigned threads = limits.threads();
    if (!g_started || g_size < 2) return run_tasks(count, threads, task);
    BudgetedWait budget(limits);
    // every rank must have the same tasks: the same count from the same inputs
    const std::uint64_t digest = limits.run ? limits.run->inputs.digest() : 0;
    std::uint64_t mine[3] = {count, digest, g_command_line_digest}, low[3], high[3];
    MPI_Request agreed[2];
    MPI_Iallreduce(mine, low, 3, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD, &agreed[0]);
    MPI_Iallreduce(mine, high, 3, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD, &agreed[1]);
    wait_for(agreed[0], budget);
    wait_for(agreed[1], budget);
    if (low[0] != high[0] || low[1] != high[1] || low[2] != high[2])
        throw InputError("", "mpirun",
                         "the ranks read different inputs (a file differs between them, or "
                         "changed while they read it); every rank must see the same files");
    if (count == 0) return;
    threads = std::max(threads, 1u);
    TaskQueue queue;
    std::atomic<std::size_t> next{0}; // rank 0: the next task not yet handed out
    std::atomic<bool> stop{false};    // rank 0: a task failed somewhere
    auto run_one = [&](std::size_t i) {
        try {
            task(i);
            queue.keep(i, pack(i));
        } catch (...) {
            queue.fail(i, std::current_exception());
        }
    };
    std::vector<std::thread> workers;
    for (unsigned k = 0; k < threads; ++k)
        workers.emplace_back([&] {
            if (g_rank == 0) {
                for (std::size_t i; !stop && !queue.failed() && (i = next.fetch_add(1)) < count;)
                    run_one(i);
            } else {
                for (std::uint64_t i; (i = queue.pop()) != kNone;)
                    run_one(static_cast<std::size_t>(i));
            }
            mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
        });
    std::exception_ptr waiting_failed; // the budget ran out while waiting on other ranks
    try {
        if (g_rank == 0)
            hand_out(count, threads, next, stop, queue, progress, budget);
        else
            ask_for_tasks(threads, queue, progress, budget);
    } catch (...) {
        waiting_failed = std::current_exception();
        stop = true;
        queue.fail(count, waiting_failed); // the workers take no more tasks
    }
    for (auto &w : workers)
        w.join();
    if (waiting_failed) std::rethrow_exception(waiting_failed);

    ByteWriter out;
    write_failure(out, queue.failed_task(), queue.failure());
    out.number(queue.results().size());
    for (auto &[i, bytes] : queue.results()) {
        out.number(i);
        out.text(bytes);
    }
    std::vector<std::string> parts = exchange(out.take(), budget);

    // Failures first: the lowest-numbered task's error, on every rank.
    std::uint64_t lowest = kNone;
    std::size_t lowest_rank = 0;
    for (std::size_t r = 0; r < parts.size(); ++r)
        if (std::uint64_t failed = ByteReader(parts[r]).number(); failed < lowest) {
            lowest = failed;
            lowest_rank = r;
        }
    if (lowest != kNone) {
        ByteReader in(parts[lowest_rank]);
        in.number();
        throw_failure(in);
    }
    // No failure, so each rank's bytes start with kNone alone; then its
    // results: every task must be there exactly once.
    std::vector<std::size_t> ran(count, 0);
    for (std::size_t r = 0; r < parts.size(); ++r) {
        ByteReader in(parts[r]);
        in.number();
        for (std::uint64_t k = 0, results = in.number(); k < results; ++k) {
            std::uint64_t i = in.number();
            if (i >= count) throw std::runtime_error("a rank returned a task that does not exist");
            ++ran[i];
            std::string bytes = in.text();
            if (static_cast<int>(r) == g_rank) continue; // set here already
            ByteReader task_in(bytes);
            unpack(static_cast<std::size_t>(i), task_in);
            if (!task_in.done()) throw std::runtime_error("a task's result has bytes left over");
        }
    }
    for (std::size_t i = 0; i < count; ++i)
        if (ran[i] != 1)
            throw std::runtime_error("task " + std::to_string(i) + " ran " +
                                     std::to_string(ran[i]) + " times across the ranks");
}

} // namespace tempcert::detail
